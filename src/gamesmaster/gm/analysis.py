"""The analysis board: "what if" on any position, adjudicated by a game's rules, recorded nowhere.

A board is a document in the form `gamesmaster adjudicate` reads (docs/adjudicate.md):
variant, rules, phase, units, centres, dislodged units and standoffs, with the orders
either by power or as one text, a line an order, in any notation the reader takes; a
line that is only a power's name and a colon (`England:`) makes the lines under it that
power's. An order's power is otherwise its unit's owner, so orders for every power can
be written one under another. Everything in it comes from outside and is bounded before
it is read: the document's size, the number of order lines and their length.

A board made from a game starts from the published position only: the start of the phase
under way (never an order on record for it) or of a phase already published.
"""

from __future__ import annotations

import json
import re
from collections import abc
from dataclasses import dataclass
from typing import Any, Mapping

from ..rules import Adjudication, Build, Outcome, OptionError, Position, PositionError, RuleOptions, adjudicate, parse_order
from ..rules.control import control
from ..rules.notation import Reading as OrderReading
from ..rules.position import power_id
from ..variants import VariantError, load_rules, load_variant
from .board import Board
from .errors import GMError
from .submissions import legal_orders_in
from .views import LegalOrders

MAX_BOARD_CHARS = 24_000  # a whole standard board with every unit ordered is about 2,000
MAX_ORDER_LINES = 120  # the most units any variant's board holds, with room for builds
MAX_LINE_CHARS = 200
_LABEL = re.compile(r"^([A-Za-z][A-Za-z .\-]{0,30}):\s*\S")  # "France: A Par - Bur"
_FIELDS = frozenset({"variant", "rules", "phase", "units", "centers", "dislodged", "standoffs", "orders",
                     "raids", "destroyed", "neutral"})


class BoardError(GMError):
    """A board that cannot be read; the message names what was wrong."""


@dataclass(frozen=True)
class Analysed:
    """A board adjudicated: the position with every order's outcome drawn, the next position, and each power's legal orders."""

    board: Board  # the position, its orders and their outcomes
    after: Board  # the position they lead to
    adjudication: Adjudication
    unread: tuple[Outcome, ...]  # lines that named no unit of any power (invalid, with the reason)
    doc: Mapping[str, Any]  # the board as given, orders included (for a link that reopens it)

    def legal(self) -> tuple[LegalOrders, ...]:
        """Every power's legal orders in the position (for ordering by tapping; the API does without)."""
        position, options = self.board.position, self.board.rules
        return tuple(legal_orders_in(position, p, options) for p in position.variant.powers)

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        """Every order line's outcome: those adjudicated, then those that could not be read."""
        return self.adjudication.outcomes + self.unread


def bounded(doc: Any) -> Mapping[str, Any]:
    """The board document, refused (BoardError naming why) when it is not an object or is too big."""
    if not isinstance(doc, abc.Mapping):
        raise BoardError(f"a board must be a JSON object, not {type(doc).__name__}")
    unknown = set(doc) - _FIELDS
    if unknown:
        raise BoardError(f"unknown field{'s' if len(unknown) > 1 else ''}: {', '.join(sorted(map(str, unknown)))[:200]}")
    size = len(json.dumps(doc, separators=(",", ":")))
    if size > MAX_BOARD_CHARS:
        raise BoardError(f"the board is {size} characters: at most {MAX_BOARD_CHARS}")
    return doc


def _order_lines(orders: Any, position: Position) -> list[tuple[str | None, str]]:
    """The order lines with the power each is written under (None: its unit's owner), bounded."""
    if orders is None:
        return []
    lines: list[tuple[str | None, str]] = []
    if isinstance(orders, str):
        power: str | None = None
        for raw in orders.splitlines():
            line = raw.strip()
            if not line:
                continue
            if line.endswith(":") and len(line) < 40:
                try:
                    power = power_id(position.variant, line[:-1].strip())
                    continue
                except PositionError:
                    pass
            label = _LABEL.match(line)
            try:
                lines.append((power_id(position.variant, label.group(1)) if label else power, line))
            except PositionError:
                lines.append((power, line))
    elif isinstance(orders, abc.Mapping):
        for name, texts in orders.items():
            if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
                raise BoardError(f"orders of {str(name)[:40]} must be a list of strings")
            try:
                who = power_id(position.variant, name)
            except PositionError as exc:
                raise BoardError(f"orders: {exc}") from None
            lines += [(who, t.strip()) for t in texts if t.strip()]
    else:
        raise BoardError("orders must be a text, one order a line, or an object of lists by power")
    if len(lines) > MAX_ORDER_LINES:
        raise BoardError(f"{len(lines)} order lines: at most {MAX_ORDER_LINES}")
    long = next((t for _, t in lines if len(t) > MAX_LINE_CHARS), None)
    if long is not None:
        raise BoardError(f"an order line of {len(long)} characters ({long[:30]}...): at most {MAX_LINE_CHARS}")
    return lines


def _power_of(reading: OrderReading) -> str | None:
    order = reading.order
    return getattr(order, "power", None) if order is not None else None


def _build_of_any(line: str, position: Position, options: RuleOptions) -> OrderReading | None:
    """A build written without its power ("Build F Bre"): read for the power whose home centre it names."""
    for power in position.variant.powers:
        reading = parse_order(line, position, power, options)
        if isinstance(reading.order, Build) and reading.ok:
            return reading
    return None


def analyse(doc: Any) -> Analysed:
    """Adjudicate a board document: outcomes, the next position and both boards (BoardError names bad input)."""
    doc = bounded(doc)
    try:
        name = doc.get("variant", "standard")
        if not isinstance(name, str):
            raise BoardError("variant must be a variant's name, such as \"standard\"")
        variant = load_variant(name)
        options = load_rules(doc.get("rules"), default=variant.default_rules)
        position = Position.from_dict(variant, doc)
    except (VariantError, OptionError, PositionError) as exc:
        raise BoardError(str(exc)) from None
    by_power: dict[str, list[OrderReading]] = {}
    unread: list[Outcome] = []
    for power, line in _order_lines(doc.get("orders"), position):
        reading = parse_order(line, position, power, options)
        if power is None and reading.order is None and position.phase.is_adjustment:
            reading = _build_of_any(line, position, options) or reading
        owner = power or _power_of(reading)
        if owner is None:
            unread.append(Outcome("", line, None, "invalid", reading.error or "names no unit on the board"))
        else:
            by_power.setdefault(owner, []).append(reading)
    result = adjudicate(position, by_power, options)
    tag = json.dumps(doc, sort_keys=True)
    return Analysed(what_if_board(position, options, result.outcomes + tuple(unread), "as ordered", tag),
                    what_if_board(result.next, options, None, "after", tag, (position,)), result, tuple(unread), doc)


def what_if_board(position: Position, options: RuleOptions, outcomes: tuple[Outcome, ...] | None, what: str,
                  tag: str, before: tuple[Position, ...] = ()) -> Board:
    """A board of a what-if position, `tag` naming the board it comes from (control from this
    position and the one before it only: a what-if has no history)."""
    return Board("", position, options, control(before + (position,)), f"Analysis: {position.phase.title}, {what}",
                 outcomes, ("analysis", what, tag))


def fresh_board(variant_name: str = "standard") -> dict[str, Any]:
    """The board document of a variant's starting position (BoardError for an unknown variant)."""
    try:
        variant = load_variant(variant_name)
    except VariantError as exc:
        raise BoardError(str(exc)) from None
    doc = Position.initial(variant).to_dict()
    return {"variant": doc.pop("variant"), "rules": variant.default_rules, **doc}
