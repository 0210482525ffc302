"""Fixtures of the mail tests: a gamesmaster with its mail door running, and a relay sink."""

from __future__ import annotations

import pytest
from mailhelp import Mailroom


@pytest.fixture
def mailroom(tmp_path):
    room = Mailroom(tmp_path)
    yield room
    room.stop()


@pytest.fixture
def make_mailroom(tmp_path):
    rooms = []

    def make(**config) -> Mailroom:  # noqa: ANN003
        room = Mailroom(tmp_path / f"room{len(rooms)}", **config)
        rooms.append(room)
        return room

    yield make
    for room in rooms:
        room.stop()
