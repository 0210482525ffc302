"""The mail door's settings: the config's mail section with the GM credential's hash (docs/mail.md has the table)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..gm import ConfigError, Env, MailSettings, SiteSettings, game_address, hash_secret

MailConfigError = ConfigError  # a mail setting that cannot be used; the message names it


@dataclass(frozen=True)
class MailConfig(MailSettings):
    """Where the gamesmaster's mail comes in and goes out, and whether the GM may act by mail."""

    # The GM credential's hash (from $GAMESMASTER_GM_CREDENTIAL): the GM signs on by mail with it to
    # answer questions; None: the GM does not act by mail.
    gm_credential_hash: str | None = None

    @property
    def local(self) -> str:
        """The local part of the gamesmaster's address, lower case."""
        return self.address.rpartition("@")[0].lower()

    @property
    def domain(self) -> str:
        """The domain of the gamesmaster's address, lower case."""
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
        """These settings with some changed (a command's flags over the environment's)."""
        return replace(self, **changes)  # type: ignore[arg-type]

    @classmethod
    def from_settings(cls, mail: MailSettings, site: SiteSettings) -> "MailConfig":
        """The config's mail section, with the GM credential (from the site's section) hashed for signing on by mail."""
        secret = site.gm_credential or ""
        # only the form the site makes ('gm.' and a secret; the answers mask it as 'gm.****') may act by mail
        hashed = hash_secret(secret) if secret.startswith("gm.") and len(secret) > 7 else None
        return cls(**{name: getattr(mail, name) for name in mail.__dataclass_fields__}, gm_credential_hash=hashed)

    @classmethod
    def from_env(cls, env: Env | None = None) -> "MailConfig":
        """Settings from GAMESMASTER_MAIL_* / GAMESMASTER_SMTP_* / GAMESMASTER_IMAP_* variables (or `env`)."""
        return cls.from_settings(MailSettings.from_environ(env), SiteSettings.from_environ(env))
