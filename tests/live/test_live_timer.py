"""The live table's timing on a fake clock: the pure transitions, then the service over a real store."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from gamesmaster.gm import Gamesmaster, GMError, live
from gamesmaster.gm.live import LiveConfig, LiveState
from gamesmaster.gm.table import LiveTable
from gamesmaster.store import Store
from gamesmaster.store.testing import FakeClock

T0 = datetime(2030, 5, 6, 19, 0, tzinfo=timezone.utc)
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]


# -- pure ---------------------------------------------------------------------------------


def test_defaults_follow_the_rulebook():
    cfg = LiveConfig()
    st = live.open_period(cfg, "S1901M", T0, shown=0, first_phase="S1901M")
    assert (st.period, st.ends) == ("diplomacy", T0 + timedelta(minutes=30))
    assert st.deadline(cfg) == T0 + timedelta(minutes=35)  # the end of writing
    later = live.open_period(cfg, "F1901M", T0, shown=1, first_phase="S1901M")
    assert later.ends == T0 + timedelta(minutes=15)
    retreat = live.open_period(cfg, "F1901R", T0, shown=2, first_phase="S1901M")
    assert (retreat.period, retreat.ends) == ("orders", T0 + timedelta(minutes=5))
    practice = LiveConfig.from_dict({"practice": True})
    st = live.open_period(practice, "S1901M", T0, shown=0, first_phase="S1901M")
    assert (st.period, st.ends) == ("writing", T0 + timedelta(minutes=5))


def test_pause_resume_add_time_end():
    cfg = LiveConfig()
    st = live.open_period(cfg, "S1901M", T0, shown=0, first_phase="S1901M")
    st = live.pause(st, T0 + timedelta(minutes=10))
    assert st.paused and st.left(T0 + timedelta(hours=5)) == 20 * 60 and st.deadline(cfg) is None
    assert not st.expired(T0 + timedelta(hours=5))
    with pytest.raises(GMError):
        live.pause(st, T0)
    st = live.add_time(st, T0, 2)
    st = live.resume(st, T0 + timedelta(hours=1))
    assert st.ends == T0 + timedelta(hours=1, minutes=22)
    st = live.add_time(st, T0 + timedelta(hours=1), -100)
    assert st.ends == T0 + timedelta(hours=1)  # never before now
    st = live.end_now(st, T0 + timedelta(minutes=61))
    assert st.expired(T0 + timedelta(minutes=61))
    w = live.to_writing(st, cfg, T0 + timedelta(minutes=61))
    assert (w.period, w.ends) == ("writing", T0 + timedelta(minutes=66))
    with pytest.raises(GMError):
        live.to_writing(w, cfg, T0)
    assert LiveState.from_dict(w.to_dict()) == w


def test_agreement_needs_every_player():
    st = live.open_period(LiveConfig(), "S1901M", T0, shown=0, first_phase="S1901M")
    st, done = live.agree(st, "FRANCE", True, ["ENGLAND", "FRANCE"])
    assert not done and st.agreed == ("FRANCE",)
    st, done = live.agree(st, "FRANCE", False, ["ENGLAND", "FRANCE"])
    assert not done and st.agreed == ()
    st, _ = live.agree(st, "FRANCE", True, ["ENGLAND", "FRANCE"])
    st, done = live.agree(st, "ENGLAND", True, ["ENGLAND", "FRANCE"])
    assert done


def test_bad_config_is_named():
    with pytest.raises(GMError, match="unknown live setting"):
        LiveConfig.from_dict({"speed": 3})
    with pytest.raises(GMError, match="writing"):
        LiveConfig.from_dict({"writing": 0})


# -- the service on a fake clock ----------------------------------------------------------------


@pytest.fixture
def table(tmp_path):
    clock = FakeClock(T0)
    store = Store(f"sqlite:///{tmp_path / 'gm.db'}")
    gm = Gamesmaster(store, clock=clock)
    yield gm.live, gm, clock
    store.dispose()


def _club(t: LiveTable) -> dict[str, str]:
    created = t.create("club", players=NAMES, assign=dict(zip(NAMES, POWERS)))
    return {created.powers[n]: c for n, c in created.credentials.items()}


def _payload(e):
    return e.payload


def _kinds(gm, game="club"):
    return [e for e in gm.games.history(game).ledger if e.kind == "live"]


def test_a_live_evening(table):
    t, gm, clock = table
    creds = _club(t)
    cfg, st = t.get("club")
    assert st.period == "diplomacy" and gm.games.game("club").deadline == T0 + timedelta(minutes=35)
    clock.advance(minutes=10)
    assert t.tick("club") == []  # nothing due
    # every player agrees: writing starts at once
    for p in POWERS[:-1]:
        assert t.agree("club", credential=creds[p]) is False
    assert t.agree("club", credential=creds["TURKEY"]) is True
    cfg, st = t.get("club")
    assert st.period == "writing" and st.ends == clock.now + timedelta(minutes=5)
    assert gm.games.game("club").deadline == st.ends
    # orders: by phone, one slip on paper, Turkey hands in nothing
    gm.orders.submit_orders("club", "FRANCE", "A Par-Bur\nA Mar S A Par-Bur\nF Bre-Mid", credential=creds["FRANCE"], channel="web")
    sub = t.slip("club", "ITALY", "A Ven.--Pie.\nF Nap.--Ion.")
    assert sub.channel == "in-person" and sub.entered_by == "GM"
    # the GM pauses: nothing runs out
    clock.advance(minutes=2)
    t.pause("club")
    clock.advance(minutes=30)
    assert t.tick("club") == [] and gm.games.game("club").deadline is None
    t.resume("club")
    t.add_time("club", 1)
    clock.advance(minutes=3, seconds=30)
    assert t.tick("club") == []
    clock.advance(seconds=31)
    events = t.tick("club")
    assert [e.action for e in events] == ["processed", "readout"]
    assert "TURKEY" in events[0].detail["civil_disorder"]
    row = gm.games.results("club")[0]
    turkey = [r for r in row.results if r.power == "TURKEY"]
    assert turkey == [] or all(r.result == "succeeds" for r in turkey)
    assert row.orders["ITALY"].source == "gm"
    cfg, st = t.get("club")
    assert (st.period, st.phase, st.step, st.steps) == ("readout", "S1901M", 0, 9)
    assert gm.games.game("club").deadline is None  # no clock during the read-out
    for i in range(8):
        st = t.next_step("club")
        assert st.step == i + 1
    st = t.next_step("club")
    assert (st.period, st.phase, st.shown) == ("diplomacy", "F1901M", 1)
    assert st.ends == clock.now + timedelta(minutes=15)
    actions = [_payload(e)["action"] for e in _kinds(gm)]
    assert actions[:1] == ["start"] and "processed" in actions and actions.count("agree") == 7
    assert gm.record.verify("club").ok


def test_end_period_and_the_worker_fallback(table):
    t, gm, clock = table
    _club(t)
    t.end_period("club")  # diplomacy ended by the GM
    cfg, st = t.get("club")
    assert st.period == "writing"
    events = t.end_period("club")  # writing ended: processed with nothing on record, everyone holds
    assert [e.action for e in events] == ["processed", "readout"]
    with pytest.raises(GMError, match="not a timed period"):
        t.end_period("club")
    # F1901: the deadline worker processes the writing deadline if no table is watching; the table catches up
    while t.get("club")[1].period == "readout":
        t.next_step("club")
    clock.advance(minutes=21)
    assert len(gm.deadlines.process_due()) == 1
    events = t.tick("club")
    assert [e.action for e in events] == ["readout"] and t.get("club")[1].phase == "F1901M"


def test_practice_game(table):
    t, gm, clock = table
    created = t.create("newbies", players=["Nia"], assign={"Nia": "FRANCE"}, config=LiveConfig.from_dict({"practice": True}))
    cfg, st = t.get("newbies")
    assert cfg.practice and st.period == "writing"
    assert gm.games.game("newbies").settings.press == "none"
    gm.orders.submit_orders("newbies", "FRANCE", "A Par-Bur\nA Mar-Spa\nF Bre-Mid", credential=created.credentials["Nia"])
    with pytest.raises(GMError, match="diplomacy"):
        t.agree("newbies", credential=created.credentials["Nia"])
    clock.advance(minutes=5)
    t.tick("newbies")
    row = gm.games.results("newbies")[0]
    assert all(r.reason for r in row.results)  # every result says why
    while t.get("newbies")[1].period == "readout":
        t.next_step("newbies")
    assert t.get("newbies")[1].period == "writing"  # no diplomacy in practice


def test_not_live_and_refusals(table):
    t, gm, clock = table
    gm.setup.create_game("postal", players=NAMES)
    assert t.get("postal") is None
    with pytest.raises(GMError, match="not played live"):
        t.pause("postal")
    t.make_live("postal", LiveConfig.from_dict({"diplomacy_first": 1}))
    with pytest.raises(GMError, match="already"):
        t.make_live("postal")
    with pytest.raises(GMError, match="read-out"):
        t.next_step("postal")


def test_new_practice_from_the_console(tmp_path, monkeypatch, capsys):
    from gamesmaster.cli import main
    monkeypatch.delenv("GAMESMASTER_DATABASE_URL", raising=False)
    monkeypatch.setenv("GAMESMASTER_DATA", str(tmp_path / "data"))
    code = main(["new", "newbies", "--practice", "--assign", "Nia=France,Ole=Germany", "--minutes", "writing=8"])
    out = capsys.readouterr().out
    assert code == 0 and "practice game" in out and "writing 8 min" in out and "Nia" in out
    code = main(["new", "club", "--live", "--players", "Ann,Bob,Cat,Dan,Eve,Fay,Gus", "--seed", "3"])
    out = capsys.readouterr().out
    assert code == 0 and "live club game" in out and "Diplomacy, 1800 seconds left" in out
    code = main(["new", "bad", "--live", "--players", "Ann", "--minutes", "writing"])
    assert code == 2 and "PERIOD=MINUTES" in capsys.readouterr().err


def test_builds_follow_at_once_then_the_next_year(table):
    t, gm, clock = table
    creds = _club(t)

    def finish_readout():
        while t.get("club")[1].period == "readout":
            t.next_step("club")

    t.end_period("club")
    gm.orders.submit_orders("club", "FRANCE", "A Par-Bur\nA Mar-Spa\nF Bre-Mid", credential=creds["FRANCE"])
    t.end_period("club")
    finish_readout()
    t.end_period("club")
    gm.orders.submit_orders("club", "FRANCE", "A Bur-Bel\nA Spa-Por\nF Mid-Bre", credential=creds["FRANCE"])
    t.end_period("club")
    finish_readout()
    cfg, st = t.get("club")
    assert (st.period, st.phase) == ("orders", "W1901A") and st.ends == clock.now + timedelta(minutes=5)
    clock.advance(minutes=5)
    events = t.tick("club")
    assert [e.action for e in events] == ["processed", "readout"]
    assert t.get("club")[1].steps == 2
    finish_readout()
    cfg, st = t.get("club")
    assert (st.period, st.phase, st.ends) == ("diplomacy", "S1902M", clock.now + timedelta(minutes=15))
    assert len(gm.games.game("club").position.to_dict()["units"]["FRANCE"]) == 3  # France's builds were waived (no orders)
    assert gm.record.verify("club").ok
