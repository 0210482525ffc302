"""Reading orders as players write them, and writing them back canonically.

The reader accepts the rulebook's forms ("A Liv.--Yor.", "F St. P.--Both.", "A Tri.
Stand"), full names ("Army Munich to Bohemia"), the e-mail judges' forms ("A Par-Bur",
"Build F Kie", "Waive") and the `diplomacy` package's ("A PAR - BUR", "F KIE B").
Names may be abbreviated to any prefix of their words. Where the writing leaves
something open (an abbreviation such as "Nor" or "Tyr", an omitted unit type or
location, a missing coast) every reading is tried against the position, and the
order is followed only when exactly one reading makes a legal order (rulebook VII.4):
each such guess is reported in a note. An order with two meanings is not followed.
A coast written for an army's move or retreat is noise (DATC 6.B.12), and is noted.
`parse_orders` reads one written line as several orders where the rulebook's sample game
writes builds that way ("Germany builds F Kiel and A Mun.").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import product
from typing import Iterable, Mapping, Sequence

from . import legality
from .geography import COAST_NAMES, Location, Map, Terrain, UnitType
from .options import RuleOptions
from .orders import (Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, Support, Waive,
                     describe_unit, format_order, short)
from .position import Position, Unit
from .adjustments import build_error
from .retreats import retreat_options


@dataclass(frozen=True)
class Reading:
    """How one written order was read: the order, or why it could not be followed."""

    text: str
    order: Order | None
    notes: tuple[str, ...] = ()
    error: str | None = None
    meanings: tuple[Order, ...] = ()
    # The position and options whose legality checks this reading already passed.
    checked: tuple[object, object] | None = field(default=None, compare=False, repr=False)

    @property
    def ok(self) -> bool:
        """True when the order can be followed."""
        return self.order is not None and self.error is None


# -- words ---------------------------------------------------------------------------

_KEYWORDS = {
    "a": "ARMY", "army": "ARMY", "f": "FLEET", "fleet": "FLEET",
    "-": "MOVE", "to": "MOVE", "moves": "MOVE", "move": "MOVE", "m": "MOVE", "into": "MOVE",
    "attacks": "MOVE", "attack": "MOVE", "goes": "MOVE", "go": "MOVE", "mv": "MOVE",
    "h": "HOLD", "hold": "HOLD", "holds": "HOLD", "stand": "HOLD", "stands": "HOLD",
    "stay": "HOLD", "stays": "HOLD", "held": "HOLD",
    "s": "SUPPORT", "support": "SUPPORT", "supports": "SUPPORT", "sup": "SUPPORT", "supp": "SUPPORT",
    "c": "CONVOY", "convoy": "CONVOY", "convoys": "CONVOY", "conv": "CONVOY",
    "r": "RETREAT", "retreat": "RETREAT", "retreats": "RETREAT",
    "d": "DISBAND", "disband": "DISBAND", "disbands": "DISBAND", "destroy": "DISBAND",
    "remove": "DISBAND", "removes": "DISBAND", "removed": "DISBAND", "disbanded": "DISBAND",
    "b": "BUILD", "build": "BUILD", "builds": "BUILD", "built": "BUILD", "raise": "BUILD",
    "waive": "WAIVE", "waives": "WAIVE", "waived": "WAIVE", "pass": "WAIVE",
    "via": "VIA",
}
# Words players put around orders that carry no meaning of their own.
_FILLER = {"the", "my", "will", "shall", "should", "please", "is", "are", "be", "in", "at", "from", "unit", "then"}
# Common three-letter words never read as a slipped abbreviation ("and" is not a slip for Ank).
_NOT_SLIPS = frozenset({"and", "but", "nor", "not", "for", "all", "any", "off", "out", "one", "two", "his", "her",
                        "its", "our", "you", "was", "has", "had", "can", "may", "now", "yes", "see", "new", "end"})
_COAST_WORDS = {"nc": "NC", "sc": "SC", "ec": "EC", "wc": "WC"}
_COAST_DIRECTIONS = {"north": "NC", "south": "SC", "east": "EC", "west": "WC", "n": "NC", "s": "SC", "e": "EC", "w": "WC"}
_DASHES = re.compile(r"\s*(?:-{2,}>?|->|=>|→|[—–−‐‒―]|-)\s*")
# Compiled once: re's own cache is looked up at every call, several times an order.
_NOT_WORD = re.compile(r"[^a-z0-9]+")
_NOT_WORD_OR_DASH = re.compile(r"[^a-z0-9\-]+")
_LETTER_RUNS = re.compile(r"[A-Za-z]{3,}")
_LABEL = re.compile(r"^\s*([A-Za-z][A-Za-z\- ]*?)\s*:\s*(.*)$", re.S)
_NOT_LETTER_OR_DASH = re.compile(r"[^A-Za-z\-]")


def _words(text: str) -> tuple[str, ...]:
    return tuple(w for w in _NOT_WORD.split(text.lower()) if w)


class NameIndex:
    """Every way a map lets players name a province or a power."""

    def __init__(self, board: Map, powers: Iterable[tuple[str, Iterable[str]]]) -> None:
        self.board = board
        self.names: list[tuple[tuple[str, ...], str]] = []
        self.hyphenated: list[str] = []
        for prov in board.provinces.values():
            for name in (prov.id, prov.name, *prov.aliases):
                words = _words(name)
                if words:
                    self.names.append((words, prov.id))
                if "-" in name:
                    self.hyphenated.append(name.lower())
        self.powers: list[tuple[tuple[str, ...], str]] = []
        for pid, names in powers:
            for name in names:
                self.powers.append((_words(name), pid))
                if "-" in name:
                    self.hyphenated.append(name.lower())
        self.hyphenated.sort(key=len, reverse=True)
        # The three-letter abbreviations (ids and aliases) a slip of the pen may miss by a letter,
        # under each spelling with one letter unknown ("p?u") and as written, for swapped letters.
        self.abbreviations: dict[str, set[str]] = {}
        self.one_unknown: dict[str, set[tuple[str, str]]] = {}
        for words, pid in self.names:
            if len(words) == 1 and len(words[0]) == 3:
                name = words[0]
                self.abbreviations.setdefault(name, set()).add(pid)
                for k in range(3):
                    self.one_unknown.setdefault(name[:k] + "?" + name[k + 1:], set()).add((name, pid))
        self.hyphenated_patterns = [(name, re.compile(rf"(?<![a-z0-9]){re.escape(name)}(?![a-z0-9])"))
                                    for name in self.hyphenated]
        self.power_names: dict[tuple[str, ...], set[str]] = {}
        for words, pid in self.powers:
            self.power_names.setdefault(words, set()).add(pid)
        # Each name under every prefix of its first word, so that reading an abbreviation
        # looks at the few names it can abbreviate, not at every name with its first letter.
        self.by_prefix: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for words, pid in self.names:
            for end in range(1, len(words[0]) + 1):
                self.by_prefix.setdefault(words[0][:end], []).append((words, pid))
        self.by_prefix_one = {prefix: frozenset(pid for _, pid in named) for prefix, named in self.by_prefix.items()}
        # The most words a name whose first word starts so has (at most four are tried).
        self.longest = {prefix: min(4, max(len(words) for words, _ in named)) for prefix, named in self.by_prefix.items()}
        # The type letters would be read as a power's name if a variant named a power "A" or "F".
        self.strict = self.power(("a",), exact=True) is None and self.power(("f",), exact=True) is None
        self._one_word: dict[str, str | None] = {}
        # Movement orders the strict reader read, by text and power, with the units they name.
        self.remembered: dict[tuple[str, str | None], tuple[Order, tuple[Unit, ...]]] = {}
        # Every id as the canonical form writes it, with each coast: 'STP', 'STP/SC'.
        self.ids: dict[str, Location] = {}
        for pid in board.provinces:
            if len(pid) >= 3 and pid.isupper():
                self.ids[pid] = Location(pid)
                for coast in COAST_NAMES:
                    self.ids[f"{pid}/{coast}"] = Location(pid, coast)

    def one_word(self, word: str) -> str | None:
        """The province a single lowercase word names when it names exactly one and is no order word."""
        found = self._one_word.get(word, "")
        if found == "":
            found = None
            if word not in _KEYWORDS and word.isalnum():
                hits = self.provinces((word,))
                if len(hits) == 1:
                    found = next(iter(hits))
            if len(self._one_word) < 4096:  # players can write any word: keep the memory bounded
                self._one_word[word] = found
        return found

    def provinces(self, words: tuple[str, ...]) -> set[str]:
        """Provinces whose name (or alias or id) these words spell or abbreviate."""
        first = words[0]
        if len(words) == 1:
            return set(self.by_prefix_one.get(first, ())) if len(first) >= 2 else set()
        n = len(words)
        return {pid for name, pid in self.by_prefix.get(first, ())
                if len(name) >= n and all(name[k].startswith(words[k]) for k in range(1, n))}

    def misspelt(self, word: str) -> set[str]:
        """Provinces one slip of the pen away from a single written word ("Rhur")."""
        if len(word) < 4:
            return set()
        return {pid for name, pid in self.names if len(name) == 1 and _one_slip(word, name[0])}

    def slipped(self, word: str) -> set[str]:
        """Provinces whose three-letter abbreviation a three-letter word misses by one letter
        changed or two swapped ("Pur" for Pru, "Arn" for Arm); none for a power's or a common word."""
        if len(word) != 3 or not word.isalpha() or word in _KEYWORDS or word in _FILLER or word in _NOT_SLIPS \
                or self.power((word,)) is not None:
            return set()
        found = {pid for k in range(3) for name, pid in self.one_unknown.get(word[:k] + "?" + word[k + 1:], ())
                 if name != word}
        for k in range(2):
            swapped = word[:k] + word[k + 1] + word[k] + word[k + 2:]
            if swapped != word:
                found |= self.abbreviations.get(swapped, set())
        return found

    def power(self, words: tuple[str, ...], exact: bool = False) -> str | None:
        """The power these words name (a prefix of at least three letters will do)."""
        hits = set(self.power_names.get(words, ()))
        if not hits and not exact and len(words) == 1 and len(words[0]) >= 3:
            hits = {pid for name, pid in self.powers if len(name) == 1 and name[0].startswith(words[0])}
        return hits.pop() if len(hits) == 1 else None


