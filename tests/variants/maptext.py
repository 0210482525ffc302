"""Editing a variant file's text in tests: find a table, change one thing in it, name its line."""

from __future__ import annotations

import re


def table_span(text: str, table: str) -> tuple[int, int]:
    """The (start, end) character offsets of a [table] in the text, header included."""
    m = re.search(rf"^\[{re.escape(table)}\][ \t]*$", text, flags=re.M)
    assert m, f"no [{table}] in the map file"
    nxt = re.search(r"^\[", text[m.end():], flags=re.M)
    return m.start(), (m.end() + nxt.start()) if nxt else len(text)


def edit(text: str, table: str, old: str, new: str) -> str:
    """Replace the one occurrence of `old` inside [table] with `new`."""
    start, end = table_span(text, table)
    body = text[start:end]
    assert body.count(old) == 1, f"{old!r} is not found exactly once in [{table}]"
    return text[:start] + body.replace(old, new) + text[end:]


def line_of(text: str, table: str, key: str) -> int:
    """The 1-based line of `key = ...` inside [table]."""
    start, end = table_span(text, table)
    first = text.count("\n", 0, start) + 1
    for offset, line in enumerate(text[start:end].splitlines()):
        if re.match(rf"{re.escape(key)}\s*=", line.strip()):
            return first + offset
    raise AssertionError(f"no {key} = in [{table}]")
