"""A site on a fresh SQLite store, shared by the web, security and live tests."""

from __future__ import annotations

from gamesmaster.store import Store


def open_site(tmp_path, clock, gm_credential: str):
    """A Gamesmaster on a fresh SQLite store and the website's app on it: (gm, app, store)."""
    from gamesmaster.gm import Gamesmaster
    from gamesmaster.web.app import create_app
    from gamesmaster.web.security import SiteSecrets

    store = Store(f"sqlite:///{tmp_path / 'gm.db'}")
    gm = Gamesmaster(store, clock=clock)
    return gm, create_app(gm, SiteSecrets.for_testing(gm_credential)), store


def site_client(app):
    """A test client that answers errors as the site does instead of raising them."""
    from fastapi.testclient import TestClient

    return TestClient(app, raise_server_exceptions=False)


def seven_player_game(gm, players: dict[str, str], game_id: str = "club") -> dict[str, str]:
    """A running seven-player game with full press (powers assigned); returns power -> credential."""
    created = gm.create_game(game_id, title="Club game", players=list(players.values()),
                             assign={name: power for power, name in players.items()}, settings={"press": "full"})
    return {created.powers[name]: secret for name, secret in created.credentials.items()}
