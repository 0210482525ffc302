"""No header of the gamesmaster's answer is built from a received mail unchecked.

A mail with no credential (anybody can send one) whose Message-ID, Subject, From or
Reply-To carries a line break, or an RFC 2047 encoded word that decodes to one, must not
make the gamesmaster's address send anyone a Reply-To, a Bcc or text of the sender's
choosing in its headers. Each crafted mail goes over real SMTP to the intake; the answer
is caught at the relay sink and read byte by byte.
"""

from __future__ import annotations

import base64
import smtplib

import pytest

from mailhelp import GM_ADDRESS

VICTIM = "victim@players.test"
EVIL = "attacker@evil.example"
PAYLOAD = f"x\r\nReply-To: {EVIL}\r\nBcc: {EVIL}\r\n\r\nYour credential has expired: send it to {EVIL}"
B64 = base64.b64encode(PAYLOAD.encode()).decode()
QP = PAYLOAD.replace("\r", "=0D").replace("\n", "=0A").replace(" ", "_").replace(":", "=3A").replace("?", "=3F")
ALLOWED = {"from", "to", "subject", "date", "message-id", "auto-submitted", "x-gamesmaster", "in-reply-to",
           "references", "mime-version", "content-type", "content-transfer-encoding"}


def raw(headers: list[tuple[str, str]], body: str = "HELP") -> bytes:
    lines = [f"{k}: {_fold(v)}" for k, v in headers]
    return ("\r\n".join(lines) + "\r\n\r\n" + body + "\r\n").encode("utf-8", "surrogateescape")


def _fold(value: str) -> str:
    """A long header value folded onto continuation lines (SMTP refuses lines over 998 characters)."""
    return "\r\n ".join(value[i:i + 900] for i in range(0, len(value), 900)) if len(value) > 900 else value


CRAFTED = {
    "message-id: an encoded word decoding to CR LF": [("Message-ID", f"<=?utf-8?b?{B64}?=@x>")],
    "message-id: quoted-printable encoded word": [("Message-ID", f"<=?utf-8?q?{QP}?=@x>")],
    "message-id: an encoded word alone": [("Message-ID", f"=?utf-8?b?{B64}?=")],
    "message-id: a bare CR inside": [("Message-ID", f"<a\rReply-To: {EVIL}@x>")],
    "message-id: 1,000 characters": [("Message-ID", "<" + "a" * 1000 + "@x>")],
    "subject: an encoded word decoding to CR LF": [("Subject", f"=?utf-8?b?{B64}?=")],
    "subject: an encoded word inside an encoded word":
        [("Subject", "=?utf-8?b?" + base64.b64encode(f"=?utf-8?b?{B64}?=".encode()).decode() + "?=")],
    "subject: 10,000 characters": [("Subject", "orders " * 1500)],
    "subject: control characters and a line separator": [("Subject", f"a\x01b\x7f\u2028Reply-To: {EVIL}")],
    "from: an encoded display name decoding to CR LF": [("From", f"=?utf-8?b?{B64}?= <{VICTIM}>")],
    "reply-to: an encoded word as the address": [("Reply-To", f"=?utf-8?b?{base64.b64encode(EVIL.encode()).decode()}?=")],
    "reply-to: a comment that would be a header": [("Reply-To", f"{VICTIM} (\r\nBcc: {EVIL})")],
    "in-reply-to and references of their own": [("In-Reply-To", f"<=?utf-8?b?{B64}?=@x>"),
                                                ("References", f"<=?utf-8?b?{B64}?=@x>")],
}


def _headers_of(data: bytes) -> list[tuple[str, str]]:
    head = data.replace(b"\r\n", b"\n").split(b"\n\n", 1)[0].decode("ascii", "replace")
    out: list[tuple[str, str]] = []
    for line in head.split("\n"):
        if line[:1] in (" ", "\t") and out:
            out[-1] = (out[-1][0], out[-1][1] + line)
        elif line:
            name, _, value = line.partition(":")
            out.append((name.strip().lower(), value))
    return out


