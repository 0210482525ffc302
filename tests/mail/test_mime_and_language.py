"""Reading mail as players send it, and the commands in its body."""

from __future__ import annotations

from email.message import EmailMessage

from gamesmaster.mail.language import mask, read_commands
from gamesmaster.mail.mime import html_to_text, read_message, strip_replies


def mail(body: str, **kw) -> bytes:  # noqa: ANN003
    msg = EmailMessage()
    msg["From"] = kw.pop("sender", "Ann <ann@example.com>")
    msg["To"] = "gm@example.org"
    msg["Subject"] = kw.pop("subject", "orders")
    for k, v in kw.pop("headers", {}).items():
        msg[k] = v
    msg.set_content(body, **kw)
    return msg.as_bytes()


def test_plain_mail_and_reply_address():
    got = read_message(mail("SIGNON g France 1.abcdefgh\nA Par-Bur\n", headers={"Reply-To": "ann@home.example"}))
    assert got.text.splitlines()[:2] == ["SIGNON g France 1.abcdefgh", "A Par-Bur"]
    assert got.reply_to == "ann@home.example" and got.from_address == "ann@example.com"
    assert got.no_reply is None and got.notes == []


def test_quoted_replies_and_signatures():
    text, notes = strip_replies("A Par-Bur\n\nOn Tue, 7 May 2024 at 10:00, GM <gm@x> wrote:\n> A Par-Pic\n>> old\n")
    assert text.strip() == "A Par-Bur" and notes == ["2 quoted lines (beginning with '>') not read"]
    text, notes = strip_replies("A Par-Bur\n-- \nAnn\nA Mar-Spa\n")
    assert text.strip() == "A Par-Bur" and "signature" in notes[0]
    text, notes = strip_replies("A Par-Bur\n\n-----Original Message-----\nFrom: GM\nA Par-Pic\n")
    assert text.strip() == "A Par-Bur" and "quoted original" in notes[0]
    text, notes = strip_replies("A Par-Bur\n\nFrom: Gamesmaster <gm@x>\nSent: Tuesday\nSubject: x\nA Par-Pic\n")
    assert text.strip() == "A Par-Bur"


def test_html_only_mail_and_quote_blocks():
    text, quoted = html_to_text("<html><head><style>p{}</style></head><body><p>SIGNON g F 1.abcdef</p>"
                                "<div>A Par&#8209;Bur<br/>A Mar-Spa</div><div class='gmail_quote'>On ... wrote:"
                                "<blockquote>A Par-Pic</blockquote></div></body></html>")
    assert text.splitlines() == ["SIGNON g F 1.abcdef", "A Par\u2011Bur", "A Mar-Spa"] and quoted
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "a@b.example", "gm@x.example", "o"
    msg.set_content("<p>A Par-Bur</p><p>&nbsp;</p><p>A Mar-Spa</p>", subtype="html")
    got = read_message(msg.as_bytes())
    assert got.text.splitlines() == ["A Par-Bur", "A Mar-Spa"]
    assert got.notes == ["the mail has no plain-text part: its HTML was read as text"]


def test_alternative_prefers_plain_and_lists_attachments():
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "a@b.example", "gm@x.example", "o"
    msg.set_content("A Par-Bur\n")
    msg.add_alternative("<p>A Par-Pic</p>", subtype="html")
    msg.add_attachment(b"%PDF-1.4 ...", maintype="application", subtype="pdf", filename="orders.pdf")
    msg.add_attachment("A Par-Gas\n", filename="orders.txt")
    got = read_message(msg.as_bytes())
    assert got.text.strip() == "A Par-Bur"
    assert [n.split(" (")[0] for n in got.notes] == ["the attachment 'orders.pdf'", "the attachment 'orders.txt'"]


