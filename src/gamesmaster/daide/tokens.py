"""DAIDE tokens: every word of the language is a 16-bit number, and its three-letter name.

The high byte of a token is its category, the low byte its index within it. Integers
(categories 0x00-0x3F) carry a 14-bit two's-complement number; text is one token a
character (category 0x4B, the character's ASCII code in the low byte). Powers and
provinces are numbered per map: a `Vocabulary` names them for one variant, the way the
DAIDE documents number the standard map (provinces grouped by kind -- inland, sea,
coastal, bicoastal, each without and then with a supply centre -- and numbered in
alphabetical order across the groups; powers in alphabetical order). The server tells
a client those numbers in its representation message, so a variant's own provinces work
the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from types import SimpleNamespace
from typing import TYPE_CHECKING, Iterator, Mapping

from ..gm import Terrain, Variant

BRA, KET = 0x4000, 0x4001
TEXT = 0x4B
POWER_CATEGORY = 0x41
PROVINCE_CATEGORIES = range(0x50, 0x58)
INT_MIN, INT_MAX = -8192, 8191

# The fixed tokens, by category: (low byte of the first name, names in sequence).
_FIXED: dict[int, tuple[tuple[int, str], ...]] = {
    0x42: ((0x00, "AMY FLT"),),
    0x43: ((0x20, "CTO CVY HLD MTO SUP VIA"), (0x40, "DSB RTO"), (0x80, "BLD REM WVE")),
    0x44: ((0x00, "MBV BPR CST ESC FAR HSC NAS NMB NMR NRN NRS NSA NSC NSF NSP"), (0x10, "NSU NVR NYU YSC")),
    0x45: ((0x00, "SUC BNC CUT DSR FLD NSO RET"),),
    0x47: ((0x00, "SPR SUM FAL AUT WIN"),),
    0x48: ((0x00, "CCD DRW FRM GOF HLO HST HUH IAM LOD MAP MDF MIS NME NOT NOW OBS OFF ORD OUT PRN REJ SCO SLO "
                  "SND SUB SVE THX TME YES ADM SMR"),),
    0x49: ((0x00, "AOA BTL ERR LVL MRT MTL NPB NPR PDA PTL RTL UNO"), (0x0D, "DSD")),
    0x4A: ((0x00, "ALY AND BWX DMZ ELS EXP FCT FOR FWD HOW IDK IFF INS"), (0x0E, "OCC ORR PCE POB"),
           (0x13, "PRP QRY SCD SRY SUG THK THN TRY"), (0x1C, "VSS WHT WHY XDO XOY YDO CHO BCC UNT NAR CCL")),
}
# Coasts step by two (the low byte is the compass point in eighths of a turn).
_COASTS = "NCS NEC ECS SEC SCS SWC WCS NWC"


def _fixed() -> dict[str, int]:
    names: dict[str, int] = {"BRA": BRA, "KET": KET}
    for category, runs in _FIXED.items():
        for first, words in runs:
            for i, word in enumerate(words.split()):
                names[word] = category << 8 | (first + i)
    for i, word in enumerate(_COASTS.split()):
        names[word] = 0x4600 | (2 * i)
    return names


class Tokens(SimpleNamespace):
    """The fixed tokens by name: T.HLO, T.MTO, ..."""

    if TYPE_CHECKING:
        # Every attribute is a token; declared so that T.HLO is an int to the type checker, not Any.
        def __getattribute__(self, name: str) -> int: ...


FIXED: Mapping[str, int] = _fixed()
T = Tokens(**FIXED)

# gamesmaster's coast ids and DAIDE's coast tokens.
COAST_TOKENS: Mapping[str, int] = {"NC": FIXED["NCS"], "NE": FIXED["NEC"], "EC": FIXED["ECS"], "SE": FIXED["SEC"],
                                   "SC": FIXED["SCS"], "SW": FIXED["SWC"], "WC": FIXED["WCS"], "NW": FIXED["NWC"]}
COAST_IDS: Mapping[int, str] = {v: k for k, v in COAST_TOKENS.items()}

# Where the DAIDE documents name a standard province otherwise than gamesmaster does.
STANDARD_RENAMES = {"BOT": "GOB", "ENG": "ECH", "LYO": "GOL"}
STANDARD_POWERS = {"AUSTRIA": "AUS", "ENGLAND": "ENG", "FRANCE": "FRA", "GERMANY": "GER", "ITALY": "ITA",
                   "RUSSIA": "RUS", "TURKEY": "TUR"}


def integer(value: int) -> int:
    """The token of an integer (-8192..8191); ValueError outside that range."""
    if not INT_MIN <= value <= INT_MAX:
        raise ValueError(f"{value} does not fit in a DAIDE integer ({INT_MIN}..{INT_MAX})")
    return value & 0x3FFF


def is_integer(token: int) -> bool:
    """Whether a token is an integer."""
    return token < 0x4000


def int_value(token: int) -> int:
    """The number an integer token carries."""
    return token - 0x4000 if token & 0x2000 else token


def clamp(value: float) -> int:
    """A count clamped into the integer range (deadlines far off are sent as the largest integer)."""
    return max(INT_MIN, min(INT_MAX, int(value)))


def is_text(token: int) -> bool:
    """Whether a token is one character of text."""
    return token >> 8 == TEXT


def text(string: str) -> list[int]:
    """The tokens of a string (characters outside printable ASCII become '?')."""
    return [TEXT << 8 | (ord(c) if 32 <= ord(c) < 127 else ord("?")) for c in string]


def category(token: int) -> int:
    """A token's category byte."""
    return token >> 8