def _one_slip(a: str, b: str) -> bool:
    """Whether a and b differ by one letter changed, added, dropped or two swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
        if len(diff) == 1:
            return True
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    short_, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short_ for i in range(len(long_)))


_INDEXES: dict[int, tuple[object, NameIndex]] = {}


def name_index(position: Position) -> NameIndex:
    """The (cached) name index of a position's variant."""
    variant = position.variant
    cached = _INDEXES.get(id(variant))
    if cached is None or cached[0] is not variant:
        powers = [(p.id, (p.id, p.name, p.adjective, *p.aliases)) for p in variant.powers.values()]
        cached = (variant, NameIndex(variant.map, powers))
        _INDEXES[id(variant)] = cached
    return cached[1]


@dataclass
class _Place:
    raw: str
    candidates: set[str]
    coast: str | None = None
    misspelt: bool = False


@dataclass
class _Tok:
    kind: str  # a keyword kind, PLACE, POWER or UNKNOWN
    raw: str = ""
    place: _Place | None = None
    power: str | None = None


def _tokenize(text: str, index: NameIndex) -> list[_Tok]:
    # An id written in capitals ("TYR", "LIB") is the id, as the canonical form and the
    # judges write it, not an abbreviation that might mean another space.
    capital_ids = {w.lower() for w in _LETTER_RUNS.findall(text)
                   if w.isupper() and w in index.board.provinces}
    low = text.lower()
    for name, pattern in index.hyphenated_patterns:
        if name in low:
            low = pattern.sub(name.replace("-", " "), low)
    low = _DASHES.sub(" - ", low)
    raw_words = [w for w in _NOT_WORD_OR_DASH.split(low) if w]
    count = len(raw_words)
    # Where a name cannot run on: a dash, or a one-letter order word ("Bal S F Ska" is the
    # Baltic supporting, not the Baltic Sea).
    stops = [w == "-" or (len(w) == 1 and w in _KEYWORDS) for w in raw_words]
    toks: list[_Tok] = []
    i = 0
    while i < count:
        w = raw_words[i]
        nxt = raw_words[i + 1] if i + 1 < count else ""
        if w in ("via", "by") and nxt in ("convoy", "sea", "c"):
            toks.append(_Tok("VIA", w))
            i += 2
            continue
        if w == "via":
            toks.append(_Tok("VIA", w))
            i += 1
            continue
        if w == "no" and nxt in ("build", "builds"):
            toks.append(_Tok("WAIVE", "no build"))
            i += 2
            continue
        if _KEYWORDS.get(nxt) in ("ARMY", "FLEET") and w not in _KEYWORDS and index.power((w,), exact=True):
            # "S ENGLISH F Lon-Nth": a nationality, though "English" also starts a sea's name.
            toks.append(_Tok("POWER", w, power=index.power((w,), exact=True)))
            i += 1
            continue
        kind = _KEYWORDS.get(w)
        if kind and (len(w) > 1 or not _starts_longer_name(raw_words, i, index, w)):
            toks.append(_Tok(kind, w))
            i += 1
            continue
        matched = False
        # As many words as a name starting so can have, up to four, not across a stop.
        longest = index.longest.get(w, 1)
        span = 0 if w == "-" else 1
        while 0 < span < longest and i + span < count and not stops[i + span]:
            span += 1
        for n in range(span, 0, -1):
            words = tuple(raw_words[i:i + n])
            cands = {words[0].upper()} if n == 1 and words[0] in capital_ids else index.provinces(words)
            if cands:
                place = _Place(" ".join(words), cands)
                i += n
                i = _read_coast(raw_words, i, place)
                toks.append(_Tok("PLACE", place.raw, place=place))
                matched = True
                break
        if matched:
            continue
        # A slipped abbreviation only after the order's first word: a name alone on a line
        # ("Bob" signing a letter) is not read as the unit in Bohemia.
        guessed = (index.misspelt(w) or (index.slipped(w) if toks else set())) if w not in _KEYWORDS else set()
        if guessed:
            place = _Place(w, guessed, misspelt=True)
            i = _read_coast(raw_words, i + 1, place)
            toks.append(_Tok("PLACE", place.raw, place=place))
            continue
        power = index.power((w,))
        if power:
            toks.append(_Tok("POWER", w, power=power))
        elif w not in _FILLER:
            toks.append(_Tok("UNKNOWN", w))
        i += 1
    # "moves to", "- to": one move word
    out: list[_Tok] = []
    for t in toks:
        if out and t.kind == "MOVE" and out[-1].kind in ("MOVE", "RETREAT"):
            continue
        out.append(t)
    return out


