"""Importing the judges' map files (DPjudge and the `diplomacy` package's `.map` format) as variant data.

A `.map` file names its powers with their home centres and starting units, its places
with their full names and aliases, each place's terrain and neighbours, and a few map
rules. This module reads one (following `MAP`/`USE` includes in the same folder), works
out who may move where exactly as the format means it, and writes the result as a
gamesmaster variant file (TOML), which the ordinary variant checker then reads. What the
format can say but the engine cannot play is refused with the file and line that says it.

The format's meaning, restated from the package's map reader (diplomacy 1.1.2,
`diplomacy/engine/map.py`): a neighbour written in upper case may be reached by armies
and fleets, in lower case by armies only, and in mixed case (`Tar`) by fleets only; a
province with coasts has a lower-case entry (`bul`) for its armies and one entry per coast
(`BUL/EC`) for its fleets; `SHUT` places may never be entered; a `PORT` is a coast.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..rules.phase import Phase, PhaseError
from ..rules.variant import Variant
from .loader import VariantError, parse_variant
from .schematic import schematic_toml
from .svg_layout import SvgLayoutError, svg_geometry_toml

MAX_BYTES = 512_000  # the largest package map is 40 kB
MAX_LINES = 10_000
MAX_INCLUDES = 4  # MAP/USE depth: the package's maps include at most one level
MAX_PLACES = 2_000

TERRAIN = {"WATER": "sea", "COAST": "coast", "PORT": "coast", "LAND": "land", "SHUT": "impassable"}
SUPPORTED_RULES = {"BUILD_ANY"}
COLOURS = ("#c0392b", "#2e4a9e", "#5dade2", "#555555", "#27ae60", "#bbbbbb", "#d4ac0d", "#8e44ad",
           "#e67e22", "#16a085", "#a04000", "#f1948a", "#1abc9c", "#7d3c98", "#b7950b", "#34495e")
_FILE_NAME = re.compile(r"[A-Za-z0-9_\-]{1,64}(\.map)?")
_POWER_ID = re.compile(r"[A-Z][A-Z0-9_\-]{0,31}")


class MapImportError(VariantError):
    """A map file that cannot be imported; each problem names its file and line."""


@dataclass
class _Power:
    """A power as the file declares it: names, homes and starting units."""

    id: str
    adjective: str
    where: str
    homes: list[str] = field(default_factory=list)
    units: list[tuple[str, str]] = field(default_factory=list)  # (unit text, where)


@dataclass
class _Reading:
    """Everything read from a map file and its includes, before conversion."""

    names: dict[str, str] = field(default_factory=dict)  # abbreviation (upper) -> full name
    aliases: dict[str, list[str]] = field(default_factory=dict)
    terrain: dict[str, str] = field(default_factory=dict)  # place as written (case kept) -> WATER/...
    abuts: dict[str, list[str]] = field(default_factory=dict)
    where: dict[str, str] = field(default_factory=dict)  # place -> "file:line"
    powers: dict[str, _Power] = field(default_factory=dict)
    unowned: list[str] = field(default_factory=list)
    dummies: list[str] = field(default_factory=list)
    rules: list[tuple[str, str]] = field(default_factory=list)
    victory: int | None = None
    begin: tuple[str, str] | None = None  # ("SPRING 1901 MOVEMENT", where)
    problems: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)

    def problem(self, where: str, message: str) -> None:
        """Note one problem at a file and line."""
        self.problems.append(f"{where}: {message}")


def import_map(path: str | Path, variant_id: str) -> tuple[str, Variant]:
    """Read a map file and return (variant TOML text, checked Variant); MapImportError lists every problem."""
    path = Path(path)
    if not re.fullmatch(r"[a-z0-9][a-z0-9\-]{0,39}", variant_id):
        raise MapImportError(variant_id[:40], ["the variant id must be 1-40 lower-case letters, digits or '-'"])
    reading = _Reading()
    _read(path, reading, depth=0)
    if reading.problems:
        raise MapImportError(str(path), reading.problems)
    text = _Converter(reading, variant_id, path.name).toml()
    if reading.problems:
        raise MapImportError(str(path), reading.problems)
    try:
        variant = parse_variant(text, f"{path} (as {variant_id}.toml)")
    except VariantError as exc:
        raise MapImportError(str(path), [f"the converted map does not check: {p}" for p in exc.problems]) from None
    return text, variant


def install_map(path: str | Path, variant_id: str, replace: bool = False, svg: str | Path | None = None) -> Path:
    """Import a map file (drawn from svg, or schematically) into the installed variants; nothing is written if refused."""
    from .loader import installed_dir, variant_names  # noqa: PLC0415 - the folder is read at call time

    if variant_id in variant_names() and not (replace and (installed_dir() / f"{variant_id}.toml").is_file()):
        raise MapImportError(variant_id, [f"a variant named {variant_id!r} already exists"
                                          + ("" if replace else " (--replace replaces an installed one)")])
    text, variant = import_map(path, variant_id)
    if svg is None:
        geometry = schematic_toml(variant)
    else:
        try:
            geometry = svg_geometry_toml(variant, Path(svg))
        except SvgLayoutError as exc:
            raise MapImportError(str(svg), exc.problems) from None
    folder = installed_dir()
    (folder / "geometry").mkdir(parents=True, exist_ok=True)
    drawing = folder / "geometry" / f".{variant_id}.toml.part"
    drawing.write_text(geometry, encoding="utf-8")
    drawing.replace(folder / "geometry" / f"{variant_id}.toml")
    target = folder / f"{variant_id}.toml"
    partial = folder / f".{variant_id}.toml.part"
    partial.write_text(text, encoding="utf-8")
    partial.replace(target)  # the variant last: it is found only once whole, with its drawing
    forget(variant_id)
    return target


def forget(variant_id: str) -> None:
    """Drop a variant from the loaders' caches (after installing it again)."""
    from . import geometry, loader  # noqa: PLC0415

    loader._CACHE.pop(variant_id, None)
    geometry._CACHE.pop(variant_id, None)


