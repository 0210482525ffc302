"""Conditional orders (Brobdingnag playing procedure 6): orders for a later phase that apply
only if named outcomes happen.

With a phase's orders a player may file, for any later phase of the same year (and the
next movement phase, which after Fall is next year's Spring), orders chosen by what
happens. After the phase's own orders, a header line names the phase; clauses follow:

    retreats:
    if A Mun is dislodged: A Mun R Boh
    next season:
    if A Mun - Bur succeeds:
        A Bur - Par
    otherwise:
        A Mun H
    adjustments:
    if Bel changes hands: A Mun B
    if Bel is owned by France and A Mun - Bur fails: F Kie B

Headers: `next season:` (or `next:`: the next movement phase), `retreats:` (this season's
retreats), `fall:`, `fall retreats:`, `adjustments:` (or `builds:`, `winter:`), or any
phase by tag or in words, with or without `for` (`for F1901R:`, `Fall 1901 retreats:`).

A CONDITION is tests joined by `and`, read against the phase the orders are filed with:
`ORDER succeeds`, `ORDER fails` (any power's order as written, "Russian A War - Gal"; it
fails also when it was not given), `UNIT is dislodged`, `UNIT is not dislodged` (a unit
on the board now), and on supply centres as they stand when the phase ordered for
begins: `CENTRE changes hands`, `CENTRE does not change hands`, `CENTRE is owned by
POWER`, `CENTRE is not owned by POWER`. The first clause whose condition holds gives the
orders; `otherwise:` (last) is taken when none holds.

Everything is read when the orders are filed; what cannot be read is refused then, with
the line named. Pure functions of their arguments: no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from .notation import format_order, name_index, parse_order
from .options import RuleOptions
from .phase import Phase, PhaseError
from .position import Position

_IF = re.compile(r"^\s*(?:if|else\s+if|elif)\s+(.+?)\s*:\s*(.*)$", re.IGNORECASE | re.S)
_OTHERWISE = re.compile(r"^\s*(?:otherwise|else)\s*:\s*(.*)$", re.IGNORECASE | re.S)
_HEADER = re.compile(r"^\s*(?:orders\s+)?(?:for\s+)?(.+?)\s*:\s*$", re.IGNORECASE)
_TEST = re.compile(r"^(.+?)\s+(succeeds|succeed|fails|fail|is\s+dislodged|is\s+not\s+dislodged|changes\s+hands|"
                   r"does\s+not\s+change\s+hands|is\s+owned\s+by\s+\S.*|is\s+not\s+owned\s+by\s+\S.*)$", re.IGNORECASE)
_SEASONS = {"S": 0, "F": 1, "W": 2}
_KINDS = {"M": 0, "R": 1, "A": 2}
_WORDS = {  # header words -> (season relative to the filing phase or fixed, kind)
    "next season": "next", "next": "next", "next move": "next", "next movement": "next",
    "retreats": "this-R", "retreat": "this-R", "this season's retreats": "this-R", "retreats this season": "this-R",
    "fall": "FM", "autumn": "FM", "fall movement": "FM", "fall moves": "FM", "autumn movement": "FM",
    "spring retreats": "SR", "fall retreats": "FR", "autumn retreats": "FR",
    "adjustments": "WA", "builds": "WA", "winter": "WA", "builds and removals": "WA", "removals": "WA",
    "winter adjustments": "WA", "winter builds": "WA",
}
_TITLE = re.compile(r"^(spring|fall|autumn|winter)\s+(\d{3,5})\s*(movement|moves?|retreats?|adjustments?|builds?)?$",
                    re.IGNORECASE)


class ConditionalError(ValueError):
    """Conditional orders that cannot be read; the message names the line and what is wrong."""


def order_key(phase: Phase) -> tuple[int, int, int]:
    """Where a phase falls in the game's course, for comparing phases."""
    return (phase.year, _SEASONS[phase.season], _KINDS[phase.kind])


def next_movement(phase: Phase) -> Phase:
    """The first movement phase after this one."""
    nxt = phase.following()
    while not nxt.is_movement:
        nxt = nxt.following()
    return nxt