def _starts_longer_name(words: list[str], i: int, index: NameIndex, w: str) -> bool:
    """A keyword that is really the first word of a longer place name ("W Med")."""
    if len(w) > 1 or i + 1 >= len(words):
        return False
    nxt = words[i + 1]
    if nxt in _KEYWORDS or nxt == "-":
        return False
    return bool(index.provinces((w, nxt))) and not index.provinces((nxt,))


def _read_coast(words: list[str], i: int, place: _Place) -> int:
    if i < len(words) and words[i] in _COAST_WORDS:
        place.coast = _COAST_WORDS[words[i]]
        return i + 1
    if i + 1 < len(words) and words[i] in _COAST_DIRECTIONS and words[i + 1] in ("coast", "cst", "c"):
        place.coast = _COAST_DIRECTIONS[words[i]]
        return i + 2
    if i < len(words) and words[i] in ("northcoast", "southcoast", "eastcoast", "westcoast"):
        place.coast = _COAST_DIRECTIONS[words[i][:-5]]
        return i + 1
    return i


# -- shapes of orders ----------------------------------------------------------------

@dataclass
class _UnitSpec:
    type: UnitType | None
    place: _Place | None
    power: str | None = None


@dataclass
class _Shape:
    kind: str  # HOLD MOVE SUPPORT CONVOY RETREAT DISBAND BUILD REMOVE WAIVE BARE
    unit: _UnitSpec | None = None
    other: _UnitSpec | None = None
    dest: _Place | None = None
    via: bool = False
    implied_move: bool = False


class _Unreadable(Exception):
    pass


def _shape(toks: list[_Tok]) -> _Shape:
    ts = list(toks)
    unknown = [t.raw for t in ts if t.kind == "UNKNOWN"]
    if unknown:
        raise _Unreadable(f"unreadable: {' '.join(repr(u) for u in unknown)} is not a space, unit or order word")
    if not ts:
        raise _Unreadable("unreadable: the order is empty")
    if ts[0].kind == "WAIVE":
        if len(ts) > 1:
            raise _Unreadable("unreadable: nothing may follow 'waive'")
        return _Shape("WAIVE")
    lead = None
    if ts[0].kind in ("BUILD", "DISBAND"):
        lead = ts.pop(0).kind
    unit, ts = _unit_spec(ts)
    if unit is None:
        raise _Unreadable("unreadable: the order names no unit")
    if lead:
        if ts:
            raise _Unreadable(f"unreadable: unexpected {ts[0].raw!r} after the unit")
        return _Shape("BUILD" if lead == "BUILD" else "REMOVE", unit)
    if not ts:
        return _Shape("BARE", unit)
    head = ts.pop(0)
    if head.kind == "HOLD":
        _nothing_more(ts)
        return _Shape("HOLD", unit)
    if head.kind in ("DISBAND", "BUILD"):
        _nothing_more(ts)
        return _Shape("DISBAND" if head.kind == "DISBAND" else "BUILD", unit)
    if head.kind in ("MOVE", "RETREAT", "PLACE"):
        kind = "RETREAT" if head.kind == "RETREAT" else "MOVE"
        if head.kind == "PLACE":
            ts.insert(0, head)
        elif ts and ts[0].kind == "MOVE":
            ts.pop(0)
        if not ts or ts[0].kind != "PLACE":
            raise _Unreadable("unreadable: a move must name where to")
        dest = ts.pop(0).place
        via = False
        if ts and ts[0].kind == "VIA":
            ts.pop(0)
            via = True
        _nothing_more(ts)
        return _Shape(kind, unit, dest=dest, via=via, implied_move=head.kind == "PLACE")
    if head.kind in ("SUPPORT", "CONVOY"):
        nationality = None
        if len(ts) >= 2 and ts[0].kind in ("POWER", "PLACE") and ts[1].kind in ("ARMY", "FLEET"):
            if ts[0].kind == "POWER":
                nationality = ts.pop(0).power
        other, ts = _unit_spec(ts)
        if other is None or other.place is None:
            raise _Unreadable(f"unreadable: the {head.kind.lower()} must name the unit's space")
        other.power = nationality
        if ts and ts[0].kind == "HOLD":
            ts.pop(0)
            _nothing_more(ts)
            if head.kind == "CONVOY":
                raise _Unreadable("unreadable: a convoy must name where the army goes")
            return _Shape("SUPPORT", unit, other)
        if not ts:
            if head.kind == "CONVOY":
                raise _Unreadable("unreadable: a convoy must name where the army goes")
            return _Shape("SUPPORT", unit, other)
        if ts[0].kind == "MOVE":
            ts.pop(0)
        if not ts or ts[0].kind != "PLACE":
            raise _Unreadable(f"unreadable: expected a space after {head.raw!r} ...")
        dest = ts.pop(0).place
        if ts and ts[0].kind == "VIA":
            ts.pop(0)
        _nothing_more(ts)
        return _Shape(head.kind, unit, other, dest)
    raise _Unreadable(f"unreadable: unexpected {head.raw!r} after the unit")