def _read(path: Path, reading: _Reading, depth: int) -> None:
    """Read one map file into reading, following its includes (bounded in depth, size and count)."""
    label = path.name
    if depth > MAX_INCLUDES:
        reading.problem(label, f"MAP/USE includes nested more than {MAX_INCLUDES} deep")
        return
    if label in reading.files:
        reading.problem(label, "included twice (a map that includes itself?)")
        return
    reading.files.append(label)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            reading.problem(label, f"{size} bytes: a map file may be at most {MAX_BYTES}")
            return
        raw = path.read_bytes()
    except OSError as exc:
        reading.problem(label, f"cannot be read: {exc.strerror or exc}")
        return
    if b"\0" in raw:
        reading.problem(label, "is not a text file (it holds NUL bytes)")
        return
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        reading.problem(label, f"is not UTF-8 text (byte {exc.start})")
        return
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        reading.problem(label, f"{len(lines)} lines: a map file may have at most {MAX_LINES}")
        return
    power: _Power | None = None
    for n, line in enumerate(lines, 1):
        where = f"{label}:{n}"
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if len(reading.terrain) > MAX_PLACES:
            reading.problem(where, f"more than {MAX_PLACES} places")
            return
        key = words[0].upper()
        if key == "VICTORY":
            if len(words) < 2 or not words[1].isdigit():
                reading.problem(where, "VICTORY needs a number of centres")
            else:
                reading.victory = int(words[1])
        elif key in ("MAP", "USE", "USES"):
            for name in words[1:]:
                if not _FILE_NAME.fullmatch(name):
                    reading.problem(where, f"{key} {name[:40]!r}: only a map file in the same folder may be included")
                    continue
                _read(path.with_name(name if name.endswith(".map") else name + ".map"), reading, depth + 1)
        elif key == "BEGIN":
            reading.begin = (" ".join(words[1:]).upper(), where)
        elif key in ("RULE", "RULES"):
            reading.rules.extend((rule.upper(), where) for rule in words[1:])
        elif "=" in line:
            _name_line(line, where, reading)
        elif key in ("OWNS", "CENTERS", "INHABITS"):
            reading.problem(where, f"{key}: starting ownership other than the home centres is not supported")
        elif key in ("HOME", "HOMES"):
            if power is None:
                reading.problem(where, f"{key} before any power")
            else:
                power.homes = []
                _add_homes(power.homes, words[1:], reading)
        elif key == "UNITS":
            if power is None:
                reading.problem(where, "UNITS before any power")
            else:
                power.units = []
        elif key in ("A", "F"):
            if power is None or len(words) != 2:
                reading.problem(where, f"unit {line.strip()[:40]!r} must follow its power and read 'A PAR'")
            else:
                unit = f"{key} {words[1].upper()}"
                for other in reading.powers.values():
                    other.units = [u for u in other.units if u[0][2:5] != unit[2:5]]
                power.units.append((unit, where))
        elif key in ("DUMMY", "DUMMIES"):
            _dummies(words, power, where, reading)
            if len(words) > 1:
                power = None
        elif key == "DROP":
            for place in words[1:]:
                _drop(place.upper(), reading)
        elif len(words) > 1 and key in ("AMEND", *TERRAIN):
            _place_line(words, where, reading)
        elif key == "UNPLAYED":
            goners = _unplayed(words, power, where, reading)
            for goner in goners:
                if reading.powers.pop(goner, None) is None:
                    reading.problem(where, f"UNPLAYED {goner}: no such power")
                reading.dummies = [d for d in reading.dummies if d != goner]
            power = None
        else:
            power = _power_line(words, where, reading)


