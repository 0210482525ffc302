"""Reading and checking variant files (TOML): a broken map is refused line by line."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..config import Paths
from ..rules.geography import Location, Map, Province, Terrain, UnitType
from ..rules.phase import Phase, PhaseError
from ..rules.variant import Power, Variant

DATA = Path(__file__).with_name("data")


def installed_dir() -> Path:
    """Where `gamesmaster variant import` installs variants: the data directory's variants/ ($GAMESMASTER_DATA)."""
    return Paths.from_environ().data_dir / "variants"


class VariantError(ValueError):
    """A variant file with problems; `problems` lists each with its line."""

    def __init__(self, path: str, problems: list[str]) -> None:
        self.path = path
        self.problems = problems
        super().__init__(f"{path}: " + "; ".join(problems))


@dataclass
class _Lines:
    """Where each table and key of a TOML file starts, to name lines in messages."""

    tables: dict[str, int]
    keys: dict[tuple[str, str], int]

    @classmethod
    def scan(cls, text: str) -> "_Lines":
        tables: dict[str, int] = {}
        keys: dict[tuple[str, str], int] = {}
        current = ""
        for n, line in enumerate(text.splitlines(), 1):
            stripped = line.strip()
            m = re.match(r"^\[\s*([^\]]+?)\s*\]", stripped)
            if m and not stripped.startswith("[["):
                current = m.group(1).replace('"', "")
                tables.setdefault(current, n)
                continue
            m = re.match(r"^([A-Za-z0-9_.\-\"]+)\s*=", stripped)
            if m:
                keys.setdefault((current, m.group(1).replace('"', "")), n)
        return cls(tables, keys)

    def at(self, table: str, key: str | None = None) -> int:
        if key is not None and (table, key) in self.keys:
            return self.keys[(table, key)]
        return self.tables.get(table, 0)


def variant_names() -> list[str]:
    """The variants shipped with gamesmaster and those installed beside them (a shipped name wins)."""
    return sorted({p.stem for p in DATA.glob("*.toml")} | set(installed_names()))


def installed_names() -> list[str]:
    """The variants installed by `gamesmaster variant import`."""
    folder = installed_dir()
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.toml") if re.fullmatch(r"[a-z0-9][a-z0-9\-]{0,39}", p.stem))


def variant_path(name: str) -> Path:
    """The data file of a shipped variant (VariantError if there is none)."""
    # Only a shipped name may reach the file system: never a path or a stray string.
    if not isinstance(name, str) or name not in variant_names():
        raise VariantError(str(name)[:40], [f"unknown variant {str(name)[:40]!r} (known: {', '.join(variant_names())})"])
    path = DATA / f"{name}.toml"
    if not path.is_file():
        path = installed_dir() / f"{name}.toml"
    if not path.is_file():
        raise VariantError(name, [f"unknown variant {name!r} (known: {', '.join(variant_names())})"])
    return path


_CACHE: dict[str, Variant] = {}


def load_variant(name: str = "standard") -> Variant:
    """A shipped variant by name (read once, then cached), with its spaces' map coordinates."""
    key = name.strip().lower()
    if key not in _CACHE:
        variant = load_variant_file(variant_path(key))
        _CACHE[key] = _with_coordinates(variant)
    return _CACHE[key]


def _with_coordinates(variant: Variant) -> Variant:
    """Give each province the coordinates of its drawing, where the map has one."""
    from .geometry import load_geometry  # geometry reads this module's paths

    try:
        shapes = load_geometry(variant.name).spaces
    except VariantError:
        return variant
    board = variant.map
    provinces = {pid: replace(p, xy=shapes[pid].xy) if pid in shapes else p for pid, p in board.provinces.items()}
    return replace(variant, map=replace(board, provinces=provinces))


def load_variant_file(path: str | Path) -> Variant:
    """Read and check a variant file; VariantError lists every problem with its line."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    return parse_variant(text, str(path))


def parse_variant(text: str, source: str = "<variant>") -> Variant:
    """Read and check variant TOML text (a set-up may name a `base` map whose data it reuses)."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(source, [_toml_problem(text, str(exc))]) from None
    lines = _Lines.scan(text)
    base = doc.get("variant", {}).get("base") if isinstance(doc.get("variant"), dict) else None
    if base:
        try:
            base_path = variant_path(str(base))
        except VariantError:
            raise VariantError(source, [f"line {lines.at('variant', 'base')}: unknown base map {base!r}"]) from None
        base_doc = tomllib.loads(base_path.read_text(encoding="utf-8"))
        merged = {**base_doc, **{k: v for k, v in doc.items() if k not in ("variant", "power")}}
        merged["variant"] = {**base_doc.get("variant", {}), **doc["variant"]}
        merged["power"] = {pid: {**table, **doc.get("power", {}).get(pid, {})}
                           for pid, table in base_doc.get("power", {}).items()}
        unknown = set(doc.get("power", {})) - set(merged["power"])
        if unknown:
            raise VariantError(source, [f"line {lines.at('power.' + sorted(unknown)[0])}: unknown power "
                                        f"{sorted(unknown)[0]!r}: a set-up can only change the base map's powers"])
        doc = merged
    return _Checker(doc, lines, source).variant()


