"""`gamesmaster serve`, as the README's first command runs it: start, fetch the demo game, stop."""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import signal
import smtplib
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from sitetools import Proc

ROOT = Path(__file__).resolve().parents[2]


def quick_start() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## Quick start", 1)[1].split("```", 2)[1]
    return [line for line in block.splitlines() if line.strip()]


def serve_argv(extra: list[str]) -> list[str]:
    """The README's first command's `gamesmaster serve ...` part, run with this Python."""
    first = quick_start()[0]
    last = first.split("&&")[-1].strip()
    words = shlex.split(last)
    assert words[0].endswith("gamesmaster") and words[1] == "serve", first
    return [sys.executable, "-c", "import sys; from gamesmaster.cli import main; sys.exit(main())", *words[1:], *extra]


def test_readme_first_line_installs_and_serves():
    first = quick_start()[0]
    assert first.startswith("python3 -m venv .venv && ")
    assert ".venv/bin/pip install -q -e . " in first
    assert first.rstrip().endswith("gamesmaster serve")
    assert "playwright" not in first and "chromium" not in first and "[test]" not in first


def start(argv: list[str], env: dict[str, str]) -> tuple[Proc, str]:
    """Start `gamesmaster serve` and wait until it listens; returns it and its base URL."""
    server = Proc(argv, env, Path(env["HOME"]))
    base = server.wait_for(r"serving (http://\S+)", timeout=90).group(1)
    server.wait_for("Press Ctrl-C", timeout=90)
    return server, base


def fetch(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.status, r.read().decode("utf-8")


@pytest.fixture
def env(tmp_path):
    e = {k: v for k, v in os.environ.items() if not k.startswith("GAMESMASTER_")}
    e["HOME"] = str(tmp_path)
    e["PYTHONUNBUFFERED"] = "1"
    return e


def test_serve_with_the_demo_then_stop(env, tmp_path):
    data = tmp_path / "data"
    server, base = start(serve_argv(["--port", "0", "--data", str(data), "--no-mail", "--worker-interval", "1"]), env)
    try:
        out = server.output
        assert re.search(r"GM credential \(for .*/gm\): gm\.\S+", out)
        assert len(re.findall(r"sample-1971 \w+\s+war room credential: \d+\.\S+", out)) == 7
        status, page = fetch(base + "/games/sample-1971")
        assert status == 200
        assert "rulebook" in page and "<svg" in page and "Spring 1903 movement" in page
        status, page = fetch(base + "/api/games")
        assert status == 200 and '"sample-1971"' in page
    finally:
        code = server.stop(sig=signal.SIGTERM)
    assert code == 0, server.output
    assert "gamesmaster stopped." in server.output
    creds = data / "credentials.txt"
    assert creds.exists() and (creds.stat().st_mode & 0o777) == 0o600
    assert "gm." in creds.read_text()
    assert "gm." not in (data / "web.json").read_text().replace("gm.test", "")  # only the hash is kept

    # again on the same data, with the mail intake: no second demo, the credential is not shown
    # again; Ctrl-C stops it
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        smtp_port = s.getsockname()[1]
    server, base = start(serve_argv(["--port", "0", "--data", str(data), "--smtp-port", str(smtp_port)]), env)
    try:
        assert "Loading the demo" not in server.output and "as printed when" in server.output
        status, page = fetch(base + "/")
        assert status == 200 and page.count('href="/games/sample-1971"') == 1
        if importlib.util.find_spec("gamesmaster.mail") is not None:
            assert f"Mail intake: SMTP on 127.0.0.1:{smtp_port}" in server.output
            with smtplib.SMTP("127.0.0.1", smtp_port, timeout=30) as smtp:
                assert smtp.noop()[0] == 250
    finally:
        code = server.stop(sig=signal.SIGINT)
    assert code == 0 and "gamesmaster stopped." in server.output


def test_serve_refuses_a_port_in_use(env, tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        r = subprocess.run(serve_argv(["--port", str(port), "--data", str(tmp_path / "d"), "--no-mail", "--no-demo"]),
                           capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in r.stderr and "Traceback" not in r.stderr


def test_the_deadline_worker_processes_due_games(site_gm, game, clock):
    import io

    from gamesmaster.serving.worker import Worker
    out = io.StringIO()
    clock.advance(days=4)
    worker = Worker(site_gm, 0.05, out)
    worker.start()
    try:
        end = time.monotonic() + 30
        while "adjudicated" not in out.getvalue() and time.monotonic() < end:
            time.sleep(0.05)
    finally:
        worker.stop()
    assert "deadline: club: S1901M adjudicated, next F1901M" in out.getvalue()
    assert not worker.is_alive()


def test_mail_intake_is_started_only_if_installed(monkeypatch, site_gm):
    import io
    import types

    from gamesmaster.serving import site as server
    calls = []
    fake = types.ModuleType("gamesmaster.mail.server")
    fake.start = lambda gm, host, port: calls.append((gm, host, port)) or types.SimpleNamespace(stop=lambda: calls.append("stop"))
    monkeypatch.setattr(server.importlib.util, "find_spec", lambda name: object())
    monkeypatch.setattr(server.importlib, "import_module", lambda name: fake)
    handle = server.start_mail(site_gm, "127.0.0.1", 2599, io.StringIO())
    server.stop_mail(handle)
    assert calls == [(site_gm, "127.0.0.1", 2599), "stop"]

    def missing(name):
        raise ModuleNotFoundError(name)
    monkeypatch.setattr(server.importlib.util, "find_spec", missing)
    assert server.start_mail(site_gm, "127.0.0.1", 2599, io.StringIO()) is None


def _children(pid: int) -> list[int]:
    """The processes whose parent is pid (from /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def _gone(pids: list[int], timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if not any(Path(f"/proc/{p}").exists() and "Z" not in (Path(f"/proc/{p}/stat").read_text().split(")")[1][:3])
                   for p in pids):
            return True
        time.sleep(0.2)
    return False


def test_several_web_processes_share_the_port_and_end_with_the_first(env, tmp_path):
    """--web-processes 3: three processes answer on one port; stopped together, and when the first
    is killed outright the others stop by themselves."""
    argv = serve_argv(["--port", "0", "--data", str(tmp_path / "d"), "--no-mail", "--web-processes", "3"])
    server, base = start(argv, env)
    try:
        assert "Web processes: 3" in server.output
        kids = _children(server.proc.pid)
        assert len(kids) == 2, server.output
        assert all(fetch(base + "/api/games")[0] == 200 for _ in range(30))
    finally:
        code = server.stop(sig=signal.SIGTERM)
    assert code == 0 and _gone(kids, 30), server.output

    server, base = start(argv, env)
    kids = _children(server.proc.pid)
    assert len(kids) == 2
    server.proc.kill()  # no chance to stop them
    server.proc.wait(30)
    assert _gone(kids, 30)
