"""Helpers for the mail tests. Real mail on loopback: the gamesmaster's SMTP intake, and a sink standing in for the relay.

Every server listens on a port chosen by the system at run time (port 0), so tests run
in parallel without meeting.
"""

from __future__ import annotations

import asyncio
import smtplib
import threading
import time
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from typing import Callable

from aiosmtpd.smtp import SMTP

from gamesmaster.gm import Gamesmaster, Settings
from gamesmaster.mail.config import MailConfig
from gamesmaster.mail.server import start
from gamesmaster.store import Store
from gamesmaster.store.testing import FakeClock

GM_ADDRESS = "gm@diplomacy.test"
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
POWERS = ["ENGLAND", "FRANCE", "GERMANY", "ITALY", "AUSTRIA", "RUSSIA", "TURKEY"]


@dataclass
class Caught:
    mail_from: str
    rcpt_tos: list[str]
    raw: bytes

    @property
    def msg(self) -> EmailMessage:
        return BytesParser(policy=policy.default).parsebytes(self.raw)  # type: ignore[return-value]

    @property
    def subject(self) -> str:
        return str(self.msg["Subject"])

    @property
    def text(self) -> str:
        return self.msg.get_body(("plain",)).get_content().replace("\r\n", "\n")  # type: ignore[union-attr]

    @property
    def attachments(self) -> list[tuple[str, str, bytes]]:
        return [(p.get_filename(), p.get_content_type(), p.get_content()) for p in self.msg.iter_attachments()]


class Sink:
    """A test SMTP server that keeps every mail it is given (the relay, for the tests)."""

    def __init__(self, refuse: Callable[[str], str | None] | None = None) -> None:
        self.caught: list[Caught] = []
        self.cond = threading.Condition()
        self.refuse = refuse
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        sink = self

        class Handler:
            async def handle_RCPT(self, server, session, envelope, address, options):  # noqa: ANN001
                why = sink.refuse(address) if sink.refuse else None
                if why:
                    return why
                envelope.rcpt_tos.append(address)
                return "250 OK"

            async def handle_DATA(self, server, session, envelope):  # noqa: ANN001
                with sink.cond:
                    sink.caught.append(Caught(envelope.mail_from, list(envelope.rcpt_tos), envelope.original_content))
                    sink.cond.notify_all()
                return "250 OK"

        def serve() -> None:
            asyncio.set_event_loop(self.loop)
            self.server = self.loop.run_until_complete(self.loop.create_server(
                lambda: SMTP(Handler(), hostname="sink.test", loop=self.loop), "127.0.0.1", 0))
            self.port = self.server.sockets[0].getsockname()[1]
            ready.set()
            self.loop.run_forever()
            self.server.close()
            self.loop.run_until_complete(self.server.wait_closed())
            self.loop.close()

        self.thread = threading.Thread(target=serve, daemon=True)
        self.thread.start()
        ready.wait(10)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)

    def to(self, address: str) -> list[Caught]:
        with self.cond:
            return [c for c in self.caught if address in c.rcpt_tos]

    def wait(self, address: str, subject: str = "", count: int = 1, timeout: float = 20.0,
             containing: str = "") -> list[Caught]:
        """Wait until `address` has `count` mails whose subject contains `subject` (and text `containing`)."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                got = [c for c in self.caught if address in c.rcpt_tos and subject in c.subject and containing in c.text]
                if len(got) >= count:
                    return got
                left = deadline - time.monotonic()
                if left <= 0:
                    seen = [(c.rcpt_tos, c.subject) for c in self.caught]
                    raise AssertionError(f"no {count} mail(s) to {address} about {subject!r} in {timeout}s; got {seen}")
                self.cond.wait(left)


class Mailroom:
    """A gamesmaster with its mail door running, a relay sink, and players who write by smtplib."""

    def __init__(self, tmp_path, by_hand: bool = False, **config) -> None:  # noqa: ANN001
        """by_hand: no background passes; the test calls server.dispatcher.run_once() and
        server.sender.send_due() itself (with them running too, a pass of theirs can be
        half done when the test looks)."""
        self.sink = Sink()
        self.clock = FakeClock()
        self.store = Store(f"sqlite:///{tmp_path / 'gm.db'}")
        self.gm = Gamesmaster(self.store, self.clock)
        settings = dict(address=GM_ADDRESS, relay_host="127.0.0.1", relay_port=self.sink.port, interval=0.2,
                        retry_base=1.0, maps=True)
        settings.update(config)
        self.config = MailConfig(**settings)
        self.server = start(self.gm, "127.0.0.1", 0, config=self.config, dispatch=not by_hand, send=not by_hand)
        self.port = self.server.port

    def send(self, sender: str, body: str | None = None, subject: str = "orders", to: str = GM_ADDRESS,
             msg: EmailMessage | bytes | None = None, envelope_from: str | None = None) -> None:
        """A player's mail, by SMTP to the intake (the call returns when the intake has answered)."""
        if msg is None:
            msg = EmailMessage()
            msg["From"] = sender
            msg["To"] = to
            msg["Subject"] = subject
            msg.set_content(body or "")
        raw = msg if isinstance(msg, bytes) else msg.as_bytes(policy=policy.SMTP)
        with smtplib.SMTP("127.0.0.1", self.port, timeout=60) as smtp:
            smtp.sendmail(envelope_from if envelope_from is not None else sender, [to], raw)

    def answer(self, sender: str, body: str | None = None, subject: str = "orders", **kw) -> str:  # noqa: ANN003
        """Send a mail and return the text of the gamesmaster's answer (caught at the relay)."""
        before = len([c for c in self.sink.to(sender) if c.subject.startswith("Re:")])
        self.send(sender, body, subject, **kw)
        self.server.wake()
        got = self.sink.wait(sender, "Re:", before + 1)
        return got[before].text

    def stop(self) -> None:
        self.server.stop()
        self.sink.stop()
        self.store.dispose()


def address(name: str) -> str:
    return f"{name.lower()}@players.test"


def new_game(room: Mailroom, game: str = "club", **settings) -> dict[str, str]:  # noqa: ANN003
    """A seven-player game with the powers assigned in NAMES' order; each power's credential."""
    created = room.gm.setup.create_game(game, title="Club game", players=NAMES, assign=dict(zip(NAMES, POWERS)),
                                  settings=Settings.from_dict(settings) if settings else None)
    room.server.dispatcher.run_once()  # the mail door knows the game from here on
    return {power: created.credentials[name] for name, power in zip(NAMES, POWERS)}


def who(power: str) -> str:
    """The address of the player of a power in new_game's games."""
    return address(NAMES[POWERS.index(power)])
