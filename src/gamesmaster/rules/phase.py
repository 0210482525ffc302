"""Seasons and phases: 'S1901M' is the Spring 1901 movement."""

from __future__ import annotations

import re
from typing import NamedTuple

SEASON_NAMES = {"S": "Spring", "F": "Fall", "W": "Winter"}
KIND_NAMES = {"M": "movement", "R": "retreats", "A": "adjustments"}

_PHASE = re.compile(r"^\s*([SFW])\s*(\d{1,5})\s*([MRA])\s*$", re.IGNORECASE)


_KNOWN: dict[str, "Phase"] = {}  # phases read before: a door reads the same few thousand times


class PhaseError(ValueError):
    """A phase name that doesn't parse."""


class Phase(NamedTuple):
    """A season of a game year and what is played in it."""

    season: str  # S, F or W
    year: int
    kind: str  # M (movement), R (retreats) or A (adjustments)

    def __str__(self) -> str:
        return f"{self.season}{self.year}{self.kind}"

    @classmethod
    def parse(cls, text: str) -> "Phase":
        """Read 'S1901M'; raise PhaseError naming the text if it is not a phase."""
        known = _KNOWN.get(text) if type(text) is str else None
        if known is not None:
            return known
        phase = cls._parse(text)
        if len(_KNOWN) < 4096:
            _KNOWN[text] = phase
        return phase

    @classmethod
    def _parse(cls, text: str) -> "Phase":
        m = _PHASE.match(text or "")
        if not m:
            raise PhaseError(f"phase {text!r} does not parse: expected S/F/W, a year and M/R/A, e.g. 'S1901M'")
        season, year, kind = m.group(1).upper(), int(m.group(2)), m.group(3).upper()
        if season == "W" and kind != "A" or season != "W" and kind == "A":
            raise PhaseError(f"phase {text!r}: adjustments are played in Winter and only then")
        return cls(season, year, kind)

    @property
    def title(self) -> str:
        """The phase in words: 'Spring 1901 movement'."""
        return f"{SEASON_NAMES[self.season]} {self.year} {KIND_NAMES[self.kind]}"

    @property
    def is_movement(self) -> bool:
        """A Spring or Fall movement phase."""
        return self.kind == "M"

    @property
    def is_retreat(self) -> bool:
        """A retreat phase."""
        return self.kind == "R"

    @property
    def is_adjustment(self) -> bool:
        """The Winter builds and removals."""
        return self.kind == "A"

    @property
    def order(self) -> tuple[int, int, int]:
        """A key that sorts phases in the order they are played (year, season, kind)."""
        return (self.year, "SFW".index(self.season), "MRA".index(self.kind))

    def following(self) -> "Phase":
        """The phase that comes next in the full cycle (no phase is skipped)."""
        if self.kind == "M":
            return Phase(self.season, self.year, "R")
        if self.season == "S":
            return Phase("F", self.year, "M")
        if self.season == "F":
            return Phase("W", self.year, "A")
        return Phase("S", self.year + 1, "M")
