"""The limit on a set of orders counts orders as the reader splits them, by mail as on the site."""

from __future__ import annotations

from mailhelp import new_game, who


def test_orders_separated_by_semicolons_count_against_the_limit_by_mail(mailroom):
    room = mailroom
    cred = new_game(room)
    text = room.answer(who("FRANCE"), f"SIGNON club France {cred['FRANCE']}\n" + "H;" * 3_740 + "\n")
    assert "too many orders: at most 300" in text and "3,740" in text
    assert "Receipt:" not in text
    # Bare CRs separate orders too.
    text = room.answer(who("FRANCE"), f"SIGNON club France {cred['FRANCE']}\n" + "A Par H\r" * 400)
    assert "too many" in text
    # A set within the limit is still read, however it is separated.
    text = room.answer(who("FRANCE"), f"SIGNON club France {cred['FRANCE']}\nA Par-Bur; A Mar-Spa; F Bre-Mao\n")
    assert "'A Par-Bur' read as 'A PAR - BUR'" in text
