"""Games for fewer than seven players (rulebook XIV.2), from `gamesmaster new` to the first
adjustments through the console, each player ordering with the credential `new` gave him."""

from __future__ import annotations

import io
import re

import pytest

from gamesmaster.cli import main

CREDENTIAL = re.compile(r"^  (\w+)\s+([\w/]+)\s+(\d+\.\S+)$", re.M)


@pytest.fixture
def cli(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("GAMESMASTER_DATABASE_URL", raising=False)
    monkeypatch.setenv("GAMESMASTER_DATA", str(tmp_path / "data"))

    def run(*argv: str, stdin: str | None = None) -> tuple[int, str]:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin or ""))
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out + err
    return run


def new_game(cli, game: str, variant: str, players: list[str], seed: int = 7) -> dict[str, tuple[str, str]]:
    """Create the game; {player: (the powers shown, the credential)}."""
    code, out = cli("new", game, "--variant", variant, "--players", ",".join(players), "--seed", str(seed))
    assert code == 0, out
    return {name: (powers, secret) for name, powers, secret in CREDENTIAL.findall(out)}


def commander(creds: dict[str, tuple[str, str]], power: str) -> tuple[str, str]:
    """(player, credential) of the player who commands the power."""
    return next((name, secret) for name, (powers, secret) in creds.items() if power.capitalize() in powers.split("/"))


def order(cli, game: str, power: str, secret: str, text: str) -> str:
    code, out = cli("orders", game, power, "--credential", secret, stdin=text)
    assert code == 0, out
    return out


def status(cli, game: str) -> str:
    code, out = cli("status", game)
    assert code == 0
    return out


def to_first_adjustments(cli, game: str, year: int, secret: str) -> None:
    """France takes Portugal in the first Fall and builds in Marseilles; the record holds at each step."""
    order(cli, game, "France", secret, "A Mar-Spa\nA Par-Bur")
    assert cli("process", game, "--now")[0] == 0
    assert f"Fall {year} movement" in status(cli, game)
    order(cli, game, "France", secret, "A Spa-Por")
    assert cli("process", game, "--now")[0] == 0
    assert f"Winter {year} adjustments" in status(cli, game)
    out = order(cli, game, "France", secret, "Build A Mar")
    assert "accepted" in out
    # Builds are processed as soon as every power concerned has ordered (Brobdingnag procedure 3).
    shown = status(cli, game)
    assert f"Spring {year + 1} movement" in shown
    assert re.search(r"France\s+\S+\s+4\s+4", shown), shown  # Portugal counted for France alone
    code, out = cli("verify", game)
    assert code == 0 and "the record holds" in out, out


