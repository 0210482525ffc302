"""The mail door's servers: SMTP intake, the dispatcher and the sender, running in the background.

`start(service, host, port)` is what `gamesmaster serve` calls beside the website, and
`gamesmaster mail serve` on its own: an SMTP server (aiosmtpd) taking mail for the GM's
address (and `gamesmaster+GAME@` addresses), each mail answered through `Intake`; a loop
that turns what happened in the games into mail (`Dispatcher`); and a loop that delivers
the outbox through the relay (`Sender`). It returns a `MailServer`; `.stop()` ends them.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

from aiosmtpd.smtp import SMTP, Envelope, Session

from ..gm import Gamesmaster
from .config import MailConfig
from .imap import ImapPoller
from .intake import Intake
from .notify import Dispatcher
from .outbox import Sender

log = logging.getLogger(__name__)


class _Handler:
    """aiosmtpd's handler: accept mail for our addresses, answer each through the intake."""

    def __init__(self, intake: Intake, config: MailConfig) -> None:
        self.intake = intake
        self.config = config

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope, address: str,
                          rcpt_options: list[str]) -> str:
        ours, _ = self.config.accepts(address)
        if not ours:
            return f"550 5.1.1 <{address}>: no such mailbox here (write to {self.config.address})"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or envelope.content or b""
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        loop = asyncio.get_running_loop()
        try:
            got = await loop.run_in_executor(None, self.intake.receive, raw, envelope.mail_from,
                                             list(envelope.rcpt_tos), "smtp", None)
        except Exception:  # noqa: BLE001 - not even recorded: the sending server keeps it and tries again
            log.exception("mail from %s could not be recorded", envelope.mail_from)
            return "451 4.3.0 the gamesmaster cannot take mail just now; try again later"
        return f"250 2.0.0 received as mail {got.inbox_id}: {got.status}"


class _Loop(threading.Thread):
    """Calls `work()` every `interval` seconds (and at once when woken) until stopped."""

    def __init__(self, name: str, work: Any, interval: float) -> None:
        super().__init__(name=name, daemon=True)
        self.work = work
        self.interval = interval
        self.stopping = threading.Event()
        self.woken = threading.Event()

    def wake(self) -> None:
        self.woken.set()

    def run(self) -> None:
        while not self.stopping.is_set():
            self.woken.clear()
            try:
                self.work()
            except Exception:  # noqa: BLE001 - keep going: the next pass tries again
                log.exception("%s: a pass failed", self.name)
            self.woken.wait(self.interval)

    def stop(self) -> None:
        self.stopping.set()
        self.woken.set()


class MailServer:
    """The running mail door: `.port` is the SMTP port it listens on; `.stop()` ends it all."""

    def __init__(self, gm: Gamesmaster, config: MailConfig, host: str, port: int, *, dispatch: bool = True,
                 send: bool = True, imap: bool = False) -> None:
        self.gm = gm
        self.config = config
        self.host = host
        self.sender = Sender(gm.mailroom, config, gm.desk.now)
        self.dispatcher = Dispatcher(gm, config)
        self.loops: list[_Loop] = []
        self.send_loop = _Loop("mail-sender", self.sender.send_due, config.interval) if send else None
        self.dispatch_loop = _Loop("mail-dispatcher", self._dispatch, config.interval) if dispatch else None
        self.intake = Intake(gm, config, wake=self.send_loop.wake if self.send_loop else None)
        self.poller = ImapPoller(self.intake, config) if imap else None
        self.loop = asyncio.new_event_loop()
        self._server: asyncio.AbstractServer | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._serve, args=(host, port), name="mail-smtp", daemon=True)
        self._thread.start()
        self._ready.wait(30)
        if self._error is not None:
            raise self._error
        sockets: list[Any] = list(self._server.sockets) if self._server else []
        self.port = sockets[0].getsockname()[1] if sockets else port
        for lp in (self.send_loop, self.dispatch_loop):
            if lp is not None:
                self.loops.append(lp)
                lp.start()
        if self.poller is not None:
            lp = _Loop("mail-imap", self.poller.poll_once, config.imap_interval)
            self.loops.append(lp)
            lp.start()
        log.info("mail: taking mail for %s on %s:%s", config.address, host, self.port)

    def relay_notice(self) -> str | None:
        """What the GM must be told at start-up when the relay for outgoing mail does not answer (None: it does)."""
        problem = self.sender.relay_problem()
        if problem is None:
            return None
        c = self.config
        return (f"Mail out: no relay answers at {c.relay_host}:{c.relay_port} ({problem}). Sign-in links, "
                "invitations, answers and results wait in the outbox, tried again and again, until one does: "
                "set GAMESMASTER_SMTP_RELAY=HOST:PORT (and GAMESMASTER_SMTP_USER/PASSWORD/TLS if it wants them; "
                "docs/mail.md). The GM console and `gamesmaster mail outbox` show what waits.")

    def gm_notice(self) -> str:
        """Where the GM is told of players' questions, for the start-up message."""
        if self.config.gm_email:
            return f"Questions to the GM: mailed to {self.config.gm_email}, and shown on the GM console."
        return ("Questions to the GM: shown on the GM console; set GAMESMASTER_GM_EMAIL to have each mailed to you "
                "as well (docs/mail.md).")

    def _dispatch(self) -> None:
        counts = self.dispatcher.run_once()
        if any(counts.values()) and self.send_loop is not None:
            self.send_loop.wake()

    def _serve(self, host: str, port: int) -> None:
        asyncio.set_event_loop(self.loop)
        handler = _Handler(self.intake, self.config)

        def factory() -> SMTP:
            return SMTP(handler, data_size_limit=self.config.max_bytes, enable_SMTPUTF8=True,
                        hostname=self.config.domain or "localhost", ident="gamesmaster", loop=self.loop)

        try:
            self._server = self.loop.run_until_complete(self.loop.create_server(factory, host=host, port=port))
        except BaseException as exc:  # noqa: BLE001 - reported to start()'s caller
            self._error = exc
            self._ready.set()
            return
        self._ready.set()
        try:
            self.loop.run_forever()
        finally:
            self._server.close()
            self.loop.run_until_complete(self._server.wait_closed())
            self.loop.close()

    def wake(self) -> None:
        """Run the dispatcher and the sender now (e.g. after a phase was processed)."""
        for lp in self.loops:
            lp.wake()

    def stop(self) -> None:
        for lp in self.loops:
            lp.stop()
        if self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        for lp in self.loops:
            lp.join(10)

    def __enter__(self) -> "MailServer":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start(service: Gamesmaster, host: str | None = None, port: int | None = None, *,
          config: MailConfig | None = None, dispatch: bool = True, send: bool = True,
          imap: bool | None = None) -> MailServer:
    """Start the mail door beside the website; returns a handle whose `.stop()` ends it.

    host and port: where the SMTP intake listens (default 127.0.0.1:2525, or
    GAMESMASTER_MAIL_LISTEN); config: the mail settings (default: from the environment);
    dispatch/send: also mail results and deliver the outbox (default yes); imap: also poll
    the IMAP account (default: when GAMESMASTER_IMAP_HOST is set)."""
    config = config or MailConfig.from_env()
    host = host or config.listen_host
    port = config.listen_port if port is None else int(port)
    if imap is None:
        imap = bool(config.imap_host)
    return MailServer(service, config, host, port, dispatch=dispatch, send=send, imap=imap)
