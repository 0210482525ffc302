"""Gamesmasters on fresh stores for the DAIDE door's tests (the door itself: doortools)."""

from __future__ import annotations

import pytest

from gamesmaster.gm import Gamesmaster


@pytest.fixture
def gm(store, clock) -> Gamesmaster:
    return Gamesmaster(store, clock)


@pytest.fixture
def sqlite_gm(sqlite_store, clock) -> Gamesmaster:
    return Gamesmaster(sqlite_store, clock)
