"""Bad input anywhere gets a clear 4xx, never a 500 or a stack trace: every route, odd bodies."""

from __future__ import annotations

import pytest

from webtools import GM, bearer

GAMES = ["club", "nosuch", "a" * 300]
POWERS = ["france", "Atlantis"]
PHASES = ["W1901M", "S99999999999999999999M"]
BODIES = [None, [], {"orders": 5, "text": "x" * 30000, "yes": "maybe", "hours": -1},
          {"hours": 1e308, "until": "nonsense", "power": "mars", "name": "", "reason": "r"},
          {"reason": "r", "orders": {"mars": "A Par-Bur"}, "rules": {"nope": 1}},
          {"kind": "concession", "concede_to": "mars", "powers": ["mars"], "assign": {"Nobody": "FRANCE"}},
          {"orders": "A Par-Mars", "text": "hello", "yes": True, "name": "Ann", "reason": "r", "hours": 1}]


def paths(app):
    from gamesmaster.web import api, pages
    for route in [*api.router.routes, *pages.router.routes]:
        for method in sorted(route.methods - {"HEAD"}):
            for game in GAMES if "{game}" in route.path else [""]:
                for power in POWERS if "{power}" in route.path else [""]:
                    for phase in PHASES if "{phase}" in route.path else [""]:
                        yield method, (route.path.replace("{game}", game).replace("{power}", power)
                                       .replace("{phase}", phase).replace("{proposal}", "1")
                                       .replace("{action}", "process"))


@pytest.mark.parametrize("who", ["gm", "player", "nobody"])
def test_no_request_gets_a_500(client, app, game, who):
    auth = {"gm": GM, "player": bearer(game["FRANCE"]), "nobody": {}}[who]
    bad = []
    for method, path in paths(app):
        for body in BODIES if method != "GET" else [None]:
            kwargs = {"headers": auth} if body is None else {"headers": auth, "json": body}
            r = client.request(method, path, **kwargs)
            if r.status_code >= 500 or "Traceback" in r.text:
                bad.append((method, path, body, r.status_code, r.text[:160]))
            elif r.status_code >= 400:
                assert r.text.strip(), (method, path)
    assert not bad, bad[:10]
