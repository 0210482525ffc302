"""The DAIDE door from the command line: `gamesmaster daide open/close/serve` and `gamesmaster serve --daide`."""

from __future__ import annotations

import os
import sys
import urllib.request
from pathlib import Path

import pytest

from daideclient import sit
from doortools import door
from sitetools import Proc

from gamesmaster.cli import main
from gamesmaster.cli.daide import parse_games
from gamesmaster.cli.options import CommandError
from gamesmaster.gm import Gamesmaster
from gamesmaster.store import Store

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
CLI = [sys.executable, "-c", "import sys; from gamesmaster.cli import main; sys.exit(main())"]


@pytest.fixture
def env(tmp_path):
    e = {k: v for k, v in os.environ.items() if not k.startswith("GAMESMASTER_")}
    e.update(HOME=str(tmp_path), PYTHONUNBUFFERED="1")
    return e


def new_game(db: str) -> dict[str, str]:
    store = Store(db)
    created = Gamesmaster(store).setup.create_game("g", players=NAMES, assign=dict(zip(NAMES, POWERS)))
    store.dispose()
    return {p: created.credentials[n] for n, p in zip(NAMES, POWERS)}


def test_open_and_close_a_game_to_bots(tmp_path, capsys):
    db = f"sqlite:///{tmp_path / 'gm.db'}"
    new_game(db)
    assert main(["daide", "open", "g", "--powers", "Italy,turkey", "--civil-disorder", "--db", db]) == 0
    assert capsys.readouterr().out == "g: open to bots: Italy, Turkey; bots stand in for missed seats: yes\n"
    store = Store(db)
    policy = Gamesmaster(store).bots.bot_policy("g")
    assert policy.open == ("ITALY", "TURKEY") and policy.civil_disorder
    assert main(["daide", "close", "g", "--db", db]) == 0
    assert not Gamesmaster(store).bots.bot_policy("g").any
    assert main(["daide", "open", "g", "--powers", "Narnia", "--db", db]) == 2
    assert "unknown power 'Narnia'" in capsys.readouterr().err
    store.dispose()


def test_ports_for_games():
    assert parse_games(["a", "b:17000", "c"]) == [("a", 16713), ("b", 17000), ("c", 16714)]
    with pytest.raises(CommandError, match="one game a port"):
        parse_games(["a:5000", "b:5000"])
    with pytest.raises(CommandError, match="the port must be a number"):
        parse_games(["a:http"])


def test_daide_serve_runs_the_door_until_stopped(tmp_path, env):
    db = f"sqlite:///{tmp_path / 'gm.db'}"
    creds = new_game(db)
    server = Proc([*CLI, "daide", "serve", "g:0", "--db", db, "--worker-interval", "1"], env, Path(tmp_path))
    try:
        port = int(server.wait_for(r"DAIDE: g on 127\.0\.0\.1:(\d+)").group(1))
        server.wait_for("Press Ctrl-C")
        bot = sit("127.0.0.1", port, f"Albert {creds['ITALY']}")
        assert bot.expect("HLO").startswith("HLO (ITA)")
        bot.send("SUB ((ITA AMY VEN) MTO TYR)")
        assert bot.expect("THX") == "THX ((ITA AMY VEN) MTO TYR) (MBV)"
    finally:
        assert server.stop() == 0
    assert "DAIDE door stopped." in server.output
    missing = Proc([*CLI, "daide", "serve", "nosuch:0", "--db", db], env, Path(tmp_path))
    assert missing.proc.wait(60) == 2 and "no game 'nosuch'" in missing.output


def test_serve_with_the_daide_option(tmp_path, env):
    db = f"sqlite:///{tmp_path / 'gm.db'}"
    creds = new_game(db)
    env["GAMESMASTER_DATABASE_URL"] = db
    server = Proc([*CLI, "serve", "--port", "0", "--no-mail", "--no-demo", "--data", str(tmp_path / "data"),
                   "--daide", "g:0"], env, Path(tmp_path))
    try:
        base = server.wait_for(r"serving (http://\S+)", timeout=90).group(1)
        port = int(server.wait_for(r"DAIDE: g on 127\.0\.0\.1:(\d+)", timeout=90).group(1))
        server.wait_for("Press Ctrl-C")
        bot = sit("127.0.0.1", port, f"Albert {creds['TURKEY']}")
        assert bot.expect("HLO").startswith("HLO (TUR)")
        # The site answers too; only then has uvicorn its signal handlers (a SIGTERM sent sooner goes unheard).
        with urllib.request.urlopen(base + "/games/g", timeout=30) as page:
            assert page.status == 200
    finally:
        assert server.stop() == 0, server.output


def test_the_press_level_bots_are_told_is_set_with_the_game(tmp_path, capsys):
    db = f"sqlite:///{tmp_path / 'gm.db'}"
    assert main(["new", "lvl", "--players", "Ann,Bob", "--daide-level", "20", "--db", db]) == 0
    assert main(["new", "odd", "--players", "Ann", "--daide-level", "25", "--db", db]) == 2
    assert "DAIDE press level 25" in capsys.readouterr().err
    store = Store(db)
    gm = Gamesmaster(store)
    assert gm.games.game("lvl").settings.daide_level == 20
    gm.bots.open_to_bots("lvl")
    with door(gm, "lvl") as ports:
        bot = sit("127.0.0.1", ports["lvl"], "Ralph")
        assert "(LVL 20)" in bot.expect("HLO")
    store.dispose()
