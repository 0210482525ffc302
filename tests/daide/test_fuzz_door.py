"""Fuzzing the DAIDE door: random messages of the map's own tokens from a seated bot, over the wire.

Every message gets an answer and the door goes on: after each one the bot asks for the
map and must be told it (a connection the door sends away with OFF, for a third wrong
passcode or a refused map, is made again); nothing the door does fails with an exception
(its log has no errors), and the game's record still verifies at the end. Budget:
GAMESMASTER_FUZZ_EXAMPLES (150 by default, as for the other fuzz targets).
"""

from __future__ import annotations

import logging
import os

from hypothesis import HealthCheck, given, settings, strategies as st

from daideclient import TOKEN_TABLE, Ended, Link, sit
from doortools import door

from gamesmaster.daide.server import Limits
from gamesmaster.gm import Settings

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
# The client's own token names, and some of the map's (which the representation message gives it).
WORDS = sorted({w for w in TOKEN_TABLE.split() if len(w) == 3 and w.isalpha() and w.isupper()}
               | set("AUS ENG FRA GER ITA RUS TUR PAR BUR MAR BRE LON NTH STP BUL SPA ECH MUN".split()))
EXAMPLES = int(os.environ.get("GAMESMASTER_FUZZ_EXAMPLES", "150"))

word = st.one_of(st.sampled_from(WORDS), st.integers(-8192, 8191).map(str),
                 st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=8).map(
                     lambda t: "'" + t.replace("'", "''") + "'"))
commands = st.sampled_from(["SUB", "SND", "NOT", "DRW", "TME", "HST", "NME", "OBS", "IAM", "YES", "REJ", "MIS", "GOF",
                            "NOW", "ADM", "HLO", "MDF"])
group = st.recursive(st.lists(word, max_size=4).map(" ".join),
                     lambda inner: st.lists(inner, max_size=4).map(lambda xs: "(" + " ".join(xs) + ")"), max_leaves=12)
message = st.tuples(commands, st.lists(st.one_of(word, group), max_size=5)).map(lambda t: " ".join([t[0], *t[1]]))
unbalanced = st.sampled_from(["SUB ((FRA AMY PAR) HLD", "NOT ((", "SND ) (", "DRW (((((("])


class Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_random_messages_are_answered_and_break_nothing(sqlite_gm):
    gm = sqlite_gm
    created = gm.setup.create_game("f", players=NAMES, assign=dict(zip(NAMES, POWERS)), settings=Settings.from_dict({"press": "full"}))
    credential = created.credentials["Cat"]
    errors = Errors()
    logging.getLogger("gamesmaster.daide").addHandler(errors)
    try:
        with door(gm, "f", limits=Limits(rate=10_000, burst=10_000)) as ports:
            state = {"link": None}

            def bot() -> Link:
                if state["link"] is None:
                    link = sit("127.0.0.1", ports["f"], f"Fuzz {credential}")
                    link.expect("NOW")
                    state["link"] = link
                return state["link"]

            @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
            @given(st.one_of(message, unbalanced))
            def check(written: str) -> None:
                link = bot()
                link.send(written)
                link.send("MAP")
                try:
                    link.expect("MAP ('standard')", timeout=20)
                except Ended:
                    assert "OFF" in link.received, f"{written!r} closed the connection: {link.received[-3:]}"
                    link.close()
                    state["link"] = None

            check()
    finally:
        logging.getLogger("gamesmaster.daide").removeHandler(errors)
    assert not errors.records, [r.getMessage() for r in errors.records]
    assert gm.record.verify("f").ok
