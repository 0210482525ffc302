"""A reader works a game out once per ledger head: the next look costs one small query, and a change
made anywhere (another process on the same store) is seen at once."""

from __future__ import annotations

from sqlalchemy import event

import pytest

from gamesmaster.gm import Forbidden, Gamesmaster

NAMES = ["Ann", "Bob"]


def _statements(store) -> list[str]:
    seen: list[str] = []
    event.listen(store.engine, "before_cursor_execute", lambda conn, cur, sql, *a: seen.append(sql))
    return seen


def test_a_second_look_reads_only_the_head(store, clock):
    gm = Gamesmaster(store, clock)
    gm.setup.create_game("m", players=NAMES, assign={"Ann": "FRANCE", "Bob": "GERMANY"})
    first = gm.games.game("m")
    gm.games.results("m")
    seen = _statements(store)
    again = gm.games.game("m")
    gm.games.results("m")
    gm.press.public_press("m")
    assert again is first
    reads = [s for s in seen if s.lstrip().upper().startswith("SELECT")]
    assert reads and all("head_hash" in s and "state" not in s.split("FROM")[0] for s in reads[:2]), reads


def test_a_change_from_another_process_is_seen_at_once(store, clock):
    reader = Gamesmaster(store, clock)
    writer = Gamesmaster(store, clock)  # another process: its own memo
    made = writer.setup.create_game("m", players=NAMES, assign={"Ann": "FRANCE", "Bob": "GERMANY"})
    assert not reader.games.game("m").power("FRANCE").ordered
    writer.orders.submit_orders("m", "FRANCE", "A Par H", credential=made.credentials["Ann"])
    assert reader.games.game("m").power("FRANCE").ordered
    writer.press.post_press("m", "A word from France", power="FRANCE", credential=made.credentials["Ann"])
    assert [p.text for p in reader.press.public_press("m")][-1] == "A word from France"


def test_a_submission_read_before_the_write_lock_is_read_again_when_the_game_moved(store, clock):
    """Submissions work out who acts and what the orders say before taking the write lock, from the newest
    state the process holds: one made stale by another process must neither refuse a credential that is good
    now nor let one through that is not, and the set is numbered and answered at the head it is written at."""
    one = Gamesmaster(store, clock)
    other = Gamesmaster(store, clock)  # another process, on the same store
    made = one.setup.create_game("m", players=NAMES, assign={"Ann": "FRANCE", "Bob": "GERMANY"})
    ann = made.credentials["Ann"]
    first = one.orders.submit_orders("m", "FRANCE", "A Par H", credential=ann)
    assert first.receipt.number == 1
    # the other process takes a set and gives Ann a new credential: `one` still holds the state before both
    other.orders.submit_orders("m", "FRANCE", "A Par - Bur", credential=ann)
    fresh = other.players.new_credential("m", "Ann", reason="lost")
    with pytest.raises(Forbidden):
        one.orders.submit_orders("m", "FRANCE", "A Mar H", credential=ann)
    third = one.orders.submit_orders("m", "FRANCE", "A Mar - Spa", credential=fresh)
    assert third.receipt.number == 3 and [a.order for a in third.answers] == ["A MAR - SPA"]
    on_record = one.orders.orders_on_record("m", "FRANCE", credential=fresh)
    assert [o.orders for o in on_record] == [("A Mar - Spa",)]
    assert one.record.verify("m").problems == ()


def test_a_set_read_before_the_lock_is_read_again_only_when_the_published_record_moved(store, clock, monkeypatch):
    """When another process's set of orders moved the head, how a set reads still holds (the position and rules
    are as they were) and is not worked out again under the lock; when the other process published a phase
    in between, the set is read at the new position."""
    from gamesmaster.gm import submissions
    one = Gamesmaster(store, clock)
    other = Gamesmaster(store, clock)  # another process, on the same store
    made = one.setup.create_game("m", players=NAMES, assign={"Ann": "FRANCE", "Bob": "GERMANY"})
    ann, bob = made.credentials["Ann"], made.credentials["Bob"]
    one.orders.submit_orders("m", "FRANCE", "A Par - Bur", credential=ann)
    reads: list[str] = []
    real = submissions.check_text
    monkeypatch.setattr(submissions, "check_text", lambda state, power, text: reads.append(text) or real(state, power, text))
    other.orders.submit_orders("m", "GERMANY", "A Ber H", credential=bob)  # the head moves; the position does not
    reads.clear()
    one.orders.submit_orders("m", "FRANCE", "A Par - Gas", credential=ann)
    assert reads == ["A Par - Gas"]  # read once, before the lock
    one.orders.submit_orders("m", "FRANCE", "A Par - Bur", credential=ann)
    other.deadlines.process("m", force=True)  # Spring 1901 published: A Par is now in Burgundy
    taken = one.orders.submit_orders("m", "FRANCE", "A Bur - Mun", credential=ann)  # `one` last saw the spring
    assert taken.phase == "F1901M" and [a.order for a in taken.answers][0] == "A BUR - MUN"
    assert [a.status for a in taken.answers] == ["accepted"]
    assert one.record.verify("m").problems == ()


def test_changes_reads_only_what_came_after_the_entry_asked(store, clock):
    """The mail door asks what happened after an entry: the store is asked for those phases and letters only,
    not for the whole game's to be filtered afterwards."""
    gm = Gamesmaster(store, clock)
    made = gm.setup.create_game("m", players=NAMES, assign={"Ann": "FRANCE", "Bob": "GERMANY"})
    gm.press.post_press("m", "Early word", power="FRANCE", credential=made.credentials["Ann"])
    gm.deadlines.process("m", force=True)
    middle = max(gm.games.changes("m", 0).phases)  # the entry that published the first results
    gm.press.post_press("m", "Later word", power="FRANCE", credential=made.credentials["Ann"])
    everything = gm.games.changes("m", 0)
    seen = _statements(store)
    later = gm.games.changes("m", middle)
    words = lambda c: [p.text for p in c.press.values() if p.text.endswith("word")]  # noqa: E731 - the players' own
    assert words(everything) == ["Early word", "Later word"] and everything.phases
    assert words(later) == ["Later word"] and not later.phases
    asked = [s for s in seen if "ledger_seq >" in s]
    assert len(asked) >= 2, seen  # the phases and the press, each read from that entry on
