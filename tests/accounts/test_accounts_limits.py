"""Accounts under abuse: odd numbers, guessed passwords, timing of the link form, notifications that tell
nothing of others, and a badge that costs by the account's own seats."""

from __future__ import annotations

import threading

import pytest

from gamesmaster.store.accounts import AccountRecords


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
    created = site.gm.setup.create_game("club", variant="standard-4", players=["Ann", "Bob", "Cat", "Dan"], seed=5)
    first, second = created.commands["Ann"] if len(created.commands["Ann"]) == 2 else ("", "")
    assert second, created.commands
    bob_power, cat_power = created.commands["Bob"][0], created.commands["Cat"][0]
    ann = _claimed(site, "club", created.credentials["Ann"], "ann@players.test", "Ann")
    bob = _claimed(site, "club", created.credentials["Bob"], "bob@players.test", "Bob")
    site.gm.press.post_press("club", "to the first", power=bob_power, to=[first], by_gm=True)
    for i in range(3):  # private letters and answers between Bob and Cat, which Ann must not learn of
        site.gm.press.post_press("club", f"secret {i}", power=cat_power, to=[bob_power], by_gm=True)
        site.gm.press.post_press("club", f"answer {i}", power=bob_power, to=[cat_power], by_gm=True)
        bob.get("/account/notifications.json")  # Bob's notifications are made between Ann's
    site.gm.press.post_press("club", "to the second", power=bob_power, to=[second], by_gm=True)
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
    """Record the games whose state the gamesmaster reads from now on (for the site)."""
    read: list[str] = []
    original = gm.desk.snapshot

    def snapshot(rec, game_id):
        if threading.current_thread().name != "mail-dispatcher":  # whose pass reads every game, as it must
            read.append(game_id)
        return original(rec, game_id)

    gm.desk.snapshot = snapshot
    return read


def test_the_badge_reads_only_the_accounts_own_games(site):
    for i in range(12):  # other games on the site, which Ann's badge must not read
        site.gm.setup.create_game(f"other{i}", players=["Ann", "Bob"], seed=i)
    created = site.gm.setup.create_game("club", variant="standard-4", players=["Ann", "Bob", "Cat", "Dan"], seed=5)
    ann = _claimed(site, "club", created.credentials["Ann"], "ann@players.test", "Ann")
    site.gm.press.post_press("club", "hello", power=created.commands["Bob"][0], to=[created.commands["Ann"][0]],
                       by_gm=True)
    read = _reads(site.gm)
    doc = ann.get("/account/notifications.json").json()
    assert doc["unread"] == 1 and doc["latest"][0]["game"] == "club"
    assert set(read) == {"club"}, sorted(set(read))
    read.clear()
    assert "club" in ann.get("/account/notifications").text
    assert set(read) == {"club"}, sorted(set(read))
    read.clear()  # the account page: its games, and the games seeking players (none here) by their status
    assert "club" in ann.get("/account").text
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
        gm.setup.create_game("busy", players=["Ann", "Bob"], seed=1)
        created = gm.setup.create_game("g", players=["Ann", "Bob"], seed=2)
        gm.accounts.sign_up("ann@players.test", "Ann", "http://testserver")
        with gm.desk.reading() as rec:
            text = AccountRecords(rec.conn).to_mail()[0].text
        account = gm.accounts.use_link(re.search(r"t=(l\.\S+)", text).group(1)).account.id
        gm.joining.claim_seat("g", created.credentials["Ann"], account)
        read = _reads(gm)
        assert list(gm.accounts.account_seats(account)) == ["g"] and "busy" not in read
        import_game(gm, export_game(gm, "g"), "g2", seated=True)  # a copy the GM keeps seated
        import_game(gm, export_game(gm, "g"), "g3")  # a copy as imported by default: unseated, nobody's game
        assert sorted(gm.accounts.account_seats(account)) == ["g", "g2"]
    finally:
        store.dispose()


def test_wrong_passwords_from_rotating_addresses_are_capped_per_account_and_the_link_still_works(site):
    from gamesmaster.web.security import SignInLimits
    from sitetools import csrf
    from starlette.testclient import TestClient

    owner = site.sign_up("ann@players.test", "Ann")
    assert "Password set." in site.post(owner, "/account/password", {"password": "correct horse battery"}).text
    site.app.state.limits = SignInLimits(clock=lambda: 0.0)  # the per-address limits stand still: only the cap moves
    answers = []
    for i in range(14):  # each guess from an address of its own
        with TestClient(site.app, client=(f"203.0.113.{i + 1}", 4000)) as guesser:
            r = guesser.post("/account/password-sign-in", data={"email": "ann@players.test",
                                                                 "password": f"guess number {i}",
                                                                 "csrf_token": csrf(guesser, "/account")})
            answers.append((r.status_code, r.text))
    assert all(code == 200 and "do not match" in text for code, text in answers[:10]), [a[0] for a in answers]
    assert all(code == 429 and "too many wrong passwords for ann@players.test" in text for code, text in answers[10:])
    # The right password is refused too for now, before any hash is checked, from a fresh address ...
    with TestClient(site.app, client=("198.51.100.77", 4000)) as fresh:
        r = fresh.post("/account/password-sign-in", data={"email": "ann@players.test", "password": "correct horse battery",
                                                          "csrf_token": csrf(fresh, "/account")})
        assert r.status_code == 429 and "Send me a link" in r.text
        # ... but the owner's mailed link signs her in.
        r = site.post(fresh, "/account/send-link", {"email": "ann@players.test"})
        assert r.status_code == 200
        token = site.link("ann@players.test", 2)
        r = site.post(fresh, "/account/link", {"t": token}, page=f"/account/link?t={token}")
        assert "Signed in as Ann" in r.text
    # Another account is not touched by Ann's guessers.
    assert site.gm.accounts.password_guesses.by_email.allowed("bob@players.test")


def _links(site) -> int:
    """How many sign-in links the site has made (the mail door sends their mails meanwhile)."""
    from sqlalchemy import func, select

    from gamesmaster.store.accounts import links
    with site.gm.desk.reading() as rec:
        return int(rec.conn.execute(select(func.count()).select_from(links)).scalar_one())


def test_the_link_is_looked_up_and_made_after_the_answer_for_known_and_unknown_alike(site):
    site.sign_up("ann@players.test", "Ann")
    site.gm.accounts.errands.wait()
    held = threading.Event()
    site.gm.accounts.errands.put(held.wait)  # hold the errands: what the door did is all that has happened
    before = _links(site)
    c = site.client()
    for address in ("ann@players.test", "nobody@players.test"):
        r = site.post(c, "/account/send-link", {"email": address})
        assert r.status_code == 200 and f"If {address} has an account" in r.text
    assert _links(site) == before  # no link made while the door answered
    held.set()
    site.gm.accounts.errands.wait()
    assert _links(site) == before + 1  # Ann's link, and nothing for nobody
