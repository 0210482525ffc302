"""One typed settings object: every variable read in gamesmaster.config, checked there, handed to the parts."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from gamesmaster.config import Config, ConfigError, MailSettings, Paths, SiteSettings, TestHooks, variable_names
from gamesmaster.mail.config import MailConfig
from gamesmaster.store import default_url
from gamesmaster.variants.loader import installed_dir

SRC = Path(__file__).resolve().parents[1] / "src" / "gamesmaster"
DOCS = Path(__file__).resolve().parents[1] / "docs"


def _reads_environment(path: Path) -> list[int]:
    """Lines of a source file that touch os.environ or os.getenv (by attribute or by name)."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv", "environb", "putenv"):
            lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module == "os" and any(
                a.name in ("environ", "getenv", "environb") for a in node.names):
            lines.append(node.lineno)
    return lines


def test_only_the_settings_module_reads_the_environment():
    found = {str(p.relative_to(SRC)): lines for p in sorted(SRC.rglob("*.py")) if (lines := _reads_environment(p))}
    assert set(found) == {"config.py"}, found


def test_the_check_sees_a_read(tmp_path):
    """The walk above finds both spellings, so an empty answer means something."""
    probe = tmp_path / "probe.py"
    probe.write_text("import os\nfrom os import getenv\nx = os.environ.get('A')\n", encoding="utf-8")
    assert sorted(_reads_environment(probe)) == [2, 3]


def test_every_variable_is_documented():
    text = (DOCS / "settings.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"`((?:GAMESMASTER|TEST)_[A-Z_]+)`", text))
    assert set(variable_names()) <= listed
    assert len(variable_names()) == len(set(variable_names())) >= 28
    code = (SRC / "config.py").read_text(encoding="utf-8")
    assert {n for n in re.findall(r'"((?:GAMESMASTER|TEST)_[A-Z_]+)"', code)} == set(variable_names())


def test_defaults_without_any_variable(tmp_path):
    c = Config.from_environ({})
    assert c.paths.data_dir == Path.home() / ".local" / "share" / "gamesmaster"
    assert c.paths.database_url is None
    assert c.site == SiteSettings() and c.mail == MailSettings() and c.hooks == TestHooks()
    assert default_url(paths=c.paths) == f"sqlite:///{c.paths.data_dir / 'gamesmaster.db'}"


def test_every_section_reads_its_variables(tmp_path):
    env = {"GAMESMASTER_DATA": str(tmp_path), "GAMESMASTER_DATABASE_URL": "postgresql://u:pw@h/db",
           "GAMESMASTER_SITE_URL": "https://club.example/", "GAMESMASTER_MAIL_ADDRESS": "gm@club.example",
           "GAMESMASTER_GM_CREDENTIAL": "gm.a-long-secret", "GAMESMASTER_SMTP_RELAY": "[::1]:587",
           "GAMESMASTER_SMTP_TLS": "starttls", "GAMESMASTER_IMAP_SSL": "no", "GAMESMASTER_IMAP_HOST": "imap.example",
           "GAMESMASTER_MAIL_REMINDER_HOURS": "6", "GAMESMASTER_MAIL_MAPS": "off",
           "GAMESMASTER_TEST_PAUSE_BEFORE_COMMIT": "0.5", "TEST_POSTGRES_URL": "postgresql://x@y/z"}
    c = Config.from_environ(env)
    assert c.paths == Paths(tmp_path, "postgresql://u:pw@h/db")
    assert c.site.site_url == "https://club.example" and c.site.mail_address == "gm@club.example"
    assert c.site.gm_credential == "gm.a-long-secret"
    assert (c.mail.relay_host, c.mail.relay_port, c.mail.relay_tls) == ("::1", 587, "starttls")
    assert (c.mail.imap_host, c.mail.imap_port, c.mail.imap_ssl) == ("imap.example", 143, False)
    assert c.mail.reminder_hours == 6.0 and c.mail.maps is False and c.mail.site_url == "https://club.example"
    assert c.hooks == TestHooks(0.5, None, "postgresql://x@y/z")
    # secrets stay out of what a log or a traceback would print
    assert "a-long-secret" not in repr(c) and "pw@" not in repr(c)
    mail = MailConfig.from_settings(c.mail, c.site)
    assert mail.gm_credential_hash and mail.gm_credential_hash.startswith("pbkdf2_sha256$")
    assert mail.game_address("club7") == "gm+club7@club.example"


@pytest.mark.parametrize("name, value, says", [
    ("GAMESMASTER_SMTP_TLS", "maybe", "choose none, starttls or ssl"),
    ("GAMESMASTER_MAIL_INTERVAL", "soon", "is not a number"),
    ("GAMESMASTER_SITE_URL", "ftp://club.example", "https://host"),
    ("GAMESMASTER_MAIL_ADDRESS", "nobody", "is not an address"),
    ("GAMESMASTER_MAIL_LISTEN", "host:port", "the port must be a number"),
    ("GAMESMASTER_TEST_PAUSE_BEFORE_COMMIT", "a while", "is not a number"),
])
def test_a_wrong_value_is_refused_naming_its_variable(name, value, says):
    with pytest.raises(ConfigError) as caught:
        Config.from_environ({name: value})
    assert name in str(caught.value) and says in str(caught.value)


def test_flags_are_put_over_the_environment(tmp_path):
    c = Config.from_environ({"GAMESMASTER_DATA": str(tmp_path / "env")}).with_paths(data_dir=tmp_path / "flag")
    assert c.paths.data_dir == tmp_path / "flag"


def test_library_readers_still_follow_the_environment(tmp_path, monkeypatch):
    """load_variant and Store() without a Config go on reading the variables, at call time."""
    monkeypatch.setenv("GAMESMASTER_DATA", str(tmp_path))
    monkeypatch.delenv("GAMESMASTER_DATABASE_URL", raising=False)
    assert installed_dir() == tmp_path / "variants"
    assert default_url() == f"sqlite:///{tmp_path / 'gamesmaster.db'}"


def test_the_site_is_handed_its_settings(tmp_path, monkeypatch):
    """create_app takes its section from the caller: what the environment says later is not read."""
    from gamesmaster.gm import Gamesmaster
    from gamesmaster.store import Store
    from gamesmaster.web.app import create_app
    from gamesmaster.web.security import load_secrets
    monkeypatch.setenv("GAMESMASTER_SITE_URL", "https://from-the-environment.example")
    site = SiteSettings(site_url="https://handed.example", mail_address="gm@handed.example",
                        gm_credential="gm.handed-secret-1")
    gm = Gamesmaster(Store(f"sqlite:///{tmp_path / 'g.db'}"))
    try:
        secrets = load_secrets(tmp_path, site=site)
        app = create_app(gm, secrets, settings=site)
        assert app.state.site_url == "https://handed.example"
        assert app.state.mail_address == "gm@handed.example"
        assert secrets.new_gm_credential is None  # the handed credential is the GM's: none was made
    finally:
        gm.close()
