"""Issue 25: the favourite two-player variants are played by mail too, over real SMTP on loopback.
Germany vs Italy: each player signs on and orders; an order for a neutral power is refused with the
reason; the results name what the neutral units did (they held)."""

from __future__ import annotations

from mailhelp import address

PLAYERS = {"Ann": "Germany", "Bob": "Italy"}


def test_germany_vs_italy_by_mail(mailroom):
    room = mailroom
    created = room.gm.setup.create_game("gvi", variant="germany-italy", players=list(PLAYERS), assign=PLAYERS)
    room.server.dispatcher.run_once()  # the mail door knows the game from here on
    ann, bob = address("Ann"), address("Bob")
    text = room.answer(ann, f"SIGNON gvi {created.credentials['Ann']}\nA Mun-Tyr\nA Ber-Kie\nF Kie-Den\n")
    assert "Signed on to gvi" in text and "playing Germany" in text
    assert "'A Mun-Tyr' read as 'A MUN - TYR'" in text
    text = room.answer(bob, f"SIGNON gvi {created.credentials['Bob']}\nA Ven-Pie\nA Rom-Ven\nF Nap-Ion\n")
    assert "'F Nap-Ion' read as 'F NAP - ION'" in text
    assert "Orders of Italy for Spring 1901 movement in gvi" in text
    # nobody signs on for a neutral power
    text = room.answer(bob, f"SIGNON gvi Austria {created.credentials['Bob']}\nA Vie-Boh\n")
    assert "does not play Austria" in text
    room.gm.deadlines.process("gvi", force=True)
    room.server.wake()
    results = room.sink.wait(bob, "results of Spring 1901 movement")[0].text
    assert "F NAP - ION" in results and "A MUN - TYR" in results
    # the five neutral powers are not players in civil disorder: their units hold as the set-up says
    for power in ("Austria", "England", "France", "Russia", "Turkey"):
        assert f"{power}: neutral, its units hold" in results, results
    assert "civil disorder" not in results
    assert str(room.gm.games.game("gvi").phase) == "F1901M"


def test_the_ancient_mediterranean_by_mail(mailroom):
    """Five players by mail on the Ancient Mediterranean: the map's own names are read (Neapolis,
    the Tyrrhenian Sea, Memphis up the Nile) and the results come in its year-1 calendar."""
    room = mailroom
    five = {"Ann": "Rome", "Bob": "Carthage", "Cat": "Egypt", "Dan": "Greece", "Eve": "Persia"}
    created = room.gm.setup.create_game("am", variant="ancient-med", players=list(five), assign=five)
    room.server.dispatcher.run_once()
    text = room.answer(address("Ann"), f"SIGNON am {created.credentials['Ann']}\nA Roma-Neapolis\nF Nea-Tyrrhenian\n")
    assert "playing Rome" in text and "Spring 1 movement" in text
    assert "'A Roma-Neapolis' read as 'A ROM - NEA'" in text and "'F Nea-Tyrrhenian' read as 'F NEA - TYN'" in text
    text = room.answer(address("Cat"), f"SIGNON am {created.credentials['Cat']}\nF Ale-Mem\nA Mem-Cyr\n")
    assert "Orders of Egypt for Spring 1 movement in am" in text and "INVALID" not in text
    room.gm.deadlines.process("am", force=True)
    room.server.wake()
    results = room.sink.wait(address("Cat"), "results of Spring 1 movement")[0].text
    assert "F ALE - MEM" in results and "A ROM - NEA" in results
    assert str(room.gm.games.game("am").phase) == "F1M"
