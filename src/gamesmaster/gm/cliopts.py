"""Command-line options that several `gamesmaster` commands share."""

from __future__ import annotations

import argparse


def add_database_option(parser: argparse.ArgumentParser) -> None:
    """Add --db URL: the store to use, else $GAMESMASTER_DATABASE_URL, else SQLite in the data directory."""
    parser.add_argument("--db", metavar="URL", help="database URL (default: $GAMESMASTER_DATABASE_URL, else "
                        "sqlite in $GAMESMASTER_DATA or ~/.local/share/gamesmaster)")


def database_parent() -> argparse.ArgumentParser:
    """A parent parser holding just --db, for `parents=[...]`."""
    parent = argparse.ArgumentParser(add_help=False)
    add_database_option(parent)
    return parent
