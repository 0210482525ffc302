"""The live table's read-out draws the gm's boards: a province stays its last occupier's there too,
as on the site and in the mail (it was drawn from the one position read out)."""

from __future__ import annotations

import re

from sitetools import open_site, seven_player_game
from livetools import LIVE_NAMES, LIVE_POWERS


def test_the_readout_map_tints_from_the_games_history(tmp_path, clock, gm_credential):
    from gamesmaster.web.live import _readout_map
    from gamesmaster.web.site import inline_svg

    gm, _, store = open_site(tmp_path, clock, gm_credential)
    creds = seven_player_game(gm, dict(zip(LIVE_POWERS, LIVE_NAMES)))
    gm.orders.submit_orders("club", "FRANCE", "A Par-Pic", credential=creds["FRANCE"])
    gm.deadlines.process("club", force=True)
    gm.orders.submit_orders("club", "FRANCE", "A Pic-Bel", credential=creds["FRANCE"])
    gm.deadlines.process("club", force=True)
    row = gm.games.result("club", "F1901M")
    french = r'<path class="space space-PIC [^"]*control-FRANCE'
    after = _readout_map(gm, row, "after", list(LIVE_POWERS))
    assert re.search(french, after), "the army left Picardy in the phase read out: it stays French"
    assert after == inline_svg(gm.boards.board_after("club", "F1901M").svg())  # the site's and the mail's board
    store.dispose()
