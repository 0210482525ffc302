"""One board for every door: the maps a results mail carries are the site's maps of the same seasons.

The mail once drew its maps from the one position (a province tinted only while a unit stood
in it), the site from the game's history (a province stays its last occupier's): France's
army went Paris - Picardy - Belgium, and Picardy was French on the site and plain in the mail.
The mail is caught at the relay sink on loopback; the site's maps are fetched over real HTTP.
"""

from __future__ import annotations

import re

import httpx
from mailhelp import who

from sitetools import serving

GM_CREDENTIAL = "gm.test-credential-0123456789"


def test_the_mailed_maps_are_the_sites_maps(mailroom):
    from gamesmaster.web.app import create_app
    from gamesmaster.web.security import SiteSecrets

    room = mailroom
    names = {"ENGLAND": "Ann", "FRANCE": "Bob"}
    created = room.gm.setup.create_game("club", title="Club game", players=["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"],
                                  assign={"Ann": "ENGLAND", "Bob": "FRANCE", "Cat": "GERMANY", "Dan": "ITALY",
                                          "Eve": "AUSTRIA", "Fay": "RUSSIA", "Gus": "TURKEY"})
    room.server.dispatcher.run_once()
    cred = created.credentials[names["FRANCE"]]
    # France signs on by mail (so it gets the results by mail) and moves Paris - Picardy - Belgium
    assert "A PAR - PIC" in room.answer(who("FRANCE"), f"SIGNON club France {cred}\nA Par-Pic\n")
    room.gm.deadlines.process("club", force=True)
    room.server.wake()
    room.sink.wait(who("FRANCE"), "results of Spring 1901 movement")
    assert "A PIC - BEL" in room.answer(who("FRANCE"), f"SIGNON club France {cred}\nA Pic-Bel\n")
    room.gm.deadlines.process("club", force=True)
    room.server.wake()
    mail = room.sink.wait(who("FRANCE"), "results of Fall 1901 movement")[0]
    pngs = {name: data for name, kind, data in mail.attachments if kind == "image/png"}
    assert set(pngs) == {"F1901M-results.png", "W1901A-position.png"}, set(pngs)

    with serving(create_app(room.gm, SiteSecrets.for_testing(GM_CREDENTIAL))) as base:
        results = httpx.get(f"{base}/games/club/map.png", params={"phase": "F1901M", "width": 1200}, timeout=60)
        now = httpx.get(f"{base}/games/club/map.png", params={"width": 1200}, timeout=60)
        svg = httpx.get(f"{base}/games/club/map.svg", timeout=60).text
    assert results.status_code == 200 and now.status_code == 200
    # Picardy is French on the board now (France's army last stood there), in the mail as on the site
    assert re.search(r'<path class="space space-PIC [^"]*control-FRANCE', svg), "Picardy is not French on the site"
    assert pngs["F1901M-results.png"] == results.content, "the mailed results map is not the site's"
    assert pngs["W1901A-position.png"] == now.content, "the mailed position is not the site's map of it"