def _nothing_more(ts: list[_Tok]) -> None:
    if ts:
        raise _Unreadable(f"unreadable: unexpected {' '.join(t.raw for t in ts)!r} at the end")


def _unit_spec(ts: list[_Tok]) -> tuple[_UnitSpec | None, list[_Tok]]:
    utype = None
    if ts and ts[0].kind in ("ARMY", "FLEET"):
        utype = UnitType.ARMY if ts.pop(0).kind == "ARMY" else UnitType.FLEET
    place = None
    if ts and ts[0].kind == "PLACE":
        place = ts.pop(0).place
    if utype is None and place is None:
        return None, ts
    return _UnitSpec(utype, place), ts


# -- readings against the position ---------------------------------------------------

@dataclass
class _Candidate:
    order: Order | None
    error: str | None
    notes: list[str]


_DEFAULT_OPTIONS = RuleOptions()
_TYPE_LETTERS = {"A": UnitType.ARMY, "a": UnitType.ARMY, "F": UnitType.FLEET, "f": UnitType.FLEET}
_COAST_IDS = {"NC": "NC", "SC": "SC", "EC": "EC", "WC": "WC", "nc": "NC", "sc": "SC", "ec": "EC", "wc": "WC"}


class _NotStrict(Exception):
    """The text is not in the strict form: the full reader decides."""


def _strict_place(index: NameIndex, word: str) -> Location:
    """A place written as an id ('STP/SC') or a one-word name with one meaning ('Bur'), with the
    coast written (not yet checked against anything)."""
    found = index.ids.get(word)
    if found is not None:
        return found  # an id in capitals is that id (as _tokenize reads it)
    name, slash, coast = word.partition("/")
    written = None
    if slash:
        written = _COAST_IDS.get(coast)
        if written is None:
            raise _NotStrict
    if len(name) >= 3 and name.isupper() and name in index.board.provinces:
        return Location(name, written)  # an id in capitals is that id (as _tokenize reads it)
    pid = index.one_word(name.lower())
    if pid is None:
        raise _NotStrict
    return Location(pid, written)


def _strict_unit(index: NameIndex, pool: Mapping[str, Unit], type_word: str, place_word: str,
                 power: str | None) -> Unit:
    """The unit written as 'A PAR' or 'F STP/SC': of that type, there, of that power."""
    utype = _TYPE_LETTERS.get(type_word)
    pid, coast = _strict_place(index, place_word)
    unit = pool.get(pid)
    if utype is None or unit is None or unit.type is not utype or (power is not None and unit.power != power):
        raise _NotStrict
    if coast is not None and coast != unit.location.coast:
        raise _NotStrict  # the full reader notes the coast it ignored
    return unit


def _read_strict(text: str, position: Position, power: str | None, options: RuleOptions,
                 index: NameIndex) -> Order:
    """The order written in the canonical form or a compact one ('A PAR - BUR', 'A Par-Bur',
    'F NTH C A LON - BEL', 'A BUD S A VIE - GAL', 'F KIE B', 'A BUR R GAS', 'WAIVE').

    It reads exactly what the full reader reads for such a text, and only when that
    reading is a legal order with nothing to note; anything else raises _NotStrict.
    """
    if ":" in text or not text.isascii():
        raise _NotStrict
    hyphens = text.count("-")
    if hyphens:
        # A name with a hyphen ('Mid-Atlantic') is one name, not two; only a hyphen between
        # two letters can be part of one.
        if hyphens != text.count(" - ") and any(name in text.lower() for name in index.hyphenated):
            raise _NotStrict
        text = text.replace("-", " - ")
    words = text.split()
    count = len(words)
    phase = position.phase
    if count == 1:
        if words[0].lower() != "waive" or not phase.is_adjustment or power is None:
            raise _NotStrict
        return Waive(power)
    if count < 3 or not index.strict:
        raise _NotStrict
    verb = words[2]
    if phase.is_movement:
        unit = _strict_unit(index, position.units, words[0], words[1], power)
        if verb in ("H", "h") and count == 3:
            return Hold(unit)
        if verb == "-" and count == 4:
            return _strict_move(index, position, options, unit, words[3], False)
        if verb == "-" and count == 5 and words[4].lower() == "via" and "/" not in words[3]:
            if index.provinces((words[3].lower(), "via")):
                raise _NotStrict  # the full reader would try the two words as one name
            return _strict_move(index, position, options, unit, words[3], True)
        if verb in ("S", "s", "C", "c") and count in (5, 6, 7):
            return _strict_support_convoy(index, position, options, unit, words[3:], verb in ("C", "c"))
        raise _NotStrict
    if phase.is_retreat:
        pool = {d.unit.province: d for d in position.dislodged}
        dislodgement = pool.get(_strict_place(index, words[1])[0])
        if dislodgement is None:
            raise _NotStrict
        unit = _strict_unit(index, {dislodgement.unit.province: dislodgement.unit}, words[0], words[1], power)
        if verb in ("D", "d") and count == 3:
            return Disband(unit)
        if verb in ("R", "r", "-") and count == 4:
            pid, coast = _strict_place(index, words[3])
            allowed = retreat_options(position, dislodgement, options)
            matches = [loc for loc in allowed if loc.province == pid and (coast is None or loc.coast == coast)]
            if len(matches) == 1:
                return Retreat(unit, matches[0])
        raise _NotStrict
    if verb in ("D", "d") and count == 3:
        return Remove(_strict_unit(index, position.units, words[0], words[1], power))
    if verb in ("B", "b") and count == 3 and power is not None:
        utype = _TYPE_LETTERS.get(words[0])
        pid, coast = _strict_place(index, words[1])
        if utype is None:
            raise _NotStrict
        coasts = len(position.map.fleet_locations(pid))
        if utype is UnitType.FLEET and coasts > 1 and coast is None:
            raise _NotStrict
        unit = Unit(power, utype, Location(pid, coast if utype is UnitType.FLEET and coasts > 1 else None))
        if build_error(position, unit) is None:
            return Build(unit)
    raise _NotStrict