def may_order_for(filed: Phase, target: Phase) -> bool:
    """Whether conditional orders filed with one phase may be for another: a later phase of the
    same year, or the next movement phase."""
    return order_key(target) > order_key(filed) and (target.year == filed.year or target == next_movement(filed))


@dataclass(frozen=True)
class Test:
    """One test of a condition."""

    kind: str  # succeeds, fails, dislodged, not-dislodged, changes-hands, same-hands, owned-by, not-owned-by
    subject: str  # the canonical order, unit or supply centre ('A MUN - BUR', 'A MUN', 'BEL')
    power: str | None  # owned-by tests: the power
    written: str

    def holds(self, facts: "Facts") -> bool:
        """Whether the test holds on these facts."""
        if self.kind in ("succeeds", "fails"):
            return (self.subject in facts.succeeded) == (self.kind == "succeeds")
        if self.kind in ("dislodged", "not-dislodged"):
            return (self.subject in facts.dislodged) == (self.kind == "dislodged")
        before, now = facts.centres_then.get(self.subject), facts.centres_now.get(self.subject)
        if self.kind in ("changes-hands", "same-hands"):
            return (before != now) == (self.kind == "changes-hands")
        return (now == self.power) == (self.kind == "owned-by")

    def to_dict(self) -> dict[str, Any]:
        """JSON for the ledger."""
        return {"kind": self.kind, "subject": self.subject, "power": self.power, "written": self.written}


@dataclass(frozen=True)
class Clause:
    """`if CONDITION:` (every test holds) or `otherwise:` (no tests), and its orders."""

    tests: tuple[Test, ...]
    orders: tuple[str, ...]
    label: str  # as written, for the player: 'if A Mun - Bur succeeds'


@dataclass(frozen=True)
class Section:
    """The clauses filed for one later phase."""

    phase: str  # the phase they are for ('F1901R')
    header: str  # as written
    clauses: tuple[Clause, ...]

    def choose(self, facts: "Facts") -> Clause | None:
        """The first clause whose condition holds (None: no clause holds and there is no otherwise)."""
        return next((c for c in self.clauses if all(t.holds(facts) for t in c.tests)), None)

    def to_dict(self) -> dict[str, Any]:
        """JSON for the ledger."""
        return {"phase": self.phase, "header": self.header,
                "clauses": [{"label": c.label, "orders": list(c.orders), "tests": [t.to_dict() for t in c.tests]}
                            for c in self.clauses]}

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> "Section":
        """Read to_dict's form."""
        clauses = tuple(Clause(tuple(Test(t["kind"], t["subject"], t.get("power"), t["written"]) for t in c["tests"]),
                               tuple(c["orders"]), c["label"]) for c in doc["clauses"])
        return cls(doc["phase"], doc["header"], clauses)


@dataclass(frozen=True)
class Facts:
    """What conditions are tested on: the filing phase's outcomes, the centres then and when the phase ordered for begins."""

    succeeded: frozenset[str]  # canonical orders that succeeded
    dislodged: frozenset[str]  # units dislodged ('A MUN')
    centres_then: Mapping[str, str]  # supply centre -> owner, when the orders were filed
    centres_now: Mapping[str, str]

    @classmethod
    def of(cls, results: Iterable[Mapping[str, Any]], dislodged: Iterable[str], centres_then: Mapping[str, str],
           centres_now: Mapping[str, str]) -> "Facts":
        """From a phase's results as recorded (dicts with 'order' and 'result')."""
        won = frozenset(str(r["order"]) for r in results if r.get("order") and r.get("result") == "succeeds")
        return cls(won, frozenset(dislodged), dict(centres_then), dict(centres_now))


def is_header(line: str) -> bool:
    """Whether a line names a later phase (starting conditional orders for it)."""
    m = _HEADER.match(line)
    if not m or _IF.match(line) or _OTHERWISE.match(line):
        return False
    return _header_words(m.group(1)) is not None


def _header_words(text: str) -> str | None:
    words = " ".join(text.lower().replace("’", "'").split())
    if words in _WORDS:
        return _WORDS[words]
    try:
        Phase.parse(words.upper())
        return words.upper()
    except PhaseError:
        pass
    m = _TITLE.match(words)
    if not m:
        return None
    season = "W" if m.group(1) == "winter" else "S" if m.group(1) == "spring" else "F"
    what = (m.group(3) or ("adjustments" if season == "W" else "movement"))[0]
    kind = {"m": "M", "r": "R", "a": "A", "b": "A"}[what]
    return f"{season}{m.group(2)}{kind}"


