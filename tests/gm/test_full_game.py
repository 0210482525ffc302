"""A full seven-player game driven through the gm API, with deadlines on a fake clock.

Late orders refused, an NMR power in civil disorder, a stand-by taking over, early
retreat processing, conditional orders choosing each branch, a correction, a draw vote,
and a victory (the short game's end year), then `verify` replays it all.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from gamesmaster.gm import Forbidden, Gamesmaster, GMError, Refused, Settings
from gamesmaster.store import Records

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=timezone.utc)


def test_seven_player_game(store, clock):
    gm = Gamesmaster(store, clock)
    created = gm.setup.create_game(
        "club", players=NAMES, standbys=["Sam", "Tom"], seed=1971,
        settings=Settings.from_dict({"schedule": {"tz": "Europe/London", "days": ["tue", "fri"], "time": "22:00"},
                  "replacement": "standby", "end_year": 1902, "press": "full"}))
    # the lot: recorded seed, every player a power, each a credential
    assert sorted(created.powers.values()) == sorted(["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"])
    assert created.seed == 1971
    who = {power: name for name, power in created.powers.items()}
    cred = {power: created.credentials[name] for power, name in who.items()}
    sam = created.credentials["Sam"]

    st = gm.games.game("club")
    assert str(st.phase) == "S1901M"
    # Monday noon: the first move night at least 24 hours on is Tuesday 22:00 London time (BST).
    assert st.deadline == utc(2024, 5, 7, 21, 0)
    assert st.deadline_text == "Tue 07 May 2024 22:00 BST"

    def order(power: str, text: str, **kw):
        return gm.orders.submit_orders("club", power, text, credential=cred[power], **kw)

    # ---- Spring 1901 ------------------------------------------------------------------
    first = order("ENGLAND", "F Lon-Nth\nF Edi-Nrg\nA Lvp-Yor")
    assert [a.order for a in first.answers] == ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"]
    second = order("ENGLAND", "F Lon-Eng\nF Edi-Nth\nA Lvp-Yor")  # a revision: only the last set counts
    # each receipt numbers the power's own sets only, and commits to its orders
    assert (first.receipt.number, second.receipt.number) == (1, 2)
    assert second.receipt.commitment != first.receipt.commitment
    assert str(second.receipt).startswith("club/S1901M/ENGLAND/2:")
    order("FRANCE", "A Par-Bur\nA Mar-Spa\nF Bre-Mao")
    germany = order("GERMANY", "A Ber-Kie\nA Mun-Ruh\nF Kie-Den\n"
                               "next season:\n"
                               "if F Kie - Den succeeds:\n  F Den H\n  A Kie - Hol\n  A Ruh - Bel\n"
                               "otherwise:\n  F Kie - Den\n  A Kie H\n  A Ruh - Hol\n")
    assert germany.conditional == ("Fall 1901 movement, if F Kie - Den succeeds: F Den H; A Kie - Hol; A Ruh - Bel",
                                   "Fall 1901 movement, otherwise: F Kie - Den; A Kie H; A Ruh - Hol")
    order("RUSSIA", "A Mos-Ukr; A War-Gal; F StP/sc-Bot; F Sev-Bla\n"
                    "next season:\nif F Sev - Bla succeeds: F Bla - Ank; A Ukr H\n"
                    "otherwise: F Sev H; A Ukr S F Sev; A Gal H; F Bot H")
    order("TURKEY", "F Ank-Bla\nA Con-Bul\nA Smy-Con")
    # Italy's orders are handed over in person: the GM enters them, and the record says so.
    italy = gm.orders.submit_orders("club", "ITALY", "A Ven-Tyr\nA Rom-Ven\nF Nap-Ion", by_gm=True, channel="in-person")
    assert italy.entered_by == "GM" and italy.channel == "in-person"
    assert any("read 'Tyr' as Tyrolia" in n for a in italy.answers for n in a.notes)
    # Austria (Bob) sends nothing.

    # Nobody but the power itself and the GM sees its orders before the deadline.
    with pytest.raises(Forbidden):
        gm.orders.orders_on_record("club", "ENGLAND", credential=cred["FRANCE"])
    mine = gm.orders.orders_on_record("club", "ENGLAND", credential=cred["ENGLAND"])
    assert mine[0].orders == ("F Lon-Eng", "F Edi-Nth", "A Lvp-Yor")
    assert mine[0].receipt == second.receipt
    # everyone sees England's commitment (the hash of its set), nobody its orders
    england = next(p for p in gm.games.game("club").powers if p.power == "ENGLAND")
    assert england.commitment == second.receipt.commitment and england.submissions == 2

    # Late orders: refused with the deadline in the message, and the refusal recorded.
    clock.set(utc(2024, 5, 7, 21, 1))
    with pytest.raises(Refused) as late:
        order("FRANCE", "A Par-Pic")
    assert "late" in str(late.value) and "Tue 07 May 2024 22:00 BST" in str(late.value)
    assert late.value.seq is None  # a player is not told entry numbers: they count hidden entries
    assert _ledger(store, "club")[-1].kind == "orders-refused"

    done = gm.deadlines.process_due()
    assert [p.phase for p in done] == ["S1901M"]
    assert done[0].civil_disorder == ("AUSTRIA",)
    spring = gm.games.results("club")[0]
    assert spring.orders["ENGLAND"].texts == ("F Lon-Eng", "F Edi-Nth", "A Lvp-Yor")
    assert spring.orders["ENGLAND"].number == 2 and spring.orders["ENGLAND"].commitment == second.receipt.commitment
    assert spring.orders["FRANCE"].texts == ("A Par-Bur", "A Mar-Spa", "F Bre-Mao")  # not the late one
    assert spring.orders["ITALY"].source == "gm"
    assert "AUSTRIA" not in spring.orders and spring.civil_disorder == ("AUSTRIA",)
    after = spring.next
    assert sorted(str(u) for u in after.units_of("AUSTRIA")) == ["A BUD", "A VIE", "F TRI"]  # civil disorder: units hold
    assert {r.order: r.result for r in spring.results}["F SEV - BLA"] == "fails"

    st = gm.games.game("club")
    assert str(st.phase) == "F1901M" and st.deadline_text == "Fri 10 May 2024 22:00 BST"
    austria = next(p for p in st.powers if p.power == "AUSTRIA")
    assert austria.missed == 1 and austria.standby == "Sam"

    # Conditional orders chose each branch: Germany's 'if' held, Russia's 'otherwise'.
    g_orders = gm.orders.orders_on_record("club", "GERMANY", credential=cred["GERMANY"])[0]
    assert g_orders.orders == ("F Den H", "A Kie - Hol", "A Ruh - Bel")
    assert g_orders.condition == "if F Kie - Den succeeds"
    r_orders = gm.orders.orders_on_record("club", "RUSSIA", credential=cred["RUSSIA"])[0]
    assert r_orders.orders == ("F Sev H", "A Ukr S F Sev", "A Gal H", "F Bot H")
    assert r_orders.condition == "otherwise"
    told = [p.text for p in gm.press.press("club", "RUSSIA") if p.sender == "GM" and p.to == ("RUSSIA",)]
    assert told and "otherwise" in told[0] and "accepted as 'A UKR S F SEV'" in told[0]

    # ---- Fall 1901 --------------------------------------------------------------------
    clock.set(utc(2024, 5, 9, 12, 0))
    # the stand-by orders for Austria; Bob stays silent, so Sam's move is used and Sam takes over
    sub = gm.orders.submit_orders("club", "AUSTRIA", "F Tri H\nA Vie-Boh\nA Bud-Ser", credential=sam)
    assert sub.author == "standby"
    gm.orders.submit_orders("club", "ITALY", "A Ven-Tri\nA Tyr S A Ven-Tri\nF Ion-Tun", by_gm=True, channel="in-person")
    order("ENGLAND", "F Nth C A Yor-Nwy\nA Yor-Nwy\nF Eng H")
    order("FRANCE", "A Spa-Por\nA Bur H\nF Mao H")
    order("TURKEY", "A Bul H\nA Con H\nF Ank H")
    clock.set(utc(2024, 5, 10, 21, 0, 30))
    done = gm.deadlines.process_due()
    assert done[0].phase == "F1901M" and done[0].next_phase == "F1901R"
    fall = gm.games.results("club")[1]
    assert fall.orders["AUSTRIA"].source == "standby"
    st = gm.games.game("club")
    assert next(p for p in st.powers if p.power == "AUSTRIA").player == "Sam"
    assert next(s for s in st.seats if s.name == "Bob").role == "former"
    with pytest.raises(Forbidden):  # Bob no longer plays
        gm.orders.submit_orders("club", "AUSTRIA", "F Tri R Alb", credential=cred["AUSTRIA"])
    assert st.deadline == utc(2024, 5, 11, 21, 0, 30)  # retreats: 24 hours after the results

    # Early retreat processing: once every power concerned has ordered, not at the deadline.
    clock.set(utc(2024, 5, 10, 23, 0))
    retreat = gm.orders.submit_orders("club", "AUSTRIA", "F Tri - Alb", credential=sam)
    assert retreat.processed == ("F1901R",)
    st = gm.games.game("club")
    assert str(st.phase) == "W1901A"
    assert st.deadline == utc(2024, 5, 11, 23, 0)  # 24 hours after the early publication
    centres = {p.power: p.centres for p in st.powers}
    assert centres["GERMANY"] == 6 and centres["ITALY"] == 5

    # ---- Winter 1901: some build, the rest waive by silence ----------------------------
    order("GERMANY", "Build A Ber\nBuild A Mun\nBuild F Kie")
    order("ITALY", "Build F Nap")
    clock.set(utc(2024, 5, 11, 23, 0, 5))
    done = gm.deadlines.process_due()
    assert [p.phase for p in done] == ["W1901A"]
    assert str(gm.games.game("club").phase) == "S1902M"

    # ---- Spring 1902: a correction ------------------------------------------------------
    for power in ("ENGLAND", "FRANCE", "GERMANY", "RUSSIA", "TURKEY", "AUSTRIA"):
        holds = "\n".join(f"{u} H" for u in gm.games.game("club").position.to_dict()["units"][power])
        if power == "AUSTRIA":
            gm.orders.submit_orders("club", power, holds, credential=sam)
        else:
            order(power, holds)
    gm.orders.submit_orders("club", "ITALY", "F Tun-Naf\nA Tri H\nA Tyr H\nF Nap H", by_gm=True, channel="in-person")
    clock.set(gm.games.game("club").deadline)
    clock.advance(seconds=1)
    gm.deadlines.process_due()
    assert "F NAF" in [str(u) for u in gm.games.results("club")[-1].next.units_of("ITALY")]
    # Fall 1902 orders already sent stand through the correction
    early_fall = order("ENGLAND", "F Eng H")
    with pytest.raises(GMError, match="stands"):
        gm.corrections.correct("club", "too late", phase="F1901M", orders={"ITALY": "A Ven H"})
    fix = gm.corrections.correct("club", "transcription: Italy's slip reads F Tun - Wes",
                     orders={"ITALY": "F Tun-Wes\nA Tri H\nA Tyr H\nF Nap H"})
    assert any("F Tun-Wes" in d for d in fix.differences)
    assert any("ITALY units" in d and "F WES" in d for d in fix.differences)
    phases = gm.games.history("club").phases
    s1902 = [p for p in phases if str(p.phase) == "S1902M"]
    assert [(p.revision, p.current) for p in s1902] == [(0, False), (1, True)]  # the original is kept
    assert "F WES" in gm.games.game("club").position.to_dict()["units"]["ITALY"]
    notice = [p for p in gm.press.press("club", "FRANCE") if p.text.startswith("Correction of Spring 1902")]
    assert notice and notice[0].to is None  # every player is told
    assert gm.orders.orders_on_record("club", "ENGLAND", credential=cred["ENGLAND"])[0].receipt == early_fall.receipt

    # ---- Fall 1902: a draw vote that fails, then the short game's end ----------------------
    pid = gm.press.propose("club", kind="draw", credential=cred["FRANCE"])
    assert gm.press.vote("club", pid, True, credential=cred["ENGLAND"]) == "open"
    assert gm.press.vote("club", pid, False, credential=cred["GERMANY"]) == "rejected"
    assert gm.games.game("club").status == "active"
    for power in ("FRANCE", "GERMANY", "RUSSIA", "TURKEY"):
        order(power, "\n".join(f"{u} H" for u in gm.games.game("club").position.to_dict()["units"][power]))
    clock.set(gm.games.game("club").deadline)
    clock.advance(seconds=1)
    done = gm.deadlines.process_due()
    assert done[-1].next_phase == "W1902A"  # England, France and Turkey may still build (they waived in 1901)
    clock.set(gm.games.game("club").deadline)
    clock.advance(seconds=1)
    done = gm.deadlines.process_due()  # nobody builds: waived
    assert done[-1].ended is not None
    st = gm.games.game("club")
    assert st.status == "finished"
    assert st.result.kind == "short-game" and st.result.winners == ("GERMANY",)
    with pytest.raises(GMError, match="over"):
        order("GERMANY", "A Ber H")
    final = gm.games.final_report("club")
    assert final.startswith("Final report: Short game won by Germany")
    assert "Germany   Fay                 6 centres,  6 units" in final
    assert "Supply centres at the end of each year:" in final and "  1901  " in final and "  1902  " in final

    report = gm.record.verify("club", receipts=[str(second.receipt), str(early_fall.receipt)])
    assert report.ok, report.problems
    assert report.phases_replayed == 8  # 7 phases and one correction


def _ledger(store, game):
    with store.connect(write=False) as conn:
        return Records(conn, store.is_postgresql).entries(game)