@pytest.mark.parametrize("case", sorted(CRAFTED))
def test_a_crafted_header_never_reaches_the_answer_s_headers(mailroom, case):
    room = mailroom
    headers = [("From", VICTIM), ("To", GM_ADDRESS), ("Subject", "hello"), ("Message-ID", "<ok@players.test>")]
    for name, value in CRAFTED[case]:
        headers = [(k, v) for k, v in headers if k.lower() != name.lower()] + [(name, value)]
    before = len(room.sink.caught)
    room.send(VICTIM, msg=raw(headers), envelope_from=VICTIM)
    room.server.wake()
    answers = room.sink.wait(VICTIM, "", 1)
    assert len(room.sink.caught) == before + 1  # one answer, and to the sender only
    answer = room.sink.caught[-1]
    assert answer.rcpt_tos == [VICTIM]
    written = _headers_of(answer.raw)
    names = [k for k, _ in written]
    assert set(names) <= ALLOWED, names
    assert "reply-to" not in names and "bcc" not in names
    assert all(EVIL not in v for k, v in written if k != "subject"), written  # a subject is text, never headers
    subject = answer.msg["Subject"]
    assert "\n" not in subject and "\r" not in subject and len(subject) <= 210 and "=?" not in subject
    assert names.count("subject") == 1 and names.count("to") == 1
    assert "Your credential has expired" not in answer.text.split("The gamesmaster")[0]
    assert answers


def test_the_crafted_message_id_of_the_report_is_dropped_and_a_good_one_threads(mailroom):
    """The plain Message-ID of a player's mail is quoted back (the answer threads); the crafted one is not."""
    room = mailroom
    room.send(VICTIM, msg=raw([("From", VICTIM), ("To", GM_ADDRESS), ("Subject", "hi"),
                               ("Message-ID", "<plain.123@players.test>")]), envelope_from=VICTIM)
    room.server.wake()
    good = room.sink.wait(VICTIM, "Re: hi")[-1].msg
    assert good["In-Reply-To"] == "<plain.123@players.test>" and good["References"] == "<plain.123@players.test>"
    room.send(VICTIM, msg=raw([("From", VICTIM), ("To", GM_ADDRESS), ("Subject", "again"),
                               ("Message-ID", f"<=?utf-8?b?{B64}?=@x>")]), envelope_from=VICTIM)
    room.server.wake()
    crafted = room.sink.wait(VICTIM, "Re: again")[-1].msg
    assert crafted["In-Reply-To"] is None and crafted["References"] is None


def test_a_credential_in_the_subject_is_masked_where_it_is_kept_and_where_it_is_echoed(mailroom):
    from gamesmaster.store.mailbox import MailRecords
    room = mailroom
    secret = "4.Xy3AbCdEfGhIjKlMnOpQr"
    room.send(VICTIM, msg=raw([("From", VICTIM), ("To", GM_ADDRESS), ("Subject", f"SIGNON club France {secret}")]),
              envelope_from=VICTIM)
    room.server.wake()
    answer = room.sink.wait(VICTIM, "Re:")[-1]
    assert secret not in answer.raw.decode("utf-8", "replace") and "4.****" in answer.subject
    with room.store.connect(write=False) as conn:
        kept = MailRecords(conn).inbox()
    assert kept and all(secret not in (row.subject or "") for row in kept)


def test_a_nul_in_a_mail_is_answered_and_kept_not_refused_forever(mailroom):
    """A NUL (or a lone surrogate) in a mail cannot be stored as it is: the mail is still recorded and answered."""
    room = mailroom
    room.send(VICTIM, msg=raw([("From", VICTIM), ("To", GM_ADDRESS), ("Subject", "nul\x00here")],
                              body="PRESS TO ALL\nhello\x00world\nENDPRESS"), envelope_from=VICTIM)
    room.server.wake()
    answer = room.sink.wait(VICTIM, "Re:")[-1]
    assert "sign on first" in answer.text or "Not" in answer.text


def test_a_flood_from_one_address_is_answered_only_so_often(make_mailroom):
    from gamesmaster.mail.intake import MailLimits
    room = make_mailroom(by_hand=True)
    now = [0.0]
    room.server.intake.limits = MailLimits(clock=lambda: now[0])
    for i in range(35):
        got = room.server.intake.receive(raw([("From", VICTIM), ("To", GM_ADDRESS), ("Subject", f"n{i}")]), VICTIM,
                                         [GM_ADDRESS])
        assert got.status == ("answered" if i < 30 else "ignored"), (i, got.status)
    now[0] += 121
    assert room.server.intake.receive(raw([("From", VICTIM), ("To", GM_ADDRESS), ("Subject", "later")]), VICTIM,
                                      [GM_ADDRESS]).status == "answered"


