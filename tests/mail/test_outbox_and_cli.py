"""The outbox (never a mail lost: retried, held as failed, retried again by the GM), the
intake's recipients, and the `gamesmaster mail` commands."""

from __future__ import annotations

import json

import io
import smtplib
import sqlite3
from email.message import EmailMessage

import pytest

from gamesmaster.cli import main
from gamesmaster.gm.mailroom import Mailroom
from gamesmaster.mail.config import MailConfig, MailConfigError
from gamesmaster.mail.outbox import Sender, compose, queue, retry
from gamesmaster.store.mailbox import MailRecords
from gamesmaster.store import Store
from gamesmaster.store.testing import FakeClock

from mailhelp import GM_ADDRESS, NAMES, POWERS, Sink, address


def test_refused_mail_is_held_then_retried(tmp_path):
    refusing = {"on": True}
    sink = Sink(refuse=lambda a: "550 5.1.1 no such user" if refusing["on"] and a.startswith("nobody") else None)
    clock = FakeClock()
    store = Store(f"sqlite:///{tmp_path / 'gm.db'}")
    config = MailConfig(address=GM_ADDRESS, relay_port=sink.port, retry_base=60, permanent_tries=3)
    try:
        with Mailroom(store).open() as books:
            for to in ("nobody@players.test", "ann@players.test"):
                queue(books, config, compose(config, [to], "hello", "text", now=clock()), kind="notice", now=clock())
        sender = Sender(Mailroom(store), config, clock)
        assert sender.send_due() == {"sent": 1, "retry": 1, "failed": 0}
        assert sender.send_due() == {"sent": 0, "retry": 0, "failed": 0}  # not due yet: it waits 60 s
        clock.advance(seconds=61)
        assert sender.send_due()["retry"] == 1  # then 120 s
        clock.advance(seconds=121)
        assert sender.send_due()["failed"] == 1
        with store.connect(write=False) as conn:
            failed = MailRecords(conn).outbox(["failed"])
        assert len(failed) == 1 and "550" in (failed[0].last_error or "") and failed[0].attempts == 3
        refusing["on"] = False
        assert retry(Mailroom(store), None, clock()) == 1
        assert sender.send_due()["sent"] == 1
        with store.connect(write=False) as conn:
            assert MailRecords(conn).outbox_counts() == {"sent": 2}
        assert sorted(c.rcpt_tos[0] for c in sink.caught) == ["ann@players.test", "nobody@players.test"]
    finally:
        sink.stop()
        store.dispose()


def test_intake_takes_mail_only_for_its_addresses(mailroom):
    with smtplib.SMTP("127.0.0.1", mailroom.port) as smtp:
        with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
            smtp.sendmail("x@players.test", ["someone@elsewhere.test"], b"Subject: x\r\n\r\nhi\r\n")
        assert refused.value.recipients["someone@elsewhere.test"][0] == 550
        smtp.sendmail("x@players.test", ["GM+Club@Diplomacy.test"], b"From: x@players.test\r\nSubject: hi\r\n\r\nHELP\r\n")
    mailroom.server.wake()
    assert "SIGNON GAME POWER CREDENTIAL" in mailroom.sink.wait("x@players.test", "Re: hi")[0].text
    # Bounces and robots' mail are recorded, not answered.
    mailroom.send("bounce@players.test", "x", envelope_from="")
    auto = EmailMessage()
    auto["From"], auto["To"], auto["Subject"], auto["Auto-Submitted"] = "v@players.test", GM_ADDRESS, "away", "auto-replied"
    auto.set_content("I am on holiday")
    mailroom.send("v@players.test", msg=auto)
    with mailroom.store.connect(write=False) as conn:
        rows = MailRecords(conn).inbox()
    assert [r.status for r in rows] == ["ignored", "ignored", "answered"]


