"""The rules page states the victory criterion in force (Brobdingnag 33: players must know it),
over real HTTP: the magazines' majorities and World War I's 24 units, not "18 supply centres"."""

from __future__ import annotations

import httpx
import pytest
from sitetools import plain, serving

from gamesmaster.gm import RuleSpec


@pytest.fixture
def base(site_gm, app):
    site_gm.setup.create_game("plain", players=["Ann", "Bob"])
    site_gm.setup.create_game("graus", players=["Ann", "Bob"], rules=RuleSpec.read("graustark"))
    site_gm.setup.create_game("ereh", players=["Ann", "Bob"], rules=RuleSpec.read("erehwon"))
    site_gm.setup.create_game("wwi", variant="standard-2", players=["Ann", "Bob"])
    with serving(app) as url:
        yield url


def test_the_rules_page_states_the_criterion_in_force(base):
    with httpx.Client(base_url=base) as http:
        def page(game: str) -> str:
            r = http.get(f"/games/{game}/rules")
            assert r.status_code == 200
            return plain(r)

        assert "18 supply centres win." in page("plain")
        graustark = page("graus")
        assert "More than half the units on the board wins." in graustark
        assert "supply centres win" not in graustark
        assert "after the Spring moves and after the Winter adjustments" in graustark  # criterion D
        assert "after the Fall moves and retreats" in page("ereh")  # criterion C
        wwi = page("wwi")
        assert "24 units on the board win, counted per player." in wwi and "supply centres win" not in wwi
        assert "The player whose powers together have 24 units on the board wins" in wwi
        # The game page and the API read the same value.
        assert "24 units on the board win, counted per player." in plain(http.get("/games/wwi"))
        rules = http.get("/api/games/wwi/rules").json()
        assert rules["victory"] == "24 units on the board win, counted per player"
        assert http.get("/api/games/graus").json()["victory"] == "More than half the units on the board wins"
