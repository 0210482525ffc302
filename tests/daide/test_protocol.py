"""The DAIDE communications protocol on loopback: the representation message, error messages, and limits."""

from __future__ import annotations

import struct

import pytest
from daideclient import Ended, Link
from doortools import door

from gamesmaster.daide.server import Limits
from gamesmaster.gm import Settings

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]


@pytest.fixture
def game(sqlite_gm):
    sqlite_gm.setup.create_game("g", players=NAMES, seed=1, settings=Settings.from_dict({"press": "full"}))
    return sqlite_gm


def error_code(link: Link) -> int:
    with pytest.raises(Ended) as ended:
        link.recv(10)
    assert ended.value.code is not None, f"expected an error message, got {ended.value}"
    return ended.value.code


def test_the_representation_message_numbers_the_standard_map_as_the_daide_documents_do(game):
    with door(game, "g") as ports:
        link = Link("127.0.0.1", ports["g"]).connect()
        # Every power and province, with the standard numbers (category byte, then the index).
        assert link.code_of["AUS"] == 0x4100 and link.code_of["TUR"] == 0x4106
        assert link.code_of["BOH"] == 0x5000 and link.code_of["BUD"] == 0x5107
        assert link.code_of["ECH"] == 0x5214 and link.code_of["GOB"] == 0x5215 and link.code_of["GOL"] == 0x5216
        assert link.code_of["ALB"] == 0x5421 and link.code_of["VEN"] == 0x5547
        assert link.code_of["BUL"] == 0x5748 and link.code_of["STP"] == 0x574A
        assert len([c for c in link.name_of if c >> 8 >= 0x50]) == 75
        link.send("MAP")
        assert link.expect("MAP") == "MAP ('standard')"
        link.send("NOW")
        now = link.expect("NOW")
        assert now.startswith("NOW (SPR 1901) (AUS AMY BUD)") and "(RUS FLT (STP SCS))" in now
        link.send("SCO")
        sco = link.expect("SCO")
        assert sco.startswith("SCO (AUS BUD VIE TRI) (ENG EDI LON LVP)")  # centres in token order
        assert sco.endswith("(UNO SER BEL DEN GRE HOL NWY POR RUM SWE TUN BUL SPA)")
        link.raw(3, b"")  # a final message is answered with one
        with pytest.raises(Ended, match="final"):
            link.recv(10)


@pytest.mark.parametrize("first, code", [
    ((2, b"\x48\x0e"), 0x02),  # a diplomacy message before the initial message
    ((0, struct.pack(">HH", 1, 0x10DA)), 0x03),  # byte-swapped magic number
    ((0, struct.pack(">HH", 1, 0xBEEF)), 0x04),
    ((0, struct.pack(">HH", 7, 0xDA10)), 0x05),
    ((0, b"\x00"), 0x09),  # an initial message too short
])
def test_a_bad_initial_message_is_answered_with_its_error_code(game, first, code):
    with door(game, "g") as ports:
        link = Link("127.0.0.1", ports["g"])
        link.raw(*first)
        kind, body = link.read_message()
        assert (kind, struct.unpack(">H", body)[0]) == (4, code)


@pytest.mark.parametrize("message, code", [
    ((0, struct.pack(">HH", 1, 0xDA10)), 0x06),  # a second initial message
    ((1, b""), 0x0D),  # a representation message from a client
    ((9, b""), 0x08),  # no such message type
    ((2, b"\x48"), 0x09),  # half a token
    ((2, b"\x48\x0e\x77\x77"), 0x0E),  # a token the map does not have
])
def test_protocol_errors_after_the_start_close_the_connection_with_their_code(game, message, code):
    with door(game, "g") as ports:
        link = Link("127.0.0.1", ports["g"]).connect()
        link.raw(*message)
        assert error_code(link) == code


def test_no_initial_message_in_time(game):
    with door(game, "g", limits=Limits(im_timeout=0.3)) as ports:
        link = Link("127.0.0.1", ports["g"])
        kind, body = link.read_message()  # nothing sent: the server gives up
        assert (kind, struct.unpack(">H", body)[0]) == (4, 0x01)


def test_an_over_long_message_is_refused_in_words_and_the_connection_goes_on(game):
    with door(game, "g", limits=Limits(max_body=64)) as ports:
        link = Link("127.0.0.1", ports["g"]).connect()
        link.send("ADM ('me') ('" + "x" * 100 + "')")
        refusal = link.expect("ADM")
        assert "message refused" in refusal and "more than the 64" in refusal
        assert link.expect("HUH") == "HUH (ERR)"
        link.send("MAP")
        assert link.expect("MAP") == "MAP ('standard')"


def test_a_flood_is_refused_then_disconnected(game):
    with door(game, "g", limits=Limits(rate=1, burst=3)) as ports:
        link = Link("127.0.0.1", ports["g"]).connect()
        for _ in range(12):
            link.send("MAP")
        answers = []
        with pytest.raises(Ended):
            while True:
                answers.append(link.recv(10))
        assert answers[:3] == ["MAP ('standard')"] * 3
        assert answers[3].startswith("REJ (MAP)")
        assert any("disconnected: more than 1 messages a second" in a for a in answers)
        assert answers[-1] == "OFF"


def test_connections_beyond_the_limit_are_told_why_and_sent_away(game):
    with door(game, "g", limits=Limits(clients=1)) as ports:
        first = Link("127.0.0.1", ports["g"]).connect()
        first.send("OBS")
        first.expect("YES")
        second = Link("127.0.0.1", ports["g"]).connect()
        second.send("OBS")
        assert "has all the 1 connections it takes" in second.expect("ADM")
        assert second.expect("OFF") == "OFF"
        first.send("MAP")
        assert first.expect("MAP") == "MAP ('standard')"


def test_a_byte_swapped_initial_message_is_answered_with_its_error_at_once(game):
    with door(game, "g") as ports:
        link = Link("127.0.0.1", ports["g"])
        # Every 16-bit number little-endian: the length 4 reads 0x0400, the magic number 0x10DA.
        link.sock.sendall(b"\x00\x00\x04\x00" + b"\x01\x00\x10\xda")
        assert error_code(link) == 0x03


def test_syntax_errors_are_marked_where_reading_stopped(game):
    with door(game, "g") as ports:
        link = Link("127.0.0.1", ports["g"]).connect()
        link.send("MAP MAP")
        assert link.expect("HUH") == "HUH (MAP ERR MAP)"
        link.send("NME ('a') (AUS)")
        assert link.expect("HUH") == "HUH (NME ('a') (ERR AUS))"
        link.send("THX")  # a server's message sent by a client
        assert link.expect("HUH") == "HUH (ERR THX)"
        link.send("NOW (")
        assert link.expect("PRN") == "PRN (NOW ()"
        link.send("TME (-5)")
        assert link.expect("REJ") == "REJ (TME (-5))"
        assert "a TME alarm is a number of seconds" in link.expect("ADM")