def _strict_move(index: NameIndex, position: Position, options: RuleOptions, unit: Unit, place: str,
                 via: bool) -> Move:
    dest = _strict_place(index, place)
    pid, coast = dest
    board = position.map
    if unit.type is UnitType.FLEET:
        # The destination exactly as a fleet there can reach it: where the fleet could reach
        # only one coast of the province, or the written coast is wrong or missing, the full
        # reader notes how it read the coast, or refuses the order.
        if via or dest not in board.fleet_edges.get(unit.location, ()):
            raise _NotStrict
    elif coast is not None:
        raise _NotStrict  # the full reader notes that armies go by land
    else:
        if via or pid not in board.army_edges.get(unit.location.province, ()):
            # Not a neighbour, or by convoy: if fleets on the board could carry it.
            order = Move(unit, dest, via)
            if legality.check(position, options, order) is not None:
                raise _NotStrict
            return order
    if pid == unit.province or pid in position.closed:
        raise _NotStrict
    return Move(unit, dest, via)  # to a neighbour: legal (legality.check says so the same way)


def _strict_support_convoy(index: NameIndex, position: Position, options: RuleOptions, unit: Unit,
                           rest: list[str], convoy: bool) -> Order:
    """'S A PAR', 'S A PAR H', 'S A PAR - BUR', 'C A LON - BEL' after the ordered unit."""
    utype = _TYPE_LETTERS.get(rest[0])
    pid = _strict_place(index, rest[1])[0]  # the supported unit's coast is not read
    other = position.units.get(pid)
    if utype is None or other is None or other.type is not utype or pid == unit.province:
        raise _NotStrict
    order: Order
    if len(rest) == 2 or (len(rest) == 3 and rest[2] in ("H", "h")):
        if convoy:
            raise _NotStrict
        order = Support(unit, other)
    elif len(rest) == 4 and rest[2] == "-":
        target = _strict_place(index, rest[3])
        dest, coast = target
        if convoy:
            order = Convoy(unit, other, Location(dest) if coast else target)
        elif coast is None or (other.type is UnitType.FLEET and len(position.map.fleet_locations(dest)) > 1):
            order = Support(unit, other, target)
        else:
            order = Support(unit, other, Location(dest))
    else:
        raise _NotStrict
    if legality.check(position, options, order) is not None:
        raise _NotStrict
    return order


def _strict_reading(text: str, order: Order, checked: tuple[object, object]) -> Reading:
    """Reading(text, order, checked=checked), made without the frozen dataclass's field-by-field
    __init__ (a third of the strict reader's time); the same value in every respect."""
    reading = object.__new__(Reading)
    reading.__dict__.update(text=text, order=order, notes=(), error=None, meanings=(), checked=checked)
    return reading


def read_strict(text: str, position: Position, power: str | None = None,
                options: RuleOptions | None = None) -> Reading | None:
    """The reading of an order in the canonical or a compact form, or None for the full reader.

    Where it answers, it gives the very Reading parse_order's full reader gives (a test
    runs both over every recorded order and a fuzz corpus); it answers only for legal
    orders read without a guess.
    """
    options = options or _DEFAULT_OPTIONS
    try:
        order = _read_strict(text, position, power, options, name_index(position))
    except _NotStrict:
        return None
    return _strict_reading(text, order, (position, options))


def parse_order(text: str, position: Position, power: str | None = None,
                options: RuleOptions | None = None) -> Reading:
    """Read one written order for power in this position (see the module docstring).

    Orders in the canonical or a compact form are read by a strict reader first (most
    orders that reach the engine are); the full reader reads the rest.
    """
    options = options or _DEFAULT_OPTIONS
    index = name_index(position)
    # A movement order read strictly before stands for the same order wherever its units
    # stand as they did (a door reads the same texts phase after phase).
    remember = position.phase.kind == "M" and not position.closed
    if remember:
        entry = index.remembered.get((text, power))
        if entry is not None:
            board = position.units
            if all(board.get(u.location.province) is u or board.get(u.location.province) == u for u in entry[1]):
                return _strict_reading(text, entry[0], (position, options))
    try:
        order = _read_strict(text, position, power, options, index)
    except _NotStrict:
        return _read_full(text, position, power, options, index)
    if remember:
        units = _needs_only(order, position.map)
        if units is not None:
            if len(index.remembered) >= _REMEMBERED:
                index.remembered.clear()
            index.remembered[(text, power)] = (order, units)
    return _strict_reading(text, order, (position, options))


_REMEMBERED = 1 << 16  # orders remembered per variant: players may write any number

_AND = re.compile(r"\s+and\s+", re.IGNORECASE)
_ADJUSTMENT_VERB = re.compile(r"\b(?:builds?|built|raise|removes?|removed|disbands?|disbanded|destroy)\b", re.IGNORECASE)


