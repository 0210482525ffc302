"""Conditional orders for the next season (Brobdingnag playing procedure 6).

With this season's orders a player may file orders for the next season that apply only
if named outcomes happen. The syntax, after this season's orders:

    next season:
    if A Mun - Bur succeeds:
        A Bur - Par
        A Kie - Mun
    if A Mun - Bur fails and F Kie - Den succeeds:
        A Mun - Bur
    otherwise:
        A Mun H

- `next season:` (or `next:`) on a line of its own starts the conditional part.
- `if CONDITION:` starts a clause, `otherwise:` the clause taken when no `if` holds. The
  orders of a clause follow, one a line (or after the colon, separated by `;`).
- A CONDITION is one or more tests joined by `and`:
  `ORDER succeeds`, `ORDER fails`, `UNIT is dislodged`, `UNIT is not dislodged`.
  ORDER is any order as players write it, of any power ("Russian A War - Gal"); it
  succeeds when exactly that order was given this season and succeeded, and fails
  otherwise (also when it was not given). UNIT is a unit on the board now ("A Mun").
- The first clause whose condition holds gives the orders; none holds and no
  `otherwise`: no conditional orders.

The chosen orders become the power's orders for the next movement phase when this
season is adjudicated (retreats and adjustments in between are ordered as usual). Orders
sent for that phase afterwards replace them, like any later set of orders.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from ..rules import Position, RuleOptions, format_order, parse_order
from .errors import GMError

_NEXT = re.compile(r"^\s*next(\s+season)?\s*:\s*$", re.IGNORECASE)
_IF = re.compile(r"^\s*(?:if|else\s+if|elif)\s+(.+?)\s*:\s*(.*)$", re.IGNORECASE | re.S)
_OTHERWISE = re.compile(r"^\s*(?:otherwise|else)\s*:\s*(.*)$", re.IGNORECASE | re.S)
_TEST = re.compile(r"^(.+?)\s+(succeeds|succeed|fails|fail|is\s+dislodged|is\s+not\s+dislodged)$", re.IGNORECASE)


@dataclass(frozen=True)
class Test:
    """One test of a condition: an order succeeded or failed, a unit was dislodged or not."""

    subject: str  # the canonical order or unit ('A MUN - BUR', 'A MUN')
    kind: str  # succeeds, fails, dislodged, not-dislodged
    written: str

    def holds(self, outcomes: Iterable[tuple[str | None, str]], dislodged: Iterable[str]) -> bool:
        if self.kind in ("dislodged", "not-dislodged"):
            hit = self.subject in set(dislodged)
            return hit if self.kind == "dislodged" else not hit
        succeeded = any(order == self.subject and result == "succeeds" for order, result in outcomes)
        return succeeded if self.kind == "succeeds" else not succeeded


@dataclass(frozen=True)
class Clause:
    """`if CONDITION:` (tests all true) or `otherwise:` (no tests) and its orders."""

    tests: tuple[Test, ...]
    orders: tuple[str, ...]
    label: str  # as written, for the player: 'if A Mun - Bur succeeds'


@dataclass(frozen=True)
class Conditional:
    """The clauses of a conditional filing, in order."""

    clauses: tuple[Clause, ...]

    def choose(self, outcomes: Iterable[tuple[str | None, str]], dislodged: Iterable[str]) -> Clause | None:
        """The first clause whose condition holds (outcomes: (canonical order, result) pairs)."""
        outcomes = list(outcomes)
        dislodged = list(dislodged)
        for clause in self.clauses:
            if all(t.holds(outcomes, dislodged) for t in clause.tests):
                return clause
        return None


def split_submission(text: str) -> tuple[list[str], str | None]:
    """This season's order lines, and the conditional part (None if there is none)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for i, line in enumerate(lines):
        if _NEXT.match(line):
            rest = "\n".join(lines[i + 1:]).strip()
            return order_lines("\n".join(lines[:i])), rest or None
    return order_lines(text), None


