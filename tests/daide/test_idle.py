"""Connections that say nothing cannot keep bots out of a game: they are closed, and seats always have room."""

from __future__ import annotations

import socket
import struct

import pytest
from daideclient import Ended, Link, sit
from doortools import door

from gamesmaster.daide.server import Limits
from gamesmaster.gm import Settings

OWN, OTHER = "127.0.0.1", "127.0.0.2"


def idle(port: int, first: bytes = b"", source: str = OTHER) -> socket.socket:
    """A connection that sends `first` (nothing, a header alone, ...) and then nothing more."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    if first:
        sock.sendall(first)
    return sock


def test_idle_connections_keep_no_bot_out(gm):
    created = gm.setup.create_game("g", players=["Ann", "Bob"], assign={"Ann": "ENGLAND", "Bob": "FRANCE"},
                             settings=Settings.from_dict({"press": "full"}))
    gm.bots.open_to_bots("g", ["Italy"])
    with door(gm, "g") as ports:
        port = ports["g"]
        ralph = sit("127.0.0.1", port, "Ralph", source=OWN)
        passcode = int(ralph.expect("HLO").split(") (")[1])
        ralph.expect("NOW")
        ralph.close()
        header = struct.pack(">BxH", 0, 4)
        held = [idle(port) for _ in range(64)] + [idle(port, header) for _ in range(64)]
        held += [idle(port, header, source=OWN) for _ in range(64)]  # on the bots' own host, too
        watchers = []
        for _ in range(64):  # every guest's place taken by observers, who need no key
            w = Link("127.0.0.1", port, source=OTHER).connect()
            w.send("OBS")
            w.expect("YES")
            watchers.append(w)
        # A bot with a player's credential still takes its seat ...
        ann = sit("127.0.0.1", port, f"Annbot {created.credentials['Ann']}", source=OWN)
        assert ann.expect("HLO").startswith("HLO (ENG)")
        ann.expect("NOW")
        # ... and a bot whose connection dropped still takes its seat back with IAM.
        back = Link("127.0.0.1", port, source=OWN).connect()
        back.send(f"IAM (ITA) ({passcode})")
        assert back.expect("YES") == f"YES (IAM (ITA) ({passcode}))"
        back.send("SUB ((ITA AMY VEN) HLD)")
        assert back.expect("THX") == "THX ((ITA AMY VEN) HLD) (MBV)"
        # One more observer finds no room.
        late = Link("127.0.0.1", port, source=OTHER).connect()
        late.send("OBS")
        assert "has all the 64 connections it takes" in late.expect("ADM")
        for sock in held:
            sock.close()
        for w in watchers:
            w.close()
    assert gm.record.verify("g").ok


def test_stalled_connections_are_closed(gm):
    gm.setup.create_game("g", players=["Ann"], assign={"Ann": "ENGLAND"}, settings=Settings.from_dict({"press": "full"}))
    limits = Limits(im_timeout=0.5, join_timeout=0.5, body_timeout=0.5)
    with door(gm, "g", limits=limits) as ports:
        port = ports["g"]
        for first in (b"", struct.pack(">BxH", 0, 4)):  # nothing; a header and silence
            link = Link("127.0.0.1", port)
            if first:
                link.sock.sendall(first)
            with pytest.raises(Ended) as ended:
                link.recv(10)
            assert ended.value.code == 0x01
        # The initial message, then not a word of who it is.
        quiet = Link("127.0.0.1", port).connect()
        assert "no NME, OBS or IAM within 0.5 seconds" in quiet.expect("ADM", timeout=10)
        assert quiet.expect("OFF") == "OFF"
        # Said who it is, then a header whose body never comes.
        watcher = Link("127.0.0.1", port).connect()
        watcher.send("OBS")
        watcher.expect("YES")
        watcher.sock.sendall(struct.pack(">BxH", 2, 4))
        with pytest.raises(Ended):
            while True:
                watcher.recv(10)
