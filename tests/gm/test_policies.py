"""NMR and replacement policies, early processing, deadlines, press, draws, the end of a game."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from gamesmaster.gm import Forbidden, Gamesmaster, GMError, NotFound, Refused, RuleSpec, Settings
from gamesmaster.rules import Position
from gamesmaster.variants import load_variant

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
POWERS = ["ENGLAND", "FRANCE", "GERMANY", "ITALY", "AUSTRIA", "RUSSIA", "TURKEY"]
ASSIGN = dict(zip(NAMES, POWERS))


def new(gm: Gamesmaster, gid: str = "g", **kw):
    c = gm.setup.create_game(gid, players=NAMES, assign=ASSIGN, **kw)
    return {ASSIGN[n]: c.credentials[n] for n in NAMES}, c


def hold_all(gm, gid, cred, powers=POWERS):
    for p in powers:
        units = gm.games.game(gid).position.to_dict()["units"].get(p, [])
        if units:
            gm.orders.submit_orders(gid, p, "\n".join(f"{u} H" for u in units), credential=cred[p])


def to_deadline(gm, clock, gid="g"):
    clock.set(gm.games.game(gid).deadline + timedelta(seconds=1))


def test_grace_period_then_civil_disorder(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    cred, _ = new(gm, settings=Settings.from_dict({"grace_hours": 24}))
    hold_all(gm, "g", cred, POWERS[:-1])  # Turkey is silent
    first = gm.games.game("g").deadline
    to_deadline(gm, clock)
    done = gm.deadlines.process_due()
    assert [p.action for p in done] == ["grace"]
    st = gm.games.game("g")
    assert str(st.phase) == "S1901M" and st.deadline == first + timedelta(hours=24)
    assert any("grace period" in p.text for p in gm.press.press("g"))
    to_deadline(gm, clock)
    done = gm.deadlines.process_due()
    assert done[0].action == "adjudicated" and done[0].civil_disorder == ("TURKEY",)


def test_standbys_called_in_turn_and_volunteers_after(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    cred, c = new(gm, standbys=["Sam", "Tom"], settings=Settings.from_dict({"replacement": "standby"}))
    hold_all(gm, "g", cred, POWERS[:4])  # Austria, Russia, Turkey miss
    to_deadline(gm, clock)
    gm.deadlines.process_due()
    st = gm.games.game("g")
    called = {p.power: p.standby for p in st.powers if p.standby}
    assert called == {"AUSTRIA": "Sam", "RUSSIA": "Tom"}
    assert any("volunteers are called for" in p.text and "Turkey" in p.text for p in gm.press.press("g"))
    # Graustark: if the initial player sends the following move, he keeps his country
    gm.orders.submit_orders("g", "AUSTRIA", "A Vie H", credential=c.credentials["Sam"])
    gm.orders.submit_orders("g", "AUSTRIA", "A Vie H", credential=cred["AUSTRIA"])
    gm.orders.submit_orders("g", "RUSSIA", "A War H", credential=c.credentials["Tom"])
    to_deadline(gm, clock)
    gm.deadlines.process_due()
    st = gm.games.game("g")
    players = {p.power: p.player for p in st.powers}
    assert players["AUSTRIA"] == "Eve" and players["RUSSIA"] == "Tom"
    assert not any(p.standby for p in st.powers if p.power in ("AUSTRIA", "RUSSIA"))
    with pytest.raises(Forbidden):
        gm.orders.submit_orders("g", "AUSTRIA", "A Vie H", credential=c.credentials["Sam"])  # released
    assert gm.record.verify("g").ok


def test_successor_named_on_resigning(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    cred, _ = new(gm, settings=Settings.from_dict({"replacement": "successor"}))
    secret = gm.players.resign("g", "ITALY", "Hal", credential=cred["ITALY"])
    assert {p.power: p.player for p in gm.games.game("g").powers}["ITALY"] == "Hal"
    gm.orders.submit_orders("g", "ITALY", "A Ven H", credential=secret)
    with pytest.raises(Forbidden):
        gm.orders.submit_orders("g", "ITALY", "A Ven H", credential=cred["ITALY"])


def test_gm_appoints_a_replacement(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    cred, _ = new(gm, settings=Settings.from_dict({"replacement": "gm"}))
    secret = gm.players.replace_player("g", "turkey", "Ken Davidson", reason="neutral stand-by")
    gm.orders.submit_orders("g", "TURKEY", "F Ank H", credential=secret)
    with pytest.raises(Forbidden):
        gm.orders.submit_orders("g", "TURKEY", "F Ank H", credential=cred["TURKEY"])
    assert any("Ken Davidson now plays Turkey in place of Gus" in p.text for p in gm.press.press("g"))


def test_early_movement_once_everyone_is_ready(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    cred, _ = new(gm, settings=Settings.from_dict({"early_movement": True}))
    hold_all(gm, "g", cred)
    for p in POWERS[:-1]:
        assert gm.orders.set_ready("g", p, credential=cred[p]) == []
    assert gm.orders.set_ready("g", "TURKEY", credential=cred["TURKEY"]) == ["S1901M"]
    assert str(gm.games.game("g").phase) == "F1901M"


def test_movement_is_not_early_unless_the_game_allows_it(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    cred, _ = new(gm)
    hold_all(gm, "g", cred)
    for p in POWERS:
        gm.orders.set_ready("g", p, credential=cred[p])
    assert str(gm.games.game("g").phase) == "S1901M"
    with pytest.raises(GMError, match="not due until"):
        gm.deadlines.process("g")
    assert [p.phase for p in gm.deadlines.process("g", force=True)] == ["S1901M"]


def test_orders_are_answered_order_by_order(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    cred, _ = new(gm)
    sub = gm.orders.submit_orders("g", "RUSSIA", "F StP-Bot\nA Mos-Xyz\nA War-Mun\nA War-Gal\nA War-Ukr",
                           credential=cred["RUSSIA"])
    # two different orders for A War: under the 2023 rules neither is followed, and both answers say so
    assert [a.status for a in sub.answers] == ["accepted", "invalid", "invalid", "invalid", "invalid"]
    assert sub.answers[3].message == "invalid: two different orders for A WAR"
    assert sub.answers[0].message == "accepted as 'F STP/SC - BOT'"
    assert "cannot reach" in sub.answers[2].message
    assert "two different orders for the unit in WAR: neither is followed" in sub.warnings
    assert "no order for F SEV: it will hold" in sub.warnings
    with pytest.raises(Forbidden):
        gm.orders.submit_orders("g", "RUSSIA", "A War H", credential=cred["TURKEY"])
    with pytest.raises(Forbidden):
        gm.orders.submit_orders("g", "RUSSIA", "A War H", credential="1.wrong")
    with pytest.raises(NotFound):
        gm.orders.submit_orders("g", "Ruritania", "A War H", by_gm=True)
    with pytest.raises(Refused, match="no longer taken"):
        gm.orders.submit_orders("g", "RUSSIA", "A War H", credential=cred["RUSSIA"], phase="F1901M")


def test_withdrawn_orders_leave_civil_disorder(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    cred, _ = new(gm)
    gm.orders.submit_orders("g", "FRANCE", "A Par-Bur", credential=cred["FRANCE"])
    gm.orders.withdraw_orders("g", "FRANCE", credential=cred["FRANCE"])
    assert gm.orders.orders_on_record("g", "FRANCE", by_gm=True) == ()
    done = gm.deadlines.process("g", force=True)
    assert "FRANCE" in done[0].civil_disorder


def test_extend_pause_resume(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    new(gm)
    first = gm.games.game("g").deadline
    assert gm.deadlines.extend("g", hours=24, reason="postal strike") == first + timedelta(hours=24)
    with pytest.raises(GMError, match="already passed"):
        gm.deadlines.extend("g", until=clock.now - timedelta(hours=1))
    left = gm.games.game("g").deadline - clock.now
    gm.deadlines.pause("g", reason="summer")
    assert gm.games.game("g").status == "paused" and gm.deadlines.process_due() == []
    clock.advance(days=30)
    gm.deadlines.resume("g")
    assert gm.games.game("g").deadline == clock.now + left
    texts = [p.text for p in gm.press.press("g")]
    assert any("extended" in t and "postal strike" in t for t in texts) and any("paused" in t for t in texts)


def test_press_settings_and_who_reads_what(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    cred, _ = new(gm, settings=Settings.from_dict({"press": "anonymous"}))
    gm.press.post_press("g", "Public", credential=cred["FRANCE"])
    gm.press.post_press("g", "Secret", to=["GERMANY"], credential=cred["FRANCE"])
    gm.press.post_press("g", "Who?", anonymous=True, credential=cred["ITALY"])
    gm.press.post_press("g", "GM notice", by_gm=True)
    seen = {p.text: p.sender for p in gm.press.press("g", "ENGLAND", credential=cred["ENGLAND"])}
    assert "Secret" not in seen and seen["Who?"] == "anonymous" and seen["GM notice"] == "GM"
    assert "Secret" in {p.text for p in gm.press.press("g", "GERMANY", credential=cred["GERMANY"])}
    assert {p.text: p.sender for p in gm.press.press("g")}["Who?"] == "ITALY"  # the GM sees everything
    gm2 = Gamesmaster(sqlite_store, clock)
    cred2, _ = new(gm2, "quiet", settings=Settings.from_dict({"press": "public"}))
    with pytest.raises(GMError, match="only public press"):
        gm2.press.post_press("quiet", "psst", to=["ITALY"], credential=cred2["FRANCE"])
    with pytest.raises(GMError, match="anonymous"):
        gm2.press.post_press("quiet", "psst", anonymous=True, credential=cred2["FRANCE"])
    cred3, _ = new(gm2, "gunboat", settings=Settings.from_dict({"press": "none"}))
    with pytest.raises(GMError, match="without press"):
        gm2.press.post_press("gunboat", "hello", credential=cred3["FRANCE"])


def test_unanimous_draw_ends_the_game(store, clock):
    gm = Gamesmaster(store, clock)
    cred, _ = new(gm)
    pid = gm.press.propose("g", powers=["France", "Germany"], credential=cred["FRANCE"])
    for p in POWERS[1:-1]:
        assert gm.press.vote("g", pid, True, credential=cred[p]) == "open"
    assert gm.press.vote("g", pid, True, credential=cred["ENGLAND"]) == "open"
    assert gm.press.vote("g", pid, True, credential=cred["TURKEY"]) == "passed"
    st = gm.games.game("g")
    assert st.status == "finished" and st.result.kind == "draw"
    assert st.result.winners == ("FRANCE", "GERMANY",)
    assert gm.record.verify("g").ok


def test_majority_concession(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    cred, _ = new(gm, settings=Settings.from_dict({"draw_vote": "majority"}))
    pid = gm.press.propose("g", kind="concession", concede_to="Russia", credential=cred["TURKEY"])
    for p in ("ENGLAND", "FRANCE", "GERMANY"):
        status = gm.press.vote("g", pid, True, credential=cred[p])
    assert status == "passed"
    assert gm.games.game("g").result.kind == "concession" and gm.games.game("g").result.winners == ("RUSSIA",)


def test_proposals_lapse_at_the_deadline(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    cred, _ = new(gm)
    pid = gm.press.propose("g", credential=cred["FRANCE"])
    gm.deadlines.process("g", force=True)
    with pytest.raises(GMError, match="lapsed"):
        gm.press.vote("g", pid, True, credential=cred["ENGLAND"])


@pytest.mark.parametrize("rule", ["draw", "ask-gm"])
def test_deadlock_rule(sqlite_store, clock, rule):
    gm = Gamesmaster(sqlite_store, clock)
    new(gm, rules=RuleSpec.read({"preset": "2023", "deadlock": rule, "deadlock_years": 1}))
    gm.deadlines.process("g", force=True)  # Spring 1901, everyone holds
    gm.deadlines.process("g", force=True)  # Fall 1901: no centre changes hands, no adjustments
    st = gm.games.game("g")
    if rule == "draw":
        assert st.status == "finished" and st.result.kind == "draw" and len(st.result.winners) == 7
    else:
        assert st.status == "active" and st.deadlock_pending
        gm.press.declare_draw("g", reason="no plan of campaign is feasible")
        assert gm.games.game("g").result.reason == "no plan of campaign is feasible"
    assert gm.record.verify("g").ok


def test_victory_by_supply_centres(store, clock):
    """France, at 17 centres, takes Belgium in the Fall: the rule set's winner."""
    gm = Gamesmaster(store, clock)
    french = ["PAR", "MAR", "BRE", "SPA", "POR", "LON", "LVP", "EDI", "NWY", "SWE", "DEN", "KIE", "BER", "MUN",
              "HOL", "ROM", "NAP"]
    position = {"phase": "F1905M",
                "units": {"FRANCE": ["A BUR", "F MAO"], "GERMANY": ["A RUH"], "ITALY": ["A VEN"], "AUSTRIA": ["A VIE"],
                          "RUSSIA": ["A MOS"], "TURKEY": ["A CON"], "ENGLAND": ["F NTH"]},
                "centers": {"FRANCE": french, "ITALY": ["VEN", "TUN"], "AUSTRIA": ["VIE", "BUD", "TRI"],
                            "RUSSIA": ["MOS", "WAR", "STP", "SEV"], "TURKEY": ["CON", "SMY", "ANK"]}}
    cred, _ = new(gm, position=Position.from_dict(load_variant("standard"), position))
    gm.orders.submit_orders("g", "FRANCE", "A Bur-Bel\nF Mao H", credential=cred["FRANCE"])
    gm.orders.submit_orders("g", "GERMANY", "A Ruh-Bel", credential=cred["GERMANY"])  # would bounce France...
    gm.orders.submit_orders("g", "GERMANY", "A Ruh H", credential=cred["GERMANY"])  # ...but only the last set counts
    done = gm.deadlines.process("g", force=True)
    assert done[0].ended.kind == "victory" and done[0].ended.winners == ("FRANCE",)
    st = gm.games.game("g")
    assert st.status == "finished" and "18 supply centres" in st.result.reason
    assert gm.record.verify("g").ok


