"""The machine interface of the rules engine: one JSON phase in, its outcome out."""

from __future__ import annotations

import json
from typing import Any, Mapping

from .rules import OptionError, Position, PositionError, adjudicate
from .rules.position import power_id
from .variants import VariantError, load_rules, load_variant


class InputError(ValueError):
    """Input that is not a phase the engine can adjudicate; the message names the problem."""


def _by_power(units: Any) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for unit in units:
        out.setdefault(unit.power, []).append(str(unit))
    return out


def adjudicate_document(doc: Any) -> dict[str, Any]:
    """Adjudicate one `gamesmaster adjudicate` input document and return the output document."""
    if not isinstance(doc, Mapping):
        raise InputError(f"the input must be a JSON object, not {type(doc).__name__}")
    unknown = set(doc) - {"variant", "rules", "phase", "units", "centers", "dislodged", "standoffs", "orders",
                          "raids", "destroyed", "neutral"}
    if unknown:
        raise InputError(f"unknown field{'s' if len(unknown) > 1 else ''}: {', '.join(sorted(unknown))}")
    try:
        name = doc.get("variant", "standard")
        if not isinstance(name, str):
            raise InputError(f"variant must be a name such as \"standard\", not {json.dumps(name)[:40]}")
        variant = load_variant(name)
        options = load_rules(doc.get("rules"), default=variant.default_rules)
        position = Position.from_dict(variant, doc)
        orders_doc = doc.get("orders", {}) or {}
        if not isinstance(orders_doc, Mapping):
            raise InputError("orders must be an object keyed by power")
        orders: dict[str, list[str]] = {}
        for name, texts in orders_doc.items():
            power = power_id(variant, name)
            if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
                raise InputError(f"orders of {power} must be a list of strings")
            orders.setdefault(power, []).extend(texts)
    except (VariantError, OptionError, PositionError) as exc:
        raise InputError(str(exc)) from None
    result = adjudicate(position, orders, options)
    rules_out: Any = doc.get("rules", options.preset)
    nxt = result.next.to_dict()
    nxt["rules"] = rules_out
    dislodged: dict[str, list[dict[str, Any]]] = {}
    for d in result.dislodged:
        entry = {"unit": str(d.unit), "attacker": d.attacker, "retreats": [str(r) for r in d.retreats or ()]}
        if d.convoyed:
            entry["convoyed"] = True
        dislodged.setdefault(d.unit.power, []).append(entry)
    return {
        "phase": str(position.phase),
        "orders": [o.as_dict() for o in result.outcomes],
        "dislodged": dislodged,
        "next": {"variant": nxt.pop("variant"), "rules": nxt.pop("rules"), **nxt},
        "winner": result.winner,
        **({"ended": True} if result.ended else {}),
        **({"civil_disorder_removals": _by_power(result.removed)} if result.removed else {}),
        **({"waiting": dict(result.waiting)} if result.waiting else {}),
    }
