"""`gamesmaster mail ...`: the mail door at the console.

serve (SMTP intake, results and the outbox), receive (one mail from a file or a pipe),
poll (an IMAP mailbox), dispatch (results, press and reminders into the outbox, and
send), outbox (show, retry), contact (players' addresses). Settings: docs/mail.md.
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any, Callable, TextIO

from ..config import Config
from ..gm import Gamesmaster, GMError, StoreError
from ..serving import mail as serving  # cli -> serving (see gamesmaster.serving)
from ..serving.mail import ImapError, MailConfig, MailConfigError
from .options import CommandError, Subcommands, add_command, database_parent


def _setup(args: argparse.Namespace) -> tuple[Gamesmaster, MailConfig]:
    try:
        settings = Config.from_environ()  # read once for the command: the mail door and the gamesmaster share it
        config = serving.config(getattr(args, "address", None), getattr(args, "relay", None), settings)
        return Gamesmaster.open(args.db, config=settings), config
    except (StoreError, MailConfigError) as exc:
        raise CommandError(str(exc)) from None


def _handler(body: Callable[[argparse.Namespace, TextIO, Gamesmaster, MailConfig], int]) -> Callable[..., int]:
    def handle(args: argparse.Namespace, out: TextIO) -> int:
        if getattr(args, "verbose", False):
            logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
        else:
            logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
        gm, config = _setup(args)
        try:
            return body(args, out, gm, config)
        except (GMError, StoreError, MailConfigError) as exc:
            raise CommandError(str(exc)) from None
        finally:
            gm.close()
    handle.__doc__ = body.__doc__
    return handle


def cmd_serve(args: argparse.Namespace, out: TextIO, gm: Gamesmaster, config: MailConfig) -> int:
    """Run the SMTP intake, the dispatcher and the sender until interrupted."""
    try:
        return serving.serve(gm, config, args.host, args.port, dispatch=not args.no_dispatch, send=not args.no_send,
                             imap=args.imap, out=out)
    except OSError as exc:
        raise CommandError(f"cannot listen on {args.host or config.listen_host}:{args.port or config.listen_port}: {exc}") from None


def cmd_receive(args: argparse.Namespace, out: TextIO, gm: Gamesmaster, config: MailConfig) -> int:
    """Read one mail (a file or stdin), obey it and queue the answer."""
    if args.file in (None, "-"):
        raw = sys.stdin.buffer.read()
    else:
        with open(args.file, "rb") as f:
            raw = f.read()
    got = serving.receive(gm, config, raw, args.sender, args.to)
    out.write(f"Mail {got.inbox_id}: {got.status}" + (f", answer queued as mail {got.reply_id}" if got.reply_id else "")
              + ".\n")
    if args.show:
        out.write(got.reply + "\n")
    if args.send:
        counts = serving.send_due(gm, config)
        out.write(f"Sent {counts['sent']}; to retry {counts['retry']}; failed {counts['failed']}.\n")
    return 0


def cmd_poll(args: argparse.Namespace, out: TextIO, gm: Gamesmaster, config: MailConfig) -> int:
    """Read the IMAP mailbox: once, or every --interval seconds."""
    changes: dict[str, Any] = {}
    for opt, attr in (("host", "imap_host"), ("user", "imap_user"), ("folder", "imap_folder")):
        if getattr(args, opt):
            changes[attr] = getattr(args, opt)
    if args.port:
        changes["imap_port"] = args.port
    if args.no_ssl:
        changes["imap_ssl"] = False
        changes.setdefault("imap_port", 143 if not args.port else args.port)
    config = config.with_(**changes)
    try:
        return serving.poll(gm, config, once=args.once, interval=args.interval, send=not args.no_send, out=out)
    except ImapError as exc:
        raise CommandError(str(exc)) from None


def cmd_dispatch(args: argparse.Namespace, out: TextIO, gm: Gamesmaster, config: MailConfig) -> int:
    """Queue results, press and reminders, and send what is due: once, or every --interval seconds."""
    return serving.dispatch(gm, config, once=args.once, interval=args.interval, send=not args.no_send, out=out)


def cmd_outbox(args: argparse.Namespace, out: TextIO, gm: Gamesmaster, config: MailConfig) -> int:
    """Show the outbox; retry failed mail; send what is due."""
    if args.retry is not None:
        ids = None if args.retry == "failed" else [int(x) for x in args.retry.split(",") if x.strip().isdigit()]
        n = serving.retry(gm, ids)
        out.write(f"{n} mail{'s' if n != 1 else ''} queued to be sent again.\n")
    if args.send or args.retry is not None:
        counts = serving.send_due(gm, config)
        out.write(f"Sent {counts['sent']}; to retry {counts['retry']}; failed {counts['failed']}.\n")
    with gm.mailroom.open(write=False) as books:
        counts = books.outbox_counts()
        rows = books.outbox(None if args.all else ["queued", "sending", "failed"], limit=args.limit)
    out.write("Outbox: " + (", ".join(f"{n} {s}" for s, n in sorted(counts.items())) or "empty") + ".\n")
    for r in reversed(rows):
        line = f"  {r.id:5} {r.status:7} {r.kind:8} {','.join(r.recipients)[:40]:40} {r.subject[:50]}"
        if r.status != "sent":
            line += f"  tries {r.attempts}, next {r.next_attempt_at:%Y-%m-%d %H:%M}Z"
        if r.last_error and r.status != "sent":
            line += f"\n        last error: {r.last_error[:200]}"
        out.write(line + "\n")
    return 0


def cmd_contact(args: argparse.Namespace, out: TextIO, gm: Gamesmaster, config: MailConfig) -> int:
    """Show the players' addresses in a game, or set one (the GM, e.g. before the game starts)."""
    now = gm.desk.now()
    players = gm.games.game(args.game).players()
    with gm.mailroom.open() as books:
        if args.who:
            if not args.address or "@" not in args.address:
                raise CommandError("give the address too: gamesmaster mail contact GAME PLAYER-OR-POWER ADDRESS")
            key = args.who.strip().lower()
            player = next((p for p in players if p.name.lower() == key or key in (x.lower() for x in p.acts_for())), None)
            if player is None:
                raise CommandError(f"no player or power {args.who!r} in {args.game} "
                                   f"(players: {', '.join(p.name for p in players)})")
            books.set_contact(args.game, player.number, args.address.strip(), now, "gm")
        contacts = books.contacts(args.game)
    out.write(f"Addresses in {args.game} (results, press and reminders go there):\n")
    for p in players:
        what = (", ".join(x.capitalize() for x in p.powers) or "-") if p.role == "player" else \
            f"stand-by{' for ' + p.standby_for.capitalize() if p.standby_for else ''}"
        c = contacts.get(p.number)
        out.write(f"  {p.name[:20]:20} {what:20} "
                  f"{c.address + ' (' + c.source + ')' if c else '(none: results are not mailed)'}\n")
    return 0


