"""`gamesmaster variant`: list the shipped variants, show one, check a variant file.

    gamesmaster variant list            the shipped variants, one a line
    gamesmaster variant show NAME       powers, home centres, units, spaces, centres, passages
    gamesmaster variant check FILE      validate a variant file: exit 0 with a summary,
                                        or 2 with one line per problem ("FILE: line N: ...")
    gamesmaster variant import PATH.map --id ID [--svg PATH.svg]
                                        import a judges' map file (DPjudge / diplomacy package)
                                        into $GAMESMASTER_DATA/variants/ID.toml, drawn from the
                                        SVG's province regions or, without one, schematically
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import TextIO

from ..gm import default_victory, players_line
from ..rules.geography import Location, Map, Terrain
from ..rules.variant import Variant
from ..variants import VariantError, load_variant, load_variant_file, variant_names
from ..variants.judge_map import install_map as import_judge_map
from ..variants.loader import variant_path
from .options import Command, CommandError, Subcommands

EXIT_PROBLEMS = 2

VARIANT_EXAMPLE = """examples:
  gamesmaster variant list
  gamesmaster variant show nine-man
  gamesmaster variant check my-map.toml
"""
LIST_EXAMPLE = """example:
  $ gamesmaster variant list
  france-austria  France vs Austria: 2 players (France, Austria; 5 powers neutral); 7 powers, 34 centres; 18 supply centres win
  nine-man        Nine-Man Diplomacy (Robert B. Cline, 1965): 9 players; 9 powers, 45 centres; 23 supply centres win
  standard        Standard Diplomacy: 7 players; 7 powers, 34 centres; 18 supply centres win
"""
SHOW_EXAMPLE = """examples:
  gamesmaster variant show standard
  gamesmaster variant show nine-man
  gamesmaster variant show path/to/my-map.toml
"""
CHECK_EXAMPLE = """examples:
  $ gamesmaster variant check src/gamesmaster/variants/data/nine-man.toml
  src/gamesmaster/variants/data/nine-man.toml: ok: nine-man (Nine-Man Diplomacy ...): 9 powers, 103 spaces, 45 supply centres; 23 supply centres win
  $ gamesmaster variant check broken.toml; echo $?
  broken.toml: line 212: asymmetric army adjacency: SWE lists DEN but DEN does not list SWE
  2
"""

IMPORT_EXAMPLE = """examples:
  $ gamesmaster variant import maps/ancmed.map --id ancmed
  installed ancmed (Ancmed): 5 powers, 79 spaces, 34 supply centres, 18 to win, from ancmed.map
  $ gamesmaster variant import diplomacy/maps/modern.map --id modern --svg diplomacy/maps/svg/modern.svg
  $ gamesmaster adjudicate --variant ancmed ...
"""


def register(subparsers: Subcommands) -> None:
    """Add `gamesmaster variant list|show|check` to the command's subparsers."""
    raw = argparse.RawDescriptionHelpFormatter
    variant = subparsers.add_parser(
        "variant", help="list, show and check variants (maps and set-ups as data files)",
        description="List the shipped variants, show a summary of one, or check a variant file.",
        epilog=VARIANT_EXAMPLE, formatter_class=raw)
    actions = variant.add_subparsers(dest="variant_action", metavar="ACTION")
    actions.required = True
    listing = actions.add_parser(
        "list", help="the shipped variants", description="List the variants shipped with gamesmaster.",
        epilog=LIST_EXAMPLE, formatter_class=raw)
    listing.set_defaults(func=cmd_list)
    show = actions.add_parser(
        "show", help="a summary of one variant",
        description=("Summarise a variant: its powers with home centres and starting units, its spaces "
                     "by terrain, its supply centres and victory count, and its special passages."),
        epilog=SHOW_EXAMPLE, formatter_class=raw)
    show.add_argument("name", metavar="NAME", help="a shipped variant's name, or the path of a variant file")
    show.set_defaults(func=cmd_show)
    check = _action(actions, "check", cmd_check, CHECK_EXAMPLE, "validate a variant file",
                    "Read and check a variant file. A good file prints a one-line summary and exits 0; "
                    "otherwise every problem is printed on its own line, with its line number, and the "
                    "exit status is 2.")
    check.add_argument("file", metavar="FILE", help="the variant file (TOML); a shipped variant's name also works")
    imp = _action(actions, "import", cmd_import, IMPORT_EXAMPLE, "import a judges' .map file as an installed variant",
                  "Read a map in the DPjudge / diplomacy-package .map format (following MAP includes in its "
                  "folder), check it, and install it as $GAMESMASTER_DATA/variants/ID.toml. Every problem is "
                  "printed with its file and line, and nothing is installed; exit status 2.")
    imp.add_argument("file", metavar="PATH.map", help="the map file")
    imp.add_argument("--id", required=True, help="the new variant's name (lower-case letters, digits, '-')")
    imp.add_argument("--replace", action="store_true", help="replace an installed variant of that name")
    imp.add_argument("--svg", metavar="PATH.svg", help="draw the map from this SVG's province regions (the diplomacy "
                     "package's layout); without it the map is drawn schematically from its moves")


