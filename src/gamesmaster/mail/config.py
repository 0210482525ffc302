"""The mail door's settings, from the environment (see docs/mail.md for the table)."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Mapping

from ..gm import game_address, hash_secret


class MailConfigError(ValueError):
    """A mail setting that cannot be used; the message names it."""


def _hostport(text: str, default_port: int, what: str) -> tuple[str, int]:
    text = text.strip()
    if text.startswith("["):  # [::1]:25
        host, _, rest = text[1:].partition("]")
        port = rest.lstrip(":")
    else:
        host, colon, port = text.rpartition(":")
        if not colon:
            host, port = text, ""
    if not host:
        raise MailConfigError(f"{what} {text!r}: write HOST or HOST:PORT")
    try:
        return host, int(port) if port else default_port
    except ValueError:
        raise MailConfigError(f"{what} {text!r}: the port must be a number") from None


def _bool(text: str) -> bool:
    return text.strip().lower() in ("1", "yes", "true", "on")


@dataclass(frozen=True)
class MailConfig:
    """Where the gamesmaster's mail comes in and goes out."""

    address: str = "gamesmaster@localhost"  # the GM's official address; GAME's address is local+GAME@domain
    name: str = "Gamesmaster"
    listen_host: str = "127.0.0.1"
    listen_port: int = 2525
    accept_any: bool = False  # take mail for any recipient (not only the GM's address)
    max_bytes: int = 4 * 1024 * 1024  # a player's mail is text: 4 MB leaves room for a map or two quoted back
    relay_host: str = "127.0.0.1"
    relay_port: int = 25
    relay_tls: str = "none"  # none, starttls, ssl
    relay_user: str | None = None
    relay_password: str | None = None
    relay_timeout: float = 30.0
    retry_base: float = 60.0  # seconds before the first retry; doubles each time
    retry_max: float = 3600.0  # the longest wait between two tries
    permanent_tries: int = 5  # a 5xx refusal is tried this often before the mail is held as failed
    reminder_hours: float = 24.0  # remind powers without orders this long before the deadline (0: never)
    interval: float = 10.0  # seconds between two passes of the dispatcher and the sender
    maps: bool = True  # attach the map (PNG) to results
    site_url: str | None = None  # the website's address, for links in players' notifications
    imap_host: str | None = None
    imap_port: int = 993
    imap_ssl: bool = True
    imap_user: str | None = None
    imap_password: str | None = None
    imap_folder: str = "INBOX"
    imap_done_folder: str | None = None  # move answered mail there (else it is only marked seen)
    imap_interval: float = 60.0
    # The GM credential's hash (from $GAMESMASTER_GM_CREDENTIAL): the GM signs on by mail with it to
    # answer questions; None: the GM does not act by mail.
    gm_credential_hash: str | None = None
    # The GM's own address ($GAMESMASTER_GM_EMAIL): told of questions and of phases waiting for the GM's
    # decision (none: the console only).
    gm_email: str | None = None

    @property
    def local(self) -> str:
        return self.address.rpartition("@")[0].lower()

    @property
    def domain(self) -> str:
        return self.address.rpartition("@")[2].lower()

    def game_address(self, game: str) -> str:
        """The game's own address: gamesmaster+GAME@domain."""
        return game_address(self.address, game)

    def accepts(self, address: str) -> tuple[bool, str | None]:
        """Whether mail to this address is ours, and the game its +tag names (if any)."""
        local, at, domain = address.strip().strip("<>").rpartition("@")
        if not at:
            return self.accept_any, None
        base, plus, tag = local.partition("+")
        ours = base.lower() == self.local and domain.lower() == self.domain
        if not ours:
            return self.accept_any, None
        return True, tag.lower() or None

    def with_(self, **changes: object) -> "MailConfig":
        return replace(self, **changes)  # type: ignore[arg-type]

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> "MailConfig":
        """Settings from GAMESMASTER_MAIL_* / GAMESMASTER_SMTP_* / GAMESMASTER_IMAP_* variables."""
        env = os.environ if env is None else env
        kw: dict[str, object] = {}

        def get(name: str) -> str | None:
            value = env.get(name)
            return value if value not in (None, "") else None

        if get("GAMESMASTER_MAIL_ADDRESS"):
            address = get("GAMESMASTER_MAIL_ADDRESS")
            assert address is not None
            if "@" not in address:
                raise MailConfigError(f"GAMESMASTER_MAIL_ADDRESS {address!r} is not an address (local@domain)")
            kw["address"] = address.strip()
        if get("GAMESMASTER_GM_EMAIL"):
            gm_email = (get("GAMESMASTER_GM_EMAIL") or "").strip()
            if "@" not in gm_email or any(c in gm_email for c in " ,;<>\r\n"):
                raise MailConfigError(f"GAMESMASTER_GM_EMAIL {gm_email[:80]!r} is not one address (local@domain)")
            kw["gm_email"] = gm_email
        if get("GAMESMASTER_MAIL_NAME"):
            kw["name"] = get("GAMESMASTER_MAIL_NAME")
        if get("GAMESMASTER_MAIL_LISTEN"):
            kw["listen_host"], kw["listen_port"] = _hostport(get("GAMESMASTER_MAIL_LISTEN") or "", 2525,
                                                             "GAMESMASTER_MAIL_LISTEN")
        if get("GAMESMASTER_MAIL_ACCEPT_ANY"):
            kw["accept_any"] = _bool(get("GAMESMASTER_MAIL_ACCEPT_ANY") or "")
        if get("GAMESMASTER_SMTP_RELAY"):
            kw["relay_host"], kw["relay_port"] = _hostport(get("GAMESMASTER_SMTP_RELAY") or "", 25,
                                                           "GAMESMASTER_SMTP_RELAY")
        if get("GAMESMASTER_SMTP_TLS"):
            tls = (get("GAMESMASTER_SMTP_TLS") or "").lower()
            if tls not in ("none", "starttls", "ssl"):
                raise MailConfigError(f"GAMESMASTER_SMTP_TLS {tls!r}: choose none, starttls or ssl")
            kw["relay_tls"] = tls
            if tls == "ssl" and not get("GAMESMASTER_SMTP_RELAY"):
                kw["relay_port"] = 465
        kw["relay_user"] = get("GAMESMASTER_SMTP_USER")
        kw["relay_password"] = get("GAMESMASTER_SMTP_PASSWORD")
        kw["imap_user"] = get("GAMESMASTER_IMAP_USER")
        kw["imap_password"] = get("GAMESMASTER_IMAP_PASSWORD")
        if get("GAMESMASTER_IMAP_SSL"):
            kw["imap_ssl"] = _bool(get("GAMESMASTER_IMAP_SSL") or "")
        if get("GAMESMASTER_IMAP_HOST"):
            default = 993 if kw.get("imap_ssl", True) else 143
            kw["imap_host"], kw["imap_port"] = _hostport(get("GAMESMASTER_IMAP_HOST") or "", default,
                                                         "GAMESMASTER_IMAP_HOST")
        if get("GAMESMASTER_IMAP_FOLDER"):
            kw["imap_folder"] = get("GAMESMASTER_IMAP_FOLDER")
        if get("GAMESMASTER_IMAP_DONE_FOLDER"):
            kw["imap_done_folder"] = get("GAMESMASTER_IMAP_DONE_FOLDER")
        numbers = {"GAMESMASTER_MAIL_MAX_BYTES": ("max_bytes", int),
                   "GAMESMASTER_SMTP_TIMEOUT": ("relay_timeout", float),
                   "GAMESMASTER_MAIL_RETRY_SECONDS": ("retry_base", float),
                   "GAMESMASTER_MAIL_RETRY_MAX_SECONDS": ("retry_max", float),
                   "GAMESMASTER_MAIL_REMINDER_HOURS": ("reminder_hours", float),
                   "GAMESMASTER_MAIL_INTERVAL": ("interval", float),
                   "GAMESMASTER_IMAP_INTERVAL": ("imap_interval", float)}
        for name, (attr, kind) in numbers.items():
            value = get(name)
            if value is not None:
                try:
                    kw[attr] = kind(value)
                except ValueError:
                    raise MailConfigError(f"{name} {value!r} is not a number") from None
        gm_secret = (get("GAMESMASTER_GM_CREDENTIAL") or "").strip()
        if gm_secret.startswith("gm.") and len(gm_secret) > 7:  # the form the answers mask ('gm.****')
            kw["gm_credential_hash"] = hash_secret(gm_secret)
        if get("GAMESMASTER_SITE_URL"):
            url = (get("GAMESMASTER_SITE_URL") or "").rstrip("/")
            if not url.startswith(("http://", "https://")):
                raise MailConfigError(f"GAMESMASTER_SITE_URL {url!r}: write it as https://host[:port]")
            kw["site_url"] = url
        if get("GAMESMASTER_MAIL_MAPS"):
            kw["maps"] = _bool(get("GAMESMASTER_MAIL_MAPS") or "")
        return cls(**kw)  # type: ignore[arg-type]
