"""Seven bots play a whole game through the DAIDE door on loopback: one sends malformed messages every
turn, one drops its connection and comes back with IAM, an observer watches; the record verifies."""

from __future__ import annotations

import pytest
from daideclient import Link, RandomBot, tree
from doortools import door, until

from gamesmaster.gm import Settings
from gamesmaster.gm.fates import fates

NOISE = [
    "SUB ((FRA AMY PAR) MTO)",  # a move without a destination: HUH
    "SUB ((FRA AMY PAR) HLD",  # a bracket not closed: PRN
    "NME ('again') ('1')",  # this connection has already said who it is: REJ
    "GOF GOF",  # HUH
    "DRW (ENG ENG ENG 7)",  # 7 is not a power: HUH
    "HST (SPR 1850)",  # not published: REJ
    "SND (FRA) (THX)",  # not a press message: HUH
]
EXPECTED = ["HUH", "PRN", "REJ", "HUH", "HUH", "REJ", "HUH"]


def test_seven_bots_play_a_whole_game(gm):
    gm.setup.create_game("bots", start=False, settings=Settings.from_dict({"press": "full", "early_movement": True, "end_year": 1904}))
    gm.bots.open_to_bots("bots")
    with door(gm, "bots") as ports:
        port = ports["bots"]
        watcher = Link("127.0.0.1", port).connect()
        watcher.send("OBS")
        assert watcher.expect("YES") == "YES (OBS)"
        watcher.send(f"YES ({watcher.expect('MAP')})")
        bots = [RandomBot("127.0.0.1", port, f"Bot{i}", seed=i) for i in range(7)]
        bots[0].noise = NOISE
        bots[1].drop_after = 3
        for b in bots:
            b.start()
        for b in bots:
            until(lambda: not b.thread.is_alive(), 120, f"{b.name} to finish the game")
            assert b.error is None, f"{b.name}: {b.error!r}"
        seen = []
        while not seen or not seen[-1].startswith("SMR"):
            seen.append(watcher.recv(30))

    view = gm.games.game("bots")
    assert view.status == "finished" and view.result is not None
    assert gm.record.verify("bots").ok
    # Every bot was told how the game ended, the same way, and so was the observer.
    assert len({b.summary for b in bots}) == 1 and bots[0].summary == seen[-1]
    assert {b.ended for b in bots} == {seen[-2]}
    assert bots[0].ended.startswith("SLO" if view.result.kind != "draw" else "DRW")
    # Each bot played its own power, drawn by lot like a person's.
    assert sorted(b.power for b in bots) == ["AUS", "ENG", "FRA", "GER", "ITA", "RUS", "TUR"]
    players = {s.name: s.acts_for() for s in view.seats}
    for b in bots:
        assert players[f"{b.name} (DAIDE bot)"][0].startswith(b.power)

    # Every malformed message got its answer, and nothing else changed for that bot.
    noisy = bots[0]
    assert noisy.noise_answers and len(noisy.noise_answers) == len(NOISE) * noisy.turns
    for (sent, answer), expected in zip(noisy.noise_answers, EXPECTED * noisy.turns):
        assert answer.startswith(expected), (sent, answer)
    assert noisy.noise_answers[0][1] == "HUH (SUB ((FRA AMY PAR) MTO ERR))"

    # The bot that dropped out came back on a new connection with its passcode; the others saw it go and return.
    back = bots[1]
    assert back.rejoined
    gone, returned = f"CCD ({back.power})", f"NOT (CCD ({back.power}))"
    assert all(gone in b.log and returned in b.log for b in bots if b is not back)
    assert back.log.index(next(m for m in back.log if m.startswith("YES (IAM"))) > 0

    # Every order went through submit_orders, channel daide, in the bot's own name; every SUB was thanked.
    ledger = gm.games.history("bots").ledger
    submitted = [e.payload for e in ledger if e.kind == "orders-submitted"]
    assert submitted and {p["channel"] for p in submitted} == {"daide"}
    assert {p["entered_by"] for p in submitted} == {f"{b.name} (DAIDE bot)" for b in bots}
    for b in bots:
        subs = [s for s in b.sent if s.startswith("SUB") and s not in b.noise]
        orders = sum(len(tree(s)) - 1 for s in subs)
        assert len(b.thx) == orders
        assert all(t.endswith("(MBV)") for t in b.thx), (b.name, [t for t in b.thx if not t.endswith("(MBV)")])

    # The observer saw every order's result, phase by phase (one ORD for each unit).
    results = gm.games.results("bots")
    assert sum(1 for m in seen if m.startswith("ORD")) == sum(len(fates(r)) for r in results)
    last = results[-1]
    assert any(m.startswith(f"ORD ({_turn(last)})") for m in seen)


def _turn(result) -> str:
    season = {("S", "M"): "SPR", ("S", "R"): "SUM", ("F", "M"): "FAL", ("F", "R"): "AUT", ("W", "A"): "WIN"}
    return f"{season[(result.phase.season, result.phase.kind)]} {result.phase.year}"


# Set-ups where a player commands several powers are not here: a DAIDE bot plays one power, so
# the other powers of its grouping wait for the deadline (docs/daide.md).
@pytest.mark.parametrize("variant, last_year", [("standard-6", 1870), ("standard-5", 1801), ("nine-man", 1901)])
def test_other_variants_are_served_with_their_own_map(sqlite_gm, variant, last_year):
    gm = sqlite_gm
    gm.setup.create_game("v", variant=variant, start=False, settings=Settings.from_dict({"press": "none", "early_movement": True,
                                                                  "end_year": last_year}))
    gm.bots.open_to_bots("v")
    with door(gm, "v") as ports:
        variant_ = gm.games.game("v").variant
        count = len([p for p in variant_.powers if p not in variant_.neutral])  # a bot a power
        bots = [RandomBot("127.0.0.1", ports["v"], f"B{i}", seed=i).start() for i in range(count)]
        for b in bots:
            until(lambda: not b.thread.is_alive(), 120, f"{b.name} to finish")
            assert b.error is None, f"{b.name}: {b.error!r}"
    assert gm.games.game("v").status == "finished" and gm.record.verify("v").ok
    assert all(b.summary for b in bots)
    hello = next(m for m in bots[0].log if m.startswith("HLO"))
    assert "(LVL 0)" in hello  # a game without press is DAIDE's level 0
    if variant == "nine-man":  # nine powers, the two new ones with names of their own
        assert sorted(b.power for b in bots) == ["AUS", "BAB", "ENG", "FRA", "GER", "ITA", "PER", "RUS", "TUR"]
