"""DAIDE messages as trees, and in their written form ("HLO (ENG) (1234) ((LVL 0))").

A diplomacy message is a flat list of tokens with brackets. `Group.parse` builds the tree
and keeps, for every item, its position in the flat list, so that a syntax error can
be reported the DAIDE way: the message sent back in `HUH` with the `ERR` token placed
just before the token where reading failed. `Reader` walks a group item by item and
raises `Unreadable` at the position where the message stops making sense.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator, Sequence, Union

from .tokens import BRA, FIXED, KET, Vocabulary, int_value, integer, is_integer, is_text, text

MAX_DEPTH = 32  # brackets nested deeper than this are refused (a hostile client's recursion bomb)

Item = Union[int, "Group"]


class Unbalanced(ValueError):
    """The brackets of a message do not match (answered with PRN)."""


class Unreadable(ValueError):
    """A message that is not what its first token promises; `at` is the flat position to mark with ERR."""

    def __init__(self, at: int, why: str = "") -> None:
        super().__init__(why or f"unreadable at token {at}")
        self.at = at


@dataclass
class Group:
    """A bracketed run of tokens (or a whole message): its items and where each stands in the flat message."""

    items: list[Item] = field(default_factory=list)
    at: list[int] = field(default_factory=list)  # flat position of each item (a group: its opening bracket)
    start: int = -1  # flat position of this group's opening bracket (-1: the whole message)
    end: int = 0  # flat position of its closing bracket (the whole message: its length)

    @classmethod
    def parse(cls, tokens: Sequence[int]) -> "Group":
        """The tree of a flat message; Unbalanced when a bracket is missing, extra, or nested too deep."""
        stack = [cls()]
        for i, t in enumerate(tokens):
            if t == BRA:
                if len(stack) > MAX_DEPTH:
                    raise Unbalanced(f"brackets nested deeper than {MAX_DEPTH}")
                stack.append(cls(start=i))
            elif t == KET:
                if len(stack) == 1:
                    raise Unbalanced(f"a closing bracket without an opening one at token {i}")
                done = stack.pop()
                done.end = i
                stack[-1].items.append(done)
                stack[-1].at.append(done.start)
            else:
                stack[-1].items.append(t)
                stack[-1].at.append(i)
        if len(stack) > 1:
            raise Unbalanced(f"{len(stack) - 1} bracket(s) not closed")
        stack[0].end = len(tokens)
        return stack[0]

    def reader(self) -> "Reader":
        """A reader from this group's first item."""
        return Reader(self)

    def flat(self) -> list[int]:
        """The group's tokens, brackets included (its own outer brackets too, unless it is a whole message)."""
        out = [] if self.start < 0 else [BRA]
        for item in self.items:
            out.extend(item.flat() if isinstance(item, Group) else [item])
        if self.start >= 0:
            out.append(KET)
        return out

    def inner(self) -> list[int]:
        """The tokens inside the group's brackets."""
        out: list[int] = []
        for item in self.items:
            out.extend(item.flat() if isinstance(item, Group) else [item])
        return out


class Reader:
    """Reads a group's items in order; every failure names the flat position it happened at."""

    def __init__(self, group: Group) -> None:
        self.group = group
        self.i = 0

    @property
    def here(self) -> int:
        """The flat position of the next item (the closing bracket when none is left)."""
        return self.group.at[self.i] if self.i < len(self.group.items) else self.group.end

    def more(self) -> bool:
        """Whether items are left."""
        return self.i < len(self.group.items)

    def peek(self) -> Item | None:
        """The next item, not consumed."""
        return self.group.items[self.i] if self.more() else None

    def fail(self, why: str = "") -> Unreadable:
        """The error for the next item."""
        return Unreadable(self.here, why)

    def token(self, *allowed: int) -> int:
        """The next item, which must be a token (one of `allowed`, if given)."""
        item = self.peek()
        if not isinstance(item, int) or (allowed and item not in allowed):
            raise self.fail()
        self.i += 1
        return item

    def accept(self, token: int) -> bool:
        """Consume the next item if it is this token."""
        if self.peek() == token:
            self.i += 1
            return True
        return False

    def group_(self) -> Group:
        """The next item, which must be a bracketed group."""
        item = self.peek()
        if not isinstance(item, Group):
            raise self.fail()
        self.i += 1
        return item

    def sub(self) -> "Reader":
        """A reader into the next item, which must be a group."""
        return Reader(self.group_())

    def integer(self) -> int:
        """The next item, an integer token, as its number."""
        item = self.peek()
        if not isinstance(item, int) or not is_integer(item):
            raise self.fail()
        self.i += 1
        return int_value(item)

    def string(self) -> str:
        """The rest of this group, which must be text (one token per character)."""
        chars = []
        while self.more():
            item = self.peek()
            if not isinstance(item, int) or not is_text(item):
                raise self.fail()
            chars.append(chr(item & 0xFF))
            self.i += 1
        return "".join(chars)

    def end(self) -> None:
        """Nothing may be left."""
        if self.more():
            raise self.fail()

    def rest(self) -> Iterator["Reader"]:
        """Readers into each remaining item, all of which must be groups."""
        while self.more():
            yield self.sub()


def marked(tokens: Sequence[int], at: int) -> list[int]:
    """A message with the ERR token placed before position `at` (for HUH)."""
    return [*tokens[:at], FIXED["ERR"], *tokens[at:]]


def bracket(*parts: int | Sequence[int]) -> list[int]:
    """Tokens in brackets: bracket(T.LVL, integer(0)) is '(LVL 0)'."""
    out = [BRA]
    for p in parts:
        out.extend([p] if isinstance(p, int) else p)
    out.append(KET)
    return out


def string(value: str) -> list[int]:
    """A string in brackets: ('name')."""
    return bracket(text(value))


# -- the written form ---------------------------------------------------------------------------

_WORD = re.compile(r"\s*(?:(\()|(\))|'((?:[^']|'')*)'|(-?\d+)|([A-Za-z]{3}))")


def render(vocab: Vocabulary, tokens: Sequence[int]) -> str:
    """A message in its written form: names, numbers, 'text' and brackets."""
    out: list[str] = []
    chars: list[str] = []

    def flush() -> None:
        """Write out the text gathered so far as one quoted string."""
        if chars:
            out.append("'" + "".join(chars).replace("'", "''") + "'")
            chars.clear()
    for t in tokens:
        if is_text(t):
            chars.append(chr(t & 0xFF))
            continue
        flush()
        if t == BRA:
            out.append("(")
        elif t == KET:
            out.append(")")
        elif is_integer(t):
            out.append(str(int_value(t)))
        else:
            out.append(vocab.names.get(t, f"0x{t:04X}"))
    flush()
    return " ".join(out).replace("( ", "(").replace(" )", ")")


def parse_text(vocab: Vocabulary, written: str) -> list[int]:
    """The tokens of a written message; ValueError names the first word it cannot read."""
    out: list[int] = []
    pos = 0
    written = written.rstrip()
    while pos < len(written):
        m = _WORD.match(written, pos)
        if not m:
            raise ValueError(f"cannot read DAIDE text at {written[pos:pos + 20]!r}")
        opening, closing, quoted, number, name = m.groups()
        if opening:
            out.append(BRA)
        elif closing:
            out.append(KET)
        elif quoted is not None:
            out.extend(text(quoted.replace("''", "'")))
        elif number is not None:
            out.append(integer(int(number)))
        else:
            code = vocab.codes.get(name.upper())
            if code is None:
                raise ValueError(f"{name!r} is not a DAIDE token of this map")
            out.append(code)
        pos = m.end()
    return out
