"""Keys on the record: what ties every player's action on a ledger to a secret only the player holds.

A database holds no player's secret (credentials are kept as salted hashes, sessions as
the SHA-256 of their token), so whoever can write to it could otherwise sign in as anyone.
A key is a hash chain in the manner of S/KEY (Lamport, 1981): from a seed that only the
holder of a secret can compute, `anchor = H^LENGTH(seed)` goes on the ledger when the key is
given, and the k-th action made with it carries `H^(LENGTH-k)(seed)`, which anyone can check
hashes to the value before it (or, where a public record seals uses between, to the last value
it shows after as many hashes), and which nobody can compute from the values before it.

There are two kinds of key. A seat's *credential key* is derived from the secret of its
credential ('NUMBER.SECRET') and is written with the credential (`player-joined`,
`credential-replaced`). A *session key* is derived from a browser's key (the site keeps it
in a cookie of its own and passes it with the session token as 's.TOKEN.KEY'; the server
never stores it) and is written by a `key-added` entry that the credential key proves: signing in with the credential, joining a game, or
claiming a seat. Every action by a seat (`by` in orders, withdrawals, ready marks, votes,
press, resignations, disputes) carries one proof: the key's id and the next value of its
chain. `verify` checks each proof against the key's last value; a forged session, link,
password or claim gives a session whose secret has no key on the record, so it can make no
proof (the door refuses it) and a set written without one is reported.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, replace
from typing import Mapping

from ..ledger import JSONObject
from .state import GameState, KeyKind, KeyOnRecord

SCHEME = "sha256-chain"  # game-created names it: every action of a seat in the game carries a proof
LENGTH = 10_000  # actions a key can prove; then sign in again (a session key) or ask for a new credential
CREDENTIAL: KeyKind = "credential"
SESSION: KeyKind = "session"


_LINK = hashlib.sha256(b"gamesmaster key\n")  # every link hashes this prefix first: copied, not hashed again


def _link(value: bytes) -> bytes:
    h = _LINK.copy()
    h.update(value)
    return h.digest()


def _walk(value: bytes, steps: int) -> bytes:
    """H^steps(value): the loop of `_link` without a call per link (a key's first use walks 10,000 of them)."""
    link = _LINK.copy
    for _ in range(steps):
        h = link()
        h.update(value)
        value = h.digest()
    return value


def seed(secret: str, salt: str) -> bytes:
    """The seed of a key: an HMAC of its salt under the secret only the player holds."""
    return hmac.new(secret.encode("utf-8", "replace"), b"gamesmaster key seed\n" + salt.encode(), "sha256").digest()


def key_id(seed_: bytes) -> str:
    """A key's public id (it says which key a proof is made with, and nothing of the seed)."""
    return hashlib.sha256(b"gamesmaster key id\n" + seed_).hexdigest()[:32]


def value(seed_: bytes, steps: int) -> str:
    """H^steps(seed), in hex."""
    return _walk(seed_, steps).hex()


class Chains:
    """The chains this process has walked, kept as checkpoints every STRIDE links, and for each key the links
    of the stretch its next uses fall in (a key's uses walk down its chain one link at a time), so that a use
    costs about one hash instead of up to LENGTH.

    Keyed by an HMAC of the seed under a key that exists only in this process's memory, bounded
    (the oldest forgotten first). What it keeps lets this process make proofs, as the secrets
    passing through it do: it is never written anywhere."""

    STRIDE = 100

    def __init__(self, size: int = 2_000) -> None:
        self.key = secrets.token_bytes(32)
        self.size = size
        self.known: dict[bytes, bytes] = {}
        self.stretches: dict[bytes, tuple[int, list[bytes]]] = {}  # by key: (checkpoint, its next STRIDE links)

    def value(self, seed_: bytes, steps: int) -> str:
        """H^steps(seed) in hex, as `value` gives it."""
        tag = hmac.new(self.key, seed_, "sha256").digest()
        marks = self.known.get(tag)
        if marks is None:
            if len(self.known) >= self.size:
                for old in list(self.known)[: self.size // 4]:
                    self.known.pop(old, None)
                    self.stretches.pop(old, None)
            parts, v = [seed_], seed_
            for _ in range(LENGTH // self.STRIDE):
                v = _walk(v, self.STRIDE)
                parts.append(v)
            marks = self.known[tag] = b"".join(parts)
        base = min(steps, LENGTH) // self.STRIDE
        if steps - base * self.STRIDE >= self.STRIDE:  # past the chain's end: no proof asks for one
            return _walk(marks[base * 32:(base + 1) * 32], steps - base * self.STRIDE).hex()
        stretch = self.stretches.get(tag)
        if stretch is None or stretch[0] != base:
            links, v = [], marks[base * 32:(base + 1) * 32]
            for _ in range(self.STRIDE):
                links.append(v)
                v = _link(v)
            stretch = self.stretches[tag] = (base, links)
        return stretch[1][steps - base * self.STRIDE].hex()


CHAINS = Chains()


def steps_to(revealed: object, last: str, most: int) -> int | None:
    """How many hashes of a revealed value give `last` (1 for the next use of the key; more where a public
    record seals the uses between, letters and the orders of a phase still open), at most `most`; None if none do."""
    if not isinstance(revealed, str) or len(revealed) != 64:
        return None
    try:
        v = bytes.fromhex(revealed)
    except ValueError:
        return None
    for n in range(1, most + 1):
        v = _link(v)
        if hmac.compare_digest(v.hex(), last):
            return n
    return None


@dataclass(frozen=True)
class Secret:
    """A secret a request was made with, and the kind of key it gives: a credential's or a session's."""

    text: str
    kind: KeyKind


def new_key(secret: Secret, player: int) -> JSONObject:
    """A fresh key for a seat, as its entry records it: {id, player, salt, anchor, kind}."""
    salt = secrets.token_hex(8)
    s = seed(secret.text, salt)
    return {"id": key_id(s), "player": player, "salt": salt, "anchor": value(s, LENGTH), "kind": secret.kind}


def find(state: GameState, player: int, secret: Secret) -> tuple[str, KeyOnRecord, bytes] | None:
    """The live key of a seat that this secret gives (its id, the key, its seed), or None."""
    for kid, key in state.keys.items():
        if key.player == player and key.kind == secret.kind:
            s = seed(secret.text, key.salt)
            if key_id(s) == kid:
                return kid, key, s
    return None


def live(state: GameState, player: int, secret: Secret | None) -> bool:
    """True if this secret gives a live key of the seat with a use left (what `proof` needs), without walking it."""
    found = find(state, player, secret) if secret is not None else None
    return found is not None and found[1].used + 1 < LENGTH


def proof(state: GameState, player: int, secret: Secret | None) -> JSONObject | None:
    """The proof for the next action of a seat made with this secret: {key, value}; None if it gives no live key
    (or its chain is used up)."""
    found = find(state, player, secret) if secret is not None else None
    if found is None:
        return None
    kid, key, s = found
    if key.used + 1 >= LENGTH:
        return None
    return {"key": kid, "value": CHAINS.value(s, LENGTH - key.used - 1)}


def problem(state: GameState, player: int, made: object) -> str | None:
    """What is wrong with an action's proof for a seat of a keyed game (None: it holds)."""
    if not isinstance(made, Mapping):
        return "carries no proof of a key on the record (it was not made by a player's credential or session)"
    key = state.keys.get(str(made.get("key")))
    if key is None or key.player != player:
        return f"is proved with a key the record never gave player {player}"
    if steps_to(made.get("value"), key.last, LENGTH - key.used) is None:
        return f"carries a proof that does not follow the last use of its key ({made.get('key')})"
    return None


def spent(state: GameState, made: Mapping[str, object]) -> GameState:
    """The state once a proof is used: its key's chain moves one step on."""
    kid = str(made.get("key"))
    key = state.keys.get(kid)
    steps = steps_to(made.get("value"), key.last, LENGTH - key.used) if key is not None else None
    if key is None or steps is None:
        return state
    return state.evolve(keys={**state.keys, kid: replace(key, last=str(made.get("value")), used=key.used + steps)})