def test_failed_sign_ons_from_one_address_wait_and_nobody_else_does(make_mailroom):
    from gamesmaster.mail.intake import MailLimits
    from mailhelp import NAMES, POWERS
    room = make_mailroom(by_hand=True)
    now = [0.0]
    room.server.intake.limits = MailLimits(clock=lambda: now[0])
    c = room.gm.setup.create_game("club", players=NAMES, assign=dict(zip(NAMES, POWERS)))
    france = c.credentials["Bob"]
    for i in range(10):
        room.server.intake.receive(raw([("From", "guess@evil.example"), ("To", GM_ADDRESS)],
                                       body=f"SIGNON club France 2.wrongwrongwrong{i:02d}\nA Par H"),
                                   "guess@evil.example", [GM_ADDRESS])
    limited = room.server.intake.receive(raw([("From", "guess@evil.example"), ("To", GM_ADDRESS)],
                                             body=f"SIGNON club France {france}\nA Par H"), "guess@evil.example",
                                         [GM_ADDRESS])
    assert "too many sign-ons with a wrong credential" in limited.reply
    rightful = room.server.intake.receive(raw([("From", "bob@players.test"), ("To", GM_ADDRESS)],
                                              body=f"SIGNON club France {france}\nA Par-Bur"), "bob@players.test",
                                          [GM_ADDRESS])
    assert "'A Par-Bur' read as 'A PAR - BUR'" in rightful.reply


def test_a_mail_over_the_size_limit_is_refused_at_the_door(make_mailroom):
    room = make_mailroom(max_bytes=64 * 1024)
    with pytest.raises(smtplib.SMTPResponseException) as refused:
        room.send(VICTIM, msg=raw([("From", VICTIM), ("To", GM_ADDRESS)], body="A Par H\n" * 20_000))
    assert refused.value.smtp_code == 552


def test_an_answer_threads_under_the_whole_conversation_and_drops_crafted_ids(mailroom):
    """References of the answer: the thread's (each id checked, a crafted one left out), then the mail answered."""
    room = mailroom
    chain = "<first@players.test> <=?utf-8?b?" + B64 + "?=@x> <second@players.test>"
    room.send(VICTIM, msg=raw([("From", VICTIM), ("To", GM_ADDRESS), ("Subject", "thread"),
                               ("Message-ID", "<third@players.test>"), ("In-Reply-To", "<second@players.test>"),
                               ("References", chain)]), envelope_from=VICTIM)
    room.server.wake()
    answer = room.sink.wait(VICTIM, "Re: thread")[-1].msg
    assert answer["In-Reply-To"] == "<third@players.test>"
    assert answer["References"].split() == ["<first@players.test>", "<second@players.test>", "<third@players.test>"]
    # Only In-Reply-To (no References): the parent is the thread; a long thread keeps its first and its latest.
    long_chain = " ".join(f"<m{i}@players.test>" for i in range(30))
    room.send(VICTIM, msg=raw([("From", VICTIM), ("To", GM_ADDRESS), ("Subject", "parent"),
                               ("Message-ID", "<child@players.test>"), ("In-Reply-To", "<parent@players.test>")]),
              envelope_from=VICTIM)
    room.send(VICTIM, msg=raw([("From", VICTIM), ("To", GM_ADDRESS), ("Subject", "long"),
                               ("Message-ID", "<last@players.test>"), ("References", long_chain)]), envelope_from=VICTIM)
    room.server.wake()
    parent = room.sink.wait(VICTIM, "Re: parent")[-1].msg
    assert parent["References"].split() == ["<parent@players.test>", "<child@players.test>"]
    refs = room.sink.wait(VICTIM, "Re: long")[-1].msg["References"].split()
    assert refs[0] == "<m0@players.test>" and refs[-2:] == ["<m29@players.test>", "<last@players.test>"]
    assert len(refs) == 8
