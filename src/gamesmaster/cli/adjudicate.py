"""`gamesmaster adjudicate`: the rules engine's machine interface at the command line."""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
from typing import TextIO

from ..machine import InputError, adjudicate_document, adjudicate_json
from .options import CommandError, Subcommands

EXAMPLE = """example:
  echo '{"phase": "S1901M", "units": {"ENGLAND": ["F LON", "A LVP"]},
         "orders": {"ENGLAND": ["F Lon-Nth", "A Liv.--Yor."]}}' | gamesmaster adjudicate
  gamesmaster adjudicate --lines phases.jsonl > results.jsonl
"""


def _read_json_line(line: str) -> object:
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None


def _someone_waits(out: TextIO) -> bool:
    """Whether the output goes to a pipe, a socket or a terminal rather than a file."""
    try:
        mode = os.fstat(out.fileno()).st_mode
    except (OSError, ValueError, AttributeError):
        return True  # not a plain file (a test's buffer, say): answer line by line
    return not stat.S_ISREG(mode)


def cmd_adjudicate(args: argparse.Namespace, out: TextIO) -> int:
    """Adjudicate one phase (or one per line with --lines) from FILE or stdin."""
    source = open(args.file, encoding="utf-8") if args.file and args.file != "-" else sys.stdin
    with source:
        if args.lines:
            # A program at the other end of a pipe may wait for each answer before it sends the
            # next phase: answers go out one by one there, and in blocks into a file.
            waiting = _someone_waits(out)
            for raw in source:
                if not raw.strip():
                    continue
                try:
                    line = adjudicate_json(_read_json_line(raw))
                except InputError as exc:
                    line = json.dumps({"error": str(exc)}, ensure_ascii=False)
                out.write(line + "\n")
                if waiting:
                    out.flush()
            return 0
        text = source.read()
    try:
        result = adjudicate_document(_read_json_line(text))
    except InputError as exc:
        raise CommandError(str(exc)) from None
    out.write(json.dumps(result, ensure_ascii=False, indent=2) + "\n")
    return 0


def register(sub: Subcommands) -> None:
    """Add `adjudicate` to the command line."""
    adj = sub.add_parser(
        "adjudicate", help="adjudicate one phase given as JSON (the machine interface)",
        description="Read one phase as JSON (FILE or stdin) and write its outcome and the next phase as JSON.",
        epilog=EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter)
    adj.add_argument("file", nargs="?", metavar="FILE", help="input file (default: stdin)")
    adj.add_argument("--lines", action="store_true", help="JSON Lines: one phase per line in, one result per line out")
    adj.set_defaults(func=cmd_adjudicate)
