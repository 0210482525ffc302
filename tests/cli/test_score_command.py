"""`gamesmaster score` for tournament directors: a real process, a board in, JSON out, and its errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gamesmaster.cli", "score", *args], capture_output=True, text=True,
                          timeout=60)


def test_a_sum_of_squares_draw():
    done = run("--system", "sos", "--draw", "england,France", "ENGLAND=12", "FRANCE=10", "RUSSIA=8", "TURKEY=4")
    assert done.returncode == 0, done.stderr
    # squares 144 + 100 + 64 + 16 = 324: England 14400 / 324, France 10000 / 324
    assert json.loads(done.stdout) == {"AUSTRIA": 0, "ENGLAND": 44.44, "FRANCE": 30.86, "GERMANY": 0, "ITALY": 0,
                                       "RUSSIA": 0, "TURKEY": 0}


def test_a_carnage_solo_and_a_manorcon_board_with_the_years_played():
    solo = run("--system", "carnage", "--solo", "france", "FRANCE=18", "ENGLAND=6")
    assert json.loads(solo.stdout)["FRANCE"] == 28034
    manor = run("--system", "manorcon", "--played", "ITALY=5,RUSSIA=3", "--played", "TURKEY=7",
                "AUSTRIA=12", "ENGLAND=10", "FRANCE=8", "GERMANY=4")
    assert json.loads(manor.stdout) == {"AUSTRIA": 36.36, "ENGLAND": 27.27, "FRANCE": 19.58, "GERMANY": 8.39,
                                        "ITALY": 0.5, "RUSSIA": 0.3, "TURKEY": 0.7}


def test_the_nine_player_map_has_its_own_centres():
    done = run("--system", "dss", "--variant", "nine-man", "--draw", "england,france", "ENGLAND=20", "FRANCE=20")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["ENGLAND"] == 50


@pytest.mark.parametrize("args,message", [
    (("--system", "elo", "ENGLAND=3"), "unknown scoring system 'elo': choose none, dss, sos"),
    (("--system", "dss", "ENGLAND"), "'ENGLAND': write a power's centres as POWER=NUMBER"),
    (("--system", "dss", "ENGLAND=-3"), "write a power's centres as POWER=NUMBER"),
    (("--system", "dss", "--draw", "england,spain", "ENGLAND=3"), "unknown power 'spain'"),
    (("--system", "dss", "ENGLAND=30", "FRANCE=10"), "the powers hold 40 supply centres; Standard Diplomacy has 34"),
    (("--system", "dss", "--draw", "france", "ENGLAND=3"), "FRANCE is out of the game"),
    (("--system", "carnage", "--variant", "nine-man", "ENGLAND=3"), "Carnage is defined for the standard board"),
    (("--system", "manorcon", "ENGLAND=3", "FRANCE=3"), "years it played"),
    (("--system", "dss", "--solo", "england", "--draw", "france", "ENGLAND=3"), "not both"),
])
def test_errors_name_what_is_wrong(args, message):
    done = run(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("gamesmaster score: ") and message in done.stderr, done.stderr