def parse_orders(text: str, position: Position, power: str | None = None,
                 options: RuleOptions | None = None) -> list[Reading]:
    """One written line as the orders it gives: almost always one (parse_order); in the adjustments,
    builds or removals joined by 'and' are one each, as the 1971 rulebook's sample game prints
    them ("Germany builds F Kiel and A Mun.").

    The line is taken as several orders only when it cannot be read as one and every part reads as
    an order of the same kind (each part read as unambiguously as any order); else its one reading
    stands, with the reason it cannot be followed."""
    whole = parse_order(text, position, power, options)
    if whole.order is not None or not position.phase.is_adjustment or not _AND.search(text):
        return [whole]
    parts = _AND.split(text.strip())
    verb = _ADJUSTMENT_VERB.search(parts[0])
    readings = []
    for part in parts:
        if verb is not None and not _ADJUSTMENT_VERB.search(part):
            part = f"{verb.group(0)} {part}"  # the verb is written once for all ("builds F Kiel and A Mun.")
        readings.append(parse_order(part, position, power, options))
    if any(r.order is None for r in readings) or len({type(r.order) for r in readings}) != 1:
        return [whole]
    note = f"one of {len(parts)} orders written on one line, joined by 'and'"
    return [Reading(text, r.order, (note, *r.notes), r.error, r.meanings, r.checked) for r in readings]


def _needs_only(order: Order, board: Map) -> tuple[Unit, ...] | None:
    """The units an order's legality rests on, when it rests on nothing else: a hold, a move to
    a neighbour not by convoy, a support of a unit holding or moving to a neighbour (no convoy,
    no closed space)."""
    if type(order) is Hold:
        return (order.unit,)
    if type(order) is Move:
        unit = order.unit
        if order.via_convoy:  # by convoy: it rests on the fleets on the board too
            return None
        if unit.type is UnitType.FLEET or order.dest.province in board.army_edges.get(unit.province, ()):
            return (unit,)
        return None
    if type(order) is Support:
        other = order.supported
        if order.dest is None or other.type is UnitType.FLEET or \
                order.dest.province in board.army_edges.get(other.province, ()):
            return (order.unit, other)
    return None


def read_full(text: str, position: Position, power: str | None = None,
              options: RuleOptions | None = None) -> Reading:
    """Read one written order with the full reader alone (parse_order tries the strict one first)."""
    return _read_full(text, position, power, options or _DEFAULT_OPTIONS, name_index(position))


def _read_full(text: str, position: Position, power: str | None, options: RuleOptions, index: NameIndex) -> Reading:
    body, label = _strip_power_label(text, index)
    if power is None:
        power = label
    elif label is not None and label != power:
        return Reading(text, None, error=f"invalid: written for {label.capitalize()}, submitted by {power.capitalize()}")
    try:
        shape = _shape(_tokenize(body, index))
    except _Unreadable as exc:
        return Reading(text, None, error=str(exc))
    candidates = _candidates(shape, position, power, options)
    good = [c for c in candidates if c.error is None]
    # A candidate without an error always carries its order.
    unique: dict[str, tuple[Order, _Candidate]] = {}
    for c in good:
        if c.order is not None:
            unique.setdefault(format_order(c.order), (c.order, c))
    if len(unique) == 1:
        order, chosen = next(iter(unique.values()))
        notes = [_as_written(n, text) for n in dict.fromkeys(chosen.notes)]
        return Reading(text, order, tuple(notes), checked=(position, options))
    if len(unique) > 1:
        meanings = tuple(order for order, _ in unique.values())
        listed = " or ".join(f"'{format_order(m)}'" for m in meanings)
        slips = "".join(_slip_named(place, meanings, position.map, text) for place in _places(shape) if place.misspelt)
        return Reading(text, None, error=f"ambiguous: {slips}the order could mean {listed}", meanings=meanings)
    if not candidates:
        return Reading(text, None, error="invalid: the order fits no unit")
    errors = list(dict.fromkeys(c.error for c in candidates if c.error))
    best = next((c for c in candidates if c.order is not None), candidates[0])
    return Reading(text, best.order if len(candidates) == 1 else None, tuple(best.notes),
                   error=errors[0] if len(errors) == 1 else "invalid: " + "; ".join(e.removeprefix("void: ").removeprefix("invalid: ") for e in errors[:4]))


def _places(shape: _Shape) -> list[_Place]:
    """The places an order's shape names: its unit's, the other unit's and the destination."""
    specs = [s.place for s in (shape.unit, shape.other) if s is not None and s.place is not None]
    return specs + ([shape.dest] if shape.dest is not None else [])


def _slip_named(place: _Place, meanings: Sequence[Order], board: Map, text: str) -> str:
    """The spaces a misspelt word could be among an ambiguous order's meanings ("'Trr' is one letter
    off both Trieste and Tyrolia: "), so that the refusal names them; empty when it is one of them only."""
    named = {w for m in meanings for w in _LETTER_RUNS.findall(format_order(m))} & place.candidates
    if len(named) < 2:
        return ""
    names = sorted(board.provinces[p].name for p in named)
    return _as_written(f"'{place.raw}' is one letter off both {' and '.join(names)}: ", text) if len(names) == 2 else \
        _as_written(f"'{place.raw}' is one letter off each of {', '.join(names)}: ", text)


def _as_written(note: str, text: str) -> str:
    """Quote the player's own spelling in a note ('St. P.' rather than 'st p')."""
    def original(m: re.Match[str]) -> str:
        words = m.group(1).split()
        pattern = r"(?<![A-Za-z0-9])" + r"[^A-Za-z0-9]*".join(map(re.escape, words)) + r"\.?"
        found = re.search(pattern, text, re.IGNORECASE)
        return f"'{found.group(0)}'" if found else m.group(0)
    return re.sub(r"'([a-z0-9 ]+)'", original, note)


def _strip_power_label(text: str, index: NameIndex) -> tuple[str, str | None]:
    m = _LABEL.match(text) if ":" in text else None
    if m and index.power(_words(m.group(1)), exact=True):
        return m.group(2), index.power(_words(m.group(1)), exact=True)
    words = text.split(None, 1)
    if len(words) == 2:
        first = _NOT_LETTER_OR_DASH.sub("", words[0])
        power = index.power(_words(first), exact=True)
        if power:
            return words[1], power
    return text, None


def _units_for(spec: _UnitSpec, position: Position, power: str | None, pool: Mapping[str, Unit]) -> tuple[list[Unit], list[str]]:
    """The units a written unit could be, and notes on how it was read."""
    notes: list[str] = []
    if spec.place is None:
        mine = [u for u in pool.values() if (power is None or u.power == power) and u.type is spec.type]
        if len(mine) == 1 and spec.type is not None:  # with no type written, no unit matched
            notes.append(f"read '{spec.type.value}' as {describe_unit(mine[0])}: the only {spec.type.word}")
        return mine, notes
    found = [pool[p] for p in sorted(spec.place.candidates) if p in pool]
    if power is not None:
        found = [u for u in found if u.power == power]
    if spec.type is not None and len(found) > 1:
        typed = [u for u in found if u.type is spec.type]
        if typed:
            found = typed
    return found, notes


