"""What the mail door keeps secret, over real SMTP: each power's draw vote where votes are secret, and
conditional orders filed for later phases (the RECORD answer's text and its attachment)."""

from __future__ import annotations

import json
import re

from mailhelp import new_game, who


def test_proposals_by_mail_count_secret_votes_and_name_open_ones(make_mailroom):
    """PROPOSALS tells a player how many have voted where votes are secret (the default), and how each
    power voted where the game made them open."""
    room = make_mailroom()
    for game, votes in (("hush", None), ("loud", "open")):
        cred = new_game(room, game, **({"votes": votes} if votes else {}))
        room.answer(who("FRANCE"), f"SIGNON {game} France {cred['FRANCE']}\nDRAW\n")
        room.answer(who("ENGLAND"), f"SIGNON {game} England {cred['ENGLAND']}\nVOTE 1 YES\n")
        text = room.answer(who("ITALY"), f"SIGNON {game} Italy {cred['ITALY']}\nPROPOSALS\n")
        if votes == "open":
            assert "France yes, England yes" in text, text
        else:
            assert "2 votes cast, secret" in text and "England yes" not in text, text


def _record(room, sender: str, body: str, game: str):  # noqa: ANN001
    """Send RECORD; the answer's text and its attached public record (parsed)."""
    before = len(room.sink.to(sender))
    room.send(sender, body)
    room.server.wake()
    caught = room.sink.wait(sender, "Re:", before + 1)[-1]
    files = {name: data for name, _, data in caught.attachments}
    return caught.text, json.loads(files[f"{game}-record.json"])


def test_record_by_mail_seals_a_plan_until_its_season_is_published(mailroom):
    """Germany mails its Spring orders with a plan for Fall; RECORD, asked by England while Fall is open, shows the
    Spring orders but neither in its text nor in the attached record the plan; both verify with Germany's receipt.
    Once Fall is published RECORD shows the plan."""
    from gamesmaster.gm.record import verify_archive

    room = mailroom
    cred = new_game(room, "plans")
    text = room.answer(who("GERMANY"), f"SIGNON plans Germany {cred['GERMANY']}\nA Mun-Bur\nnext season:\n"
                       "if A Mun - Bur succeeds:\nA Bur - Par\notherwise:\nA Mun H\n")
    receipt = re.search(r"Receipt: (plans/S1901M/GERMANY/1:[0-9a-f]{64})", text).group(1)
    room.gm.deadlines.process("plans", force=True)
    text, doc = _record(room, who("ENGLAND"), "RECORD plans S1901M\n", "plans")
    assert "A Mun-Bur" in text and "Bur - Par" not in text and "succeeds:" not in text, text
    assert "Bur - Par" not in json.dumps(doc)
    report = verify_archive(doc, receipts=[receipt])
    assert report.ok and report.receipts_checked == 1, report.problems
    room.gm.deadlines.process("plans", force=True)
    text, doc = _record(room, who("ENGLAND"), "RECORD plans S1901M\n", "plans")
    assert "if A Mun - Bur succeeds" in text and "if A Mun - Bur succeeds" in json.dumps(doc), text
    assert verify_archive(doc, receipts=[receipt]).ok
