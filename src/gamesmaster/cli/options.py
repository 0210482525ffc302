"""Command-line options that several `gamesmaster` commands share."""

from __future__ import annotations

import argparse
from typing import Callable, TextIO, TypeAlias

Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"  # what add_subparsers gives
Command: TypeAlias = Callable[[argparse.Namespace, TextIO], int]  # a subcommand: its arguments, where it writes; its exit status


class CommandError(Exception):
    """A command that cannot go on; the message names the problem (exit status 2)."""


def add_database_option(parser: argparse.ArgumentParser) -> None:
    """Add --db URL: the store to use, else $GAMESMASTER_DATABASE_URL, else SQLite in the data directory."""
    parser.add_argument("--db", metavar="URL", help="database URL (default: $GAMESMASTER_DATABASE_URL, else "
                        "sqlite in $GAMESMASTER_DATA or ~/.local/share/gamesmaster)")


def database_parent() -> argparse.ArgumentParser:
    """A parent parser holding just --db, for `parents=[...]`."""
    parent = argparse.ArgumentParser(add_help=False)
    add_database_option(parent)
    return parent


def add_command(sub: Subcommands, name: str, help_: str, example: str, handler: Command,
                parents: list[argparse.ArgumentParser], description: str | None = None) -> argparse.ArgumentParser:
    """A subcommand with an example as its epilog; its description is its help as a sentence unless given."""
    p = sub.add_parser(name, help=help_, description=description or help_[0].upper() + help_[1:] + ".",
                       parents=parents, epilog="example:\n" + example,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.set_defaults(func=handler)
    return p
