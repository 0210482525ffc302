"""Conditional orders by mail, over real SMTP on loopback: read and refused when the mail comes
(the set on record standing), chosen when their phase opens, and withdrawn without civil disorder."""

from __future__ import annotations

from mailhelp import new_game, who


def test_conditional_orders_by_mail(mailroom):
    room = mailroom
    cred = new_game(room)
    signon = f"SIGNON club Germany {cred['GERMANY']}\n"
    text = room.answer(who("GERMANY"), signon + "A Mun-Ruh\nA Ber-Kie\nF Kie-Den\nnext season:\n"
                       "if F Kie - Den succeeds: F Den H\notherwise: F Kie - Den\nadjustments:\n"
                       "if Den changes hands: F Kie B\n")
    assert "Conditional orders for later phases" in text
    assert "Fall 1901 movement, if F Kie - Den succeeds: F Den H" in text
    assert "Winter 1901 adjustments, if Den changes hands: F Kie B" in text
    # The mail of the issue: two 'next season:' parts. Refused when it comes; the set on record stands.
    text = room.answer(who("GERMANY"), signon + "A Mun-Bur\nnext season:\nif A Mun - Bur succeeds: A Bur - Par\n"
                       "next season:\nA Par H\nLIST\n")
    assert "Not accepted: conditional orders: 'next season:' names Fall 1901 movement a second time" in text
    assert "A Mun-Ruh" in text.split("> LIST")[1]
    room.gm.deadlines.process("club", force=True)
    [rec] = room.gm.orders.orders_on_record("club", "GERMANY", by_gm=True)
    assert rec.orders == ("F Den H",) and rec.condition == "if F Kie - Den succeeds"
    # Withdrawn by mail: the power holds, and is not in civil disorder.
    text = room.answer(who("GERMANY"), signon + "WITHDRAW\n")
    assert "withdrawn" in text
    done = room.gm.deadlines.process("club", force=True)
    assert "GERMANY" not in done[0].civil_disorder and "FRANCE" in done[0].civil_disorder
    assert room.gm.record.verify("club").ok