def _toml_problem(text: str, message: str) -> str:
    """Name the line of a TOML syntax error; an unclosed list is blamed on its opening line."""
    m = re.search(r"\(at line (\d+), column \d+\)", message)
    line = int(m.group(1)) if m else 0
    lines = text.splitlines()
    depth, opened = 0, 0
    for n, raw in enumerate(lines[:line], 1):
        code = raw.split("#", 1)[0]
        if code.lstrip().startswith("["):
            continue  # a table header, not a list
        for ch in code:
            if ch == "[" and "=" in code:
                depth += 1
                opened = opened or n
            elif ch == "]" and depth:
                depth -= 1
                if depth == 0:
                    opened = 0
    if depth and opened:
        line = opened
    reason = re.sub(r"\s*\(at line \d+, column \d+\)", "", message)
    return f"line {line}: not valid TOML: {reason}" if line else f"not valid TOML: {reason}"


class _Checker:
    def __init__(self, doc: dict[str, Any], lines: _Lines, source: str) -> None:
        self.doc = doc
        self.lines = lines
        self.source = source
        self.problems: list[str] = []

    def problem(self, line: int, message: str) -> None:
        self.problems.append(f"line {line}: {message}" if line else message)

    def variant(self) -> Variant:
        meta = self.doc.get("variant", {})
        spaces = self.doc.get("space", {})
        powers_doc = self.doc.get("power", {})
        if not isinstance(meta, dict) or not meta.get("name"):
            self.problem(self.lines.at("variant"), "[variant] needs a name")
        if not spaces:
            self.problem(0, "no [space.X] tables: a map needs spaces")
        provinces, army, fleet = self._spaces(spaces)
        board = Map.build(provinces, army, fleet)
        powers, start_units = self._powers(powers_doc, board)
        try:
            start = Phase.parse(str(meta.get("start", "S1901M")))
        except PhaseError as exc:
            self.problem(self.lines.at("variant", "start"), str(exc))
            start = Phase("S", 1901, "M")
        centres = sum(1 for p in provinces if p.supply_centre)
        declared = meta.get("centres")
        if declared is not None and declared != centres:
            self.problem(self.lines.at("variant", "centres"),
                         f"centres = {declared} but the map marks {centres} supply centres")
        victory = meta.get("victory", centres // 2 + 1)
        if not isinstance(victory, int) or not 0 < victory <= max(centres, 1):
            self.problem(self.lines.at("variant", "victory"), f"victory = {victory!r} is not a number of centres on this map")
        if self.problems:
            raise VariantError(self.source, self.problems)
        neutral, closed, players, victory_rule = self._setup(meta, powers, board)
        coin_toss = None
        if "coin_toss" in meta:
            toss = meta["coin_toss"]
            try:
                coin_toss = (str(toss["power"]), str(Phase.parse(toss["before"])), str(Phase.parse(toss["joins"])))
            except (KeyError, TypeError, PhaseError) as exc:
                self.problem(self.lines.at("variant", "coin_toss"), f"coin_toss needs power, before and joins phases ({exc})")
            else:
                if coin_toss[0] not in neutral:
                    self.problem(self.lines.at("variant", "coin_toss"), f"coin_toss: {coin_toss[0]} is not a neutral power")
        if self.problems:
            raise VariantError(self.source, self.problems)
        return Variant(
            name=str(meta.get("name")), title=str(meta.get("title", meta.get("name"))), map=board,
            powers=powers, start=start, start_units=start_units, victory_centres=int(victory),
            default_rules=str(meta.get("rules", "2023")), victory_rule=victory_rule,
            neutral=neutral, closed=closed, players=players, coin_toss=coin_toss,
            build_anywhere=bool(meta.get("build_anywhere", False)))

    def _setup(self, meta: dict[str, Any], powers: dict[str, Power], board: Map) -> tuple[
            tuple[str, ...], dict[str, tuple[str, ...]], tuple[tuple[str, tuple[str, ...]], ...], str | None]:
        """The player-count set-up keys: neutral, closed, victory_rule and [[player]]."""
        neutral = tuple(meta.get("neutral", ()))
        for pid in neutral:
            if pid not in powers:
                self.problem(self.lines.at("variant", "neutral"), f"neutral: unknown power {pid!r}")
        closed: dict[str, tuple[str, ...]] = {}
        for pid, provinces in dict(meta.get("closed", {})).items():
            if pid not in powers:
                self.problem(self.lines.at("variant", "closed"), f"closed: unknown power {pid!r}")
            for prov in provinces:
                if prov not in board.provinces:
                    self.problem(self.lines.at("variant", "closed"), f"closed: unknown id {prov!r}")
            closed[pid] = tuple(provinces)
        victory_rule = meta.get("victory_rule")
        if victory_rule is not None and victory_rule not in ("centres", "units", "majority", "majority-winter"):
            self.problem(self.lines.at("variant", "victory_rule"), f"victory_rule {victory_rule!r} is not a victory criterion")
        players = []
        seen: set[str] = set()
        for entry in self.doc.get("player", []):
            names = tuple(entry.get("powers", ()))
            for pid in names:
                if pid not in powers:
                    self.problem(self.lines.at("player", "powers"), f"player {entry.get('name')!r}: unknown power {pid!r}")
                elif pid in seen:
                    self.problem(self.lines.at("player", "powers"), f"power {pid} is given to two players")
                seen.add(pid)
            players.append((str(entry.get("name", "/".join(names))), names))
        return neutral, closed, tuple(players), victory_rule

    def _spaces(self, spaces: dict[str, Any]) -> tuple[list[Province], list[tuple[str, str]], list[tuple[Location, Location]]]:
        provinces: list[Province] = []
        declared_army: dict[str, set[str]] = {}
        declared_fleet: dict[Location, set[Location]] = {}
        where_army: dict[str, int] = {}
        where_fleet: dict[Location, int] = {}
        for pid, table in spaces.items():
            line = self.lines.at(f"space.{pid}")
            if not re.fullmatch(r"[A-Z0-9]{2,5}", pid):
                self.problem(line, f"space id {pid!r} must be 2-5 capital letters or digits")
            try:
                terrain = Terrain(table.get("terrain", ""))
            except ValueError:
                self.problem(self.lines.at(f"space.{pid}", "terrain") or line,
                             f"{pid}: terrain must be land, coast, sea or impassable, not {table.get('terrain')!r}")
                continue
            coasts = tuple(table.get("coasts", ()))
            xy = table.get("xy")
            provinces.append(Province(
                id=pid, name=str(table.get("name", pid)), terrain=terrain,
                supply_centre=bool(table.get("centre", False)), coasts=coasts,
                aliases=tuple(table.get("aliases", ())), convoys=bool(table.get("convoys", True)),
                xy=tuple(xy) if xy else None))
            if "army" in table:
                if terrain not in (Terrain.LAND, Terrain.COAST):
                    self.problem(self.lines.at(f"space.{pid}", "army"), f"{pid} is {terrain.value}: armies cannot be there")
                declared_army[pid] = set(table["army"])
                where_army[pid] = self.lines.at(f"space.{pid}", "army")
            elif terrain in (Terrain.LAND, Terrain.COAST):
                self.problem(line, f"{pid} is {terrain.value} but has no army neighbours")
            fleet = table.get("fleet")
            if isinstance(fleet, dict):
                if sorted(fleet) != sorted(coasts):
                    self.problem(self.lines.at(f"space.{pid}", "coasts") or line,
                                 f"{pid}: coasts {list(coasts)} but fleet moves given for {sorted(fleet)}")
                for coast, targets in fleet.items():
                    loc = Location(pid, coast)
                    declared_fleet[loc] = {Location.parse(t) for t in targets}
                    where_fleet[loc] = self.lines.at(f"space.{pid}", f"fleet.{coast}") or line
            elif fleet is not None:
                if coasts:
                    self.problem(self.lines.at(f"space.{pid}", "fleet"), f"{pid} has two coasts: give fleet moves per coast (fleet.{coasts[0]} = [...])")
                if terrain in (Terrain.LAND, Terrain.IMPASSABLE) and not table.get("canal", False):
                    self.problem(self.lines.at(f"space.{pid}", "fleet"), f"{pid} is {terrain.value}: fleets cannot be there")
                loc = Location(pid)
                declared_fleet[loc] = {Location.parse(t) for t in fleet}
                where_fleet[loc] = self.lines.at(f"space.{pid}", "fleet")
            elif terrain in (Terrain.COAST, Terrain.SEA):
                self.problem(line, f"{pid} is {terrain.value} but has no fleet neighbours: a coast with no sea neighbour")
        army_edges: list[tuple[str, str]] = []
        for pid, targets in declared_army.items():
            for other in sorted(targets):
                if other not in spaces:
                    self.problem(where_army[pid], f"{pid}: unknown id {other!r} among its army neighbours")
                elif pid not in declared_army.get(other, set()):
                    self.problem(where_army[pid], f"asymmetric army adjacency: {pid} lists {other} but {other} does not list {pid}")
                elif pid < other:
                    army_edges.append((pid, other))
        fleet_edges: list[tuple[Location, Location]] = []
        for loc, targets in declared_fleet.items():
            for neighbour in sorted(targets, key=str):
                if neighbour.province not in spaces:
                    self.problem(where_fleet[loc], f"{loc}: unknown id {str(neighbour)!r} among its fleet neighbours")
                elif neighbour not in declared_fleet:
                    if spaces[neighbour.province].get("coasts") and neighbour.coast is None:
                        self.problem(where_fleet[loc], f"{loc}: fleet neighbour {neighbour} has two coasts: write which ({neighbour}/{spaces[neighbour.province]['coasts'][0]}, ...)")
                    else:
                        self.problem(where_fleet[loc], f"{loc}: fleet neighbour {neighbour} is not a place a fleet can be")
                elif loc not in declared_fleet[neighbour]:
                    self.problem(where_fleet[loc], f"asymmetric fleet adjacency: {loc} lists {neighbour} but {neighbour} does not list {loc}")
                elif str(loc) < str(neighbour):
                    fleet_edges.append((loc, neighbour))
        # A coast must touch a sea, unless it says it lies on a river ("river = true": the Nile of the
        # Ancient Mediterranean, Alexandria-Memphis-Thebes-Bayuda); then other coasts must lead to one.
        reached = {loc for loc in declared_fleet if spaces.get(loc.province, {}).get("terrain") == "sea"}
        frontier = list(reached)
        while frontier:
            for t in declared_fleet.get(frontier.pop(), ()):
                if t in declared_fleet and t not in reached:
                    reached.add(t)
                    frontier.append(t)
        for loc in declared_fleet:
            prov = spaces.get(loc.province, {})
            seaside = any(spaces.get(t.province, {}).get("terrain") == "sea" for t in declared_fleet[loc])
            # A judge's map may call a space a coast that no fleet can leave ("landlocked = true", with no
            # fleet neighbour): a fleet built there stays, as the map's own engine plays it.
            landlocked = bool(prov.get("landlocked")) and not declared_fleet[loc]
            if prov.get("terrain") == "coast" and not seaside and not landlocked and not (prov.get("river") and loc in reached):
                self.problem(where_fleet[loc], f"{loc}: a coast with no sea neighbour"
                             + (" and no river of coasts to one" if prov.get("river") else ""))
        return provinces, army_edges, fleet_edges

    def _powers(self, powers_doc: dict[str, Any], board: Map) -> tuple[dict[str, Power], dict[str, tuple[tuple[UnitType, Location], ...]]]:
        powers: dict[str, Power] = {}
        units: dict[str, tuple[tuple[UnitType, Location], ...]] = {}
        taken: dict[str, str] = {}
        for pid, table in powers_doc.items():
            home = tuple(table.get("home", ()))
            for c in home:
                line = self.lines.at(f"power.{pid}", "home")
                if c not in board.provinces:
                    self.problem(line, f"{pid}: unknown id {c!r} among its home centres")
                elif not board.provinces[c].supply_centre:
                    self.problem(line, f"{pid}: home centre {c} is not a supply centre")
                elif c in taken:
                    self.problem(line, f"{pid}: home centre {c} is already {taken[c]}'s")
                else:
                    taken[c] = pid
            placed = []
            for text in table.get("units", ()):
                line = self.lines.at(f"power.{pid}", "units")
                parts = str(text).split()
                if len(parts) != 2 or parts[0] not in ("A", "F"):
                    self.problem(line, f"{pid}: starting unit {text!r} must be written 'A PAR' or 'F STP/SC'")
                    continue
                utype, loc = UnitType(parts[0]), Location.parse(parts[1])
                if loc.province not in board.provinces:
                    self.problem(line, f"{pid}: starting unit {text!r} stands on unknown id {loc.province!r}")
                elif not board.can_hold(utype, loc):
                    terrain = board.provinces[loc.province].terrain.value
                    self.problem(line, f"{pid}: starting unit {text!r} is on the wrong terrain ({loc.province} is {terrain})")
                else:
                    placed.append((utype, loc))
            powers[pid] = Power(pid, str(table.get("name", pid.capitalize())), str(table.get("adjective", pid.capitalize())),
                                home, str(table.get("colour", "#888888")), tuple(table.get("aliases", ())))
            units[pid] = tuple(placed)
        if not powers:
            self.problem(0, "no [power.X] tables: a variant needs powers")
        return powers, units
