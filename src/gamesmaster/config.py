"""The program's settings: every GAMESMASTER_* environment variable, read and checked here only.

`Config.from_environ()` reads them once, where a process starts (`serve`, the worker, the
mail door's commands), and the parts are handed what they need: the store its place, the
site its address and GM credential, the mail door its `MailSettings`, the adjudicator its
test hooks. Each part also has its own reader (`Paths.from_environ()`, ...) for a library
user who never built a Config, so a broken mail variable cannot stop `load_variant`. This
module is the only one that looks at os.environ (tests/test_settings.py holds that); it
uses the standard library only, so every layer but rules may import it. The variables are
listed in docs/settings.md.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Mapping, Self, TypeVar

Env = Mapping[str, str]
N = TypeVar("N", int, float)

DATA = "GAMESMASTER_DATA"
DATABASE_URL = "GAMESMASTER_DATABASE_URL"
SITE_URL = "GAMESMASTER_SITE_URL"
MAIL_ADDRESS = "GAMESMASTER_MAIL_ADDRESS"
GM_CREDENTIAL = "GAMESMASTER_GM_CREDENTIAL"
TEST_PAUSE = "GAMESMASTER_TEST_PAUSE_BEFORE_COMMIT"
TEST_PAUSE_FILE = "GAMESMASTER_TEST_PAUSE_FILE"
TEST_POSTGRES_URL = "TEST_POSTGRES_URL"
DEFAULT_TEST_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


class ConfigError(ValueError):
    """A setting that cannot be used; the message names the variable (or the flag) and says what it wants."""


def _get(env: Env, name: str) -> str | None:
    """A variable's value, None where it is unset or empty (an empty variable means the default)."""
    value = env.get(name)
    return value if value not in (None, "") else None


def _flag(text: str) -> bool:
    return text.strip().lower() in ("1", "yes", "true", "on")


def _number(env: Env, name: str, kind: type[N], default: N) -> N:
    value = _get(env, name)
    if value is None:
        return default
    try:
        return kind(value)
    except ValueError:
        raise ConfigError(f"{name} {value!r} is not a number") from None


def hostport(text: str, default_port: int, what: str) -> tuple[str, int]:
    """HOST, HOST:PORT or [IPv6]:PORT as (host, port); `what` names the variable or flag in the message."""
    text = text.strip()
    if text.startswith("["):  # [::1]:25
        host, _, rest = text[1:].partition("]")
        port = rest.lstrip(":")
    else:
        host, colon, port = text.rpartition(":")
        if not colon:
            host, port = text, ""
    if not host:
        raise ConfigError(f"{what} {text!r}: write HOST or HOST:PORT")
    try:
        return host, int(port) if port else default_port
    except ValueError:
        raise ConfigError(f"{what} {text!r}: the port must be a number") from None


def site_url(text: str, what: str = SITE_URL) -> str:
    """The site's address without its trailing slash; only http(s) makes a link a player can follow."""
    url = text.strip().rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise ConfigError(f"{what} {url!r}: write it as https://host[:port]")
    return url


def child_environ(changes: Mapping[str, str]) -> dict[str, str]:
    """This process's environment with some variables changed, for a process it starts (a web process)."""
    return {**os.environ, **changes}


@dataclass(frozen=True)
class Paths:
    """Where the games are kept: the data directory and the database."""

    data_dir: Path = field(default_factory=lambda: Path.home() / ".local" / "share" / "gamesmaster")  # $GAMESMASTER_DATA
    database_url: str | None = field(default=None, repr=False)  # $GAMESMASTER_DATABASE_URL (may hold a password)

    @classmethod
    def from_environ(cls, env: Env | None = None) -> Self:
        """GAMESMASTER_DATA and GAMESMASTER_DATABASE_URL."""
        env = os.environ if env is None else env
        data = _get(env, DATA)
        url = _get(env, DATABASE_URL)
        return cls(Path(data).expanduser(), url) if data else cls(database_url=url)


@dataclass(frozen=True)
class SiteSettings:
    """What the website needs beyond the store: its public address, the GM's mail address and credential."""

    site_url: str | None = None  # $GAMESMASTER_SITE_URL, for links in mail and notifications
    mail_address: str | None = None  # $GAMESMASTER_MAIL_ADDRESS as given (None: the war room names no address)
    gm_credential: str | None = field(default=None, repr=False)  # $GAMESMASTER_GM_CREDENTIAL: a secret

    @classmethod
    def from_environ(cls, env: Env | None = None) -> Self:
        """GAMESMASTER_SITE_URL, GAMESMASTER_MAIL_ADDRESS and GAMESMASTER_GM_CREDENTIAL."""
        env = os.environ if env is None else env
        url = _get(env, SITE_URL)
        address = (_get(env, MAIL_ADDRESS) or "").strip() or None
        if address is not None and "@" not in address:
            raise ConfigError(f"{MAIL_ADDRESS} {address!r} is not an address (local@domain)")
        return cls(site_url(url) if url and url.strip() else None, address,
                   (_get(env, GM_CREDENTIAL) or "").strip() or None)


