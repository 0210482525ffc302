"""Issue 25: a game on an imported map, played through the site's war room and by mail.

The map is the `diplomacy` package's pure.map with its own SVG (pure.svg), imported with
`variant import --svg` from the venv tests/gm/diplomacy_venv.py makes (never copied here).
Austria orders in Chromium by tapping its army and then the space it should go to; England
and France order by mail over real SMTP on loopback. Two seasons are adjudicated (the three
armies go round Vienna - London - Paris and back), and the results mail carries the
imported drawing: its maps are the site's maps of the same seasons, and the site's pages
show the SVG's regions.
"""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
from mailhelp import address
from sitetools import chromium, needs_chromium, serving

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "variants"))

from test_judge_map import maps_dir  # noqa: E402

from gamesmaster.variants import load_geometry  # noqa: E402
from gamesmaster.variants.judge_map import install_map  # noqa: E402

GM_CREDENTIAL = "gm.test-credential-0123456789"
SEATS = {"Ann": "AUSTRIA", "Bob": "ENGLAND", "Cat": "FRANCE", "Dan": "GERMANY", "Eve": "ITALY", "Fay": "RUSSIA",
         "Gus": "TURKEY"}


def _order_by_tapping(base: str, credential: str, unit: str, dest: str) -> None:
    """Sign in to Austria's war room, tap the army and then its destination, and send the order."""
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 1366, "height": 768}, base_url=base)
        context.set_default_timeout(20000)
        page = context.new_page()
        page.goto("/games/pure/war-room")
        page.fill("#credential", credential)
        page.click("#sign-in button")
        page.wait_for_selector(f'#map g.unit[data-province="{unit}"]')
        page.click(f'#map g.unit[data-province="{unit}"]')
        page.wait_for_selector(f'#map path.space.picked[data-province="{unit}"]')
        # the region's middle may lie under its name or centre marker: they answer for the same province
        page.click(f'#map path.space[data-province="{dest}"]', force=True)
        assert page.input_value("#orders").split("\n")[0] == f"A {unit} - {dest}"
        page.click("#send-orders")
        page.wait_for_selector(".flash.ok")
        assert page.locator("#on-record .answers li.accepted").count() == 1
        context.close()


@needs_chromium
def test_a_game_on_an_imported_map_by_war_room_and_by_mail(mailroom, tmp_path, monkeypatch):
    from gamesmaster.web.app import create_app
    from gamesmaster.web.security import SiteSecrets

    monkeypatch.setenv("GAMESMASTER_DATA", str(tmp_path / "data"))
    install_map(maps_dir() / "pure.map", "pure", svg=maps_dir() / "svg" / "pure.svg")
    room = mailroom
    created = room.gm.setup.create_game("pure", title="Pure club", variant="pure", players=list(SEATS), assign=SEATS)
    room.server.dispatcher.run_once()  # the mail door knows the game from here on
    creds = {power: created.credentials[name] for name, power in SEATS.items()}
    bob, cat = address("Bob"), address("Cat")
    outline = load_geometry("pure").spaces["VIE"].outline

    with serving(create_app(room.gm, SiteSecrets.for_testing(GM_CREDENTIAL))) as base:
        # Spring 1901: the three armies go round, Vienna - London - Paris - Vienna
        _order_by_tapping(base, creds["AUSTRIA"], "VIE", "LON")
        text = room.answer(bob, f"SIGNON pure England {creds['ENGLAND']}\nA Lon-Par\n")
        assert "playing England" in text and "'A Lon-Par' read as 'A LON - PAR'" in text
        text = room.answer(cat, f"SIGNON pure France {creds['FRANCE']}\nA Paris to Vienna\n")
        assert "'A Paris to Vienna' read as 'A PAR - VIE'" in text
        room.gm.deadlines.process("pure", force=True)
        room.server.wake()
        spring = room.sink.wait(bob, "results of Spring 1901 movement")[0]
        assert "A VIE - LON" in spring.text and "A LON - PAR" in spring.text and "A PAR - VIE" in spring.text
        assert str(room.gm.games.game("pure").phase) == "F1901M"

        # Fall 1901: and back again; the war room is asked for London now
        _order_by_tapping(base, creds["AUSTRIA"], "LON", "VIE")
        assert "A PAR - LON" in room.answer(bob, f"SIGNON pure England {creds['ENGLAND']}\nA Par-Lon\n")
        assert "A VIE - PAR" in room.answer(cat, f"SIGNON pure France {creds['FRANCE']}\nA Vie-Par\n")
        room.gm.deadlines.process("pure", force=True)
        room.server.wake()
        fall = room.sink.wait(cat, "results of Fall 1901 movement")[0]
        assert "A LON - VIE" in fall.text and "A PAR - LON" in fall.text
        assert str(room.gm.games.game("pure").phase) == "S1902M"  # nobody gained a centre: no adjustments
        position = httpx.get(f"{base}/api/games/pure/position", timeout=30).json()
        assert position["units"]["AUSTRIA"] == ["A VIE"] and position["units"]["ENGLAND"] == ["A LON"]

        # the results mail's maps are the site's maps of the imported drawing
        pngs = {name: data for name, kind, data in spring.attachments if kind == "image/png"}
        assert "S1901M-results.png" in pngs, set(pngs)
        site_png = httpx.get(f"{base}/games/pure/map.png", params={"phase": "S1901M", "width": 1200}, timeout=60)
        assert site_png.status_code == 200 and pngs["S1901M-results.png"] == site_png.content
        svg = httpx.get(f"{base}/games/pure/map.svg", params={"phase": "S1901M"}, timeout=60).text
        assert 'data-variant="pure"' in svg and outline in svg  # the SVG's Vienna, not a schematic square
        page = httpx.get(f"{base}/games/pure", timeout=30).text
        assert outline in page and 'data-province="CON"' in page
        history = httpx.get(f"{base}/games/pure/history", timeout=30)
        assert history.status_code == 200 and "Fall 1901" in history.text