def _name_line(line: str, where: str, reading: _Reading) -> None:
    """`Full Name = abbreviation alias...`: a place's name and the words players may write for it."""
    name, _, rest = line.partition("=")
    words = rest.split()
    if "->" in name:
        reading.problem(where, "renaming a place (->) is not supported")
        return
    if not words:
        reading.problem(where, f"{name.strip()[:40]!r} = needs an abbreviation")
        return
    abbrev = words[0].upper()
    if "/" in abbrev:
        return  # a coast's own name: gamesmaster names coasts after their province
    reading.names[abbrev] = name.strip()[:60]
    reading.aliases[abbrev] = [w.replace("+", " ").lower()[:40] for w in words[1:]
                               if re.fullmatch(r"[A-Za-z][A-Za-z.+]{0,39}", w)]


def _add_homes(homes: list[str], words: list[str], reading: _Reading) -> None:
    """Add (or with a leading '-', remove) home centres; every named centre is a supply centre."""
    for word in words:
        centre = word.upper().lstrip("-")
        if not centre:
            continue
        if centre in homes:
            homes.remove(centre)
        reading.unowned.append(centre)
        if not word.startswith("-"):
            homes.append(centre)


def _power_line(words: list[str], where: str, reading: _Reading) -> _Power | None:
    """`POWER (ADJECTIVE) homes...`, or `UNOWNED homes...`: returns the power the lines below belong to."""
    key = words[0].upper()
    if key in ("UNOWNED", "NEUTRAL", "CENTERS"):
        _add_homes([], words[1:], reading)
        return None
    if len(words) > 2 and words[1] == "->":
        reading.problem(where, "renaming a power (->) is not supported")
        return None
    if not _POWER_ID.fullmatch(key):
        reading.problem(where, f"{words[0][:40]!r} is not a keyword, a power or a place line")
        return None
    power = reading.powers.get(key)
    rest = words[1:]
    adjective = key.capitalize()
    if rest and rest[0].startswith("("):
        adjective = rest[0].strip("()").split(":")[0].replace("+", " ") or adjective
        rest = rest[1:]
    if power is None:
        power = reading.powers[key] = _Power(key, adjective.title(), where)
    _add_homes(power.homes, rest, reading)
    return power