@dataclass(frozen=True)
class MailSettings:
    """Where the gamesmaster's mail comes in and goes out (the mail door's MailConfig adds the GM's hash)."""

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
    relay_password: str | None = field(default=None, repr=False)
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
    imap_password: str | None = field(default=None, repr=False)
    imap_folder: str = "INBOX"
    imap_done_folder: str | None = None  # move answered mail there (else it is only marked seen)
    imap_interval: float = 60.0
    # The GM's own address ($GAMESMASTER_GM_EMAIL): told of questions and of phases waiting for the GM's
    # decision (none: the console only).
    gm_email: str | None = None

    @classmethod
    def from_environ(cls, env: Env | None = None) -> "MailSettings":
        """GAMESMASTER_MAIL_* / GAMESMASTER_SMTP_* / GAMESMASTER_IMAP_*, GAMESMASTER_GM_EMAIL and the site's address."""
        env = os.environ if env is None else env
        return MailSettings(**mail_values(env))  # type: ignore[arg-type]  # mail_values checked each value


def mail_values(env: Env) -> dict[str, object]:
    """The mail variables that are set, checked, as MailSettings' fields (what is unset keeps its default)."""
    kw: dict[str, object] = {}
    address = _get(env, MAIL_ADDRESS)
    if address:
        if "@" not in address:
            raise ConfigError(f"{MAIL_ADDRESS} {address!r} is not an address (local@domain)")
        kw["address"] = address.strip()
    gm_email = (_get(env, "GAMESMASTER_GM_EMAIL") or "").strip()
    if gm_email:
        if "@" not in gm_email or any(c in gm_email for c in " ,;<>\r\n"):
            raise ConfigError(f"GAMESMASTER_GM_EMAIL {gm_email[:80]!r} is not one address (local@domain)")
        kw["gm_email"] = gm_email
    texts = {"GAMESMASTER_MAIL_NAME": "name", "GAMESMASTER_IMAP_FOLDER": "imap_folder",
             "GAMESMASTER_IMAP_DONE_FOLDER": "imap_done_folder"}
    kw.update({attr: value for name, attr in texts.items() if (value := _get(env, name))})
    listen = _get(env, "GAMESMASTER_MAIL_LISTEN")
    if listen:
        kw["listen_host"], kw["listen_port"] = hostport(listen, 2525, "GAMESMASTER_MAIL_LISTEN")
    flags = {"GAMESMASTER_MAIL_ACCEPT_ANY": "accept_any", "GAMESMASTER_IMAP_SSL": "imap_ssl",
             "GAMESMASTER_MAIL_MAPS": "maps"}
    kw.update({attr: _flag(value) for name, attr in flags.items() if (value := _get(env, name))})
    relay = _get(env, "GAMESMASTER_SMTP_RELAY")
    if relay:
        kw["relay_host"], kw["relay_port"] = hostport(relay, 25, "GAMESMASTER_SMTP_RELAY")
    tls = (_get(env, "GAMESMASTER_SMTP_TLS") or "").lower()
    if tls:
        if tls not in ("none", "starttls", "ssl"):
            raise ConfigError(f"GAMESMASTER_SMTP_TLS {tls!r}: choose none, starttls or ssl")
        kw["relay_tls"] = tls
        if tls == "ssl" and not relay:
            kw["relay_port"] = 465
    for name, attr in (("GAMESMASTER_SMTP_USER", "relay_user"), ("GAMESMASTER_SMTP_PASSWORD", "relay_password"),
                       ("GAMESMASTER_IMAP_USER", "imap_user"), ("GAMESMASTER_IMAP_PASSWORD", "imap_password")):
        kw[attr] = _get(env, name)
    imap = _get(env, "GAMESMASTER_IMAP_HOST")
    if imap:
        default = 993 if kw.get("imap_ssl", True) else 143
        kw["imap_host"], kw["imap_port"] = hostport(imap, default, "GAMESMASTER_IMAP_HOST")
    defaults = MailSettings()
    numbers = {"GAMESMASTER_MAIL_MAX_BYTES": ("max_bytes", int),
               "GAMESMASTER_SMTP_TIMEOUT": ("relay_timeout", float),
               "GAMESMASTER_MAIL_RETRY_SECONDS": ("retry_base", float),
               "GAMESMASTER_MAIL_RETRY_MAX_SECONDS": ("retry_max", float),
               "GAMESMASTER_MAIL_REMINDER_HOURS": ("reminder_hours", float),
               "GAMESMASTER_MAIL_INTERVAL": ("interval", float),
               "GAMESMASTER_IMAP_INTERVAL": ("imap_interval", float)}
    for name, (attr, kind) in numbers.items():
        if _get(env, name) is not None:
            kw[attr] = _number(env, name, kind, getattr(defaults, attr))
    url = _get(env, SITE_URL)
    if url:
        kw["site_url"] = site_url(url)
    return kw


