"""A game by mail alone, over real SMTP on loopback: players' mail goes to the intake with
smtplib, and every answer, result, press letter and reminder is caught at a sink standing
in for the relay."""

from __future__ import annotations

import re
import time
from datetime import timedelta
from email.message import EmailMessage

import pytest
from mailhelp import GM_ADDRESS, NAMES, POWERS, address, new_game, who

from gamesmaster.gm import Settings
from gamesmaster.store.mailbox import MailRecords


def test_a_season_played_by_mail_by_seven_powers(mailroom):
    room = mailroom
    cred = new_game(room)

    # England: the rulebook's abbreviations, read and answered order by order.
    text = room.answer(who("ENGLAND"), f"SIGNON club England {cred['ENGLAND']}\nF Lon-Nth\nF Edi-Nrg\nA Liv.--Yor.\n")
    assert "Signed on to club (Club game) as Ann, playing England" in text
    assert "'A Liv.--Yor.' read as 'A LVP - YOR'" in text
    assert "'F Edi-Nrg' read as 'F EDI - NWG'" in text
    receipt = re.search(r"Receipt: (club/S1901M/[A-Z]+/\d+:[0-9a-f]{64})", text)
    assert receipt, text
    assert cred["ENGLAND"].split(".")[1] not in text  # the secret is never echoed

    # France: a reply to the GM's mail, with the quoted original and a signature.
    text = room.answer(who("FRANCE"), f"SIGNON club France {cred['FRANCE']}\nA Par-Bur\nA Mar-Spa\nF Bre-Mao\n\n"
                       "On Mon, 6 May 2024, Gamesmaster wrote:\n> Orders due Thursday\n> A Par-Pic\n-- \nBob\nA Par-Gas\n",
                       subject="Re: club: notice")
    assert "'A Par-Bur' read as 'A PAR - BUR'" in text and "Pic" not in text.split("About your mail")[0]
    assert "quoted line" in text and "signature" in text

    # Germany: an HTML-only mail.
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = who("GERMANY"), GM_ADDRESS, "orders"
    msg.set_content(f"<html><body><p>SIGNON club Germany {cred['GERMANY']}</p><div>A Ber-Kie<br>A Mun-Ruh<br>"
                    "F Kie-Den</div><blockquote>A Mun-Bur</blockquote></body></html>", subtype="html")
    before = len(room.sink.to(who("GERMANY")))
    room.send(who("GERMANY"), msg=msg)
    text = room.sink.wait(who("GERMANY"), "Re:", before + 1)[-1].text
    assert "'F Kie-Den' read as 'F KIE - DEN'" in text and "'A Mun-Ruh' read as 'A MUN - RUH'" in text
    assert "HTML was read as text" in text and "BUR" not in text.split("About your mail")[0]

    # Italy: orders with conditional orders for the fall.
    text = room.answer(who("ITALY"), f"signon club italy {cred['ITALY']}\nA Ven-Tyr\nA Rom-Ven\nF Nap-Ion\n"
                       "next season:\nif F Nap - Ion succeeds: F Ion - Tun\notherwise: F Nap H\n")
    assert "Conditional orders for later phases" in text and "if F Nap - Ion succeeds: F Ion - Tun" in text

    # Austria writes to the game's own address, so the sign-on needs no game.
    text = room.answer(who("AUSTRIA"), f"SIGNON Austria {cred['AUSTRIA']}\nA Vie-Gal\nA Bud-Ser\nF Tri-Alb\n",
                       to="gm+club@diplomacy.test")
    assert "'F Tri-Alb' read as 'F TRI - ALB'" in text

    # Russia: a Latin-1 mail with a numbered list, sent twice: the second set replaces the first.
    room.answer(who("RUSSIA"), f"SIGNON club Russia {cred['RUSSIA']}\nA Mos-Ukr\n")
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = who("RUSSIA"), GM_ADDRESS, "Ordres de la Russie (corrigés)"
    msg.set_content(f"SIGNON club Russia {cred['RUSSIA']}\n1. A Mos-Sev\n2. A War-Gal\n3. F StP/sc-Bot\n"
                    "4. F Sev-Bla\n# «fin»\n", charset="iso-8859-1")
    before = len(room.sink.to(who("RUSSIA")))
    room.send(who("RUSSIA"), msg=msg)
    text = room.sink.wait(who("RUSSIA"), "Re:", before + 1)[-1].text
    assert "'A War-Gal' read as 'A WAR - GAL'" in text and "'A Mos-Sev' INVALID" not in text
    assert room.gm.orders.orders_on_record("club", "RUSSIA", credential=cred["RUSSIA"])[0].orders[0] == "A Mos-Sev"

    # Turkey: LIST shows the orders on record with the same receipt as the answer.
    text = room.answer(who("TURKEY"), f"SIGNON club Turkey {cred['TURKEY']}\nF Ank-Bla\nA Con-Bul\nA Smy-Arm\nLIST\n")
    sub_receipt = re.search(r"Receipt: (\S+)", text).group(1)
    assert f"Receipt: {sub_receipt}" in text

    # Every power has ordered through the mail; the record says so.
    st = room.gm.games.game("club")
    assert all(p.ordered for p in st.powers)
    assert {r.channel for p in st.powers for r in room.gm.orders.orders_on_record("club", p.power, by_gm=True)} == {"mail"}

    # The deadline passes; a late mail is refused with the reason, and the refusal is on the record.
    room.clock.set(st.deadline + timedelta(minutes=5))
    text = room.answer(who("FRANCE"), f"SIGNON club France {cred['FRANCE']}\nA Par-Pic\n")
    assert "REFUSED: refused: late. Orders for Spring 1901 movement were due by Thu 09 May 2024 12:00 UTC" in text
    assert "These orders are not on record." in text

    # The phase is adjudicated: every player gets the results, the position, their options,
    # the next deadline and the map.
    room.gm.deadlines.process_due()
    room.server.wake()
    for power in POWERS:
        mail = room.sink.wait(who(power), "results of Spring 1901 movement")[0]
        body = mail.text
        assert "Orders and results:" in body
        assert re.search(r"A LVP - YOR\s+succeeds \(moved\)\s+\[written 'A Liv.--Yor.'\]", body)
        assert re.search(r"A MUN - RUH\s+succeeds", body)
        assert "The position for Fall 1901 movement:" in body
        assert f"Your options ({power.capitalize()}) in Fall 1901 movement:" in body
        assert re.search(r"Next: Fall 1901 movement, orders due \w{3} \d\d May 2024", body)
        pngs = [a for a in mail.attachments if a[1] == "image/png"]
        assert [a[0] for a in pngs] == ["S1901M-results.png", "F1901M-position.png"]
        assert all(a[2].startswith(b"\x89PNG\r\n\x1a\n") and len(a[2]) > 10_000 for a in pngs)
        assert mail.msg["Auto-Submitted"] == "auto-generated"
    # Italy's conditional orders apply to the fall: the notice comes with its results only.
    italy = room.sink.wait(who("ITALY"), "results of Spring 1901")[0].text
    assert "Your conditional orders filed in Spring 1901 movement apply to Fall 1901 movement" in italy
    assert "conditional orders filed" not in room.sink.wait(who("FRANCE"), "results of Spring 1901")[0].text
    # Orders that say which phase they are for are refused once that phase is over.
    text = room.answer(who("FRANCE"), f"SIGNON club France {cred['FRANCE']}\nORDERS S1901M\nA Bur-Mun\n")
    assert ("REFUSED: refused: these orders are for Spring 1901 movement, but the game is in Fall 1901 movement"
            in text)
    # The sink may hold the last answer a moment before the sender marks it sent.
    deadline = time.monotonic() + 20
    while True:
        with room.store.connect(write=False) as conn:
            counts = MailRecords(conn).outbox_counts()
        if set(counts) == {"sent"} or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert counts == {"sent": sum(counts.values())}