def _dummies(words: list[str], power: _Power | None, where: str, reading: _Reading) -> None:
    """`DUMMY` after a power, `DUMMY POWER...` or `DUMMY ALL [EXCEPT POWER...]`: powers no one plays."""
    if len(words) == 1:
        if power is None:
            reading.problem(where, "DUMMY before any power")
        elif power.id not in reading.dummies:
            reading.dummies.append(power.id)
        return
    if words[1].upper() != "ALL":
        names = [w.upper() for w in words[1:]]
    elif len(words) == 2:
        names = list(reading.powers)
    elif words[2].upper() == "EXCEPT":
        spared = {w.upper() for w in words[3:]}
        names = [p for p in reading.powers if p not in spared]
    else:
        reading.problem(where, "DUMMY ALL may only be followed by EXCEPT and powers")
        return
    reading.dummies.extend(n for n in names if n not in reading.dummies)


def _unplayed(words: list[str], power: _Power | None, where: str, reading: _Reading) -> list[str]:
    """The powers an `UNPLAYED` line removes (commas between names allowed)."""
    names = [w.strip(",").upper() for w in words[1:] if w.strip(",")]
    if not names:
        if power is None:
            reading.problem(where, "UNPLAYED before any power")
            return []
        return [power.id]
    if names[0] != "ALL":
        return names
    spared = set(names[2:]) if len(names) > 2 and names[1] == "EXCEPT" else set()
    return [p for p in reading.powers if p not in spared]


def _place_line(words: list[str], where: str, reading: _Reading) -> None:
    """`COAST ABC ABUTS ...` (or LAND, WATER, PORT, SHUT, AMEND): a place's terrain and neighbours."""
    key, place = words[0].upper(), words[1]
    if len(words) > 2 and words[2].upper() != "ABUTS":
        reading.problem(where, f"{place}: expected ABUTS after the place")
        return
    other = place.swapcase()
    if other in reading.terrain:
        if key == "AMEND":
            reading.terrain[place] = reading.terrain[other]
            reading.abuts[place] = reading.abuts.get(other, [])
        reading.terrain.pop(other)
        reading.abuts.pop(other, None)
    if key == "AMEND":
        if place not in reading.terrain:
            reading.problem(where, f"AMEND {place}: no such place to amend")
            return
    else:
        reading.terrain[place] = key
        if len(words) > 2 or place not in reading.abuts:
            reading.abuts[place] = []
    reading.where[place] = where
    for dest in words[3:]:
        if dest.startswith("-"):
            reading.abuts[place] = [s for s in reading.abuts[place] if not s.upper().startswith(dest[1:].upper())]
        else:
            reading.abuts[place].append(dest)


def _drop(place: str, reading: _Reading) -> None:
    """`DROP ABC`: remove a place, its coasts, and every mention of it."""
    def gone(name: str) -> bool:
        return name.upper().startswith(place)

    for loc in [p for p in reading.terrain if gone(p)]:
        reading.terrain.pop(loc)
        reading.abuts.pop(loc, None)
    for loc, abuts in reading.abuts.items():
        reading.abuts[loc] = [a for a in abuts if not gone(a)]
    reading.names.pop(place, None)
    reading.unowned = [c for c in reading.unowned if not gone(c)]
    for power in reading.powers.values():
        power.homes = [c for c in power.homes if not gone(c)]
        power.units = [u for u in power.units if not u[0][2:].startswith(place[:3])]