def target_of(header: str, filed: Phase) -> Phase:
    """The phase a header line names, from the phase the orders are filed with."""
    m = _HEADER.match(header)
    code = _header_words(m.group(1)) if m else None
    if code is None:
        raise ConditionalError(f"conditional orders: {header.strip()!r} names no phase")
    if code == "next":
        target = next_movement(filed)
    elif code == "this-R":
        target = Phase(filed.season, filed.year, "R")
    elif len(code) == 2:
        target = Phase(code[0], filed.year, code[1])
    else:
        try:
            target = Phase.parse(code)
        except PhaseError as exc:
            raise ConditionalError(f"conditional orders: {header.strip()!r}: {exc}") from None
    if not may_order_for(filed, target):
        raise ConditionalError(f"conditional orders: {header.strip()!r} is {target.title}; conditional orders filed "
                               f"in {filed.title} are for a later phase of {filed.year} or the next movement phase")
    return target


def split_submission(text: str) -> tuple[list[str], str | None]:
    """A phase's own order lines, and the conditional part from its first header (None if there is none)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for i, line in enumerate(lines):
        if is_header(line.split("#", 1)[0]):
            rest = "\n".join(lines[i:]).strip()
            return order_lines("\n".join(lines[:i])), rest
    return order_lines(text), None


def pieces(text: str) -> list[str]:
    """The orders and headings of a text as every reader splits them: one a line (LF, CR or CR LF) or
    separated by ';', a heading line whole; blank pieces and '#' comments dropped. What counts against
    the limit on a set of orders (gm.limits) is this list."""
    out: list[str] = []
    for line in text.replace("\r", "\n").split("\n"):
        line = line.split("#", 1)[0]
        if is_header(line):
            out.append(line.strip())
            continue
        out.extend(p.strip() for p in line.split(";") if p.strip())
    return out


def order_lines(text: str) -> list[str]:
    """Orders one a line (or separated by ';'); blank lines and '#' comments dropped."""
    return [p for p in (piece.strip(",").strip() for piece in pieces(text)) if p]


def read_sections(text: str, position: Position, options: RuleOptions) -> tuple[Section, ...]:
    """Read the conditional part (from its first header) against the position it is filed in."""
    items = pieces(text)
    sections: list[Section] = []
    target: tuple[Phase, str] | None = None
    clauses: list[Clause] = []
    current: tuple[tuple[Test, ...], str] | None = None
    orders: list[str] = []
    bare = False  # the section's orders so far were written straight under its heading

    def close_clause() -> None:
        if current is not None:
            clauses.append(Clause(current[0], tuple(orders), current[1]))

    def close_section() -> None:
        if target is None:
            return
        close_clause()
        if not clauses:
            raise ConditionalError(f"conditional orders: {target[1]!r} is followed by no 'if ...:' or 'otherwise:'")
        for i, c in enumerate(clauses):
            if not c.tests and i != len(clauses) - 1:
                raise ConditionalError(f"conditional orders for {target[0].title}: 'otherwise:' must be the last clause")
        sections.append(Section(str(target[0]), target[1], tuple(clauses)))

    for item in items:
        if is_header(item):
            close_section()
            phase = target_of(item, position.phase)
            if any(s.phase == str(phase) for s in sections):
                raise ConditionalError(f"conditional orders: {item!r} names {phase.title} a second time; "
                                       "write all its clauses under one heading")
            target, clauses, current, orders, bare = (phase, item), [], None, [], False
            continue
        if target is None:
            raise ConditionalError(f"conditional orders: {item!r} comes before any heading such as 'next season:'")
        m_if, m_else = _IF.match(item), _OTHERWISE.match(item)
        if (m_if or m_else) and bare:
            raise ConditionalError(f"conditional orders: {item!r} follows orders written straight under {target[1]!r}, "
                                   "which are for every case; put those under 'otherwise:', the last clause")
        if m_if or m_else:
            close_clause()
            orders = []
            if m_if:
                cond = m_if.group(1)
                current = (tuple(_test(t, position, options) for t in re.split(r"\s+and\s+", cond, flags=re.I)),
                           f"if {cond}")
                first = m_if.group(2)
            else:
                assert m_else is not None
                current = ((), "otherwise")
                first = m_else.group(1)
            for part in first.split(";"):
                if part.strip():
                    orders.append(_clause_order(part.strip(), position))
            continue
        if current is None:
            # orders straight under a heading are the player's orders for that phase whatever happens
            # (a retreat or build ordered in advance): as under 'otherwise:' alone
            current, bare = ((), "otherwise"), True
        orders.append(_clause_order(item, position))
    close_section()
    if not sections:
        raise ConditionalError("conditional orders: no heading such as 'next season:' names the phase they are for")
    return tuple(sections)


def _clause_order(text: str, position: Position) -> str:
    """An order of a clause: read when its phase comes; here it must at least name a place on the map."""
    if text.rstrip().endswith(":"):
        raise ConditionalError(f"conditional orders: cannot read {text!r}: it is neither a heading, "
                               "an 'if ...:' or 'otherwise:' clause, nor an order")
    index = name_index(position)
    words = [w for w in re.split(r"[^a-z0-9]+", text.lower()) if w]
    if text.strip().lower() in ("waive", "hold all", "all hold") or any(index.provinces((w,)) for w in words):
        return text
    raise ConditionalError(f"conditional orders: cannot read the order {text!r}: it names no place on the map")


def _test(text: str, position: Position, options: RuleOptions) -> Test:
    written = text.strip()
    m = _TEST.match(written)
    if not m:
        raise ConditionalError(
            f"conditional orders: cannot read the test {written!r}: write 'ORDER succeeds', 'ORDER fails', "
            "'UNIT is dislodged', 'UNIT is not dislodged', 'CENTRE changes hands', 'CENTRE does not change hands' "
            "or 'CENTRE is owned by POWER'")
    subject, verb = m.group(1).strip(), " ".join(m.group(2).lower().split())
    if verb in ("is dislodged", "is not dislodged"):
        return Test("dislodged" if verb == "is dislodged" else "not-dislodged", _unit(subject, position), None, written)
    if verb in ("changes hands", "does not change hands"):
        return Test("changes-hands" if verb == "changes hands" else "same-hands", _centre(subject, position), None,
                    written)
    if verb.startswith(("is owned by", "is not owned by")):
        negated = verb.startswith("is not")
        named = verb.split(" by ", 1)[1]
        power = name_index(position).power(tuple(named.split()))
        if power is None:
            raise ConditionalError(f"conditional orders: in {written!r}, {named!r} is no power of the game")
        return Test("not-owned-by" if negated else "owned-by", _centre(subject, position), power, written)
    reading = parse_order(subject, position, None, options)
    if reading.order is None or (reading.error and "ambiguous" in reading.error):
        raise ConditionalError(f"conditional orders: cannot read the order {subject!r} in {written!r}: "
                               f"{reading.error or 'unreadable'}")
    kind = "succeeds" if verb.startswith("succeed") else "fails"
    return Test(kind, format_order(reading.order), None, written)


def _unit(text: str, position: Position) -> str:
    reading = parse_order(f"{text} H", position, None) if position.phase.is_movement else None
    unit = getattr(reading.order, "unit", None) if reading is not None else None
    if unit is not None:
        return str(unit)
    raise ConditionalError(f"conditional orders: {text!r} is no unit on the board in {position.phase.title}")


def _centre(text: str, position: Position) -> str:
    words = tuple(text.lower().split())
    hits = name_index(position).provinces(words) if words else set()
    centres = {p for p in hits if position.map.provinces[p].supply_centre}
    if len(centres) != 1:
        raise ConditionalError(f"conditional orders: {text!r} is no supply centre of the map")
    return centres.pop()


__all__ = ["Clause", "ConditionalError", "Facts", "Section", "Test", "is_header", "may_order_for", "next_movement",
           "order_key", "order_lines", "pieces", "read_sections", "split_submission", "target_of"]