def test_odd_encodings():
    latin = read_message(mail("A Par-Bur # é\n", charset="iso-8859-1", cte="quoted-printable"))
    assert latin.text.strip() == "A Par-Bur # é" and latin.notes == []
    raw = (b"From: a@b.example\r\nTo: gm@x.example\r\nSubject: =?utf-8?b?w6k=?=\r\n"
           b"Content-Type: text/plain; charset=x-unknown\r\n\r\nA Par-Bur \xe9\r\n")
    got = read_message(raw)
    assert got.subject == "é" and got.text.startswith("A Par-Bur")
    assert "charset is 'x-unknown', which is unknown: read as Windows-1252" in got.notes[0]
    got = read_message(b"From: a@b.example\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nA Par-Bur \xe9\xff\r\n")
    assert got.text.startswith("A Par-Bur") and "not valid utf-8" in got.notes[0]
    got = read_message(b"From: a@b.example\r\n\r\nA Par-Bur \xc3\xa9\r\n")  # 8-bit, no charset said
    assert got.text.strip() == "A Par-Bur é"
    flowed = read_message(b"From: a@b.example\r\nContent-Type: text/plain; format=flowed\r\n\r\n"
                          b"PRESS TO ALL\r\nThis line goes \r\non here.\r\nENDPRESS\r\n")
    assert "This line goes on here." in flowed.text


def test_malformed_mime_is_read_for_its_text():
    raw = (b"From: a@b.example\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed\r\n\r\n"
           b"--abcdefgh\r\nContent-Type: text/plain\r\n\r\nA Par-Bur\r\n--abcdefgh--\r\n")
    got = read_message(raw)
    assert got.text.strip() == "A Par-Bur" and any("MIME" in n for n in got.notes)
    got = read_message(b"\x00\xff garbage with no headers at all")
    assert got.reply_to is None
    got = read_message(b"From: <<<>>>\r\nSubject: \xff\xfe\r\n\r\nhello\r\n", envelope_from="real@sender.example")
    assert got.reply_to == "real@sender.example"


def test_robots_are_not_answered():
    assert read_message(mail("x"), envelope_from="").no_reply.startswith("a delivery report")
    assert "Auto-Submitted" in read_message(mail("x", headers={"Auto-Submitted": "auto-replied"})).no_reply
    assert read_message(mail("x", headers={"Auto-Submitted": "no"})).no_reply is None
    assert "bulk" in read_message(mail("x", headers={"Precedence": "bulk"})).no_reply
    assert read_message(mail("x", sender="MAILER-DAEMON@mx.example")).no_reply


def test_commands():
    body = """signon club France 3.Xy3AbCdEf
orders S1901M
A Par-Bur
next season:
if A Par - Bur succeeds: A Bur - Mun
Press to England and Germany anonymously
Hello,
  both of you.
endpress
press to all: one line
broadcast
All of you.
end press
draw
draw between France, England
concede to Russia
vote 2 yes
vote no
accept 3
status
history club F1901M
resign successor Ken Davidson
withdraw
list
ready
not ready
proposals
help
signoff
A Par-Gas
"""
    kinds = [(s.kind, s.args) for s in read_commands(body)]
    assert kinds == [
        ("signon", {"tokens": ["club", "France", "3.Xy3AbCdEf"]}),
        ("orders", {"phase": "S1901M"}),
        ("text", {"text": "A Par-Bur"}),
        ("text", {"text": "next season:"}),
        ("text", {"text": "if A Par - Bur succeeds: A Bur - Mun"}),
        ("press", {"to": ["England", "Germany"], "anonymous": True, "text": "Hello,\n  both of you."}),
        ("press", {"to": None, "anonymous": False, "text": "one line"}),
        ("press", {"to": None, "anonymous": False, "text": "All of you."}),
        ("draw", {"powers": None}),
        ("draw", {"powers": ["France", "England"]}),
        ("concede", {"to": "Russia"}),
        ("vote", {"proposal": 2, "yes": True}),
        ("vote", {"proposal": None, "yes": False}),
        ("vote", {"proposal": 3, "yes": True}),
        ("status", {"game": None}),
        ("history", {"args": ["club", "F1901M"]}),
        ("resign", {"successor": "Ken Davidson"}),
        ("withdraw", {}), ("list", {}), ("ready", {}), ("unready", {}), ("proposals", {}), ("help", {}),
        ("signoff", {}),
    ]
    assert mask("SIGNON club France 3.Xy3AbCdEf") == "SIGNON club France 3.****"
    unended = read_commands("PRESS TO Italy\nno end")
    assert unended[0].args["unended"] and unended[0].args["text"] == "no end"