class _Converter:
    """Turns a reading into variant TOML, refusing what the engine cannot play."""

    def __init__(self, reading: _Reading, variant_id: str, source: str) -> None:
        self.r = reading
        self.id = variant_id
        self.source = source

    def _abut_entry(self, unit: str, loc: str, other: str) -> str | None:
        """The neighbour entry of loc through which `unit` may move to other (upper case), or None."""
        abuts = self.r.abuts.get(loc)
        if abuts is None:
            abuts = self.r.abuts.get(loc.lower(), [])
        for entry in abuts:
            up = entry.upper()
            if other in (up, up.split("/")[0]):
                return entry
        return None

    def _type(self, loc: str) -> str | None:
        return self.r.terrain.get(loc.upper()) or self.r.terrain.get(loc.lower())

    def _fleet_can_be(self, loc: str) -> bool:
        """A fleet may stand on a water, coast or port place; not on a bare province that has coasts."""
        kind = self._type(loc)
        return kind in ("WATER", "COAST", "PORT") and (loc.lower() not in self.r.abuts or "/" in loc)

    def moves(self, unit: str, loc: str, other: str) -> bool:
        """Whether a unit of this type on loc may move to other, as the format means it."""
        entry = self._abut_entry(unit, loc, other)
        kind = self._type(other)
        if entry is None or kind is None or kind == "SHUT":
            return False
        if unit == "A":
            return "/" not in other and kind != "WATER" and entry != entry.title()
        return kind != "LAND" and entry[0] == entry[0].upper() and other in self.r.terrain

    def toml(self) -> str:
        """The variant file for this map."""
        r = self.r
        provinces: dict[str, dict[str, object]] = {}
        coasts: dict[str, list[str]] = {}
        for loc in r.terrain:
            pid, _, coast = loc.upper().partition("/")
            if coast:
                coasts.setdefault(pid, []).append(coast)
                continue
            if not re.fullmatch(r"[A-Z0-9]{2,5}", pid):
                r.problem(r.where[loc], f"place {loc!r}: gamesmaster ids are 2-5 letters or digits")
            provinces[pid] = {"terrain": TERRAIN[r.terrain[loc]]}
        for pid in coasts:
            if pid not in provinces:
                r.problem(self.source, f"{pid} has coasts but no line of its own")
        centres = set(r.unowned)
        for power in r.powers.values():
            centres.update(power.homes)
        for c in sorted(centres):
            if c not in provinces:
                r.problem(self.source, f"supply centre {c} is not a place on the map")
        all_locs = [loc.upper() for loc in r.terrain]
        army: dict[str, list[str]] = {}
        fleet: dict[str, list[str]] = {}
        for loc in all_locs:
            if "/" not in loc and self._type(loc) in ("LAND", "COAST", "PORT"):
                army[loc] = sorted(o for o in all_locs if o != loc and self.moves("A", loc, o))
            if self._fleet_can_be(loc):
                fleet[loc] = sorted(o for o in all_locs if o != loc and self._fleet_can_be(o) and self.moves("F", loc, o))
        for edges, kind in ((army, "army"), (fleet, "fleet")):
            for loc, targets in edges.items():
                for other in targets:
                    if loc not in edges.get(other, []):
                        where = r.where.get(loc) or r.where.get(loc.lower()) or self.source
                        r.problem(where, f"one-way {kind} move {loc} -> {other}: the engine plays every "
                                         f"adjacency both ways")
        self._check_powers(provinces, centres)
        if r.problems:
            return ""
        return self._write(provinces, coasts, centres, army, fleet)

    def _check_powers(self, provinces: dict[str, dict[str, object]], centres: set[str]) -> None:
        r = self.r
        if len(r.powers) < 2:
            r.problem(self.source, "a map needs at least two powers")
        for rule, where in r.rules:
            if rule not in SUPPORTED_RULES:
                r.problem(where, f"map rule {rule} is not supported (gamesmaster plays {', '.join(sorted(SUPPORTED_RULES))})")
        taken: dict[str, str] = {}
        for power in r.powers.values():
            for c in power.homes:
                if c in taken:
                    r.problem(power.where, f"{power.id}: home centre {c} is also {taken[c]}'s (shared homes are not supported)")
                taken[c] = power.id
        for d in r.dummies:
            if d not in r.powers:
                r.problem(self.source, f"DUMMY {d}: no such power")
        if r.begin is not None:
            words = r.begin[0].split()
            if len(words) != 3 or words[0] != "SPRING" or words[2] != "MOVEMENT" or not words[1].isdigit():
                r.problem(r.begin[1], f"BEGIN {r.begin[0]}: only a game starting in a Spring movement phase is supported")

    def _write(self, provinces: dict[str, dict[str, object]], coasts: dict[str, list[str]], centres: set[str],
               army: dict[str, list[str]], fleet: dict[str, list[str]]) -> str:
        r = self.r
        start = "S1901M"
        if r.begin is not None:
            try:
                start = str(Phase.parse(f"S{int(r.begin[0].split()[1])}M"))
            except PhaseError as exc:
                r.problem(r.begin[1], str(exc))
        victory = r.victory if r.victory else len(centres) // 2 + 1
        out = [f"# Imported by `gamesmaster variant import` from {self.source} (the judges' .map format).",
               "# Edit the map file and import it again rather than editing this file.", "",
               "[variant]", f"name = {_q(self.id)}", f"title = {_q(self.id.replace('-', ' ').title())}",
               f"start = {_q(start)}", f"centres = {len(centres)}", f"victory = {victory}", 'rules = "2023"']
        if any(rule == "BUILD_ANY" for rule, _ in r.rules):
            out.append("build_anywhere = true")
        if r.dummies:
            out.append(f"neutral = {_list(r.dummies)}")
        out.append(f"imported_from = {_q(self.source)}")
        for i, power in enumerate(r.powers.values()):
            out += ["", f"[power.{_q(power.id)}]", f"name = {_q(power.id.replace('-', ' ').title())}",
                    f"adjective = {_q(power.adjective)}", f"colour = {_q(COLOURS[i % len(COLOURS)])}",
                    f"home = {_list(power.homes)}", f"units = {_list([u for u, _ in power.units])}"]
        seen_alias: dict[str, int] = {}
        for words in r.aliases.values():
            for w in set(words):
                seen_alias[w] = seen_alias.get(w, 0) + 1
        for pid in sorted(provinces):
            table = provinces[pid]
            out += ["", f"[space.{pid}]", f"name = {_q(r.names.get(pid, pid.title()))}",
                    f"terrain = {_q(str(table['terrain']))}"]
            if pid in centres:
                out.append("centre = true")
            aliases = sorted({a for a in r.aliases.get(pid, []) if seen_alias[a] == 1 and a.upper() != pid})
            if aliases:
                out.append(f"aliases = {_list(aliases)}")
            if pid in army:
                out.append(f"army = {_list(army[pid])}")
            if pid in coasts:
                out.append(f"coasts = {_list(sorted(coasts[pid]))}")
                for c in sorted(coasts[pid]):
                    out.append(f"fleet.{c} = {_list(fleet.get(f'{pid}/{c}', []))}")
            elif pid in fleet and table["terrain"] != "land":
                out.append(f"fleet = {_list(fleet[pid])}")
                if table["terrain"] == "coast" and not fleet[pid]:
                    out.append("landlocked = true  # called a coast, but no fleet can move from it")
                elif table["terrain"] == "coast" and not any(provinces.get(o, {}).get("terrain") == "sea" for o in fleet[pid]):
                    out.append("river = true  # reached by fleets only along a river, from other coasts")
        return "\n".join(out) + "\n"


def _q(text: str) -> str:
    """A TOML basic string."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _list(items: list[str]) -> str:
    """A TOML list of strings."""
    return "[" + ", ".join(_q(i) for i in items) + "]"
