"""A phase that waits for the gamesmaster's decision tells the GM by mail, at the GM's own address,
over real SMTP on loopback: Armageddonia's removals for a power in civil disorder (seed 004 s24)."""

from __future__ import annotations

from gamesmaster.rules import Position
from gamesmaster.variants import load_variant

from mailhelp import NAMES, POWERS

GM_TO = "referee@home.test"
# Winter 1901: Germany has two centres and three units, and sends nothing: one removal, the GM's to choose.
OWING = {"phase": "W1901A", "units": {"GERMANY": ["A BER", "A BUR", "A TYR"], "FRANCE": ["A PAR"]},
         "centers": {"GERMANY": ["BER", "MUN"], "FRANCE": ["PAR", "MAR", "BRE"]}}


def test_the_gm_is_told_by_mail_what_to_decide(make_mailroom):
    room = make_mailroom(by_hand=True, gm_email=GM_TO)  # the test runs each pass itself
    room.gm.setup.create_game("arm", players=NAMES, assign=dict(zip(NAMES, POWERS)), rules="armageddonia",
                        position=Position.from_dict(load_variant("standard"), OWING))
    room.server.dispatcher.run_once()  # the mail door knows the game from here on
    room.gm.orders.submit_orders("arm", "FRANCE", "Build F Bre", by_gm=True)
    [done] = room.gm.deadlines.process("arm", force=True)
    assert done.action == "waiting"
    room.server.dispatcher.run_once()
    room.server.sender.send_due()
    [mail] = room.sink.wait(GM_TO, "arm: Winter 1901 adjustments waits for your decision")
    assert "Germany owes 1 removal" in mail.text and "gamesmaster orders arm POWER" in mail.text
    assert "gamesmaster process arm --now" in mail.text and "no deadline" in mail.text
    # once: later passes, the GM's orders and the phase processed mail the GM nothing more about it
    room.server.dispatcher.run_once()
    room.gm.orders.submit_orders("arm", "GERMANY", "Remove A Tyr", by_gm=True)
    assert room.gm.deadlines.process("arm", force=True)[0].action == "adjudicated"
    room.server.dispatcher.run_once()
    room.server.sender.send_due()
    assert len(room.sink.to(GM_TO)) == 1
