"""The `diplomacy` package (PyPI 1.1.2) in a virtualenv of its own, made once and kept in a cache directory.

The package is the reference reader of saved games; it cannot live in gamesmaster's own
environment (it pins old dependencies), so the tests run it as a separate interpreter,
the way bench/setup_venv.sh does. The venv is made at most once per machine (a file
lock keeps parallel test workers from making it twice) under
$GAMESMASTER_TEST_CACHE or ~/.cache/gamesmaster-tests; a bench/.venv-diplomacy that is
already there is used as it is. The tests that need it are skipped, saying so, only
when PyPI cannot be reached to make it.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import urllib.request
import venv
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REQUIREMENTS = ROOT / "bench" / "requirements-diplomacy.txt"
READER = Path(__file__).with_name("diplomacy_reads.py")
PYPI = "https://pypi.org/simple/diplomacy/"


def cache_dir() -> Path:
    """Where the venv is kept between test sessions."""
    env = os.environ.get("GAMESMASTER_TEST_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "gamesmaster-tests"


def _works(python: Path) -> bool:
    if not python.exists():
        return False
    check = subprocess.run([str(python), "-c", "import diplomacy.version as v; assert v.PACKAGE_VERSION == '1.1.2'"],
                           capture_output=True, timeout=120)
    return check.returncode == 0


def pypi_problem() -> str | None:
    """Why PyPI cannot be reached (None: it can)."""
    try:
        with urllib.request.urlopen(PYPI, timeout=15) as answer:
            answer.read(64)
        return None
    except OSError as exc:
        return f"PyPI ({PYPI}) cannot be reached to install the diplomacy package: {exc}"


@cache  # found once a session: each look starts the package's interpreter (1-2 s); a skip is not kept
def diplomacy_python() -> Path:
    """The interpreter of a venv with diplomacy 1.1.2, made if need be; skips the test if PyPI is out of reach."""
    bench = ROOT / "bench" / ".venv-diplomacy" / "bin" / "python"
    if _works(bench):
        return bench
    home = cache_dir()
    home.mkdir(parents=True, exist_ok=True)
    target = home / "venv-diplomacy-1.1.2"
    python = target / "bin" / "python"
    with open(home / "venv-diplomacy.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one maker; the other workers wait and then find it made
        if _works(python):
            return python
        problem = pypi_problem()
        if problem:
            pytest.skip(problem)
        venv.EnvBuilder(with_pip=True, clear=True).create(target)
        made = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                               "-r", str(REQUIREMENTS)], capture_output=True, text=True, timeout=900)
        if made.returncode != 0 or not _works(python):
            problem = pypi_problem()
            if problem:
                pytest.skip(problem)
            pytest.fail(f"installing the diplomacy package failed:\n{made.stderr[-3000:]}")
    return python


def package_reads(python: Path, path: Path) -> dict:
    """What the diplomacy package makes of a saved game file (see diplomacy_reads.py)."""
    done = subprocess.run([str(python), str(READER), str(path)], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONWARNINGS": "ignore"})
    assert done.returncode == 0, f"the diplomacy package could not load {path}:\n{done.stderr[-3000:]}"
    return json.loads(done.stdout)


__all__ = ["diplomacy_python", "package_reads"]
