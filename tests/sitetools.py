"""Shared by the web, security, live and deployment tests: a site on a fresh SQLite store, the
site served on a real socket, Debian's Chromium, and real processes whose output is collected
as it comes."""

from __future__ import annotations

import contextlib
import html
import os
import re
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gamesmaster.gm import Settings
from gamesmaster.store import Store


def open_site(tmp_path, clock, gm_credential: str):
    """A Gamesmaster on a fresh SQLite store and the website's app on it: (gm, app, store)."""
    from gamesmaster.gm import Gamesmaster
    from gamesmaster.web.app import create_app
    from gamesmaster.web.security import SiteSecrets

    store = Store(f"sqlite:///{tmp_path / 'gm.db'}")
    gm = Gamesmaster(store, clock=clock)
    return gm, create_app(gm, SiteSecrets.for_testing(gm_credential)), store


CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"  # screenshots

needs_chromium = pytest.mark.skipif(
    not os.path.exists(CHROMIUM),
    reason=f"the browser tests need Debian's Chromium at {CHROMIUM} "
           "(apt-get install chromium; the README's test command installs it)")


@contextlib.contextmanager
def serving(app, **config) -> Iterator[str]:
    """Serve the app with uvicorn on a free loopback port in a thread; yields its base URL."""
    import uvicorn

    from gamesmaster.serving.site import bind

    sock = bind("127.0.0.1", 0)
    # A page a test left open keeps its table's event stream (web/live.py) going for minutes, and a
    # graceful shutdown waits for it: after a second the stream is cut, as a browser's reload would.
    config.setdefault("timeout_graceful_shutdown", 1)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", **config))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@contextlib.contextmanager
def chromium() -> Iterator[object]:
    """Debian's Chromium, headless, through Playwright (whose own browser download does not work here)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                                          "--disable-component-update", "--no-first-run", "--disable-sync"])
        try:
            yield browser
        finally:
            browser.close()


def site_client(app):
    """A test client that answers errors as the site does instead of raising them."""
    from fastapi.testclient import TestClient

    return TestClient(app, raise_server_exceptions=False)


def csrf(client, url: str = "/") -> str:
    """The CSRF token a page of the site carries (in its csrf-token meta tag)."""
    r = client.get(url)
    m = re.search(r'name="csrf-token" content="([^"]+)"', r.text)
    assert m, r.text[:500]
    return m.group(1)


def post(client, url: str, data: dict, page: str = "/"):
    """Post a form as a browser would: with the CSRF token of `page`, following redirects."""
    return client.post(url, data={**data, "csrf_token": csrf(client, page)}, follow_redirects=True)


def seven_player_game(gm, players: dict[str, str], game_id: str = "club") -> dict[str, str]:
    """A running seven-player game with full press (powers assigned); returns power -> credential."""
    created = gm.setup.create_game(game_id, title="Club game", players=list(players.values()),
                             assign={name: power for power, name in players.items()}, settings=Settings.from_dict({"press": "full"}))
    return {created.powers[name]: secret for name, secret in created.credentials.items()}


class Proc:
    """A process whose output is collected as it comes."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path) -> None:
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                                     cwd=str(cwd))
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:  # type: ignore[union-attr]
            self.lines.append(line)

    @property
    def output(self) -> str:
        return "".join(self.lines)

    def wait_for(self, pattern: str, timeout: float = 60) -> re.Match:
        """Wait until the output matches pattern (the process is killed if it never does)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            m = re.search(pattern, self.output)
            if m:
                return m
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.kill()
        raise AssertionError(f"no {pattern!r} in the output:\n{self.output}")

    def stop(self, timeout: float = 30, sig: int = signal.SIGTERM) -> int | None:
        """Ask the process to stop (SIGTERM, or sig); kill it if it does not; its exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        self.reader.join(timeout=5)
        return self.proc.returncode

    def kill(self) -> None:
        """Kill the process at once."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)


def plain(r) -> str:
    """The page's text as a reader sees it: no tags, entities read, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", r.text)).split())
