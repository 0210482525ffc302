"""Accounts under abuse: odd numbers, guessed passwords, timing of the link form, notifications that tell
nothing of others, and a badge that costs by the account's own seats."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("upto", [str(2 ** 63), "9" * 5000, "²"])
def test_marking_notifications_read_up_to_an_odd_number_is_a_400(site, upto):
    c = site.sign_up("ann@players.test", "Ann")
    r = site.post(c, "/account/notifications/read", {"upto": upto}, page="/account/notifications")
    assert r.status_code == 400 and "upto" in r.text, (r.status_code, r.text[:300])


def _claimed(site, game: str, credential: str, address: str, name: str):
    c = site.sign_up(address, name)
    r = site.post(c, "/account/claim", {"game": game, "credential": credential})
    assert "now in your account" in r.text, r.text[:500]
    return c


def test_notifications_are_numbered_per_account_and_reach_every_power_of_a_seat(site):
    """Ann plays two powers (four players on the standard map); Bob and Cat write each other privately.
    Their letters leave no gap in Ann's numbers, and a letter to Ann's second power reaches her."""
    created = site.gm.create_game("club", variant="standard-4", players=["Ann", "Bob", "Cat", "Dan"], seed=5)
    first, second = created.commands["Ann"] if len(created.commands["Ann"]) == 2 else ("", "")
    assert second, created.commands
    bob_power, cat_power = created.commands["Bob"][0], created.commands["Cat"][0]
    ann = _claimed(site, "club", created.credentials["Ann"], "ann@players.test", "Ann")
    bob = _claimed(site, "club", created.credentials["Bob"], "bob@players.test", "Bob")
    site.gm.post_press("club", "to the first", power=bob_power, to=[first], by_gm=True)
    for i in range(3):  # private letters and answers between Bob and Cat, which Ann must not learn of
        site.gm.post_press("club", f"secret {i}", power=cat_power, to=[bob_power], by_gm=True)
        site.gm.post_press("club", f"answer {i}", power=bob_power, to=[cat_power], by_gm=True)
        bob.get("/account/notifications.json")  # Bob's notifications are made between Ann's
    site.gm.post_press("club", "to the second", power=bob_power, to=[second], by_gm=True)
    doc = ann.get("/account/notifications.json").json()
    press = [n for n in doc["latest"] if n["kind"] == "press" and "to you" in n["subject"]]
    assert len(press) == 2, doc  # to each of her powers
    numbers = [n["number"] for n in doc["latest"]]
    assert numbers == list(range(len(numbers), 0, -1)), numbers  # ..., 3, 2, 1: no gap
    assert "id" not in doc["latest"][0]
    # Marking read by her own numbers.
    r = site.post(ann, "/account/notifications/read", {"upto": str(numbers[-1])}, page="/account/notifications")
    assert r.status_code == 200
    assert ann.get("/account/notifications.json").json()["unread"] == len(numbers) - 1
    site.post(ann, "/account/notifications/read", {"upto": str(numbers[0])}, page="/account/notifications")
    assert ann.get("/account/notifications.json").json()["unread"] == 0


def _reads(gm) -> list[str]:
    """Record the games whose state the gamesmaster reads from now on."""
    read: list[str] = []
    original = gm.snapshot

    def snapshot(rec, game_id):
        read.append(game_id)
        return original(rec, game_id)

    gm.snapshot = snapshot
    return read


def test_the_badge_reads_only_the_accounts_own_games(site):
    for i in range(12):  # other games on the site, which Ann's badge must not read
        site.gm.create_game(f"other{i}", players=["Ann", "Bob"], seed=i)
    created = site.gm.create_game("club", variant="standard-4", players=["Ann", "Bob", "Cat", "Dan"], seed=5)
    ann = _claimed(site, "club", created.credentials["Ann"], "ann@players.test", "Ann")
    site.gm.post_press("club", "hello", power=created.commands["Bob"][0], to=[created.commands["Ann"][0]],
                       by_gm=True)
    read = _reads(site.gm)
    doc = ann.get("/account/notifications.json").json()
    assert doc["unread"] == 1 and doc["latest"][0]["game"] == "club"
    assert set(read) == {"club"}, sorted(set(read))
    read.clear()
    assert "club" in ann.get("/account/notifications").text
    assert set(read) == {"club"}, sorted(set(read))


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_an_accounts_games_are_kept_on_both_stores_and_come_back_with_an_import(kind, url_for):
    import re
    from datetime import datetime, timezone

    from gamesmaster.gm import Gamesmaster
    from gamesmaster.gm.archive import export_game, import_game
    from gamesmaster.store import Store
    from gamesmaster.store.accounts import AccountRecords
    from gamesmaster.store.testing import FakeClock

    store = Store(url_for(kind))
    gm = Gamesmaster(store, FakeClock(datetime(2030, 5, 6, 12, tzinfo=timezone.utc)))
    try:
        gm.create_game("busy", players=["Ann", "Bob"], seed=1)
        created = gm.create_game("g", players=["Ann", "Bob"], seed=2)
        gm.sign_up("ann@players.test", "Ann", "http://testserver")
        with gm.reading() as rec:
            text = AccountRecords(rec.conn).to_mail()[0].text
        account = gm.use_link(re.search(r"t=(l\.\S+)", text).group(1)).account.id
        gm.claim_seat("g", created.credentials["Ann"], account)
        read = _reads(gm)
        assert list(gm.account_seats(account)) == ["g"] and "busy" not in read
        import_game(gm, export_game(gm, "g"), "g2")
        assert sorted(gm.account_seats(account)) == ["g", "g2"]
    finally:
        store.dispose()
