"""IMAP polling: for a GM whose address is an existing mailbox rather than this server.

`ImapPoller(intake, config).poll_once()` logs in to the configured account (imapclient),
reads every unseen message in the folder, hands each to the same `Intake` the SMTP
server uses, and then marks it seen (or moves it to `imap_done_folder`). A message is
fetched with BODY.PEEK, so one that could not be recorded stays unseen for the next
poll; one recorded but not yet flagged (a crash between the two) is recognised by its
UIDVALIDITY and UID and not answered twice.
"""

from __future__ import annotations

import logging
import ssl
from typing import TYPE_CHECKING, Any

from .config import MailConfig

if TYPE_CHECKING:
    from .intake import Intake

log = logging.getLogger(__name__)


class ImapError(Exception):
    """The IMAP account cannot be read; the message names the problem."""


class ImapPoller:
    def __init__(self, intake: "Intake", config: MailConfig, *, ssl_context: ssl.SSLContext | None = None) -> None:
        if not config.imap_host or not config.imap_user:
            raise ImapError("IMAP polling needs GAMESMASTER_IMAP_HOST and GAMESMASTER_IMAP_USER "
                            "(and GAMESMASTER_IMAP_PASSWORD)")
        self.intake = intake
        self.config = config
        self.ssl_context = ssl_context

    def _client(self) -> Any:
        from imapclient import IMAPClient  # type: ignore[import-untyped]  # the package ships no types

        c = self.config
        try:
            client = IMAPClient(c.imap_host, port=c.imap_port, ssl=c.imap_ssl, ssl_context=self.ssl_context,
                                timeout=30)
            client.login(c.imap_user, c.imap_password or "")
        except Exception as exc:  # noqa: BLE001 - socket, TLS and login errors alike
            raise ImapError(f"IMAP {c.imap_user}@{c.imap_host}:{c.imap_port}: {exc}") from exc
        return client

    def poll_once(self) -> int:
        """Read and answer every unseen message; returns how many were handed to the intake."""
        c = self.config
        client = self._client()
        handled = 0
        try:
            info = client.select_folder(c.imap_folder)
            validity = info.get(b"UIDVALIDITY", 0)
            uids = client.search(["UNSEEN"])
            for uid in sorted(uids):
                data = client.fetch([uid], ["BODY.PEEK[]"]).get(uid, {})
                raw = data.get(b"BODY[]")
                if raw is None:
                    log.warning("IMAP message %s in %s has no body; left unseen", uid, c.imap_folder)
                    continue
                key = f"imap:{c.imap_user}@{c.imap_host}/{c.imap_folder}:{validity}:{uid}"[:200]
                got = self.intake.receive(bytes(raw), None, (), "imap", key)
                handled += 1
                log.info("IMAP message %s: mail %s %s", uid, got.inbox_id, got.status)
                if c.imap_done_folder:
                    try:
                        client.move([uid], c.imap_done_folder)
                        continue
                    except Exception as exc:  # noqa: BLE001 - no MOVE, or no such folder: mark it seen instead
                        log.warning("IMAP: cannot move message %s to %s (%s); marking it seen", uid,
                                    c.imap_done_folder, exc)
                client.add_flags([uid], [b"\\Seen"])
        finally:
            try:
                client.logout()
            except Exception:  # noqa: BLE001
                pass
        return handled
