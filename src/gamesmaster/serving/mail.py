"""The mail door's processes: SMTP intake with the dispatcher and sender, one mail read from a
pipe, IMAP polling, dispatch passes, and sending the outbox (`gamesmaster mail ...`).

The command line parses the flags and prints; these start the mail door's parts on a
gamesmaster and a MailConfig, and run their loops.
"""

from __future__ import annotations

import signal
import sys
import threading
from typing import TYPE_CHECKING, Sequence, TextIO

from ..config import Config
from ..gm import Gamesmaster, hostport
from ..mail.config import MailConfig, MailConfigError
from ..mail.imap import ImapError

if TYPE_CHECKING:
    from ..mail.intake import Received

__all__ = ["ImapError", "MailConfig", "MailConfigError", "config", "dispatch", "poll", "receive", "retry",
           "send_due", "serve"]


def config(address: str | None = None, relay: str | None = None, read: Config | None = None) -> MailConfig:
    """The mail settings (`read`, else from the environment), with the GM's address and the relay (HOST[:PORT])
    where given."""
    settings = MailConfig.from_settings(read.mail, read.site) if read is not None else MailConfig.from_env()
    if address:
        if "@" not in address:
            raise MailConfigError(f"--address {address!r} is not an address (local@domain)")
        settings = settings.with_(address=address)
    if relay:
        host, port = hostport(relay, 25, "--relay")
        settings = settings.with_(relay_host=host, relay_port=port)
    return settings


def serve(gm: Gamesmaster, settings: MailConfig, host: str | None, port: int | None, *, dispatch: bool, send: bool,
          imap: bool, out: TextIO) -> int:
    """Run the SMTP intake, the dispatcher and the sender until SIGTERM or Ctrl-C (OSError: cannot listen)."""
    from ..mail.server import start
    server = start(gm, host, port, config=settings, dispatch=dispatch, send=send, imap=imap or None)
    out.write(f"Taking mail for {settings.address} (and {settings.game_address('GAME')}) on "
              f"{server.host}:{server.port}; sending through {settings.relay_host}:{settings.relay_port}. "
              "Ctrl-C stops.\n")
    notice = server.relay_notice() if send else None
    if notice:
        out.write(notice + "\n")
    out.write(server.gm_notice() + "\n")
    out.flush()
    done = threading.Event()
    try:
        signal.signal(signal.SIGTERM, lambda *_: done.set())
    except ValueError:  # not the main thread
        pass
    try:
        while not done.wait(1.0):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


def send_due(gm: Gamesmaster, settings: MailConfig) -> dict[str, int]:
    """Deliver the outbox's mail that is due now: how many were sent, are to be retried, failed."""
    from ..mail.outbox import Sender
    return Sender(gm.mailroom, settings, gm.desk.now).send_due()


def retry(gm: Gamesmaster, mail_ids: Sequence[int] | None) -> int:
    """Queue failed mail (or these mails) to be sent again; how many were queued."""
    from ..mail.outbox import retry as queue_again
    return queue_again(gm.mailroom, mail_ids, gm.desk.now())


def receive(gm: Gamesmaster, settings: MailConfig, raw: bytes, sender: str | None, to: str | None) -> Received:
    """Read one mail (as RFC 5322 bytes), obey it and queue the answer."""
    from ..mail.intake import Intake
    return Intake(gm, settings).receive(raw, sender, [to] if to else [], "pipe")


def poll(gm: Gamesmaster, settings: MailConfig, *, once: bool, interval: float | None, send: bool,
         out: TextIO) -> int:
    """Read the IMAP mailbox: once (ImapError: why it could not), or every `interval` seconds until Ctrl-C."""
    from ..mail.imap import ImapPoller
    from ..mail.intake import Intake
    poller = ImapPoller(Intake(gm, settings), settings)
    stop = threading.Event()
    while True:
        try:
            n = poller.poll_once()
            out.write(f"{n} mail{'s' if n != 1 else ''} read from {settings.imap_user}@{settings.imap_host}.\n")
            out.flush()
            if send:
                send_due(gm, settings)
        except ImapError as exc:
            if once:
                raise
            print(f"gamesmaster mail poll: {exc}", file=sys.stderr, flush=True)
        if once:
            return 0
        try:
            stop.wait(interval or settings.imap_interval)
        except KeyboardInterrupt:
            return 0


def dispatch(gm: Gamesmaster, settings: MailConfig, *, once: bool, interval: float | None, send: bool,
             out: TextIO) -> int:
    """Queue results, press and reminders, and send what is due: once, or every `interval` seconds until Ctrl-C."""
    from ..mail.notify import Dispatcher
    dispatcher = Dispatcher(gm, settings)
    stop = threading.Event()
    while True:
        c = dispatcher.run_once()
        s = send_due(gm, settings) if send else {"sent": 0, "retry": 0, "failed": 0}
        out.write(f"Queued: results of {c['results']} phases, {c['press']} press, {c['reminders']} reminders; "
                  f"sent {s['sent']}, to retry {s['retry']}, failed {s['failed']}.\n")
        out.flush()
        if once:
            return 0
        try:
            stop.wait(interval or settings.interval)
        except KeyboardInterrupt:
            return 0

