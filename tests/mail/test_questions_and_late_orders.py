"""Over real SMTP on loopback: questions to the gamesmaster and their answers, a mail that is
not orders never replacing the set on record, and orders written for a phase already
adjudicated refused unless they are marked for the new phase."""

from __future__ import annotations

from datetime import timedelta
from email.message import EmailMessage
from email.utils import format_datetime

from gamesmaster.store import Records
from gamesmaster.store.mailbox import MailRecords

from mailhelp import GM_ADDRESS, new_game, who


def test_questions_by_mail_answered_privately_and_publicly(mailroom):
    room = mailroom
    cred = new_game(room)
    room.answer(who("ENGLAND"), f"SIGNON club England {cred['ENGLAND']}\nSTATUS\n")  # England reads its mail here
    text = room.answer(who("GERMANY"), f"SIGNON club Germany {cred['GERMANY']}\nA Mun-Ruh\nA Ber-Kie\nF Kie-Den\n")
    assert "accepted" in text or "read as" in text
    # The mail the issue tells of: after SIGNON, a letter to the GM. It does not replace the set.
    text = room.answer(who("GERMANY"), f"SIGNON club Germany {cred['GERMANY']}\n"
                       "Dear GM, can my fleet in Kiel go to Holland?\nThanks, Cat\n")
    assert "Not one of these lines reads as an order, so they were not taken as a set of orders" in text
    assert "'Dear GM, can my fleet in Kiel go to Holland?': unreadable" in text
    assert "Your orders on record stand (set 1, 3 orders" in text
    assert "kept as question 1 to the gamesmaster" in text
    [rec] = room.gm.orders.orders_on_record("club", "GERMANY", by_gm=True)
    assert rec.orders == ("A Mun-Ruh", "A Ber-Kie", "F Kie-Den")
    # A question on purpose; a plan of campaign (Brobdingnag) goes the same way.
    text = room.answer(who("FRANCE"), f"SIGNON club France {cred['FRANCE']}\nQUESTION\n"
                       "May a fleet convoy an army of another power?\nEND\n"
                       "ASK: Plan of campaign: France takes Iberia, then Italy.\n")
    # France is told its own count, not the game's: Germany's question is none of its business.
    assert "Question 1 is with the gamesmaster" in text and "Question 2 is with the gamesmaster" in text
    qs = room.gm.questions.questions("club")
    assert [(q.number, q.power) for q in qs] == [(1, "GERMANY"), (2, "FRANCE"), (3, "FRANCE")]
    assert [q.number for q in room.gm.questions.questions("club", "FRANCE", credential=cred["FRANCE"])] == [1, 2]
    assert not room.gm.questions.questions("club", "ENGLAND", credential=cred["ENGLAND"])
    # Nobody else is sent the questions.
    assert not any("convoy an army" in c.text for c in room.sink.to(who("ENGLAND")))
    # The GM answers one privately and one for everyone (the asker not named).
    room.gm.questions.answer_question("club", 1, "Yes: Kiel and Holland are adjacent by sea.")
    room.gm.questions.answer_question("club", 2, "Yes, any power's fleet may convoy any army.", public=True)
    room.server.wake()
    mine = room.sink.wait(who("GERMANY"), "from the gamesmaster", containing="Answer to your question")
    assert "Answer to your question 1:" in mine[0].text and "> Dear GM, can my fleet" in mine[0].text
    public = "The gamesmaster answers a question a player asked:"
    for power in ("ENGLAND", "FRANCE"):
        room.sink.wait(who(power), "from the gamesmaster", containing=public)
        assert not any("Kiel and Holland" in c.text for c in room.sink.to(who(power)))
    # The public answer names neither the asker nor a number that would count the others' questions.
    [told] = [c.text for c in room.sink.to(who("ENGLAND")) if public in c.text]
    quoted = told.split(public)[1].split("\n\n")[0]
    assert "FRANCE" not in quoted.upper() and "question 2" not in told
    assert room.gm.record.verify("club").ok


def _late_mail(room, power: str, body: str, written, in_reply_to: str | None = None) -> str:  # noqa: ANN001
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = who(power), GM_ADDRESS, "orders"
    msg["Date"] = format_datetime(written)
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = in_reply_to
    msg.set_content(body)
    before = len([c for c in room.sink.to(who(power)) if c.subject.startswith("Re:")])
    room.send(who(power), msg=msg)
    room.server.wake()
    return room.sink.wait(who(power), "Re:", before + 1)[before].text