def order_lines(text: str) -> list[str]:
    """Orders one a line (or separated by ';'); blank lines and '#' comments dropped."""
    out = []
    for line in text.replace("\r", "\n").split("\n"):
        line = line.split("#", 1)[0]
        for part in line.split(";"):
            part = part.strip().strip(",").strip()
            if part:
                out.append(part)
    return out


def parse_conditional(text: str, position: Position, power: str, options: RuleOptions) -> Conditional:
    """Read the conditional part against this season's position; GMError names a bad line."""
    items: list[str] = []
    for line in text.replace("\r", "\n").split("\n"):
        line = line.split("#", 1)[0]
        items.extend(p.strip() for p in line.split(";") if p.strip())
    clauses: list[Clause] = []
    current: tuple[tuple[Test, ...], str] | None = None
    orders: list[str] = []

    def close() -> None:
        if current is not None:
            clauses.append(Clause(current[0], tuple(orders), current[1]))

    for item in items:
        m_if, m_else = _IF.match(item), _OTHERWISE.match(item)
        if m_if or m_else:
            close()
            orders = []
            if m_if:
                cond = m_if.group(1)
                current = (tuple(_test(t, position, options) for t in re.split(r"\s+and\s+", cond, flags=re.I)),
                           f"if {cond}")
                first = m_if.group(2)
            else:
                if any(not c.tests for c in clauses):
                    raise GMError("conditional orders: two 'otherwise' clauses")
                current = ((), "otherwise")
                first = m_else.group(1)  # type: ignore[union-attr]
            if first.strip():
                orders.append(first.strip())
            continue
        if current is None:
            raise GMError(f"conditional orders: {item!r} comes before any 'if ...:' or 'otherwise:'")
        orders.append(item)
    close()
    if not clauses:
        raise GMError("conditional orders: 'next season:' is followed by no 'if ...:' or 'otherwise:' clause")
    for i, c in enumerate(clauses):
        if not c.tests and i != len(clauses) - 1:
            raise GMError("conditional orders: 'otherwise:' must be the last clause")
    return Conditional(tuple(clauses))


def _test(text: str, position: Position, options: RuleOptions) -> Test:
    m = _TEST.match(text.strip())
    if not m:
        raise GMError(f"conditional orders: cannot read the test {text.strip()!r}: write 'ORDER succeeds', "
                      "'ORDER fails', 'UNIT is dislodged' or 'UNIT is not dislodged'")
    subject, verb = m.group(1).strip(), re.sub(r"\s+", " ", m.group(2).lower())
    if verb in ("is dislodged", "is not dislodged"):
        unit = _unit(subject, position)
        return Test(unit, "dislodged" if verb == "is dislodged" else "not-dislodged", text.strip())
    reading = parse_order(subject, position, None, options)
    if reading.order is None or (reading.error and "ambiguous" in reading.error):
        raise GMError(f"conditional orders: cannot read the order {subject!r} in {text.strip()!r}: "
                      f"{reading.error or 'unreadable'}")
    kind = "succeeds" if verb.startswith("succeed") else "fails"
    return Test(format_order(reading.order), kind, text.strip())


def _unit(text: str, position: Position) -> str:
    reading = parse_order(f"{text} H", position, None)
    if reading.order is not None and hasattr(reading.order, "unit"):
        return str(reading.order.unit)  # type: ignore[union-attr]
    raise GMError(f"conditional orders: no unit {text!r} on the board")


def evaluate(conditional: Conditional, results: Sequence[Mapping[str, Any]], dislodged: Iterable[str]) -> Clause | None:
    """The clause chosen by a phase's results (as stored: dicts with 'order' and 'result')."""
    return conditional.choose(((r.get("order"), r.get("result", "")) for r in results), dislodged)


__all__ = ["Clause", "Conditional", "Test", "evaluate", "order_lines", "parse_conditional", "split_submission"]