@dataclass(frozen=True)
class TestHooks:
    """Settings only the tests set: a pause before an adjudication commits, the PostgreSQL server to test on."""

    __test__ = False  # not a pytest test class, whatever its name

    pause_before_commit: float | None = None  # $GAMESMASTER_TEST_PAUSE_BEFORE_COMMIT, seconds
    pause_file: Path | None = None  # $GAMESMASTER_TEST_PAUSE_FILE: written with the pid when the pause begins
    postgres_url: str = DEFAULT_TEST_POSTGRES  # $TEST_POSTGRES_URL

    @classmethod
    def from_environ(cls, env: Env | None = None) -> Self:
        """GAMESMASTER_TEST_PAUSE_BEFORE_COMMIT, GAMESMASTER_TEST_PAUSE_FILE and TEST_POSTGRES_URL."""
        env = os.environ if env is None else env
        pause = _number(env, TEST_PAUSE, float, 0.0) if _get(env, TEST_PAUSE) else None
        marker = _get(env, TEST_PAUSE_FILE)
        return cls(pause, Path(marker) if marker else None,
                   env.get(TEST_POSTGRES_URL, DEFAULT_TEST_POSTGRES))


@dataclass(frozen=True)
class Config:
    """Every setting of the program, read once where it starts; each part is handed its section."""

    paths: Paths = Paths()
    site: SiteSettings = SiteSettings()
    mail: MailSettings = MailSettings()
    hooks: TestHooks = TestHooks()

    @classmethod
    def from_environ(cls, env: Env | None = None) -> Self:
        """Every section from the environment (or `env`); ConfigError names the first variable that is wrong."""
        env = os.environ if env is None else env
        return cls(Paths.from_environ(env), SiteSettings.from_environ(env), MailSettings.from_environ(env),
                   TestHooks.from_environ(env))

    def with_paths(self, data_dir: Path | None = None, database_url: str | None = None) -> Self:
        """The settings with a command's flags (--data, --db) put over the environment's."""
        paths = self.paths
        if data_dir is not None:
            paths = replace(paths, data_dir=data_dir.expanduser())
        if database_url is not None:
            paths = replace(paths, database_url=database_url)
        return replace(self, paths=paths)


def variable_names() -> tuple[str, ...]:
    """Every environment variable the program reads (docs/settings.md lists each with its default)."""
    mail = ("GAMESMASTER_MAIL_NAME", "GAMESMASTER_GM_EMAIL", "GAMESMASTER_MAIL_LISTEN", "GAMESMASTER_MAIL_ACCEPT_ANY",
            "GAMESMASTER_MAIL_MAX_BYTES", "GAMESMASTER_SMTP_RELAY", "GAMESMASTER_SMTP_TLS", "GAMESMASTER_SMTP_USER",
            "GAMESMASTER_SMTP_PASSWORD", "GAMESMASTER_SMTP_TIMEOUT", "GAMESMASTER_MAIL_RETRY_SECONDS",
            "GAMESMASTER_MAIL_RETRY_MAX_SECONDS", "GAMESMASTER_MAIL_REMINDER_HOURS", "GAMESMASTER_MAIL_INTERVAL",
            "GAMESMASTER_MAIL_MAPS", "GAMESMASTER_IMAP_HOST", "GAMESMASTER_IMAP_SSL", "GAMESMASTER_IMAP_USER",
            "GAMESMASTER_IMAP_PASSWORD", "GAMESMASTER_IMAP_FOLDER", "GAMESMASTER_IMAP_DONE_FOLDER",
            "GAMESMASTER_IMAP_INTERVAL")
    return (DATA, DATABASE_URL, SITE_URL, MAIL_ADDRESS, GM_CREDENTIAL, *mail, TEST_PAUSE, TEST_PAUSE_FILE,
            TEST_POSTGRES_URL)


__all__ = ["Config", "ConfigError", "Env", "MailSettings", "Paths", "SiteSettings", "TestHooks", "child_environ",
           "hostport", "mail_values", "site_url", "variable_names"]
