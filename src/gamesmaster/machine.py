"""The machine interface of the rules engine: one JSON phase in, its outcome out.

`adjudicate_json` writes the output document as JSON text directly: each outcome is
written from its fields, not built as a dictionary and encoded again (a door runs it
thousands of times a second). `adjudicate_document` is the same document as a
dictionary.
"""

from __future__ import annotations

import json
from collections import abc  # isinstance against typing's aliases is several times slower
from json.encoder import encode_basestring as _text  # a string as JSON, non-ASCII kept (C)
from typing import Any

from .rules import Adjudication, Outcome, OptionError, Position, PositionError, RuleOptions, adjudicate, format_order
from .rules.position import power_id
from .variants import VariantError, load_rules, load_variant

_FIELDS = frozenset({"variant", "rules", "phase", "units", "centers", "dislodged", "standoffs", "orders",
                     "raids", "destroyed", "neutral"})


class InputError(ValueError):
    """Input that is not a phase the engine can adjudicate; the message names the problem."""


_dumps = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps would build an encoder at every call


def read_input(doc: Any) -> tuple[Position, dict[str, list[str]], RuleOptions]:
    """The position, the orders by power and the rules of an input document (InputError names a problem)."""
    if not isinstance(doc, abc.Mapping):
        raise InputError(f"the input must be a JSON object, not {type(doc).__name__}")
    if not _FIELDS.issuperset(doc):
        unknown = set(doc) - _FIELDS
        raise InputError(f"unknown field{'s' if len(unknown) > 1 else ''}: {', '.join(sorted(unknown))}")
    try:
        name = doc.get("variant", "standard")
        if not isinstance(name, str):
            raise InputError(f"variant must be a name such as \"standard\", not {json.dumps(name)[:40]}")
        variant = load_variant(name)
        options = load_rules(doc.get("rules"), default=variant.default_rules)
        position = Position.from_dict(variant, doc)
        orders_doc = doc.get("orders", {}) or {}
        if not isinstance(orders_doc, abc.Mapping):
            raise InputError("orders must be an object keyed by power")
        orders: dict[str, list[str]] = {}
        for name, texts in orders_doc.items():
            power = power_id(variant, name)
            if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
                raise InputError(f"orders of {power} must be a list of strings")
            orders.setdefault(power, []).extend(texts)
    except (VariantError, OptionError, PositionError) as exc:
        raise InputError(str(exc)) from None
    return position, orders, options


def adjudicate_json(doc: Any) -> str:
    """Adjudicate one `gamesmaster adjudicate` input document; the output document as JSON text
    (exactly as json.dumps(adjudicate_document(doc), ensure_ascii=False) would write it)."""
    position, orders, options = read_input(doc)
    result = adjudicate(position, orders, options)
    return write_output(result, doc.get("rules", options.preset))


def adjudicate_document(doc: Any) -> dict[str, Any]:
    """Adjudicate one `gamesmaster adjudicate` input document and return the output document."""
    out: dict[str, Any] = json.loads(adjudicate_json(doc))
    return out


def _outcome(o: Outcome) -> str:
    order = o.order
    notes = f', "notes": [{", ".join(map(_text, o.notes))}]' if o.notes else ""
    return (f'{{"power": {_text(o.power)}, "text": {_text(o.text)}, '
            f'"order": {"null" if order is None else _text(format_order(order))}, '
            f'"result": "{o.result}", "reason": {_text(o.reason)}{notes}}}')


def write_output(result: Adjudication, rules: Any) -> str:
    """The output document of an adjudication as JSON text; `rules` as the input gave them."""
    dislodged: dict[str, list[dict[str, Any]]] = {}
    for d in result.dislodged:
        entry: dict[str, Any] = {"unit": str(d.unit), "attacker": d.attacker,
                                 "retreats": [str(r) for r in d.retreats or ()]}
        if d.convoyed:
            entry["convoyed"] = True
        dislodged.setdefault(d.unit.power, []).append(entry)
    nxt = result.next.to_dict()
    nxt = {"variant": nxt.pop("variant"), "rules": rules, **nxt}
    text = (f'{{"phase": "{result.position.phase}", "orders": [{", ".join(map(_outcome, result.outcomes))}], '
            f'"dislodged": {_dumps(dislodged)}, "next": {_dumps(nxt)}, "winner": {_dumps(result.winner)}')
    if result.ended:
        text += ', "ended": true'
    if result.removed:
        removed: dict[str, list[str]] = {}
        for unit in result.removed:
            removed.setdefault(unit.power, []).append(str(unit))
        text += f', "civil_disorder_removals": {_dumps(removed)}'
    if result.waiting:
        text += f', "waiting": {_dumps(dict(result.waiting))}'
    return text + "}"