def _place_note(place: _Place, chosen: str, board: Map, role: str) -> str | None:
    if place.misspelt and chosen in place.candidates:
        return f"read '{place.raw}' as {board.provinces[chosen].name}: a slip of one letter, the only space it can mean here"
    if len(place.candidates) <= 1 or chosen not in place.candidates:
        return None
    others = sorted(board.provinces[c].name for c in place.candidates if c != chosen)
    return f"read '{place.raw}' as {board.provinces[chosen].name}: {role} (not {', '.join(others)})"


def _candidates(shape: _Shape, position: Position, power: str | None, options: RuleOptions) -> list[_Candidate]:
    phase = position.phase
    if shape.kind == "WAIVE":
        if not phase.is_adjustment:
            return [_Candidate(None, "invalid: a build can only be waived in the adjustments", [])]
        if power is None:
            return [_Candidate(None, "invalid: a waive must say which power waives", [])]
        return [_Candidate(Waive(power), None, [])]
    if phase.is_adjustment:
        return _adjustment_candidates(shape, position, power, options)
    if phase.is_retreat:
        return _retreat_candidates(shape, position, power, options)
    return _movement_candidates(shape, position, power, options)


def _ordered_units(shape: _Shape, position: Position, power: str | None, pool: Mapping[str, Unit]) -> tuple[list[Unit], list[str], str | None]:
    assert shape.unit is not None
    units, notes = _units_for(shape.unit, position, power, pool)
    if units:
        return units, notes, None
    spec = shape.unit
    if spec.place is None:
        return [], notes, f"invalid: {power.capitalize() if power else 'the power'} has no {spec.type.word if spec.type else 'unit'} to order"
    where = " or ".join(sorted(position.map.provinces[c].name for c in spec.place.candidates))
    others = [pool[c] for c in spec.place.candidates if c in pool]
    if others:
        return [], notes, f"invalid: the unit in {where} belongs to {others[0].power.capitalize()}"
    if position.phase.is_retreat:
        return [], notes, f"invalid: no dislodged unit of {power.capitalize() if power else 'this power'} in {where}"
    return [], notes, f"invalid: no unit in {where}"


def _type_note(spec: _UnitSpec, unit: Unit) -> list[str]:
    if spec.type is None:
        return [f"read the unit as {describe_unit(unit)}: no unit type was written"]
    if spec.type is not unit.type:
        return [f"read {spec.type.value} as {describe_unit(unit)}: the unit there is {('an army' if unit.type is UnitType.ARMY else 'a fleet')}"]
    return []


def _movement_candidates(shape: _Shape, position: Position, power: str | None, options: RuleOptions) -> list[_Candidate]:
    if shape.kind in ("BUILD", "REMOVE", "DISBAND", "RETREAT"):
        return [_Candidate(None, f"invalid: no {shape.kind.lower()} orders in a movement phase", [])]
    units, notes, error = _ordered_units(shape, position, power, position.units)
    if error:
        return [_Candidate(None, error, notes)]
    spec = shape.unit
    assert spec is not None  # _ordered_units read it
    out: list[_Candidate] = []
    for unit in units:
        base = notes + _type_note(spec, unit) + _coast_note(spec, unit, position.map)
        if spec.place is not None:
            n = _place_note(spec.place, unit.province, position.map, f"{power.capitalize() if power else 'the power'} has a unit there")
            if n:
                base = base + [n]
        if shape.kind in ("HOLD", "BARE"):
            out.append(_Candidate(Hold(unit), None, base))
        elif shape.kind == "MOVE":
            out.extend(_move_candidates(shape, position, options, unit, base))
        else:
            out.extend(_support_convoy_candidates(shape, position, options, unit, base))
    return out


def _coast_note(spec: _UnitSpec, unit: Unit, board: Map) -> list[str]:
    place = spec.place
    if place is None or place.coast is None or place.coast == unit.location.coast:
        return []
    if unit.location.coast:
        return [f"ignored the coast written for {describe_unit(unit)}: it is on the {COAST_NAMES.get(unit.location.coast, unit.location.coast)}"]
    return [f"ignored the coast written for {describe_unit(unit)}"]


def _move_candidates(shape: _Shape, position: Position, options: RuleOptions, unit: Unit, base: list[str]) -> list[_Candidate]:
    out = []
    board = position.map
    assert shape.dest is not None
    implied = ["read as a move: no move word was written"] if shape.implied_move else []
    for pid in sorted(shape.dest.candidates):
        notes = base + implied
        dest, error, note = _destination(position, options, unit, pid, shape.dest.coast)
        if note:
            notes = notes + [note]
        if error is None:
            assert dest is not None  # a destination is refused with an error, or found
            order = Move(unit, dest, shape.via and unit.type is UnitType.ARMY)
            error = legality.check(position, options, order)
        else:
            order = None
        n = _place_note(shape.dest, pid, board, f"{describe_unit(unit)} can move only there")
        out.append(_Candidate(order, error, notes + ([n] if n else [])))
    return out


def _destination(position: Position, options: RuleOptions, unit: Unit, pid: str,
                 coast: str | None) -> tuple[Location | None, str | None, str | None]:
    board = position.map
    if unit.type is UnitType.FLEET:
        if pid == unit.province:
            return None, f"void: {describe_unit(unit)} cannot move to the space it is in", None
        return legality.fleet_destination(position, options, unit, Location(pid, coast))
    return Location(pid), None, _army_coast_note(board, pid, coast)


def _army_coast_note(board: Map, pid: str, coast: str | None) -> str | None:
    """An army's destination written with a coast: the coast is noise (DATC 6.B.12), and the player is told."""
    return f"ignored the coast written for {board.provinces[pid].name}: armies go by land" if coast else None