def test_a_correction_chooses_conditional_orders_again(store, clock):
    gm = Gamesmaster(store, clock)
    cred, _ = new(gm)
    gm.orders.submit_orders("g", "GERMANY", "A Mun-Bur\nnext season:\nif A Mun - Bur succeeds: A Bur - Par\n"
                                      "otherwise: A Mun - Ruh", credential=cred["GERMANY"])
    gm.orders.submit_orders("g", "FRANCE", "A Par-Bur", by_gm=True, channel="in-person")
    gm.deadlines.process("g", force=True)
    assert gm.orders.orders_on_record("g", "GERMANY", by_gm=True)[0].orders == ("A Mun - Ruh",)
    fix = gm.corrections.correct("g", "transcription: France's slip reads A Par - Pic", orders={"FRANCE": "A Par-Pic"})
    assert fix.next_phase == "F1901M"
    mine = gm.orders.orders_on_record("g", "GERMANY", by_gm=True)[0]
    assert mine.orders == ("A Bur - Par",) and mine.condition == "if A Mun - Bur succeeds"
    assert "A BUR" in gm.games.game("g").position.to_dict()["units"]["GERMANY"]
    assert gm.record.verify("g").ok


def test_a_correction_can_change_the_next_phase(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    start = {"phase": "S1901M", "units": {"GERMANY": ["A MUN", "A BOH"], "AUSTRIA": ["A TYR"]},
             "centers": {"GERMANY": ["MUN", "BER", "KIE"], "AUSTRIA": ["VIE", "BUD", "TRI"]}}
    cred, _ = new(gm, position=Position.from_dict(load_variant("standard"), start))
    gm.orders.submit_orders("g", "GERMANY", "A Mun-Tyr\nA Boh H", by_gm=True, channel="in-person")
    gm.deadlines.process("g", force=True)
    assert str(gm.games.game("g").phase) == "F1901M"
    gm.orders.submit_orders("g", "GERMANY", "A Mun H\nA Boh H", credential=cred["GERMANY"])
    fix = gm.corrections.correct("g", "ruling: Germany's slip had the support", orders={"GERMANY": "A Mun-Tyr\nA Boh S A Mun-Tyr"})
    assert fix.next_phase == "S1901R"
    assert gm.orders.orders_on_record("g", "GERMANY", by_gm=True) == ()  # orders for Fall 1901 are void
    assert any("orders sent for F1901M are void" in p.text for p in gm.press.press("g"))
    assert gm.record.verify("g").ok


def test_lots_are_reproducible_from_the_recorded_seed(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    a = gm.setup.create_game("a", players=NAMES, seed=99)
    b = gm.setup.create_game("b", players=NAMES, seed=99)
    c = gm.setup.create_game("c", players=NAMES[:5])
    assert a.powers == b.powers and a.seed == 99
    assert c.seed is not None and len(c.powers) == 5
    st = gm.games.game("c")
    assert sum(1 for p in st.powers if p.player is None) == 2
    assert gm.record.verify("c").ok


def test_a_new_credential_replaces_the_old_on_the_record(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    cred, _ = new(gm)
    fresh = gm.players.new_credential("g", "France", reason="Bob lost it")
    with pytest.raises(Forbidden):
        gm.orders.submit_orders("g", "FRANCE", "A Par H", credential=cred["FRANCE"])
    gm.orders.submit_orders("g", "FRANCE", "A Par H", credential=fresh)
    assert gm.players.new_credential("g", "Ann").startswith("1.")
    with pytest.raises(NotFound, match="no player or power 'Zed'"):
        gm.players.new_credential("g", "Zed")
    entry = next(e for e in gm.games.history("g").ledger if e.kind == "credential-replaced")
    assert entry.payload["reason"] == "Bob lost it" and entry.payload["player"] == 2
    assert gm.record.verify("g").ok


def test_sign_up_then_start(sqlite_store, clock):
    gm = Gamesmaster(sqlite_store, clock)
    gm.setup.create_game("s", settings=Settings.from_dict({"press": "public"}))
    assert gm.games.game("s").status == "forming"
    creds = {n: gm.setup.join_game("s", n) for n in NAMES[:3]}
    with pytest.raises(GMError, match="already a player"):
        gm.setup.join_game("s", "ann")
    with pytest.raises(GMError, match="not started"):
        gm.orders.submit_orders("s", "FRANCE", "A Par H", by_gm=True)
    started = gm.setup.draw_lots("s", seed=5)
    assert set(started.powers) == set(NAMES[:3])
    power = started.powers["Ann"]
    assert gm.orders.identify("s", creds["Ann"]).power == power


def test_the_gm_chooses_removals_when_the_rules_say_so(sqlite_store, clock):
    """Armageddonia (seed 004 s24): a power that orders too few removals waits for the GM's choice."""
    gm = Gamesmaster(sqlite_store, clock)
    position = {"phase": "W1901A", "units": {"GERMANY": ["A BER", "A BUR", "A TYR"], "FRANCE": ["A PAR"]},
                "centers": {"GERMANY": ["BER", "MUN"], "FRANCE": ["PAR", "MAR", "BRE"]}}
    cred, _ = new(gm, rules="armageddonia", position=Position.from_dict(load_variant("standard"), position))
    gm.orders.submit_orders("g", "FRANCE", "Build F Bre", credential=cred["FRANCE"])
    done = gm.deadlines.process("g", force=True)
    assert done[0].action == "waiting" and done[0].next_phase == "W1901A"
    st = gm.games.game("g")
    assert str(st.phase) == "W1901A" and st.deadline is None  # no worker will take it up meanwhile
    assert any("waits for the GM to choose removals (1 for Germany)" in p.text for p in gm.press.press("g"))
    with pytest.raises(GMError, match="nothing to extend"):
        gm.deadlines.extend("g", hours=24)
    gm.orders.submit_orders("g", "GERMANY", "Remove A Tyr", by_gm=True, channel="console")
    done = gm.deadlines.process("g", force=True)
    assert done[0].action == "adjudicated"
    units = gm.games.game("g").position.to_dict()["units"]
    assert units["GERMANY"] == ["A BER", "A BUR"] and "F BRE" in units["FRANCE"]
    assert gm.record.verify("g").ok


def test_the_civil_disorder_rule_s_removals_are_published(sqlite_store, clock):
    """A power that orders too few removals loses units by the rule: every view of the results says which."""
    from gamesmaster.gm.reading import CIVIL_DISORDER_REMOVAL
    from gamesmaster.gm.report import history
    from gamesmaster.mail.texts import results as mailed_results
    from gamesmaster.web.site import phase_record

    gm = Gamesmaster(sqlite_store, clock)
    position = {"phase": "W1901A", "units": {"GERMANY": ["A BER", "A BUR", "A TYR"], "FRANCE": ["A PAR"]},
                "centers": {"GERMANY": ["BER"], "FRANCE": ["PAR", "MAR", "BRE"]}}
    cred, _ = new(gm, position=Position.from_dict(load_variant("standard"), position))
    gm.orders.submit_orders("g", "GERMANY", "Remove A Tyr", credential=cred["GERMANY"])  # one of the two due
    gm.orders.submit_orders("g", "FRANCE", "Build F Bre", credential=cred["FRANCE"])
    gm.deadlines.process("g", force=True)
    left = gm.games.game("g").position.to_dict()["units"]["GERMANY"]
    assert len(left) == 1
    gone = ({"A BER", "A BUR"} - set(left)).pop()
    row = gm.games.result("g", "W1901A")
    assert f"'(civil disorder)' -> {gone} D succeeds ({CIVIL_DISORDER_REMOVAL})" in history(gm.games.history("g"))
    assert "A TYR D" in history(gm.games.history("g")) and "A PAR D" not in history(gm.games.history("g"))
    mailed = mailed_results("g", "Game", row, "UTC", (), "S1902M", "soon", None, gm.games.game("g").head)
    assert f"{gone} D" in mailed and CIVIL_DISORDER_REMOVAL in mailed and "[written '(civil" not in mailed
    germany = next(grp for grp in phase_record(row)["by_power"] if grp["power"] == "GERMANY")
    assert [(r["order"], r["reason"]) for r in germany["results"]] == [("A TYR D", "removed"),
                                                                          (f"{gone} D", CIVIL_DISORDER_REMOVAL)]
    from gamesmaster.web.site import map_svg
    drawn = re.findall(r'class="order order-remove[^"]*" data-order="([^"]+)"', str(map_svg(gm, "g", "W1901A").content))
    assert sorted(drawn) == sorted(["A TYR D", f"{gone} D"])  # both removals drawn on the map
    assert gm.record.verify("g").ok  # the record itself is unchanged: the removals are read from it


def test_the_victory_reason_follows_the_criterion(sqlite_store, clock):
    """World War I (rulebook XIV.2) is won with 24 units on the board, not by centres."""
    gm = Gamesmaster(sqlite_store, clock)
    armies = ["A BUR", "A PAR", "A PIC", "A BRE", "A GAS", "A MAR", "A SPA", "A POR", "A BEL", "A HOL", "A RUH",
              "A MUN", "A KIE", "A BER", "A PRU", "A SIL", "A BOH", "A TYR", "A VIE", "A GAL", "A BUD", "A TRI",
              "A SER", "A WAR"]
    position = {"phase": "S1920M", "units": {"GERMANY": armies, "ENGLAND": ["F LON"]},
                "centers": {"GERMANY": ["BER", "MUN", "KIE"], "ENGLAND": ["LON"]}}
    gm.setup.create_game("g", players=["Ann", "Bob"], assign={"Ann": "GERMANY", "Bob": "ENGLAND"}, variant="standard-2",
                   position=Position.from_dict(load_variant("standard-2"), position))
    done = gm.deadlines.process("g", force=True)
    side = next(s.powers for s in gm.games.game("g").seats if s.name == "Ann")  # with Italy if the coin fell for Ann
    assert done[0].ended.kind == "victory" and done[0].ended.winners == side and "GERMANY" in side
    names = "/".join(p.capitalize() for p in side)
    assert gm.games.game("g").result.reason == f"{names} (Ann) has 24 units on the board"
    assert gm.record.verify("g").ok
