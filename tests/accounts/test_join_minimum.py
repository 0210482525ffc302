"""An open game's entry minimum through the site: the refusal names the requirement and the player's own record."""

from __future__ import annotations

from accounttools import Site

from gamesmaster.gm import Settings


def test_joining_below_the_minimum_is_refused_with_the_reason(site: Site):
    site.gm.setup.create_game("picky", title="Picky game", players=["Bob", "Cat", "Dan", "Eve", "Fay", "Gus"], start=False,
                        settings=Settings.from_dict({"min_games": 2}))
    site.gm.joining.open_seats("picky", True, "lot")
    c = site.sign_up("ann@players.test", "Ann")
    r = site.post(c, "/games/picky/join", {}, page="/games/open")
    assert "picky takes players with at least 2 finished games; you have 0" in r.text
    assert all(s.name != "Ann" for s in site.gm.games.game("picky").seats) and site.gm.games.game("picky").status == "forming"


def test_my_record_is_linked_from_my_games_before_any_game(site: Site):
    c = site.sign_up("cy@players.test", "Cy")
    link = c.get("/account").text.split('id="my-record"')[0].rsplit('href="', 1)[1].split('"')[0]
    r = c.get(link)
    assert r.status_code == 200 and "Cy" in r.text and "no phases yet" in r.text
