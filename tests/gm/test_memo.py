"""A reader works a game out once per ledger head: the next look costs one small query, and a change
made anywhere (another process on the same store) is seen at once."""

from __future__ import annotations

from sqlalchemy import event

from gamesmaster.gm import Gamesmaster

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