def _kind(terrain: Terrain, centre: bool, coasts: int) -> int:
    """The DAIDE province category: inland, sea, coastal or bicoastal, without/with a supply centre."""
    base = {Terrain.LAND: 0x50, Terrain.SEA: 0x52, Terrain.COAST: 0x54}[terrain]
    if terrain is Terrain.COAST and coasts > 1:
        base = 0x56
    return base + (1 if centre else 0)


def _candidates(word: str) -> Iterator[str]:
    """Three-letter names for something called `word`: its first three letters, then its first letter and two more."""
    letters = [c for c in word.upper() if c.isalpha()] or ["X"]
    if len(letters) >= 3:
        yield "".join(letters[:3])
    for i in range(1, len(letters)):
        for j in range(i + 1, len(letters)):
            yield letters[0] + letters[i] + letters[j]
    for a in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        for b in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
            yield letters[0] + a + b


@dataclass(frozen=True)
class Vocabulary:
    """Every token of one variant: the fixed ones, its powers and its provinces, both ways."""

    variant: Variant

    @cached_property
    def _naming(self) -> tuple[dict[str, str], dict[str, str]]:
        """(power id -> DAIDE name, province id -> DAIDE name): standard names kept, others made unique."""
        taken = set(FIXED)
        powers: dict[str, str] = {}
        provinces: dict[str, str] = {}
        standard_ids = {p for p in self._passable if len(p) == 3 and p.isalpha()}
        for pid, name in STANDARD_POWERS.items():
            if pid in self.variant.powers:
                powers[pid] = name
                taken.add(name)
        for pid in sorted(standard_ids):
            name = STANDARD_RENAMES.get(pid, pid)
            if name not in taken:
                provinces[pid] = name
                taken.add(name)
        for pid in self.variant.powers:
            if pid not in powers:
                powers[pid] = next(c for c in _candidates(pid) if c not in taken)
                taken.add(powers[pid])
        for pid in self._passable:
            if pid not in provinces:
                word = self.variant.map.provinces[pid].name
                provinces[pid] = next(c for c in [pid.upper()[:3], *_candidates(word)] if c not in taken)
                taken.add(provinces[pid])
        return powers, provinces

    @cached_property
    def _passable(self) -> list[str]:
        return [p.id for p in self.variant.map.provinces.values() if p.terrain is not Terrain.IMPASSABLE]

    @cached_property
    def powers(self) -> Mapping[str, int]:
        """Power id -> token, numbered in alphabetical order of their DAIDE names."""
        names = self._naming[0]
        order = sorted(names, key=lambda p: names[p])
        return {p: POWER_CATEGORY << 8 | i for i, p in enumerate(order)}

    @cached_property
    def provinces(self) -> Mapping[str, int]:
        """Province id -> token, numbered across the kinds of province as the DAIDE documents do."""
        names = self._naming[1]
        board = self.variant.map.provinces

        def kind(pid: str) -> int:
            """The DAIDE category of one of the map's provinces."""
            p = board[pid]
            return _kind(p.terrain, p.supply_centre, len(p.coasts))
        order = sorted(self._passable, key=lambda pid: (kind(pid), names[pid]))
        return {pid: kind(pid) << 8 | i for i, pid in enumerate(order)}

    @cached_property
    def names(self) -> Mapping[int, str]:
        """Token -> its three-letter name (fixed, power and province tokens)."""
        powers, provinces = self._naming
        out = {v: k for k, v in FIXED.items()}
        out.update({t: powers[p] for p, t in self.powers.items()})
        out.update({t: provinces[p] for p, t in self.provinces.items()})
        return out

    @cached_property
    def codes(self) -> Mapping[str, int]:
        """Three-letter name -> token."""
        return {v: k for k, v in self.names.items()}

    @cached_property
    def power_ids(self) -> Mapping[int, str]:
        """Power token -> power id."""
        return {v: k for k, v in self.powers.items()}

    @cached_property
    def province_ids(self) -> Mapping[int, str]:
        """Province token -> province id."""
        return {v: k for k, v in self.provinces.items()}

    def known(self, token: int) -> bool:
        """Whether a token means something in this variant's language."""
        return is_integer(token) or token in self.names or (is_text(token) and (token & 0xFF) < 0x80)

    def representation(self) -> list[tuple[int, str]]:
        """The representation message's entries: each power and province token with its name."""
        return [(t, self.names[t]) for t in sorted([*self.powers.values(), *self.provinces.values()])]