def register(sub: Subcommands) -> None:
    """Add `gamesmaster mail ...` to the command line."""
    common = database_parent()
    common.add_argument("--address", metavar="ADDRESS", help="the GM's address (default $GAMESMASTER_MAIL_ADDRESS, "
                        "else gamesmaster@localhost)")
    common.add_argument("--relay", metavar="HOST[:PORT]", help="the SMTP relay for outgoing mail "
                        "(default $GAMESMASTER_SMTP_RELAY, else 127.0.0.1:25)")
    common.add_argument("-v", "--verbose", action="store_true", help="log every mail received and sent")
    mail = sub.add_parser("mail", help="orders and results by e-mail: the intake server, IMAP polling, the outbox",
                          description="The gamesmaster's e-mail door (see docs/mail.md).",
                          epilog="example:\n  gamesmaster mail serve --port 2525\n  gamesmaster mail outbox",
                          formatter_class=argparse.RawDescriptionHelpFormatter)
    msub = mail.add_subparsers(dest="mail_command", metavar="COMMAND")
    msub.required = True

    def add(name: str, help_: str, example: str, func: Callable[..., int]) -> argparse.ArgumentParser:
        return add_command(msub, name, help_, example, _handler(func), [common])

    p = add("serve", "take mail by SMTP, mail the results and deliver the outbox, until interrupted",
            "  GAMESMASTER_MAIL_ADDRESS=gm@club.example GAMESMASTER_SMTP_RELAY=smtp.club.example:587 \\\n"
            "  GAMESMASTER_SMTP_TLS=starttls GAMESMASTER_SMTP_USER=gm GAMESMASTER_SMTP_PASSWORD=... \\\n"
            "      gamesmaster mail serve --host 127.0.0.1 --port 2525", cmd_serve)
    p.add_argument("--host", help="address to listen on (default 127.0.0.1, or $GAMESMASTER_MAIL_LISTEN)")
    p.add_argument("--port", type=int, help="port to listen on (default 2525)")
    p.add_argument("--no-dispatch", action="store_true", help="do not mail results, press and reminders")
    p.add_argument("--no-send", action="store_true", help="queue mail but do not deliver it")
    p.add_argument("--imap", action="store_true", help="also poll the IMAP account ($GAMESMASTER_IMAP_*)")

    p = add("receive", "read one mail from a file or stdin (e.g. piped from the mail system), obey it, queue the answer",
            "  gamesmaster mail receive letter.eml --show\n"
            "  # in ~/.forward or an alias: \"|gamesmaster mail receive --send\"", cmd_receive)
    p.add_argument("file", nargs="?", metavar="FILE", help="the mail as RFC 5322 (default: stdin)")
    p.add_argument("--sender", metavar="ADDRESS", help="the envelope sender (default: the From header)")
    p.add_argument("--to", metavar="ADDRESS", help="the envelope recipient (default: the To header)")
    p.add_argument("--show", action="store_true", help="print the answer")
    p.add_argument("--send", action="store_true", help="deliver the outbox afterwards")

    p = add("poll", "read an existing IMAP mailbox: answer every unseen mail",
            "  GAMESMASTER_IMAP_HOST=imap.club.example GAMESMASTER_IMAP_USER=gm GAMESMASTER_IMAP_PASSWORD=... \\\n"
            "      gamesmaster mail poll --interval 60\n"
            "  gamesmaster mail poll --once --host 127.0.0.1:143 --no-ssl --user gm", cmd_poll)
    p.add_argument("--once", action="store_true", help="one poll, then exit")
    p.add_argument("--interval", type=float, help="seconds between polls (default 60)")
    p.add_argument("--host", help="IMAP server HOST[:PORT] (default $GAMESMASTER_IMAP_HOST)")
    p.add_argument("--port", type=int, help="IMAP port")
    p.add_argument("--user", help="IMAP user (default $GAMESMASTER_IMAP_USER); the password: $GAMESMASTER_IMAP_PASSWORD")
    p.add_argument("--folder", help="folder to read (default INBOX)")
    p.add_argument("--no-ssl", action="store_true", help="plain IMAP (port 143), e.g. on the same machine")
    p.add_argument("--no-send", action="store_true", help="queue the answers but do not deliver them")

    p = add("dispatch", "mail results, press and reminders, and deliver the outbox (for cron, without serve)",
            "  gamesmaster mail dispatch --once\n  gamesmaster mail dispatch --interval 30", cmd_dispatch)
    p.add_argument("--once", action="store_true", help="one pass, then exit")
    p.add_argument("--interval", type=float, help="seconds between passes (default 10)")
    p.add_argument("--no-send", action="store_true", help="queue but do not deliver")

    p = add("outbox", "show the mail waiting to be sent (or failed); retry it",
            "  gamesmaster mail outbox\n  gamesmaster mail outbox --retry failed\n  gamesmaster mail outbox --retry 12,13\n"
            "  gamesmaster mail outbox --all --limit 20", cmd_outbox)
    p.add_argument("--all", action="store_true", help="also the mail already sent")
    p.add_argument("--limit", type=int, default=50, help="at most this many rows (default 50)")
    p.add_argument("--retry", metavar="failed|ID,...", help="queue failed mail (or these ids) again and send now")
    p.add_argument("--send", action="store_true", help="deliver what is due now")

    p = add("contact", "show the players' addresses in a game, or set one",
            "  gamesmaster mail contact club7\n  gamesmaster mail contact club7 France ann@example.org\n"
            "  gamesmaster mail contact club7 Sam sam@example.org", cmd_contact)
    p.add_argument("game", metavar="GAME")
    p.add_argument("who", nargs="?", metavar="PLAYER-OR-POWER")
    p.add_argument("address", nargs="?", metavar="ADDRESS")
