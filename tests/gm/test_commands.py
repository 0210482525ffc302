"""The GM's console commands: each with --help and an example; errors name the problem."""

from __future__ import annotations

import json
import re

import pytest

from gamesmaster.cli import build_parser
from gamesmaster.gm import Gamesmaster, GMError

GM_COMMANDS = ["new", "join", "start", "games", "status", "orders", "process", "worker", "extend", "pause", "resume",
               "replace", "correct", "press", "question", "draw", "history", "verify", "export", "import"]


def test_every_command_has_help_with_an_example():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    for name in GM_COMMANDS:
        text = sub.choices[name].format_help()
        assert "example:" in text and f"gamesmaster {name}" in text, name
        assert "--db URL" in text


def test_a_game_from_the_console(gm_cli, tmp_path):
    code, out, _ = gm_cli("new", "club", "--players", "Ann,Bob,Cat,Dan,Eve,Fay,Gus", "--seed", "3", "--tz",
                          "Europe/London", "--movement", "tue,fri 22:00", "--standby", "Sam",
                          "--replacement", "standby", "--rule", "koning=false")
    assert code == 0 and "seed 3" in out and "Credentials (shown this once" in out
    creds = dict(re.findall(r"^  (\w+)\s+\w[\w-]*\s+(\d+\.\S+)$", out, re.M))
    assert set(creds) == {"Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Sam"}
    orders = tmp_path / "france.txt"
    orders.write_text("A Par-Bur\nA Mar-Spa\nF Bre-Mao\n")
    code, out, _ = gm_cli("orders", "club", "France", str(orders))
    assert code == 0 and "accepted as 'A PAR - BUR'" in out and "entered by the gamesmaster, in-person" in out
    receipt = re.search(r"Receipt: (\S+)", out).group(1)
    code, out, _ = gm_cli("orders", "club", "Italy", stdin="F Nap.--Tyr.; A Ven Stands")
    assert "read 'Tyr.' as Tyrrhenian Sea" in out and "no order for A ROM: it will hold" in out
    code, out, _ = gm_cli("orders", "club", "France", "--show")
    assert "A Par-Bur" in out and receipt in out
    code, out, _ = gm_cli("status", "club")
    assert "Spring 1901 movement: orders due" in out and "received" in out
    code, out, _ = gm_cli("press", "club", "Welcome to the club game.")
    assert code == 0
    code, out, _ = gm_cli("press", "club", "Peace?", "--from", "France", "--to", "Germany")
    assert code == 0
    code, out, _ = gm_cli("press", "club", "--list", "--as", "England")
    assert "Welcome" in out and "Peace?" not in out
    code, out, _ = gm_cli("extend", "club", "--by", "24h", "--reason", "strike")
    assert code == 0 and "orders now due" in out
    code, out, _ = gm_cli("pause", "club")
    code, out, _ = gm_cli("resume", "club")
    assert "resumes" in out
    code, out, _ = gm_cli("process", "club", "--now")
    assert code == 0 and "Spring 1901 movement adjudicated" in out and "FRANCE: A PAR - BUR succeeds" in out
    fixed = tmp_path / "fixed.txt"
    fixed.write_text("A Par-Pic\nA Mar-Spa\nF Bre-Mao\n")
    code, out, _ = gm_cli("correct", "club", "--reason", "transcription", "--orders", "France", str(fixed))
    assert code == 0 and "corrected" in out and "A Par-Pic" in out
    code, out, _ = gm_cli("replace", "club", "Italy", "Ken")
    assert "Ken now plays Italy" in out
    code, out, _ = gm_cli("draw", "club", "--propose", "--power", "France")
    assert "Proposal 1 is open" in out
    code, out, _ = gm_cli("draw", "club", "--vote", "1", "--power", "England", "--no")
    assert "rejected" in out
    code, out, _ = gm_cli("history", "club", "--ledger")
    assert "superseded by a correction" in out and "orders-submitted" in out
    code, out, _ = gm_cli("verify", "club", "--receipt", receipt)
    assert code == 0 and "the record holds" in out
    archive = tmp_path / "club.json"
    code, _, _ = gm_cli("export", "club", str(archive))
    assert code == 0 and json.loads(archive.read_text())["game"] == "club"
    code, out, _ = gm_cli("import", str(archive), "--as", "club2")
    assert code == 0 and "Imported club as club2, a new game with its seats empty" in out
    code, out, _ = gm_cli("games")
    assert "club " in out and "club2" in out


