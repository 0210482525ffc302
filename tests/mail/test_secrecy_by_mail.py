"""What the mail door keeps secret, over real SMTP: each power's draw vote where votes are secret, and
conditional orders filed for later phases (the RECORD answer's text and its attachment)."""

from __future__ import annotations

import json

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
