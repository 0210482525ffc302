"""Draws: the final report names the phase last played; votes are secret unless the game makes them open."""

from __future__ import annotations

import json

import pytest

from gamesmaster.gm import Gamesmaster, GMError
from gamesmaster.gm.record import verify_archive
from gamesmaster.ledger import Entry
from gamesmaster.gm.settings import Settings

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
POWERS = ["ENGLAND", "FRANCE", "GERMANY", "ITALY", "AUSTRIA", "RUSSIA", "TURKEY"]


def to_phase(gm: Gamesmaster, gid: str, phase: str, **settings: object) -> dict[str, str]:
    """A seven-player game played (every unit holding) until `phase` is open; each power's credential."""
    c = gm.setup.create_game(gid, players=NAMES, assign=dict(zip(NAMES, POWERS)), settings=Settings(**settings) if settings else None)
    while str(gm.games.game(gid).phase) != phase:
        gm.deadlines.process(gid, force=True)
    return {p: c.credentials[n] for n, p in zip(NAMES, POWERS)}


def test_a_draw_agreed_in_fall_ends_the_game_after_the_spring_played(sqlite_store, clock):
    """A draw passed while Fall 1902 is open ends the game after Spring 1902, the last phase played."""
    gm = Gamesmaster(sqlite_store, clock)
    cred = to_phase(gm, "drawn", "F1902M")
    pid = gm.press.propose("drawn", kind="draw", credential=cred["FRANCE"])
    for power in POWERS:
        if power != "FRANCE":
            gm.press.vote("drawn", pid, True, credential=cred[power])
    assert gm.games.game("drawn").result.kind == "draw"
    report = gm.games.final_report("drawn")
    assert "after Spring 1902" in report.splitlines()[0], report
    assert "Fall 1902" not in report.splitlines()[0]
    assert gm.record.verify("drawn").ok


def test_a_concession_before_any_phase_is_played_says_so(sqlite_store, clock):
    """Conceded in Spring 1901: nothing was played, and the report does not pretend otherwise."""
    gm = Gamesmaster(sqlite_store, clock)
    cred = to_phase(gm, "early", "S1901M")
    pid = gm.press.propose("early", kind="concession", concede_to="ENGLAND", credential=cred["FRANCE"])
    for power in POWERS[2:] + POWERS[:1]:
        if gm.games.game("early").status != "finished":
            gm.press.vote("early", pid, True, credential=cred[power])
    assert gm.games.game("early").result.kind == "concession"
    line = gm.games.final_report("early").splitlines()[0]
    assert "before any phase was played" in line, line


def voted(gm: Gamesmaster, gid: str, votes: str | None) -> dict[str, str]:
    """A game (secret or open votes, or the default) where a draw proposed by France is voted down by Germany,
    and the phase then published."""
    cred = to_phase(gm, gid, "S1901M", **({"votes": votes} if votes else {}))
    pid = gm.press.propose(gid, kind="draw", credential=cred["FRANCE"])
    gm.press.vote(gid, pid, True, credential=cred["ENGLAND"])
    gm.press.vote(gid, pid, False, credential=cred["GERMANY"])
    gm.deadlines.process(gid, force=True)
    return cred


def test_votes_are_secret_by_default_on_the_public_record(sqlite_store, clock):
    """By default nobody's vote is on the public record, then or later: only the outcome; the record verifies."""
    gm = Gamesmaster(sqlite_store, clock)
    voted(gm, "hush", None)
    assert gm.games.game("hush").settings.votes == "secret"
    doc = gm.record.archive("hush")
    votes = [e for e in doc["entries"] if e["kind"] == "draw-vote"]
    assert len(votes) == 2 and all("payload" not in e and e["payload_sha256"] for e in votes)
    [result] = [e for e in doc["entries"] if e["kind"] == "draw-result"]
    assert json.loads(result["payload"])["status"] == "rejected"
    summaries = [e.summary for e in gm.record.public_record("hush") if e.kind == "draw-vote"]
    assert summaries and all("GERMANY" not in s and "ENGLAND" not in s for s in summaries)
    assert verify_archive(doc).ok, verify_archive(doc).problems
    assert gm.record.verify("hush").ok


def test_open_votes_are_on_the_public_record(sqlite_store, clock):
    """A game made with open votes publishes each power's vote, and its record verifies."""
    gm = Gamesmaster(sqlite_store, clock)
    voted(gm, "loud", "open")
    doc = gm.record.archive("loud")
    votes = {json.loads(e["payload"])["power"]: json.loads(e["payload"])["yes"]
             for e in doc["entries"] if e["kind"] == "draw-vote"}
    assert votes == {"ENGLAND": True, "GERMANY": False}
    assert verify_archive(doc).ok


def test_a_public_record_that_seals_open_votes_does_not_verify(sqlite_store, clock):
    """Sealing a vote is allowed only where the game's votes are secret: verify names the entry."""
    gm = Gamesmaster(sqlite_store, clock)
    voted(gm, "loud", "open")
    doc = gm.record.archive("loud")
    sealed = Entry.from_dict(next(e for e in doc["entries"] if e["kind"] == "draw-vote")).seal().as_dict()
    doc["entries"] = [sealed if e["seq"] == sealed["seq"] else e for e in doc["entries"]]
    report = verify_archive(doc)
    assert not report.ok and any("draw-vote" in p and "sealed" in p for p in report.problems), report.problems


def test_the_votes_setting_is_checked():
    """A votes setting other than secret or open is refused, naming it."""
    with pytest.raises(GMError, match="votes 'whispered'"):
        Settings.from_dict({"votes": "whispered"})


def test_the_console_creates_games_with_secret_or_open_votes(gm_cli, tmp_path):
    """`gamesmaster new --votes open` makes a game of open votes; without it, votes are secret."""
    assert gm_cli("new", "hush", "--players", "Ann,Bob")[0] == 0
    assert gm_cli("new", "loud", "--players", "Ann,Bob", "--votes", "open")[0] == 0
    code, out, _ = gm_cli("status", "hush")
    assert code == 0 and "secret votes" in out, out
    code, out, _ = gm_cli("status", "loud")
    assert code == 0 and "open votes" in out, out


def test_games_made_before_the_settings_existed_read_the_same(sqlite_store, clock):
    """The snapshots of older games hold neither the votes setting nor the phase played: written again, they are
    what they were, so `verify` finds their cached state the ledger's, and an old ending reads as it did."""
    from gamesmaster.gm.state import Ending, GameState

    assert "votes" not in Settings().to_dict() and Settings.from_dict({}).votes == "secret"
    assert Settings.from_dict({"votes": "open"}).to_dict()["votes"] == "open"
    gm = Gamesmaster(sqlite_store, clock)
    to_phase(gm, "old", "S1901M")
    with gm.desk.reading() as rec:
        state = gm.desk.snapshot(rec, "old")
    legacy = Ending.from_dict({"kind": "draw", "winners": ["FRANCE"], "phase": "F1902M", "reason": "agreed",
                               "at": "2030-01-01T00:00:00+00:00", "summary": {}})
    doc = state.evolve(status="finished", result=legacy).to_dict()
    assert "played" not in doc["result"]
    assert GameState.from_dict(doc).result.played is None