def test_sign_up_and_the_demo(gm_cli):
    assert gm_cli("new", "later", "--no-start")[0] == 0
    code, out, _ = gm_cli("join", "later", "Ann")
    assert code == 0 and "Credential" in out
    gm_cli("join", "later", "Bob")
    code, out, _ = gm_cli("start", "later", "--assign", "Ann=England,Bob=France")
    assert code == 0 and "England" in out
    code, out, _ = gm_cli("import", "--sample")
    assert code == 0 and "sample-1971" in out
    code, out, _ = gm_cli("verify", "sample-1971")
    assert code == 0 and "7 phases replayed" in out


@pytest.mark.parametrize("argv,message", [
    (["status", "nosuch"], "no game 'nosuch'"),
    (["new", "Bad Id"], "game id 'Bad Id'"),
    (["new", "x", "--players", "A", "--tz", "Mars/Olympus"], "unknown time zone 'Mars/Olympus'"),
    (["new", "x", "--players", "A", "--rule", "koning=maybe"], "rule option koning cannot be 'maybe'"),
    (["new", "x", "--players", "A", "--movement", "someday"], "duration 'someday'"),
    (["orders", "nosuch", "France", "/nonexistent/file"], "no such file: /nonexistent/file"),
    (["import"], "import needs a FILE"),
    (["verify", "x", "--db", "mysql://h/db"], "unsupported database 'mysql'"),
])
def test_errors_name_the_problem(gm_cli, argv, message):
    code, _, err = gm_cli(*argv)
    assert code == 2 and message in err, err


def test_late_orders_are_refused_on_the_console(gm_cli, monkeypatch):
    from datetime import datetime, timedelta, timezone

    from gamesmaster.cli import games
    from gamesmaster.gm import Gamesmaster
    gm_cli("new", "late", "--players", "Ann", "--assign", "Ann=France", "--movement", "1m")
    # two minutes on: the one-minute deadline has passed
    class Later(Gamesmaster):
        def __init__(self, store, clock=None, **settings):
            super().__init__(store, lambda: datetime.now(timezone.utc) + timedelta(minutes=2), **settings)
    monkeypatch.setattr(games, "Gamesmaster", Later)
    code, _, err = gm_cli("orders", "late", "France", stdin="A Par-Bur")
    assert code == 2 and "late" in err and "recorded as ledger entry" in err


def test_verify_reports_a_broken_record(gm_cli, tmp_path):
    from sqlalchemy import create_engine, text
    gm_cli("new", "v", "--players", "Ann", "--assign", "Ann=France")
    gm_cli("orders", "v", "France", stdin="A Par-Bur")
    engine = create_engine(f"sqlite:///{tmp_path / 'data' / 'gamesmaster.db'}")
    with engine.begin() as conn:
        conn.execute(text("UPDATE gm_ledger SET payload=replace(payload, 'A Par-Bur', 'A Par-Pic') WHERE game_id='v'"))
    engine.dispose()
    code, out, _ = gm_cli("verify", "v")
    assert code == 1 and "does NOT hold" in out and "ledger entry" in out


def test_create_game_names_a_dict_handed_where_a_value_is_wanted(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    with pytest.raises(GMError, match="settings must be a Settings value"):
        gm.setup.create_game("typed", settings={"grace_hours": 24})  # type: ignore[arg-type]
    with pytest.raises(GMError, match="rules must be a preset's name or a RuleSpec"):
        gm.setup.create_game("typed", rules={"preset": "1971"})  # type: ignore[arg-type]
    with pytest.raises(GMError, match="position must be a Position"):
        gm.setup.create_game("typed", position={"units": {}})  # type: ignore[arg-type]


@pytest.mark.parametrize("given,named", [
    ({"grace_hours": "abc"}, "the grace period"), ({"grace_hours": None}, "the grace period"),
    ({"press": 5}, "press setting"), ({"early_movement": "maybe"}, "early movement"),
    ({"end_year": "x"}, "end year"), ({"end_year": 1901.5}, "end year"), ({"schedule": 5}, "the schedule"),
    ({"schedule": {"days": 5}}, "days"), ({"schedule": {"hours": "nan"}}, "hours"),
])
def test_a_setting_of_the_wrong_kind_is_named_not_a_crash(given, named):
    from gamesmaster.gm.settings import Settings
    with pytest.raises(GMError, match=named):
        Settings.from_dict(given)


@pytest.mark.parametrize("given,named", [({"writing": [1]}, "writing"), ({"practice": "perhaps"}, "practice")])
def test_a_live_period_of_the_wrong_kind_is_named(given, named):
    from gamesmaster.gm.live import LiveConfig
    with pytest.raises(GMError, match=named):
        LiveConfig.from_dict(given)
