"""The source type-checks under --strict: the typed boundaries (gm's views, store's records) hold in every module."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "gamesmaster"


def test_mypy_finds_no_error_in_the_source(tmp_path: Path) -> None:
    # A cache of its own, so that parallel runs and old caches cannot hide or invent an error.
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), str(SRC)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
