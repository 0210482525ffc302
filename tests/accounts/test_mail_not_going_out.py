"""Issue 22: when the relay takes no mail, the site never says a mail is on its way, and the GM sees what
waits (the console's page and `gamesmaster games`); questions waiting for an answer show on the console's
game list. Through the site's pages and the real mail door, its sender pointed at a port nobody listens on."""

from __future__ import annotations

import re
import socket
import time

from accounttools import Site

from gamesmaster.cli import main


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _until(check, timeout: float = 30.0):  # noqa: ANN001
    deadline = time.monotonic() + timeout
    while not (got := check()):
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.05)
    return got


def test_no_relay_no_promise_and_the_gm_sees_undelivered_mail(tmp_path, capsys, monkeypatch):
    port = _closed_port()
    site = Site(tmp_path, relay_port=port)
    try:
        c = site.client()
        r = site.post(c, "/account/sign-up", {"email": "ann@players.test", "name": "Ann"})
        assert "is on its way" not in r.text and "has not delivered any mail yet" in r.text
        _until(lambda: site.gm.mailroom.mail_trouble().failing)  # the sender tried, and the relay did not answer
        r = site.post(site.client(), "/account/send-link", {"email": "ann@players.test"})
        assert "is on its way" not in r.text
        assert "mail is not going out just now" in r.text and 'class="flash error"' in r.text
        # The GM sees it on the console: what waits, to whom, and why.
        g = site.gm_client()
        page = g.get("/gm").text
        assert 'id="undelivered-mail"' in page and "Mail is not going out" in page
        assert "ann@players.test" in page and "Your sign-in link" in page
        assert re.search(r"Connection ?Refused|refused", page, re.I)
        monkeypatch.setenv("GAMESMASTER_DATABASE_URL", f"sqlite:///{tmp_path / 'gm.db'}")
        assert main(["games"]) == 0
        out = capsys.readouterr().out
        assert "Undelivered mail: " in out and "the relay has taken none" in out and "ann@players.test" in out
    finally:
        site.stop()


def test_questions_waiting_show_on_the_consoles_game_list(tmp_path, capsys, monkeypatch):
    site = Site(tmp_path)
    try:
        created = site.gm.setup.create_game("club", players=["Ann", "Bob"], assign={"Ann": "ENGLAND", "Bob": "FRANCE"})
        g = site.gm_client()
        assert "unanswered" not in g.get("/gm").text
        site.gm.questions.ask("club", "May I build in Liverpool?", credential=created.credentials["Ann"], channel="web")
        site.gm.questions.ask("club", "Is Kiel a canal?", credential=created.credentials["Bob"], channel="web")
        page = g.get("/gm").text
        assert re.search(r'href="/gm/games/club#questions">2 unanswered<', page)
        site.gm.questions.answer_question("club", 1, "Yes, it is a home centre.")
        assert ">1 unanswered<" in g.get("/gm").text
        # the console's `games` says so too
        monkeypatch.setenv("GAMESMASTER_DATABASE_URL", f"sqlite:///{tmp_path / 'gm.db'}")
        assert main(["games"]) == 0
        assert "Questions waiting for an answer: club 1 (gamesmaster question GAME)" in capsys.readouterr().out
    finally:
        site.stop()


def test_warning_times_are_shown_as_a_player_writes_them(tmp_path):
    site = Site(tmp_path)
    try:
        created = site.gm.setup.create_game("club", players=["Ann", "Bob"], assign={"Ann": "ENGLAND", "Bob": "FRANCE"})
        c = site.sign_up("ann@players.test", "Ann")
        r = site.post(c, "/account/claim", {"game": "club", "credential": created.credentials["Ann"]})
        assert r.status_code == 200, r.text[:500]
        page = c.get("/account").text
        assert 'name="warnings" value="24, 2"' in page  # was "24.0, 2.0"
        r = site.post(c, "/account/games/club/settings", {"mail": ["results"], "warnings": "36, 90m, 0.25"})
        assert 'name="warnings" value="36, 1.5, 15m"' in c.get("/account").text  # and they read back the same
    finally:
        site.stop()
