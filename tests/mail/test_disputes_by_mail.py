"""A player whose receipt check says a later set replaced its own, and who did not send that set, says so
by mail (DISPUTE): the dispute goes on the record for the GM and everyone to see (real SMTP on loopback)."""

from __future__ import annotations

import re

from mailhelp import new_game, who


def test_a_player_disputes_a_later_set_by_mail(mailroom):
    room = mailroom
    cred = new_game(room, "dis")
    sent = room.answer(who("FRANCE"), f"SIGNON dis France {cred['FRANCE']}\nA Par-Bur\n")
    receipt = re.search(r"Receipt: (dis/S1901M/FRANCE/1:[0-9a-f]{64})", sent).group(1)
    # a second set in France's name that France did not send
    room.gm.orders.submit_orders("dis", "FRANCE", "A Par-Pic", by_gm=True, channel="in-person")
    room.gm.deadlines.process("dis", force=True)
    check = room.answer(who("FRANCE"), f"RECEIPT {receipt}\n")
    assert "it was replaced by set #2" in check, check
    # England cannot dispute France's sets
    other = room.answer(who("ENGLAND"), f"SIGNON dis England {cred['ENGLAND']}\nDISPUTE {receipt}\n")
    assert "Not carried out" in other and "does not play France" in other, other
    said = room.answer(who("FRANCE"), f"SIGNON dis France {cred['FRANCE']}\nDISPUTE {receipt} I sent no second set\n")
    assert "Your dispute of France's set #2 for S1901M is on the record" in said, said
    again = room.answer(who("FRANCE"), f"SIGNON dis France {cred['FRANCE']}\nDISPUTE {receipt}\n")
    assert "is disputed already" in again, again
    # every player is told, and the record keeps it: verify lists it, and it is France's own word
    notice = [p for p in room.gm.press.public_press("dis") if "disputes set #2" in p.text]
    assert notice and "I sent no second set" in notice[0].text
    report = room.gm.record.verify("dis")
    assert report.ok, report.problems
    assert any("France's player disputes set #2 of S1901M" in n for n in report.notes), report.notes
