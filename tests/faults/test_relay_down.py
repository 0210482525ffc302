"""The outgoing mail relay down when the results are published: the results mails wait in the
outbox with the relay's error and are delivered, once each, when the relay returns.
(tests/mail already proves this for answers and reminders; this adds the results.)"""

from __future__ import annotations

import sys
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mail"))

from mailhelp import NAMES, POWERS, Mailroom, address  # noqa: E402

from gamesmaster.store.mailbox import MailRecords  # noqa: E402


def test_results_wait_for_the_relay_and_are_delivered_once(tmp_path):
    room = Mailroom(tmp_path, relay_port=1, by_hand=True)  # nothing listens on port 1: every send fails
    try:
        created = room.gm.setup.create_game("relay", players=NAMES, assign=dict(zip(NAMES, POWERS)))
        room.server.dispatcher.run_once()
        creds = {power: created.credentials[name] for name, power in zip(NAMES, POWERS)}
        for name, power in zip(NAMES, POWERS):
            room.send(address(name), f"SIGNON relay {power.capitalize()} {creds[power]}\n")
        room.clock.set(room.gm.games.game("relay").deadline + timedelta(minutes=1))
        assert [p.phase for p in room.gm.deadlines.process_due()] == ["S1901M"]
        room.server.dispatcher.run_once()
        room.server.sender.send_due()
        with room.store.connect(write=False) as conn:
            rows = MailRecords(conn).outbox()
        results = [r for r in rows if r.kind == "results"]
        assert results and all(r.status == "queued" and r.attempts >= 1 and r.last_error for r in rows)
        assert room.sink.caught == []
        # the relay comes back
        room.server.sender.config = room.config.with_(relay_port=room.sink.port)
        room.clock.advance(hours=2)
        room.server.sender.send_due()
        for name in NAMES:
            room.sink.wait(address(name), "Spring 1901")
        room.clock.advance(hours=2)
        room.server.sender.send_due()
        room.server.dispatcher.run_once()  # nothing queued twice
        with room.store.connect(write=False) as conn:
            counts = MailRecords(conn).outbox_counts()
        assert counts == {"sent": len(rows)}, counts
        got = [(tuple(c.rcpt_tos), c.subject) for c in room.sink.caught]
        assert len(got) == len(set(got)) == len(rows)  # each mail delivered once
    finally:
        room.stop()
