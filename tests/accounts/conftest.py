"""Fixtures of the account tests: the site and the mail door on one gamesmaster, with a relay sink that
catches what the site mails (sign-in links, invitations, notifications) on loopback."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mail"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from accounttools import Site  # noqa: E402


@pytest.fixture
def site(tmp_path):
    s = Site(tmp_path)
    yield s
    s.stop()