def test_two_meanings_forged_sender_and_unknown_game(mailroom):
    room = mailroom
    cred = new_game(room)
    text = room.answer(who("ENGLAND"), f"SIGNON club England {cred['ENGLAND']}\nF Edi - Nor\nF Lon-Nth\nA Lvp-Yor\n")
    assert ("'F Edi - Nor' INVALID, will not be followed: ambiguous: the order could mean 'F EDI - NTH' "
            "or 'F EDI - NWG'") in text
    assert "note: no order for F EDI: it will hold" in text

    # A forged sender: England's address, France's credential (or none): refused, nothing done.
    forged = room.answer(who("ENGLAND"), f"SIGNON club England {cred['FRANCE']}\nF Lon-Eng\nPRESS TO ALL\nHi\nENDPRESS\n",
                         subject="forged")
    assert "Refused: not signed on: this credential is Bob's, who does not play England in club" in forged
    assert "2 more lines not carried out" in forged
    bare = room.answer(who("ENGLAND"), "SIGNON club England\nF Lon-Eng\n", subject="no credential")
    assert "Not signed on: SIGNON needs one credential" in bare
    guessed = room.answer(who("ENGLAND"), "SIGNON club England 1.AAAAAAAAAAAAAAAAAAAAAA\nF Lon-Eng\n")
    assert "the credential is not valid for game club" in guessed
    assert room.gm.orders.orders_on_record("club", "ENGLAND", credential=cred["ENGLAND"])[0].orders[1] == "F Lon-Nth"
    assert [p.text for p in room.gm.press.press("club") if p.sender != "GM"] == []

    # A valid sign-on from a new address: mail goes there from now on, and the old address is told.
    room.answer(who("FRANCE"), f"SIGNON club France {cred['FRANCE']}\nLIST\n")
    room.answer("bob@elsewhere.test", f"SIGNON club France {cred['FRANCE']}\nLIST\n")
    room.server.wake()
    notice = room.sink.wait(who("FRANCE"), "your address for results has changed")[0].text
    assert "came from bob@elsewhere.test" in notice

    # Orders before any sign-on, and an unknown game.
    text = room.answer(address("stranger"), "A Par-Bur\n")
    assert "Not carried out: sign on first" in text
    text = room.answer(address("stranger"), f"SIGNON nosuch France {cred['FRANCE']}\nA Par-Bur\n")
    assert "Refused: not signed on: no game 'nosuch' (games: club)" in text
    text = room.answer(address("stranger"), "Hello, how do I play?")
    assert "Not carried out: sign on first" in text
    text = room.answer(address("stranger"), "")
    assert "It holds no commands and no orders" in text and "SIGNON GAME POWER CREDENTIAL" in text


