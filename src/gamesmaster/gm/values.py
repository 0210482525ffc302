"""Values a person wrote as JSON (a game's settings, a live table's periods) read into typed ones.

Each reader takes the value as given and the words that name it, and returns the typed value or
raises GMError naming what does not read, so that a bad setting is a message, never a crash.
"""

from __future__ import annotations

import math

from ..ledger import JSONValue
from .errors import GMError


def number(value: JSONValue, what: str) -> float:
    """A finite number (written as a number or as text)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise GMError(f"{what} {value!r}: write a number")
    try:
        n = float(value)
    except ValueError:
        raise GMError(f"{what} {value!r}: write a number") from None
    if not math.isfinite(n):
        raise GMError(f"{what} {value!r}: write a number")
    return n


def whole(value: JSONValue, what: str) -> int:
    """A whole number (written as a number or as text)."""
    n = number(value, what)
    if n != int(n):
        raise GMError(f"{what} {value!r}: write a whole number")
    return int(n)


def text(value: JSONValue, what: str) -> str:
    """A text."""
    if not isinstance(value, str):
        raise GMError(f"{what} {value!r}: write it as text")
    return value


def flag(value: JSONValue, what: str) -> bool:
    """Yes or no: true/false, or the words a form sends."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("1", "true", "yes", "on", "0", "false", "no", "off", ""):
        return value.strip().lower() in ("1", "true", "yes", "on")
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    raise GMError(f"{what} {value!r}: write true or false")


def items(value: JSONValue, what: str) -> list[JSONValue]:
    """A list (a single text counts as a list of one)."""
    if isinstance(value, list):
        return value
    if isinstance(value, str):
        return [value]
    raise GMError(f"{what} {value!r}: write a list")


def fields(value: JSONValue, what: str) -> dict[str, JSONValue]:
    """An object of named values."""
    if not isinstance(value, dict):
        raise GMError(f"{what} {value!r}: write an object of named values")
    return value