def test_config_from_environment():
    c = MailConfig.from_env({"GAMESMASTER_MAIL_ADDRESS": "gm@club.example", "GAMESMASTER_SMTP_RELAY": "smtp.example:587",
                             "GAMESMASTER_SMTP_TLS": "starttls", "GAMESMASTER_SMTP_USER": "gm",
                             "GAMESMASTER_SMTP_PASSWORD": "pw", "GAMESMASTER_MAIL_LISTEN": "0.0.0.0:25",
                             "GAMESMASTER_IMAP_HOST": "imap.example", "GAMESMASTER_MAIL_REMINDER_HOURS": "12"})
    assert (c.address, c.relay_host, c.relay_port, c.relay_tls, c.relay_user) == ("gm@club.example", "smtp.example",
                                                                                   587, "starttls", "gm")
    assert (c.listen_host, c.listen_port, c.imap_host, c.imap_port, c.reminder_hours) == ("0.0.0.0", 25, "imap.example",
                                                                                          993, 12.0)
    assert c.accepts("GM+Club7@CLUB.example") == (True, "club7") and c.accepts("other@club.example") == (False, None)
    assert MailConfig.from_env({}).address == "gamesmaster@localhost"
    with pytest.raises(MailConfigError, match="GAMESMASTER_SMTP_TLS"):
        MailConfig.from_env({"GAMESMASTER_SMTP_TLS": "maybe"})
    with pytest.raises(MailConfigError, match="port must be a number"):
        MailConfig.from_env({"GAMESMASTER_SMTP_RELAY": "host:abc"})


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    import contextlib
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_mail_commands(tmp_path, monkeypatch):
    db = f"sqlite:///{tmp_path / 'gm.db'}"
    sink = Sink()
    monkeypatch.setenv("GAMESMASTER_MAIL_ADDRESS", GM_ADDRESS)
    monkeypatch.setenv("GAMESMASTER_SMTP_RELAY", f"127.0.0.1:{sink.port}")
    try:
        code, out, _ = run("new", "club", "--players", ",".join(NAMES), "--assign",
                           ",".join(f"{n}={p}" for n, p in zip(NAMES, POWERS)), "--db", db)
        assert code == 0
        ann = next(line.split()[-1] for line in out.splitlines() if line.strip().startswith("Ann "))
        code, out, _ = run("mail", "contact", "club", "France", "bob@players.test", "--db", db)
        assert code == 0 and "bob@players.test (gm)" in out and "(none: results are not mailed)" in out
        letter = tmp_path / "letter.eml"
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = address("ann"), GM_ADDRESS, "my orders"
        msg.set_content(f"SIGNON club England {ann}\nA Liv.--Yor.\n")
        letter.write_bytes(bytes(msg))
        code, out, _ = run("mail", "receive", str(letter), "--show", "--db", db)
        assert code == 0 and "Mail 1: answered, answer queued as mail 1." in out
        assert "'A Liv.--Yor.' read as 'A LVP - YOR'" in out
        code, out, _ = run("mail", "outbox", "--db", db)
        assert "Outbox: 1 queued." in out and "Re: my orders" in out
        code, out, _ = run("mail", "dispatch", "--once", "--db", db)
        assert code == 0 and "sent 1, to retry 0, failed 0" in out
        assert sink.wait(address("ann"), "Re: my orders")
        code, out, _ = run("mail", "outbox", "--all", "--db", db)
        assert "Outbox: 1 sent." in out
        code, out, _ = run("mail", "contact", "club", "--db", db)
        assert "ann@players.test (mail)" in out
        code, _, err = run("mail", "contact", "nosuch", "--db", db)
        assert code == 2 and "no game 'nosuch'" in err
        code, _, err = run("mail", "poll", "--once", "--db", db)
        assert code == 2 and "GAMESMASTER_IMAP_HOST" in err
        with sqlite3.connect(tmp_path / "gm.db") as conn:
            kinds = [json.loads(p)["channel"] for (p,) in
                     conn.execute("SELECT payload FROM gm_ledger WHERE kind='orders-submitted'").fetchall()]
        assert kinds == ["mail"]
    finally:
        sink.stop()


