"""The demo game: the 1971 rulebook's sample game, played through the gamesmaster.

The same steps as `gamesmaster.gm.archive.import_sample` (which does not hand back the
players' credentials), kept here so the site can show a newcomer the credentials of
the demo's seven players and let them into the war rooms at once.
"""

from __future__ import annotations

from ..gm import Gamesmaster, GMError
from ..gm.archive import sample_data

DEMO_GAME = "sample-1971"


def load_demo(gm: Gamesmaster, game_id: str = DEMO_GAME) -> dict[str, str]:
    """Play the sample game into `game_id` (paused at Spring 1903); returns power -> credential."""
    data = sample_data()
    players = data["players"]
    created = gm.create_game(game_id, title=data["title"], variant=data["variant"], rules=data["rules"],
                             players=list(players.values()), assign={name: power for power, name in players.items()})
    for step in data["steps"]:
        if gm.status(game_id)["phase"] != step["phase"]:
            raise GMError(f"the sample game went astray: expected {step['phase']}, the game is in "
                          f"{gm.status(game_id)['phase']}")
        for power, orders in step["orders"].items():
            if gm.status(game_id)["phase"] != step["phase"]:
                break  # processed early (retreats and adjustments)
            gm.submit_orders(game_id, power, "\n".join(orders), by_gm=True, channel="import")
        if gm.status(game_id)["phase"] == step["phase"]:
            gm.process(game_id, force=True)
    gm.pause(game_id, reason="the rulebook's sample game ends here; the gamesmaster resumes it to play on.")
    return {created.powers[name]: secret for name, secret in created.credentials.items()}
