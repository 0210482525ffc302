"""The `gamesmaster` command."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from typing import Sequence, TextIO

from .machine import InputError, adjudicate_document

EXIT_INPUT = 2


class CommandError(Exception):
    """A command that cannot go on; the message names the problem (exit status 2)."""


def _read_json_line(line: str) -> object:
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None


def cmd_adjudicate(args: argparse.Namespace, out: TextIO) -> int:
    """Adjudicate one phase (or one per line with --lines) from FILE or stdin."""
    source = open(args.file, encoding="utf-8") if args.file and args.file != "-" else sys.stdin
    with source:
        if args.lines:
            for raw in source:
                if not raw.strip():
                    continue
                try:
                    result = adjudicate_document(_read_json_line(raw))
                except InputError as exc:
                    result = {"error": str(exc)}
                out.write(json.dumps(result, ensure_ascii=False) + "\n")
                out.flush()
            return 0
        text = source.read()
    try:
        result = adjudicate_document(_read_json_line(text))
    except InputError as exc:
        raise CommandError(str(exc)) from None
    out.write(json.dumps(result, ensure_ascii=False, indent=2) + "\n")
    return 0


ADJUDICATE_EXAMPLE = """example:
  echo '{"phase": "S1901M", "units": {"ENGLAND": ["F LON", "A LVP"]},
         "orders": {"ENGLAND": ["F Lon-Nth", "A Liv.--Yor."]}}' | gamesmaster adjudicate
  gamesmaster adjudicate --lines phases.jsonl > results.jsonl
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the `gamesmaster` command and its subcommands."""
    parser = argparse.ArgumentParser(prog="gamesmaster", description="Runs games of Diplomacy as a neutral gamesmaster.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    adj = sub.add_parser(
        "adjudicate", help="adjudicate one phase given as JSON (the machine interface)",
        description="Read one phase as JSON (FILE or stdin) and write its outcome and the next phase as JSON.",
        epilog=ADJUDICATE_EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter)
    adj.add_argument("file", nargs="?", metavar="FILE", help="input file (default: stdin)")
    adj.add_argument("--lines", action="store_true", help="JSON Lines: one phase per line in, one result per line out")
    adj.set_defaults(func=cmd_adjudicate)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


# Modules that add subcommands: each has register(subparsers), whose handlers are
# func(args, out) -> exit status and raise CommandError for a problem the user must fix.
COMMAND_MODULES: tuple[str, ...] = ("gamesmaster.variants.commands", "gamesmaster.gm.commands",
                                   "gamesmaster.web.commands", "gamesmaster.mail.commands",
                                   "gamesmaster.gm.backup")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; errors print one line naming the problem and exit with status 2."""
    parser = build_parser()
    args = parser.parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
