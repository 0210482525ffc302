"""Over real SMTP on loopback, issue 22 ("a club's first season without a rough edge"): greetings and
signatures are not orders, the wording players read, the late refusal to the second."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gamesmaster.gm import Settings

from mailhelp import NAMES, POWERS, address, new_game, who


def test_greetings_and_signatures_are_not_orders_but_orders_are_never_swallowed(mailroom):
    room = mailroom
    cred = new_game(room)
    text = room.answer(who("ENGLAND"), f"Hi GM,\n\nSIGNON club England {cred['ENGLAND']}\nF Lon-Nth\nA Lvp-Yor\n\n"
                       "Cheers, Cat\n\nSent from my iPhone\n")
    assert "Refused" not in text and "INVALID" not in text
    assert "'F Lon-Nth' read as 'F LON - NTH'" in text and "'A Lvp-Yor' read as 'A LVP - YOR'" in text
    assert "Not read as orders (greetings and signatures): 'Hi GM,', 'Cheers, Cat', 'Sent from my iPhone'." in text
    [rec] = room.gm.orders.orders_on_record("club", "ENGLAND", by_gm=True)
    assert rec.orders == ("F Lon-Nth", "A Lvp-Yor")
    # To the game's own address, a greeting before the sign-on is no refusal either; a closing and a name
    # on the next line are the signature.
    text = room.answer(who("FRANCE"), f"Hello!\nSIGNON France {cred['FRANCE']}\nA Par-Bur\nThanks,\nBob\n",
                       to="gm+club@diplomacy.test")
    assert "Refused" not in text and "INVALID" not in text and "'Hello!', 'Thanks,', 'Bob'" in text
    # A line after a closing that reads as an order is an order, even an invalid one: never swallowed.
    text = room.answer(who("GERMANY"), f"SIGNON club Germany {cred['GERMANY']}\nThanks\nA Mun-Ruh\nA Ber Yor\n")
    assert "'A Mun-Ruh' read as 'A MUN - RUH'" in text
    assert "'A Ber Yor' INVALID" in text
    # A mail of courtesies alone sends no set of orders: Germany's set stands.
    text = room.answer(who("GERMANY"), f"SIGNON club Germany {cred['GERMANY']}\nThanks!\nCat\n")
    assert "Orders of Germany" not in text and "'Thanks!', 'Cat'" in text
    assert len(room.gm.orders.orders_on_record("club", "GERMANY", by_gm=True)) == 1


def test_help_names_the_game_address_in_use_and_resign_reads_a_bare_name(mailroom):
    room = mailroom
    created = room.gm.setup.create_game("club", title="Club game", players=NAMES, assign=dict(zip(NAMES, POWERS)),
                                  settings=Settings.from_dict({"replacement": "successor"}))
    cred = {power: created.credentials[name] for name, power in zip(NAMES, POWERS)}
    text = room.answer(who("ITALY"), "HELP\n")
    assert "gm+GAME@diplomacy.test" in text and "gamesmaster+GAME" not in text
    text = room.answer(who("AUSTRIA"), f"SIGNON club Austria {cred['AUSTRIA']}\nResign if I lose Munich\n")
    assert "You have resigned" not in text and room.gm.games.game("club").power("AUSTRIA").player == "Eve"
    text = room.answer(who("AUSTRIA"), f"SIGNON club Austria {cred['AUSTRIA']}\nRESIGN Ken Davidson\n")
    assert "You have resigned Austria; Ken Davidson plays it now." in text
    assert room.gm.games.game("club").power("AUSTRIA").player == "Ken Davidson"


def test_the_gm_is_written_gm_and_a_late_refusal_shows_the_seconds_that_decide(mailroom):
    room = mailroom
    cred = new_game(room)
    room.answer(who("ITALY"), f"SIGNON club Italy {cred['ITALY']}\nQUESTION: May I convoy through Kiel?\n")
    text = room.answer(who("ITALY"), f"SIGNON club Italy {cred['ITALY']}\nHISTORY\n")
    assert "Italy to GM:" in text and "to Gm" not in text
    room.gm.orders.submit_orders("club", "FRANCE", "A Par-Bur", by_gm=True)
    st = room.gm.games.game("club")
    room.clock.set(st.deadline + timedelta(seconds=7))
    text = room.answer(who("ENGLAND"), f"SIGNON club England {cred['ENGLAND']}\nF Lon-Nth\n")
    assert ("Orders for Spring 1901 movement were due by Thu 09 May 2024 12:00:00 UTC; "
            "these arrived Thu 09 May 2024 12:00:07 UTC") in text
    room.clock.advance(minutes=5)  # a refusal minutes late needs no seconds
    text = room.answer(who("ENGLAND"), f"SIGNON club England {cred['ENGLAND']}\nF Lon-Nth\n")
    assert "were due by Thu 09 May 2024 12:00 UTC; these arrived Thu 09 May 2024 12:05 UTC" in text
    room.gm.deadlines.process_due()
    room.server.wake()
    body = room.sink.wait(who("ITALY"), "results of Spring 1901 movement")[0].text
    assert "France (orders from the GM):" in body and "the gm" not in body


def test_the_gm_is_told_of_each_question_by_mail(make_mailroom):
    room = make_mailroom(by_hand=True, gm_email="gm-inbox@club.test", site_url="https://games.club.test")
    cred = new_game(room)

    def a_pass() -> None:
        room.server.dispatcher.run_once()
        room.server.sender.send_due()

    room.send(who("ITALY"), f"SIGNON club Italy {cred['ITALY']}\nQUESTION: May I convoy through Kiel?\n")
    a_pass()
    [told] = room.sink.wait("gm-inbox@club.test", "club: a question for the gamesmaster from Italy")
    assert "Question 1 from Italy" in told.text and "> May I convoy through Kiel?" in told.text
    assert "gamesmaster question club --answer 1 'your answer'" in told.text
    assert "https://games.club.test/gm/games/club#questions" in told.text
    # Asked on the site (or by the API), the same; two questions in one pass make one mail.
    room.gm.questions.ask("club", "Is Kiel a canal?", credential=cred["FRANCE"], channel="web")
    room.gm.questions.ask("club", "And Constantinople?", credential=cred["TURKEY"], channel="web")
    a_pass()
    [both] = room.sink.wait("gm-inbox@club.test", "club: 2 questions for the gamesmaster")
    assert "Question 2 from France" in both.text and "Question 3 from Turkey" in both.text
    a_pass()
    assert len(room.sink.to("gm-inbox@club.test")) == 2  # each question told once
    # Nobody but the GM is told.
    assert not any("Is Kiel a canal?" in c.text for p in POWERS for c in room.sink.to(who(p)))


def _hold_seats(room, credentials: dict[str, str]) -> None:  # noqa: ANN001
    """Each player (name: credential) holds the seat with a site account at the address they mail from."""
    from gamesmaster.store.accounts import AccountRecords
    for name, credential in credentials.items():
        room.gm.accounts.sign_up(address(name), name, "https://games.club.test")
        with room.gm.desk.reading() as rec:
            room.gm.joining.claim_seat("club", credential, AccountRecords(rec.conn).by_email(address(name)).id)


def _club(room, **settings):  # noqa: ANN001, ANN003
    """new_game, each player also holding the seat with a site account at the address they mail from."""
    cred = new_game(room, **settings)
    _hold_seats(room, {name: cred[power] for name, power in zip(NAMES, POWERS)})
    for power in POWERS:
        with room.gm.mailroom.open() as books:
            books.set_contact("club", room.gm.orders.identify("club", cred[power]).number, who(power), room.clock(), "mail")
    return cred


def test_one_event_one_mail_to_each_player_and_a_digest_where_several_fall_together(make_mailroom):
    room = make_mailroom(by_hand=True, site_url="https://games.club.test")
    cred = _club(room, schedule={"hours": 24})  # a 24-hour phase: the 24-hour reminder time has passed at its start

    def a_pass() -> dict[str, list[str]]:
        before = {p: len(room.sink.to(who(p))) for p in POWERS}
        room.server.dispatcher.run_once()
        room.server.sender.send_due()
        return {p: [c.subject for c in room.sink.to(who(p))[before[p]:]] for p in POWERS}

    a_pass()  # the sign-in links
    room.gm.press.propose("club", kind="draw", power="ITALY", credential=cred["ITALY"])
    got = a_pass()
    assert all(len(subjects) == 1 for subjects in got.values()), got  # was two: the GM's notice and the vote
    room.gm.press.post_press("club", "Shall we talk?", power="FRANCE", to=["GERMANY"], credential=cred["FRANCE"])
    room.clock.set(room.gm.games.game("club").deadline + timedelta(seconds=1))
    room.gm.deadlines.process_due()
    got = a_pass()
    assert all(len(subjects) == 1 for subjects in got.values()), got  # results, and no reminder nor warning
    assert got["GERMANY"] == ["club: results of Spring 1901 movement (and 1 more: a letter)"]
    body = room.sink.to(who("GERMANY"))[-1].text
    assert "Orders and results:" in body and "Shall we talk?" in body
    assert a_pass() == {p: [] for p in POWERS}  # the reminder time passed before the phase opened: none later
    room.clock.advance(hours=22, minutes=30)  # the warning 2 hours before, as each player chose on the site
    got = a_pass()
    assert all(subjects == ["club: orders due in 2 hours (Fall 1901 movement)"] for subjects in got.values()), got


@pytest.mark.parametrize("door", ["mail", "site"])
def test_the_game_begins_mail_names_the_power_and_the_war_room(make_mailroom, door):
    room = make_mailroom(by_hand=True, site_url="https://games.club.test")
    created = room.gm.setup.create_game("club", title="Club game", players=NAMES, start=False)
    room.server.dispatcher.run_once()
    if door == "mail":
        with room.gm.mailroom.open() as books:  # the GM gave the players' addresses beforehand
            for seat in room.gm.games.game("club").seats:
                books.set_contact("club", seat.number, address(seat.name), room.clock(), "gm")
    else:  # the players hold their seats with site accounts
        _hold_seats(room, created.credentials)
        room.server.dispatcher.run_once()
    room.gm.setup.assign_powers("club", dict(zip(NAMES, POWERS)))
    room.server.dispatcher.run_once()
    room.server.sender.send_due()
    [mail] = room.sink.wait(who("ITALY"), "the game begins")
    assert mail.subject == "club: the game begins; you play Italy"
    assert "Dan, you play Italy." in mail.text and "https://games.club.test/games/club/war-room" in mail.text
    if door == "mail":
        assert "SIGNON club Italy YOUR-CREDENTIAL" in mail.text and "gm+club@diplomacy.test" in mail.text
    assert created.credentials["Dan"] not in mail.text  # the credential is given by the GM, never by mail


def test_a_players_site_notifications_of_one_pass_come_as_one_mail(make_mailroom):
    room = make_mailroom(by_hand=True, site_url="https://games.club.test")
    cred = new_game(room)
    _hold_seats(room, {name: cred[power] for name, power in zip(NAMES, POWERS)})  # site accounts only: none by mail
    room.server.dispatcher.run_once()
    room.server.sender.send_due()
    before = {p: len(room.sink.to(who(p))) for p in POWERS}
    room.gm.press.post_press("club", "Shall we talk?", power="FRANCE", to=["GERMANY"], credential=cred["FRANCE"])
    room.clock.set(room.gm.games.game("club").deadline + timedelta(seconds=1))
    room.gm.deadlines.process_due()
    room.server.dispatcher.run_once()
    room.server.sender.send_due()
    got = {p: [c for c in room.sink.to(who(p))[before[p]:]] for p in POWERS}
    assert all(len(mails) == 1 for mails in got.values()), {p: [c.subject for c in m] for p, m in got.items()}
    [mail] = got["GERMANY"]
    assert mail.subject == "club: results of Spring 1901 movement (and 1 more)"
    assert "Orders and results:" in mail.text and "Shall we talk?" in mail.text and mail.text.count("\n-- \n") == 1
