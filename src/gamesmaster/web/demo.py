"""The demo game: the 1971 rulebook's sample game, played through the gamesmaster.

The site shows a newcomer the credentials of the demo's seven players so that they can
walk into the war rooms at once.
"""

from __future__ import annotations

from ..gm import Gamesmaster, play_sample

DEMO_GAME = "sample-1971"


def load_demo(gm: Gamesmaster, game_id: str = DEMO_GAME) -> dict[str, str]:
    """Play the sample game into `game_id` (paused at Spring 1903); returns power -> credential."""
    created = play_sample(gm, game_id, "the rulebook's sample game ends here; the gamesmaster resumes it to play on.")
    return {created.powers[name]: secret for name, secret in created.credentials.items()}
