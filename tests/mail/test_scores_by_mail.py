"""The last results mail of a scored game gives each power's final score (real SMTP on loopback)."""

from __future__ import annotations

import threading

from mailhelp import NAMES, POWERS, who

from gamesmaster.gm import Settings


def test_the_last_results_mail_gives_the_final_scores(mailroom):
    room = mailroom
    # The mail door's dispatcher runs on its own every 0.2 s: it is held while the phases are processed, so that
    # it looks once all three are (a slow pass between two phases would otherwise mail the first on its own).
    hold, held_pass = threading.Lock(), threading.Event()
    loop = room.server.dispatch_loop
    work = loop.work

    def held_work() -> None:
        with hold:
            work()
        held_pass.set()

    loop.work = held_work
    loop.wake()
    assert held_pass.wait(20)  # from here on every pass of the loop takes the hold
    created = room.gm.setup.create_game("cup", title="Cup game", players=NAMES, assign=dict(zip(NAMES, POWERS)),
                                  settings=Settings.from_dict({"scoring": "dss", "end_year": 1901}))
    room.server.dispatcher.run_once()
    room.answer(who("FRANCE"), f"SIGNON cup France {created.credentials[NAMES[POWERS.index('FRANCE')]]}\nA Par-Bur\nA Mar-Spa\nF Bre-Mao\n")
    with hold:
        while room.gm.games.game("cup").status != "finished":
            room.gm.deadlines.process("cup", force=True)
    room.server.wake()
    # the three phases were processed before the mail door looked: one mail, a digest led by the first results
    first = room.gm.games.results("cup")[0]
    text = room.sink.wait(who("FRANCE"), f"cup: results of {first.title} (and 2 more")[0].text
    # the short game ends as a draw of every survivor: seven powers share 100
    words = " ".join(text.split())
    assert "The game is over: Russia wins the short game" in words
    assert ("Final scores (dss): Austria 14.29, England 14.29, France 14.29, Germany 14.29, Italy 14.29, "
            "Russia 14.29, Turkey 14.29.") in words
    assert room.gm.record.verify("cup").ok  # the scores recorded at the end of an adjudicated phase recompute