@pytest.mark.parametrize("command", ["serve", "receive", "poll", "dispatch", "outbox", "contact"])
def test_mail_command_help(command, capsys):
    with pytest.raises(SystemExit) as done:
        main(["mail", command, "--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    assert "example:" in text and f"gamesmaster mail {command}" in text


def test_the_mail_door_on_postgresql():
    from gamesmaster.gm import Gamesmaster
    from gamesmaster.mail.intake import Intake
    from gamesmaster.mail.notify import Dispatcher
    from gamesmaster.store.testing import PostgresDatabase, server_problem
    problem = server_problem()
    if problem:
        pytest.skip(problem)
    db = PostgresDatabase("gm_mailtest")
    sink = Sink()
    store = Store(db.new_schema())
    try:
        clock = FakeClock()
        gm = Gamesmaster(store, clock)
        config = MailConfig(address=GM_ADDRESS, relay_port=sink.port, maps=False)
        created = gm.setup.create_game("pg", players=NAMES, assign=dict(zip(NAMES, POWERS)))
        dispatcher, sender = Dispatcher(gm, config), Sender(Mailroom(store), config, clock)
        dispatcher.run_once()
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = address("ann"), GM_ADDRESS, "orders"
        msg.set_content(f"SIGNON pg England {created.credentials['Ann']}\nF Lon-Nth\n")
        got = Intake(gm, config).receive(bytes(msg), address("ann"), [GM_ADDRESS])
        assert got.status == "answered" and "'F Lon-Nth' read as 'F LON - NTH'" in got.reply
        gm.deadlines.process("pg", force=True)
        assert dispatcher.run_once()["results"] == 1
        assert sender.send_due()["sent"] == 2
        assert "F LON - NTH" in sink.wait(address("ann"), "results of Spring 1901")[0].text
        assert dispatcher.run_once() == {"results": 0, "press": 0, "reminders": 0, "accounts": 0}
    finally:
        store.dispose()
        sink.stop()
        db.drop()


def test_options_in_the_results():
    from gamesmaster.gm.submissions import legal_orders_in
    from gamesmaster.mail import texts
    from gamesmaster.rules import Position
    from gamesmaster.variants import load_rules, load_variant

    def options(doc, power):
        position = Position.from_dict(load_variant("standard"), doc)
        return texts.options(position, power, legal_orders_in(position, power, load_rules("2023")))

    doc = {"variant": "standard", "phase": "W1901A",
           "units": {"FRANCE": ["A BUR", "F MAO", "A SPA"], "ENGLAND": ["F NTH", "A YOR", "F NWG", "F LON"]},
           "centers": {"FRANCE": ["PAR", "MAR", "BRE", "SPA", "POR"], "ENGLAND": ["LON", "EDI", "LVP"]}}
    assert options(doc, "FRANCE") == [
        "  2 builds due; open: A BRE, F BRE, A MAR, F MAR, A PAR (write e.g. 'Build A BRE'), or Waive"]
    assert options(doc, "ENGLAND") == [
        "  1 removal due, from: F LON, F NTH, F NWG, A YOR (write e.g. 'Remove F LON')"]
    doc = {"variant": "standard", "phase": "F1901R", "units": {"GERMANY": ["A BUR"], "FRANCE": ["A PAR", "A MAR"]},
           "centers": {}, "dislodged": {"FRANCE": [{"unit": "A BEL", "attacker": "BUR"}]}}
    assert options(doc, "FRANCE") == ["  A BEL: retreat to HOL, PIC, RUH, or disband"]


def test_mail_serve_command_takes_mail_until_stopped(tmp_path):
    """`gamesmaster mail serve`, as a process: it says where it listens, answers SMTP there, and stops on SIGTERM."""
    import os
    import re
    import signal
    import sys

    from sitetools import Proc

    env = {**os.environ, "GAMESMASTER_MAIL_ADDRESS": GM_ADDRESS}
    env.pop("GAMESMASTER_DATABASE_URL", None)
    proc = Proc([sys.executable, "-m", "gamesmaster.cli", "mail", "serve", "--db", f"sqlite:///{tmp_path / 'gm.db'}",
                 "--host", "127.0.0.1", "--port", "0", "--no-send", "--no-dispatch"], env, tmp_path)
    try:
        port = int(proc.wait_for(r"on 127\.0\.0\.1:(\d+); sending through").group(1))
        assert re.search(rf"Taking mail for {re.escape(GM_ADDRESS)}", proc.output)
        with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
            code, _ = smtp.noop()
            assert code == 250
    finally:
        status = proc.stop(sig=signal.SIGTERM)
    assert status == 0, proc.output
    assert "Traceback" not in proc.output