def test_orders_written_for_the_phase_before_are_refused_unless_marked(mailroom):
    room = mailroom
    cred = new_game(room)
    room.answer(who("FRANCE"), f"SIGNON club France {cred['FRANCE']}\nSTATUS\n")  # France reads its mail here
    written = room.clock() + timedelta(hours=1)  # written in Spring 1901, before its deadline
    st = room.gm.games.game("club")
    room.clock.set(st.deadline + timedelta(minutes=5))
    room.gm.deadlines.process_due()
    room.server.wake()
    results = room.sink.wait(who("FRANCE"), "results of Spring 1901 movement")[0]
    # Held up on the way, they arrive now that Fall 1901 is open: refused, naming the deadline missed.
    body = f"SIGNON club France {cred['FRANCE']}\nA Par-Bur\nA Mar-Spa\n"
    text = _late_mail(room, "FRANCE", body, written)
    assert "REFUSED: refused: late. These orders were written Mon 06 May 2024 13:00 UTC, for Spring 1901 movement" \
        in text
    assert "they were due by Thu 09 May 2024 12:00 UTC" in text and "send them again headed ORDERS F1901M" in text
    assert not room.gm.orders.orders_on_record("club", "FRANCE", by_gm=True)
    # Marked with the new phase, or sent as an answer to the new results: taken for Fall 1901.
    text = _late_mail(room, "FRANCE", body.replace("\nA Par", "\nORDERS F1901M\nA Par"), written)
    assert "Orders of France for Fall 1901 movement" in text
    text = _late_mail(room, "FRANCE", body.replace("Mar-Spa", "Mar-Gas"), written, str(results.msg["Message-ID"]).strip())
    assert "Orders of France for Fall 1901 movement" in text and "'A Mar-Gas' read as 'A MAR - GAS'" in text
    # Written after the fall opened, with no mark: taken as usual.
    text = _late_mail(room, "FRANCE", body, room.clock())
    assert "Orders of France for Fall 1901 movement" in text
    with room.store.connect(write=False) as conn:
        entries = Records(conn, room.store.is_postgresql).entries("club")
    refused = [e for e in entries if e.kind == "orders-refused"]
    assert len(refused) == 1 and "written Mon 06 May 2024 13:00 UTC" in refused[0].payload["reason"]
    assert room.gm.record.verify("club").ok


def test_the_gm_answers_by_mail(make_mailroom):
    from gamesmaster.gm.credentials import hash_secret
    secret = "gm.Xy7-secret-of-the-gm"
    room = make_mailroom(gm_credential_hash=hash_secret(secret))
    cred = new_game(room)
    text = room.answer(who("ITALY"), f"SIGNON club Italy {cred['ITALY']}\nASK: Is Venice a supply centre?\n")
    assert "Question 1 is with the gamesmaster" in text
    gm_address = "umpire@gms.test"
    text = room.answer(gm_address, "SIGNON club GM gm.wrong-guess\nANSWER 1\nYes.\nEND\n")
    assert "Not signed on: that is not the GM credential" in text and "wrong-guess" not in text
    assert "only the gamesmaster answers questions" in text
    text = room.answer(gm_address, f"SIGNON club GM {secret}\nQUESTIONS\nANSWER 1 PUBLIC\nYes: Venice is a "
                       "home supply centre of Italy.\nEND\nA Ven H\n")
    assert secret not in text and "SIGNON club GM gm.****" in text
    assert "Question 1 from Italy (not answered yet):" in text and "> Is Venice a supply centre?" in text
    assert "Question 1 is answered for everyone" in text
    assert "by mail the gamesmaster answers questions" in text  # and enters nothing else
    room.server.wake()
    got = room.sink.wait(who("ITALY"), "from the gamesmaster", 1)
    assert any("Venice is a home supply centre" in c.text for c in got)
    text = room.answer(who("ITALY"), f"SIGNON club Italy {cred['ITALY']}\nQUESTIONS\n")
    assert "Answered for everyone:" in text and "Venice is a home supply centre" in text
    with room.store.connect(write=False) as conn:  # the GM credential is not kept in the mail received
        assert not any(secret in m.body for m in MailRecords(conn).inbox())
    assert room.gm.record.verify("club").ok
