"""Draws: the final report names the phase last played; votes are secret unless the game makes them open."""

from __future__ import annotations

from gamesmaster.gm import Gamesmaster
from gamesmaster.gm.settings import Settings

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
POWERS = ["ENGLAND", "FRANCE", "GERMANY", "ITALY", "AUSTRIA", "RUSSIA", "TURKEY"]


def to_phase(gm: Gamesmaster, gid: str, phase: str, **settings: object) -> dict[str, str]:
    """A seven-player game played (every unit holding) until `phase` is open; each power's credential."""
    c = gm.create_game(gid, players=NAMES, assign=dict(zip(NAMES, POWERS)), settings=Settings(**settings) if settings else None)
    while str(gm.game(gid).phase) != phase:
        gm.process(gid, force=True)
    return {p: c.credentials[n] for n, p in zip(NAMES, POWERS)}


def test_a_draw_agreed_in_fall_ends_the_game_after_the_spring_played(sqlite_store, clock):
    """A draw passed while Fall 1902 is open ends the game after Spring 1902, the last phase played."""
    gm = Gamesmaster(sqlite_store, clock)
    cred = to_phase(gm, "drawn", "F1902M")
    pid = gm.propose("drawn", kind="draw", credential=cred["FRANCE"])
    for power in POWERS:
        if power != "FRANCE":
            gm.vote("drawn", pid, True, credential=cred[power])
    assert gm.game("drawn").result.kind == "draw"
    report = gm.final_report("drawn")
    assert "after Spring 1902" in report.splitlines()[0], report
    assert "Fall 1902" not in report.splitlines()[0]
    assert gm.verify("drawn").ok


def test_a_concession_before_any_phase_is_played_says_so(sqlite_store, clock):
    """Conceded in Spring 1901: nothing was played, and the report does not pretend otherwise."""
    gm = Gamesmaster(sqlite_store, clock)
    cred = to_phase(gm, "early", "S1901M")
    pid = gm.propose("early", kind="concession", concede_to="ENGLAND", credential=cred["FRANCE"])
    for power in POWERS[2:] + POWERS[:1]:
        if gm.game("early").status != "finished":
            gm.vote("early", pid, True, credential=cred[power])
    assert gm.game("early").result.kind == "concession"
    line = gm.final_report("early").splitlines()[0]
    assert "before any phase was played" in line, line