def _action(actions: Subcommands, name: str, func: Command, epilog: str,
            help_text: str, description: str) -> argparse.ArgumentParser:
    """One `gamesmaster variant ACTION` subcommand, run by func."""
    parser = actions.add_parser(name, help=help_text, description=description, epilog=epilog,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.set_defaults(func=func)
    return parser


# -- the commands -------------------------------------------------------------------------

def cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    """One line per shipped variant: name, title, players, powers, centres, and the criterion its default rules win by."""
    names = variant_names()
    width = max((len(n) for n in names), default=0)
    for name in names:
        try:
            variant = load_variant(name)
        except VariantError as exc:
            out.write(f"{name:<{width}}  (cannot be loaded: {len(exc.problems)} problem"
                      f"{'s' if len(exc.problems) != 1 else ''}; see 'gamesmaster variant check {name}')\n")
            continue
        out.write(f"{name:<{width}}  {variant.title}: {players_line(variant)}; {len(variant.powers)} powers, "
                  f"{len(variant.supply_centres)} centres; {default_victory(variant).headline}\n")
    return 0


def cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    """A summary of one variant (shipped name or file)."""

    try:
        variant = _load(args.name)
    except VariantError as exc:
        raise CommandError(str(exc)) from None
    out.write("\n".join(summary(variant)) + "\n")
    return 0


def cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    """Validate a variant file: 0 and a summary line, or 2 and one line per problem."""

    path = _path(args.file)
    try:
        variant = load_variant_file(path)
    except VariantError as exc:
        for problem in exc.problems:
            out.write(f"{args.file}: {problem}\n")
        return EXIT_PROBLEMS
    except UnicodeDecodeError:
        raise CommandError(f"{args.file}: not a text file (UTF-8)") from None
    except IsADirectoryError:
        raise CommandError(f"{args.file}: is a directory, not a variant file") from None
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise CommandError(f"{args.file}: cannot be read: {exc.strerror or exc}") from None
    board = variant.map
    out.write(f"{args.file}: ok: {variant.name} ({variant.title}): {len(variant.powers)} powers, "
              f"{len(board.provinces)} spaces, {len(variant.supply_centres)} supply centres; "
              f"{default_victory(variant).headline}\n")
    return 0


def cmd_import(args: argparse.Namespace, out: TextIO) -> int:
    """Import a judges' map file: 0 and a summary line, or 2 and one line per problem (file:line: ...)."""
    try:
        installed = import_judge_map(Path(args.file), args.id, replace=args.replace, svg=args.svg)
    except VariantError as exc:
        for problem in exc.problems:
            out.write(f"{args.file}: {problem}\n")
        return EXIT_PROBLEMS
    variant = load_variant(installed.stem)
    out.write(f"installed {variant.name} ({variant.title}): {len(variant.powers)} powers, "
              f"{len(variant.map.provinces)} spaces, {len(variant.supply_centres)} supply centres, "
              f"{variant.victory_centres} to win, from {Path(args.file).name}\n")
    return 0


def _path(text: str) -> Path:
    """A file path, or the data file of a shipped variant when no such file exists."""
    path = Path(text)
    if not path.exists() and text.strip().lower() in variant_names():
        return variant_path(text.strip().lower())
    return path


def _load(name: str) -> Variant:
    path = Path(name)
    if name.strip().lower() in variant_names():
        return load_variant(name)
    if path.suffix == ".toml" or path.exists():
        return load_variant_file(path)
    return load_variant(name)  # raises VariantError naming the known variants


# -- the summary --------------------------------------------------------------------------

def summary(variant: Variant) -> list[str]:
    """The lines of `gamesmaster variant show`."""
    board = variant.map
    centres = sorted(variant.supply_centres)
    homes = {c for p in variant.powers.values() for c in p.home_centres}
    lines = [f"{variant.name}: {variant.title}",
             f"first phase {variant.start}; {len(centres)} supply centres; {default_victory(variant).headline}; "
             f"default rules {variant.default_rules}", "",
             f"Powers ({len(variant.powers)}):"]
    width = max(len(p.name) for p in variant.powers.values()) if variant.powers else 0
    for power in variant.powers.values():
        units = ", ".join(f"{t.value} {loc}" for t, loc in variant.start_units.get(power.id, ()))
        lines.append(f"  {power.name:<{width}}  {power.colour}  home {', '.join(power.home_centres)}; "
                     f"units {units or 'none'}")
    terrain = Counter(p.terrain.value for p in board.provinces.values())
    by_terrain = ", ".join(f"{terrain[t.value]} {t.value}" for t in Terrain if terrain[t.value])
    neutral = [c for c in centres if c not in homes]
    lines += ["", f"Spaces ({len(board.provinces)}): {by_terrain}",
              f"Supply centres ({len(centres)}): {len(homes)} home, {len(neutral)} neutral: {', '.join(neutral)}",
              "", "Special passages:"]
    passages = special_passages(board)
    lines += [f"  {kind}: {'; '.join(items)}" for kind, items in passages.items()] or ["  none"]
    return lines


def special_passages(board: Map) -> dict[str, list[str]]:
    """What is special about a map, read from its data alone.

    - two coasts: provinces whose coastlines are separate fleet locations;
    - fleets pass through: a coastal province one fleet location touching seas that
      do not touch one another (Kiel, Constantinople, Denmark, Suez through Egypt);
      each group of seas it joins is shown between bars;
    - no convoys: sea spaces a fleet may enter but where it cannot convoy (the
      Volga Canal, the Off Board Box), with their fleet neighbours;
    - coasts on such water only: land a fleet reaches only from a sea that cannot
      convoy (Moscow on the Volga);
    - islands: land with no army neighbours (armies arrive only by convoy);
    - impassable spaces.
    """
    provinces = board.provinces
    seas = {pid for pid, p in provinces.items() if p.is_sea}
    out: dict[str, list[str]] = {}
    two = [f"{pid} ({', '.join(p.coasts)})" for pid, p in sorted(provinces.items()) if len(p.coasts) > 1]
    through = []
    for pid in sorted(provinces):
        locations = board.fleet_locations(pid)
        if pid in seas or len(locations) != 1:
            continue
        near = sorted({n.province for n in board.fleet_edges.get(locations[0], ()) if n.province in seas})
        groups = _groups(board, near)
        if len(groups) > 1:
            through.append(f"{pid} ({' | '.join(', '.join(g) for g in groups)})")
    no_convoy = [f"{pid} (fleets to and from {', '.join(sorted(str(n) for n in board.fleet_edges.get(Location(pid), ())))})"
                 for pid in sorted(seas) if not provinces[pid].convoys]
    canal_only = []
    for pid in sorted(provinces):
        if pid in seas:
            continue
        waters = board.sea_neighbours(pid) & seas
        if waters and all(not provinces[s].convoys for s in waters):
            canal_only.append(f"{pid} (on {', '.join(sorted(waters))})")
    islands = [pid for pid, p in sorted(provinces.items())
               if p.terrain in (Terrain.LAND, Terrain.COAST) and not board.army_edges.get(pid)]
    impassable = [pid for pid, p in sorted(provinces.items()) if p.terrain is Terrain.IMPASSABLE]
    for kind, items in [("two coasts", two), ("fleets pass through", through), ("seas where no convoy may be made", no_convoy),
                        ("coasts on such water only", canal_only), ("islands (armies by convoy only)", islands),
                        ("impassable", impassable)]:
        if items:
            out[kind] = items
    return out


def _groups(board: Map, seas: list[str]) -> list[list[str]]:
    """The seas split into groups joined by sea-to-sea moves among themselves."""
    left = list(seas)
    groups = []
    while left:
        group = [left.pop(0)]
        grew = True
        while grew:
            grew = False
            for sea in list(left):
                if any(board.fleet_adjacent(Location(sea), Location(g)) for g in group):
                    group.append(sea)
                    left.remove(sea)
                    grew = True
        groups.append(sorted(group))
    return groups
