"""The `gamesmaster` command: the program's entry point, which starts every door.

Each subcommand lives in a module of this package with a `register(subparsers)`; the
module of the command being run is the only one imported, so `gamesmaster adjudicate`
starts without the store, the web site or the mail door. Handlers are
`func(args, out) -> exit status` and raise `CommandError` for a problem the user must fix.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Sequence

from .options import CommandError

EXIT_INPUT = 2

# Each module and the commands it adds, in the order `gamesmaster --help` lists them.
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "gamesmaster.cli.adjudicate": ("adjudicate",),
    "gamesmaster.cli.variants": ("variant",),
    "gamesmaster.cli.games": ("new", "join", "start", "games", "status", "orders", "process", "worker", "extend",
                              "pause", "resume", "replace", "credential", "correct", "press", "draw", "history", "verify", "rebuild",
                              "export", "import"),
    "gamesmaster.cli.serve": ("serve",),
    "gamesmaster.cli.mail": ("mail",),
    "gamesmaster.cli.backup": ("backup", "restore"),
    "gamesmaster.cli.daide": ("daide",),
    "gamesmaster.cli.scoring": ("score",),
    "gamesmaster.cli.club": ("league", "standings", "ladder"),
}


def _module_for(argv: Sequence[str]) -> str | None:
    """The module of the command named in argv, or None (help, or no command: load them all)."""
    command = next((a for a in argv if not a.startswith("-")), None)
    return next((m for m, names in COMMAND_MODULES.items() if command in names), None)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser: with argv, only the module of the command it names is loaded."""
    parser = argparse.ArgumentParser(prog="gamesmaster", description="Runs games of Diplomacy as a neutral gamesmaster.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    only = _module_for(argv) if argv is not None else None
    for name in COMMAND_MODULES:
        if only is None or name == only:
            importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; errors print one line naming the problem and exit with status 2."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(argv).parse_args(argv)
    try:
        return int(args.func(args, sys.stdout) or 0)
    except CommandError as exc:
        print(f"gamesmaster {args.command}: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except FileNotFoundError as exc:
        print(f"gamesmaster {args.command}: no such file: {exc.filename}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        return 130


__all__ = ["CommandError", "build_parser", "main"]
