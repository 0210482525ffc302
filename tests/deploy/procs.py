"""Real gamesmaster processes for the deployment and fault tests: web processes on free ports
(port 0, the address read from their output) and deadline workers, all on one database."""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from sitetools import Proc

GM_CREDENTIAL = "gm.deploy-test-credential-0123"
CLI = [sys.executable, "-m", "gamesmaster.cli"]


def env_for(url: str, home: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if not k.startswith("GAMESMASTER_")}
    e.update({"HOME": str(home), "PYTHONUNBUFFERED": "1", "GAMESMASTER_DATABASE_URL": url,
              "GAMESMASTER_GM_CREDENTIAL": GM_CREDENTIAL})
    e.update(extra or {})
    return e


def web(url: str, data: Path, extra_env: dict[str, str] | None = None, port: int = 0) -> tuple[Proc, str]:
    """A web process without a worker (`gamesmaster serve --no-worker`); returns it and its base URL."""
    p = Proc([*CLI, "serve", "--port", str(port), "--data", str(data), "--no-worker", "--no-mail", "--no-demo"],
             env_for(url, data.parent, extra_env), data.parent)
    base = p.wait_for(r"serving (http://\S+)").group(1)
    p.wait_for("Press Ctrl-C")
    return p, base


def worker(url: str, home: Path, interval: float = 0.3, extra_env: dict[str, str] | None = None) -> Proc:
    return Proc([*CLI, "worker", "--db", url, "--interval", str(interval)], env_for(url, home, extra_env), home)


def call(method: str, url: str, body: Any = None, credential: str | None = None, timeout: float = 30) -> tuple[int, Any]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if credential:
        req.add_header("Authorization", f"Bearer {credential}")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            raw = r.read()
            return r.status, json.loads(raw) if r.headers.get("content-type", "").startswith("application/json") else raw
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        try:
            return exc.code, json.loads(raw)
        except ValueError:
            return exc.code, raw