def test_six_players_italy_is_neutral_never_drawn_and_holds(cli):
    creds = new_game(cli, "six", "standard-6", ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"])
    drawn = sorted(p for p, _ in creds.values())
    assert drawn == ["Austria", "England", "France", "Germany", "Russia", "Turkey"]
    shown = status(cli, "six")
    assert "Spring 1870 movement" in shown and re.search(r"Italy\s+\(neutral\)", shown)
    code, out = cli("orders", "six", "Italy", stdin="A Ven-Tyr")
    assert code == 2 and "Italy" in out
    _, secret = commander(creds, "FRANCE")
    to_first_adjustments(cli, "six", 1870, secret)


def test_four_players_one_credential_orders_both_powers_of_a_pair(cli):
    creds = new_game(cli, "four", "standard-4", ["Ann", "Bob", "Cat", "Dan"])
    assert sorted(p for p, _ in creds.values()) == ["Austria/France", "England", "Germany/Turkey", "Italy/Russia"]
    name, secret = commander(creds, "FRANCE")
    # The same credential orders Austria too, and is refused for a power of another player.
    out = order(cli, "four", "Austria", secret, "A Vie-Gal")
    assert "accepted as 'A VIE - GAL'" in out
    code, out = cli("orders", "four", "Germany", "--credential", secret, stdin="A Mun H")
    assert code == 2 and f"{name}'s, who does not play Germany" in out
    to_first_adjustments(cli, "four", 1901, secret)
    code, out = cli("history", "four")
    assert f"{name} commands Austria/France" in out
    # Supply centres are counted for each country, not for the player (XIV.2 note).
    shown = status(cli, "four")
    assert re.search(r"Austria\s+" + name + r"\s+3\s+3", shown), shown


@pytest.mark.parametrize("variant,groups", [
    ("standard-3a", ["Austria/Italy/Turkey", "England/France/Germany", "Russia"]),
    ("standard-3b", ["Austria/England/Germany", "France/Turkey", "Italy/Russia"]),
])
def test_three_players_both_alternatives(cli, variant, groups):
    creds = new_game(cli, "three", variant, ["Ann", "Bob", "Cat"])
    assert sorted(p for p, _ in creds.values()) == groups
    _, secret = commander(creds, "FRANCE")
    to_first_adjustments(cli, "three", 1901, secret)


def test_two_players_world_war_one_coin_toss_and_italy_joining_in_spring_1915(cli):
    creds = new_game(cli, "wwi", "standard-2", ["Ann", "Bob"], seed=11)
    assert sorted(p for p, _ in creds.values()) == ["Austria/Germany/Turkey", "England/France/Russia"]
    _, entente = commander(creds, "FRANCE")
    _, central = commander(creds, "GERMANY")
    shown = status(cli, "wwi")
    assert "Spring 1914 movement" in shown and re.search(r"Italy\s+\(neutral\)", shown)
    # Italian territory is closed while Italy is neutral.
    out = order(cli, "wwi", "Austria", central, "F Tri-Ven")
    assert "may not be entered while its power is neutral" in out
    to_first_adjustments(cli, "wwi", 1914, entente)
    code, out = cli("history", "wwi", "--ledger")
    assert code == 0 and "coin-tossed" in out and "power-joined" in out
    toss = re.search(r"The coin is tossed \(seed (\d+), on the record\): (Entente|Central Powers) \((\w+)\) wins\. "
                     r"Italy joins \2 in Spring 1915 movement\.", out)
    assert toss, out
    winner = entente if toss.group(2) == "Entente" else central
    loser = central if winner == entente else entente
    assert "Italy joins " + toss.group(2) + " from Spring 1915 movement" in out
    # From Spring 1915 Italy is the winner's: the same credential orders it; the other is refused.
    out = order(cli, "wwi", "Italy", winner, "A Ven-Tyr\nA Rom-Apu")
    assert "accepted as 'A VEN - TYR'" in out
    code, out = cli("orders", "wwi", "Italy", "--credential", loser, stdin="A Ven H")
    assert code == 2 and "does not play Italy" in out
    assert re.search(r"Italy\s+" + toss.group(3) + r"\s+3\s+3", status(cli, "wwi"))
    # Italian territory is open now: a unit of the other side may enter it.
    mover, power, text = (("Austria", central, "F Tri-Ven") if winner == entente else ("France", entente, "A Mar-Pie"))
    out = order(cli, "wwi", mover, power, text)
    assert "accepted" in out and "neutral" not in out
    assert cli("process", "wwi", "--now")[0] == 0
    code, out = cli("verify", "wwi")
    assert code == 0 and "the record holds" in out, out


def test_assigning_a_grouping_by_any_of_its_powers(cli):
    code, out = cli("new", "pair", "--variant", "standard-4", "--players", "Ann,Bob,Cat,Dan",
                    "--assign", "Ann=France,Bob=England,Cat=Germany/Turkey,Dan=Italy/Russia")
    assert code == 0, out
    creds = {name: powers for name, powers, _ in CREDENTIAL.findall(out)}
    assert creds == {"Ann": "Austria/France", "Bob": "England", "Cat": "Germany/Turkey", "Dan": "Italy/Russia"}
    code, out = cli("new", "twice", "--variant", "standard-4", "--players", "Ann,Bob,Cat,Dan",
                    "--assign", "Ann=France,Bob=Austria,Cat=England,Dan=Italy")
    assert code == 2 and "Austria/France is assigned twice" in out
    code, out = cli("new", "many", "--variant", "standard-3a", "--players", "Ann,Bob,Cat,Dan")
    assert code == 2 and "4 players for a set-up of 3" in out