def _support_convoy_candidates(shape: _Shape, position: Position, options: RuleOptions, unit: Unit, base: list[str]) -> list[_Candidate]:
    board = position.map
    assert shape.other is not None and shape.other.place is not None
    out: list[_Candidate] = []
    others = [position.units[p] for p in sorted(shape.other.place.candidates) if p in position.units and p != unit.province]
    if not others and unit.province in shape.other.place.candidates:
        return [_Candidate(None, f"void: {describe_unit(unit)} cannot {shape.kind.lower()} itself", base)]
    if not others:
        where = " or ".join(sorted(board.provinces[c].name for c in shape.other.place.candidates))
        return [_Candidate(None, f"invalid: no unit in {where} to {shape.kind.lower()}", base)]
    dests: list[str | None] = [*sorted(shape.dest.candidates)] if shape.dest else [None]
    for other, dest in product(others, dests):
        notes = base + _type_note(shape.other, other)
        n = _place_note(shape.other.place, other.province, board, "there is a unit there")
        if n:
            notes.append(n)
        if shape.dest is not None and dest is not None:
            n = _place_note(shape.dest, dest, board, "the only reading that makes a legal order")
            if n:
                notes.append(n)
        if shape.kind == "CONVOY":
            if dest is None:
                continue
            order: Order = Convoy(unit, other, Location(dest))
        elif dest is None:
            order = Support(unit, other)
        else:
            coast = shape.dest.coast if (shape.dest and other.type is UnitType.FLEET
                                         and len(board.fleet_locations(dest)) > 1) else None
            order = Support(unit, other, Location(dest, coast))
        out.append(_Candidate(order, legality.check(position, options, order), notes))
    return out


def _retreat_candidates(shape: _Shape, position: Position, power: str | None, options: RuleOptions) -> list[_Candidate]:
    pool = {d.unit.province: d.unit for d in position.dislodged}
    if shape.kind not in ("MOVE", "RETREAT", "DISBAND", "REMOVE"):
        return [_Candidate(None, "invalid: only retreats and disbands can be ordered in a retreat phase", [])]
    units, notes, error = _ordered_units(shape, position, power, pool)
    if error:
        return [_Candidate(None, error, notes)]
    spec = shape.unit
    assert spec is not None  # _ordered_units read it
    out: list[_Candidate] = []
    options_by = {d.unit.province: d for d in position.dislodged}
    for unit in units:
        base = notes + _type_note(spec, unit)
        if shape.kind in ("DISBAND", "REMOVE"):
            out.append(_Candidate(Disband(unit), None, base))
            continue
        assert shape.dest is not None
        allowed = retreat_options(position, options_by[unit.province], options)
        # An army retreats by land: a coast written for it is noise, as in its moves.
        coast = None if unit.type is UnitType.ARMY else shape.dest.coast
        for pid in sorted(shape.dest.candidates):
            matches = [loc for loc in allowed if loc.province == pid and (coast is None or loc.coast == coast)]
            if len(matches) == 1:
                n = _place_note(shape.dest, pid, position.map, f"{describe_unit(unit)} can retreat only there")
                land = _army_coast_note(position.map, pid, shape.dest.coast if unit.type is UnitType.ARMY else None)
                out.append(_Candidate(Retreat(unit, matches[0]), None, base + [x for x in (land, n) if x]))
            elif len(matches) > 1:
                out.append(_Candidate(None, f"invalid: say which coast of {position.map.provinces[pid].name}", base))
            else:
                out.append(_Candidate(None, f"invalid: {describe_unit(unit)} cannot retreat to {short(pid)}", base))
    return out


def _adjustment_candidates(shape: _Shape, position: Position, power: str | None, options: RuleOptions) -> list[_Candidate]:

    if shape.kind in ("HOLD", "MOVE", "SUPPORT", "CONVOY", "RETREAT"):
        return [_Candidate(None, "invalid: only builds, removals and waives can be ordered in the adjustments", [])]
    spec = shape.unit
    assert spec is not None
    kind = shape.kind
    board = position.map
    if kind == "BARE":
        balance = _balance(position, power)
        kind = "BUILD" if balance > 0 else "REMOVE"
    if kind in ("REMOVE", "DISBAND"):
        units, notes, error = _ordered_units(shape, position, power, position.units)
        if error:
            return [_Candidate(None, error, notes)]
        return [_Candidate(Remove(u), None, notes + _type_note(spec, u)
                           + (["read as a removal: no verb was written"] if shape.kind == "BARE" else [])) for u in units]
    if spec.place is None:
        return [_Candidate(None, "invalid: a build must name the supply centre", [])]
    out: list[_Candidate] = []
    for pid in sorted(spec.place.candidates):
        prov = board.provinces[pid]
        notes = ["read as a build: no verb was written"] if shape.kind == "BARE" else []
        utype = spec.type
        if utype is None:
            # DATC 4.C.3: an army inland, a fleet where a coast is named; otherwise two meanings.
            if prov.terrain is Terrain.LAND:
                utype = UnitType.ARMY
            elif spec.place.coast:
                utype = UnitType.FLEET
            else:
                out.append(_Candidate(None, f"invalid: say whether to build an army or a fleet in {prov.name}", notes))
                continue
            notes.append(f"read as {'an army' if utype is UnitType.ARMY else 'a fleet'}: no unit type was written")
        loc = Location(pid, spec.place.coast if utype is UnitType.FLEET and len(board.fleet_locations(pid)) > 1 else None)
        if utype is UnitType.FLEET and loc.coast is None and len(board.fleet_locations(pid)) > 1:
            out.append(_Candidate(None, f"invalid: a fleet built in {prov.name} must name its coast", notes))
            continue
        if power is None:
            out.append(_Candidate(None, "invalid: a build must say which power builds", notes))
            continue
        unit = Unit(power, utype, loc)
        n = _place_note(spec.place, pid, board, "the only reading that is a supply centre")
        if n:
            notes.append(n)
        out.append(_Candidate(Build(unit), build_error(position, unit), notes))
    return out


def _balance(position: Position, power: str | None) -> int:
    if power is None:
        return 0
    return len(position.centres_of(power)) - len(position.units_of(power))


def format_unit(unit: Unit) -> str:
    """A unit in canonical form: 'F STP/SC'."""
    return str(unit)


__all__ = ["Reading", "parse_order", "parse_orders", "read_strict", "read_full", "format_order", "format_unit", "name_index"]
