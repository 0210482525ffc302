"""The DAIDE communications protocol: how messages are framed on a TCP connection.

Every message is a 4-byte header -- its type (one byte), a pad byte, and the length of
what follows (two bytes, big-endian, as every number on the wire) -- then the body:

| type | message | body |
| --- | --- | --- |
| 0 | initial (client, first) | version (2 bytes, 1) and the magic number 0xDA10 |
| 1 | representation (server, first) | 6 bytes an entry: a token, its name in 3 characters and a NUL |
| 2 | diplomacy | the message's tokens, 2 bytes each |
| 3 | final | empty: the sender is closing the connection |
| 4 | error | a 2-byte error code; the sender closes the connection |

Nothing here reads a socket: `Header.read` and the builders work on bytes, so the
asyncio server and the tests' own client can share no code but the protocol itself.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum
from typing import Iterable, Sequence

VERSION = 1
MAGIC = 0xDA10
HEADER = struct.Struct(">BxH")


class Kind(IntEnum):
    """The type byte of a message."""

    INITIAL = 0
    REPRESENTATION = 1
    DIPLOMACY = 2
    FINAL = 3
    ERROR = 4


class Fault(IntEnum):
    """The protocol's error codes (sent in an error message before the connection is closed)."""

    IM_TIMER_POPPED = 0x01
    IM_NOT_FIRST = 0x02
    IM_WRONG_ENDIAN = 0x03
    IM_WRONG_MAGIC = 0x04
    VERSION_INCOMPATIBLE = 0x05
    IM_TWICE = 0x06
    IM_FROM_SERVER = 0x07
    UNKNOWN_MESSAGE = 0x08
    TOO_SHORT = 0x09
    DM_BEFORE_RM = 0x0A
    RM_NOT_FIRST = 0x0B
    RM_TWICE = 0x0C
    RM_FROM_CLIENT = 0x0D
    INVALID_TOKEN = 0x0E


FAULT_WORDS = {
    Fault.IM_TIMER_POPPED: "no initial message in time", Fault.IM_NOT_FIRST: "the initial message was not first",
    Fault.IM_WRONG_ENDIAN: "the initial message is byte-swapped", Fault.IM_WRONG_MAGIC: "wrong magic number",
    Fault.VERSION_INCOMPATIBLE: "unsupported protocol version", Fault.IM_TWICE: "a second initial message",
    Fault.IM_FROM_SERVER: "an initial message from the server", Fault.UNKNOWN_MESSAGE: "unknown message type",
    Fault.TOO_SHORT: "a message shorter than its type needs", Fault.DM_BEFORE_RM: "a diplomacy message too early",
    Fault.RM_NOT_FIRST: "the representation message was not first", Fault.RM_TWICE: "a second representation message",
    Fault.RM_FROM_CLIENT: "a representation message from a client", Fault.INVALID_TOKEN: "a token this map does not know",
}


@dataclass(frozen=True)
class Header:
    """A message's type (as sent, possibly unknown) and its body length."""

    kind: int
    length: int

    @classmethod
    def read(cls, data: bytes) -> "Header":
        """Read the 4 header bytes."""
        kind, length = HEADER.unpack(data)
        return cls(kind, length)


def frame(kind: Kind, body: bytes = b"") -> bytes:
    """A whole message: header and body."""
    if len(body) > 0xFFFF:
        raise ValueError(f"a DAIDE message body is at most 65535 bytes, not {len(body)}")
    return HEADER.pack(int(kind), len(body)) + body


def initial() -> bytes:
    """The client's initial message."""
    return frame(Kind.INITIAL, struct.pack(">HH", VERSION, MAGIC))


def check_initial_header(head: Header) -> Fault | None:
    """What is wrong with the first message's header, or None (its body is read only when it is right).

    A client that writes numbers little-endian sends the initial message's length, 4, as
    0x0400: it is byte-swapped, and waiting for 1,024 bytes would only hold the connection."""
    if head.kind != Kind.INITIAL:
        return Fault.IM_NOT_FIRST
    if head.length == 0x0400:
        return Fault.IM_WRONG_ENDIAN
    return None


def check_initial(body: bytes) -> Fault | None:
    """What is wrong with an initial message's body, or None."""
    if len(body) < 4:
        return Fault.TOO_SHORT
    version, magic = struct.unpack(">HH", body[:4])
    if magic == 0x10DA:
        return Fault.IM_WRONG_ENDIAN
    if magic != MAGIC:
        return Fault.IM_WRONG_MAGIC
    if version != VERSION:
        return Fault.VERSION_INCOMPATIBLE
    return None


def representation(entries: Iterable[tuple[int, str]]) -> bytes:
    """The representation message: each token and its three-letter name."""
    body = b"".join(struct.pack(">H", token) + name.encode("ascii")[:3].ljust(3, b"\0") + b"\0"
                    for token, name in entries)
    return frame(Kind.REPRESENTATION, body)


def diplomacy(tokens: Sequence[int]) -> bytes:
    """A diplomacy message carrying these tokens."""
    return frame(Kind.DIPLOMACY, struct.pack(f">{len(tokens)}H", *tokens))


def tokens_of(body: bytes) -> list[int]:
    """The tokens of a diplomacy message's body (its length must be even)."""
    return list(struct.unpack(f">{len(body) // 2}H", body))


def final() -> bytes:
    """The final message: this side closes the connection."""
    return frame(Kind.FINAL)


def error(fault: Fault) -> bytes:
    """An error message with its code."""
    return frame(Kind.ERROR, struct.pack(">H", int(fault)))