def test_big_attachment_and_malformed_mime(mailroom):
    room = mailroom
    cred = new_game(room)
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = who("FRANCE"), GM_ADDRESS, "orders, and a photo of the board"
    msg.set_content(f"SIGNON club France {cred['FRANCE']}\nA Par-Bur\n")
    msg.add_attachment(bytes(range(256)) * (2 * 1024 * 1024 // 256), maintype="image", subtype="jpeg",
                       filename="board.jpg")
    before = len(room.sink.to(who("FRANCE")))
    room.send(who("FRANCE"), msg=msg)
    text = room.sink.wait(who("FRANCE"), "Re:", before + 1)[-1].text
    assert "'A Par-Bur' read as 'A PAR - BUR'" in text
    assert "the attachment 'board.jpg' (image/jpeg, 2.0 MB) was not read" in text
    # a mail over the door's limit (4 MB) is refused at the SMTP door, before anything is read
    msg.add_attachment(bytes(5 * 1024 * 1024), maintype="application", subtype="octet-stream", filename="big.bin")
    import smtplib
    with pytest.raises(smtplib.SMTPResponseException) as refused:
        room.send(who("FRANCE"), msg=msg)
    assert refused.value.smtp_code == 552

    # A multipart mail whose boundary is not the one its parts use.
    raw = (f"From: {who('GERMANY')}\r\nTo: {GM_ADDRESS}\r\nSubject: broken\r\nMIME-Version: 1.0\r\n"
           "Content-Type: multipart/mixed; boundary=\"NOT-THERE\"\r\n\r\n"
           "--XYZZY123\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
           f"SIGNON club Germany {cred['GERMANY']}\r\nA Mun-Ruh\r\n--XYZZY123--\r\n").encode()
    before = len(room.sink.to(who("GERMANY")))
    room.send(who("GERMANY"), msg=raw)
    text = room.sink.wait(who("GERMANY"), "Re:", before + 1)[-1].text
    assert "'A Mun-Ruh' read as 'A MUN - RUH'" in text
    assert "MIME" in text.split("About your mail:")[1]

    # Headers and body in no known charset, base64 that is not base64: still answered.
    raw = (f"From: {who('ITALY')}\r\nTo: {GM_ADDRESS}\r\nSubject: =?x-klingon?q?orders?=\r\nMIME-Version: 1.0\r\n"
           "Content-Type: text/plain; charset=x-klingon\r\nContent-Transfer-Encoding: base64\r\n\r\n"
           "U0lHTk9O!!!not base64\r\n").encode()
    before = len(room.sink.to(who("ITALY")))
    room.send(who("ITALY"), msg=raw)
    text = room.sink.wait(who("ITALY"), "Re:", before + 1)[-1].text
    assert "The gamesmaster" in text
    with room.store.connect(write=False) as conn:
        statuses = [r.status for r in MailRecords(conn).inbox()]
    assert set(statuses) == {"answered"}


def test_press_draw_vote_status_history_and_resign(mailroom):
    room = mailroom
    cred = new_game(room)
    # Players sign on once, so their addresses are known for press and results.
    for power in POWERS:
        room.answer(who(power), f"SIGNON club {power} {cred[power]}\nSTATUS\n")

    text = room.answer(who("ENGLAND"), f"SIGNON club England {cred['ENGLAND']}\nPRESS TO France, Germany\n"
                       "Shall we talk about the North Sea?\nYours, England\nENDPRESS\nBROADCAST\nPeace in our time.\nENDPRESS\n")
    assert "sent to France, Germany (2 lines)" in text and "sent to everyone (1 line)" in text
    room.server.wake()
    letter = room.sink.wait(who("FRANCE"), "press from England to you")[0].text
    assert "Shall we talk about the North Sea?" in letter
    room.sink.wait(who("GERMANY"), "press from England to you")
    public = room.sink.wait(who("TURKEY"), "press from England to everyone")[0].text
    assert "Peace in our time." in public
    assert not [c for c in room.sink.to(who("TURKEY")) if "to you" in c.subject]
    assert not [c for c in room.sink.to(who("ENGLAND")) if "press from" in c.subject]

    text = room.answer(who("FRANCE"), f"SIGNON club France {cred['FRANCE']}\nDRAW\nPROPOSALS\n")
    assert "Proposal 1 is made: proposal 1: a draw between Austria, England, France, Germany, Italy, Russia, Turkey" in text
    text = room.answer(who("ENGLAND"), f"SIGNON club England {cred['ENGLAND']}\nVOTE YES\n")
    assert "England votes yes on proposal 1: the proposal is open." in text
    text = room.answer(who("TURKEY"), f"SIGNON club Turkey {cred['TURKEY']}\nVOTE 1 NO\n")
    assert "Turkey votes no on proposal 1: the proposal is rejected." in text
    text = room.answer(who("RUSSIA"), f"SIGNON club Russia {cred['RUSSIA']}\nCONCEDE TO Turkey\n")
    assert "Proposal 2 is made: concede the game to Turkey" in text

    text = room.answer(who("ITALY"), "STATUS club\nHISTORY club\n")
    assert "Club game (club): active" in text and "Spring 1901 movement: orders due" in text
    assert "History of Club game (club)" in text and "Peace in our time." in text
    assert "North Sea" not in text  # a private letter is not in a stranger's history

    text = room.answer(who("GERMANY"), f"SIGNON club Germany {cred['GERMANY']}\nHISTORY\n")
    assert "Shall we talk about the North Sea?" in text  # Germany may read the letter it was sent

    text = room.answer(who("AUSTRIA"), f"SIGNON club Austria {cred['AUSTRIA']}\nRESIGN\nA Vie-Gal\n")
    assert "You have resigned Austria" in text
    assert room.gm.games.game("club").powers[0].player is None

    text = room.answer(who("ITALY"), "HELP\n")
    assert "SIGNON GAME POWER CREDENTIAL" in text and "ENDPRESS" in text


def test_one_mail_for_two_powers(mailroom):
    room = mailroom
    created = room.gm.setup.create_game("sb", players=NAMES, standbys=["Sam"], assign=dict(zip(NAMES, POWERS)),
                                  settings=Settings.from_dict({"replacement": "standby"}))
    cred = {power: created.credentials[name] for name, power in zip(NAMES, POWERS)}
    sam = created.credentials["Sam"]
    # Everyone but Italy orders the spring; Sam, the stand-by, is called for Italy.
    for power in POWERS:
        if power != "ITALY":
            room.gm.orders.submit_orders("sb", power, "", credential=cred[power])
    room.clock.advance(hours=73)
    room.gm.deadlines.process_due()
    assert room.gm.orders.identify("sb", sam).standby_for == "ITALY"
    # Ann plays England and is Sam's friend: one mail, a section for each power.
    text = room.answer(who("ENGLAND"), f"SIGNON sb England {cred['ENGLAND']}\nF Lon-Nth\nLIST\n\n"
                       f"SIGNON sb {sam}\nItaly:\nA Ven H\nA Rom H\nF Nap H\nLIST\n")
    assert "Orders of England for Fall 1901 movement in sb:" in text and "'F Lon-Nth' read as 'F LON - NTH'" in text
    assert "as Sam, the stand-by for Italy" in text and "'A Ven H' read as 'A VEN H'" in text
    assert "Orders of Italy for Fall 1901 movement in sb (from the stand-by, Sam):" in text
    assert "Orders of Italy for Fall 1901 movement on record (from the stand-by, Sam), sent by mail" in text
    assert text.index("F LON - NTH") < text.index("A VEN H")


def test_reminders_and_relay_failures(make_mailroom):
    room = make_mailroom(reminder_hours=24, relay_port=1, by_hand=True)  # nothing listens on port 1: every send fails
    cred = new_game(room, "rem")
    # Two players sign on (their addresses are recorded); France orders, England does not.
    room.send(who("ENGLAND"), f"SIGNON rem England {cred['ENGLAND']}\n")
    room.send(who("FRANCE"), f"SIGNON rem France {cred['FRANCE']}\nA Par-Bur\n")
    deadline = room.gm.games.game("rem").deadline
    room.clock.set(deadline - timedelta(hours=23))
    room.server.dispatcher.run_once()
    room.server.sender.send_due()
    with room.store.connect(write=False) as conn:
        rows = MailRecords(conn).outbox()
    assert {r.kind for r in rows} == {"reply", "reminder"}
    assert all(r.status == "queued" and r.attempts >= 1 and "Error" in (r.last_error or "") for r in rows)
    reminder = [r for r in rows if r.kind == "reminder"]
    assert [r.recipients for r in reminder] == [(who("ENGLAND"),)]
    # The relay comes back: everything waiting is delivered, nothing lost, nothing twice.
    room.server.sender.config = room.config.with_(relay_port=room.sink.port)
    room.clock.advance(hours=1)
    room.server.sender.send_due()
    room.sink.wait(who("ENGLAND"), "reminder: orders for England due")
    # Each mail is waited for: the sink may record them in another order than they were sent.
    room.sink.wait(who("ENGLAND"), count=2)
    room.sink.wait(who("FRANCE"))
    assert len(room.sink.to(who("ENGLAND"))) == 2 and len(room.sink.to(who("FRANCE"))) == 1
    room.server.dispatcher.run_once()  # a second pass reminds nobody again
    with room.store.connect(write=False) as conn:
        assert MailRecords(conn).outbox_counts() == {"sent": 3}


def test_a_player_checks_a_receipt_and_the_record_by_mail(mailroom):
    """RECEIPT checks what the record says of a receipt; RECORD sends a phase's record with the public record
    attached, which verifies on its own; the results mail carries the ledger head."""
    import json as _json

    from gamesmaster.gm.record import verify_archive

    room = mailroom
    cred = new_game(room, "rec")
    text = room.answer(who("FRANCE"), f"SIGNON rec France {cred['FRANCE']}\nA Par-Bur\nA Mar-Spa\nF Bre-Mao\n")
    receipt = re.search(r"Receipt: (rec/S1901M/FRANCE/1:[0-9a-f]{64})", text).group(1)
    early = room.answer(who("ENGLAND"), f"RECEIPT {receipt}\n")
    assert "has not been published yet" in early and "A Mar-Spa" not in early
    own = room.answer(who("FRANCE"), f"SIGNON rec France {cred['FRANCE']}\nRECEIPT {receipt}\n")
    assert f"Receipt {receipt}: HOLDS." in own and "it is the set on record now" in own
    room.gm.deadlines.process("rec", force=True)
    room.server.wake()
    results = room.sink.wait(who("FRANCE"), "results of Spring 1901")[0].text  # France signed on from its address
    head = room.gm.games.game("rec").head
    assert f"published up to entry {head.seq}, hash {head.hash}" in " ".join(results.split())
    later = room.answer(who("ENGLAND"), f"RECEIPT {receipt}\n")
    assert f"Receipt {receipt}: HOLDS." in later and "these are the orders its results were computed from" in later
    bad = room.answer(who("ENGLAND"), f"RECEIPT {receipt[:-4]}0000\n")
    assert "DOES NOT HOLD" in bad
    before = len(room.sink.to(who("ENGLAND")))
    room.send(who("ENGLAND"), "RECORD rec S1901M\n")
    room.server.wake()
    caught = room.sink.wait(who("ENGLAND"), "Re:", before + 1)[-1]
    assert "The record of Spring 1901 movement in rec" in caught.text and "A Mar-Spa" in caught.text
    files = {name: data for name, _, data in caught.attachments}
    doc = _json.loads(files["rec-record.json"])
    assert verify_archive(doc, receipts=[receipt]).ok


def test_press_by_mail_is_closed_at_a_live_table_while_orders_are_written(mailroom):
    """Rulebook XIV.1: the mail door refuses press outside the diplomacy period, as every door does."""

    room = mailroom
    table = room.gm.live
    created = table.create("club", title="Club night", players=NAMES, assign=dict(zip(NAMES, POWERS)))
    cred = {created.powers[n]: c for n, c in created.credentials.items()}
    room.server.dispatcher.run_once()
    text = room.answer(who("FRANCE"), f"SIGNON club France {cred['FRANCE']}\nBROADCAST\nPeace?\nENDPRESS\n")
    assert "sent to everyone (1 line)" in text
    table.end_period("club")
    text = room.answer(who("FRANCE"), f"SIGNON club France {cred['FRANCE']}\nBROADCAST\nPsst\nENDPRESS\n")
    assert "the press is closed: no diplomacy while orders are written (rulebook XIV.1)" in text
    assert [p.text for p in room.gm.press.press("club") if p.sender == "FRANCE"] == ["Peace?"]
