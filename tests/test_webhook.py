"""The webhook channel against a real HTTP receiver on loopback: what is posted, what never is, and failures.

The receiver is http.server in a thread; each test waits on what it received (a queue with
a timeout), never a fixed sleep. Time in the game is the fake clock's; the poster's retries
are made due by moving that clock.
"""

from __future__ import annotations

import json
import queue
import socket
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from gamesmaster.gm import GMError
from gamesmaster.gm.webhooks import MAX_CONTENT, Backoff, check_url
from gamesmaster.serving.webhook import one_pass, send
from sitetools import open_site, seven_player_game, site_client

GM_CREDENTIAL = "gm.test-credential-0123456789"
PLAYERS = {"AUSTRIA": "Ann", "ENGLAND": "Bob", "FRANCE": "Cat", "GERMANY": "Dan", "ITALY": "Eve",
           "RUSSIA": "Fay", "TURKEY": "Gus"}


def bearer(credential: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {credential}"}


GM = bearer(GM_CREDENTIAL)

WAIT = 10.0  # the longest a test waits for the receiver (it answers in milliseconds when all is well)


class Receiver:
    """An incoming webhook on 127.0.0.1: records each JSON body; answers `status` (or waits, when `hold` is clear)."""

    def __init__(self) -> None:
        self.bodies: queue.Queue[dict] = queue.Queue()
        self.status = 204
        self.hold = threading.Event()
        self.hold.set()  # set: answer at once
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length))
                receiver.hold.wait(WAIT)
                receiver.bodies.put(body)
                self.send_response(receiver.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/api/webhooks/123/s3cr3t-token"

    def next(self) -> dict:
        """The next body posted (waiting for it)."""
        return self.bodies.get(timeout=WAIT)

    def close(self) -> None:
        self.hold.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


@pytest.fixture
def site(tmp_path, clock):
    gm, app, store = open_site(tmp_path, clock, GM_CREDENTIAL)
    yield gm, app
    store.dispose()


@pytest.fixture
def club(site):
    gm, _ = site
    return seven_player_game(gm, PLAYERS)


def _all_posted(gm, receiver) -> list[dict]:
    """Run the poster until nothing is due, and return every body the receiver got."""
    while one_pass(gm, timeout=2.0):
        pass
    out = []
    while True:
        try:
            out.append(receiver.bodies.get_nowait())
        except queue.Empty:
            return out


def test_results_are_posted_after_adjudication_and_orders_never_before(site, club, receiver):
    gm, _ = site
    gm.webhooks.set_webhook("club", receiver.url)
    gm.orders.submit_orders("club", "FRANCE", "A Par-Bur\nA Mar-Spa\nF Bre-MAO", credential=club["FRANCE"])
    gm.press.post_press("club", "Let us be friends", credential=club["ENGLAND"], to=["FRANCE"])
    assert _all_posted(gm, receiver) == []  # orders before the deadline and a letter: nothing
    gm.deadlines.process("club", force=True)
    assert one_pass(gm) == 1
    body = receiver.next()
    assert set(body) == {"content", "text", "username"}  # what Discord and Slack both take, nothing more
    assert body["content"] == body["text"] and body["username"] == "gamesmaster"
    assert "results of Spring 1901" in body["content"] and "Club game" in body["content"]
    assert "Let us be friends" not in body["content"]
    status = gm.webhooks.webhook("club")
    assert (status.delivered, status.failed, status.queued, status.last_error) == (1, 0, 0, None)
    assert _all_posted(gm, receiver) == []  # posted once


def test_a_deadline_warning_is_posted_once(site, club, receiver, clock):
    gm, _ = site
    gm.webhooks.set_webhook("club", receiver.url)
    deadline = gm.games.game("club").deadline
    clock.set(deadline - timedelta(hours=23))
    assert one_pass(gm) == 1
    body = receiver.next()
    assert "are due in 23 hours" in body["content"] and "Spring 1901" in body["content"]
    clock.set(deadline - timedelta(minutes=80))
    assert one_pass(gm) == 1
    assert "are due in 80 minutes" in receiver.next()["content"]
    clock.set(deadline - timedelta(minutes=70))
    assert _all_posted(gm, receiver) == []


def test_the_gm_chooses_when_the_deadline_is_warned_of(site, club, receiver, clock):
    gm, _ = site
    status = gm.webhooks.set_webhook("club", receiver.url, [6, 0.5])
    assert status.warnings == (6.0, 0.5) and status.warnings_text == "6 hours and 30 minutes"
    assert status.warnings_written == "6, 30m"
    deadline = gm.games.game("club").deadline
    clock.set(deadline - timedelta(hours=23))
    assert _all_posted(gm, receiver) == []  # 24 hours is not one of the club's times
    clock.set(deadline - timedelta(hours=5))
    assert one_pass(gm) == 1
    assert "are due in 5 hours" in receiver.next()["content"]
    clock.set(deadline - timedelta(minutes=20))
    assert one_pass(gm) == 1
    assert "are due in 20 minutes" in receiver.next()["content"]
    status = gm.webhooks.set_webhook_warnings("club", None)  # back to the default; the URL and counts kept
    assert status.warnings == (24.0, 2.0) and status.delivered == 2


@pytest.mark.parametrize("hours, says", [
    ([], "at least one warning time"),
    ([0], "from 15 minutes"),
    ([0.1], "from 15 minutes"),
    ([-2], "from 15 minutes"),
    ([200], "to 168 hours"),
    ([float("nan")], "from 15 minutes"),
    ([1, 2, 3, 4, 5], "at most 4"),
])
def test_a_wrong_warning_time_is_refused_and_nothing_changes(site, club, receiver, hours, says):
    gm, _ = site
    gm.webhooks.set_webhook("club", receiver.url, [12])
    with pytest.raises(GMError) as caught:
        gm.webhooks.set_webhook_warnings("club", hours)
    assert says in str(caught.value)
    assert gm.webhooks.webhook("club").warnings == (12.0,)


def test_warning_times_as_the_gm_writes_them():
    from gamesmaster.gm import read_warnings
    assert read_warnings("24, 2") == (24.0, 2.0)
    assert read_warnings("2, 24, 2h, 30m") == (24.0, 2.0, 0.5)  # as players write theirs: the latest first, each once
    with pytest.raises(GMError, match="hours before the deadline, e.g. 24, 2 or 30m"):
        read_warnings("a day before")
    with pytest.raises(GMError, match="'5m': from 15 minutes"):
        read_warnings("24, 5m")
    with pytest.raises(GMError, match="at most 4"):
        read_warnings("1, 2, 3, 4, 5")
    with pytest.raises(GMError, match="at least one"):
        read_warnings(" , ")


def test_a_game_without_a_webhook_has_no_warning_times_to_change(site, club):
    gm, _ = site
    with pytest.raises(GMError, match="has no webhook"):
        gm.webhooks.set_webhook_warnings("club", [3])


def test_gm_notices_to_everyone_are_posted_and_nothing_hidden(site, club, receiver):
    gm, _ = site
    gm.webhooks.set_webhook("club", receiver.url)
    gm.press.post_press("club", "The deadline holds this week.", by_gm=True)
    gm.press.post_press("club", "A public release from Austria", credential=club["AUSTRIA"])
    gm.press.propose("club", credential=club["ITALY"])
    bodies = _all_posted(gm, receiver)
    assert len(bodies) == 1
    assert "The deadline holds this week." in bodies[0]["content"] and "from the gamesmaster" in bodies[0]["content"]


def test_long_results_are_cut_to_what_discord_takes(site, club, receiver):
    gm, _ = site
    gm.webhooks.set_webhook("club", receiver.url)
    for power, credential in club.items():
        gm.orders.submit_orders("club", power, "\n".join(["A Xyz-Abc"] * 12), credential=credential)
    gm.deadlines.process("club", force=True)
    body = _all_posted(gm, receiver)[0]
    assert len(body["content"]) <= MAX_CONTENT


def test_a_failing_receiver_is_tried_again_then_given_up_and_reported(site, club, receiver, clock):
    gm, _ = site
    gm.webhooks.backoff = Backoff(first=60, longest=600, tries=3)
    receiver.status = 503
    gm.webhooks.set_webhook("club", receiver.url)
    gm.press.post_press("club", "Notice one", by_gm=True)
    assert one_pass(gm) == 0
    receiver.next()
    status = gm.webhooks.webhook("club")
    assert (status.queued, status.failed, status.last_error) == (1, 0, "the receiver answered 503")
    assert one_pass(gm) == 0 and receiver.bodies.empty()  # not due again yet: the game is not held for it
    clock.advance(seconds=61)
    assert one_pass(gm) == 0
    receiver.next()
    clock.advance(seconds=121)
    assert one_pass(gm) == 0
    receiver.next()
    status = gm.webhooks.webhook("club")
    assert (status.queued, status.failed) == (0, 1)
    assert status.last_error == "given up after 3 tries: the receiver answered 503"
    clock.advance(hours=1)
    assert _all_posted(gm, receiver) == []


def test_a_refusal_is_given_up_at_once(site, club, receiver):
    gm, _ = site
    receiver.status = 404
    gm.webhooks.set_webhook("club", receiver.url)
    gm.press.post_press("club", "Notice", by_gm=True)
    one_pass(gm)
    receiver.next()
    status = gm.webhooks.webhook("club")
    assert (status.queued, status.failed) == (0, 1) and "refused the post (404)" in status.last_error


def test_a_refused_connection_and_a_slow_receiver_are_retried(site, club, receiver, clock):
    gm, _ = site
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{s.getsockname()[1]}/hook"
    gm.webhooks.set_webhook("club", closed)
    gm.press.post_press("club", "Notice", by_gm=True)
    assert one_pass(gm) == 0
    assert gm.webhooks.webhook("club").last_error == "the connection was refused"
    receiver.hold.clear()  # the receiver takes the post and does not answer
    gm.webhooks.set_webhook("club", receiver.url)
    gm.press.post_press("club", "Another notice", by_gm=True)
    assert one_pass(gm, timeout=0.5) == 0
    assert gm.webhooks.webhook("club").last_error == "no answer in 0.5 seconds"
    assert gm.webhooks.webhook("club").queued == 1
    receiver.hold.set()
    receiver.next()  # the slow answer to the first try
    clock.advance(minutes=5)
    assert one_pass(gm) == 1
    assert "Another notice" in receiver.next()["content"]


def test_the_queue_is_bounded(site, club, receiver, monkeypatch):
    gm, _ = site
    monkeypatch.setattr("gamesmaster.gm.channels.QUEUE_BOUND", 2)
    gm.webhooks.set_webhook("club", receiver.url)
    for i in range(4):
        gm.press.post_press("club", f"Notice {i}", by_gm=True)
        gm.notices.notify()
    status = gm.webhooks.webhook("club")
    assert (status.queued, status.failed) == (2, 2) and "queue full" in status.last_error


@pytest.mark.parametrize("url, says", [
    ("javascript:alert(1)", "must begin with https://"),
    ("file:///etc/passwd", "must begin with https://"),
    ("ftp://example.com/x", "must begin with https://"),
    ("https://", "names no host"),
    ("https://hooks.example/a b", "spaces or control characters"),
    ("https://hooks.example/a\r\nX-Evil: 1", "spaces or control characters"),
    ("https://hooks.example:port/x", "cannot be read"),
    ("https://hooks.example/" + "a" * 600, "at most 500"),
])
def test_a_hostile_url_is_refused_with_a_clear_message(site, club, url, says):
    gm, _ = site
    with pytest.raises(GMError, match=says):
        gm.webhooks.set_webhook("club", url)
    assert gm.webhooks.webhook("club") is None


def test_credentials_in_the_url_are_refused_and_not_echoed(site, club):
    gm, _ = site
    with pytest.raises(GMError) as caught:
        check_url("https://bob:hunter2@hooks.example/x")
    assert "user name or password" in str(caught.value) and "hunter2" not in str(caught.value)


def test_only_the_gm_sets_it_and_the_url_is_never_shown(site, club, receiver):
    gm, app = site
    with site_client(app) as client:
        path = "/api/games/club/webhook"
        assert client.put(path, json={"url": receiver.url}).status_code == 401
        assert client.put(path, json={"url": receiver.url}, headers=bearer(club["FRANCE"])).status_code == 403
        assert client.get(path, headers=bearer(club["FRANCE"])).status_code == 403
        r = client.put(path, json={"url": "javascript:alert(1)"}, headers=GM)
        assert r.status_code == 400 and "must begin with https://" in r.json()["detail"]
        r = client.put(path, json={"url": "x" * 5000}, headers=GM)
        assert r.status_code == 422
        r = client.put(path, json={"url": receiver.url}, headers=GM)
        assert r.status_code == 200, r.text
        assert r.json()["webhook"]["shown"] == f"http://127.0.0.1:{receiver.server.server_address[1]}/…"
        assert "s3cr3t-token" not in r.text
        assert "s3cr3t-token" not in client.get(path, headers=GM).text
        for page in ("/games/club", "/api/games/club", "/games/club/history"):
            assert "s3cr3t-token" not in client.get(page, headers=bearer(club["FRANCE"])).text
        assert client.get(path, headers=GM).json()["webhook"]["delivered"] == 0
        assert client.get(path, headers=GM).json()["webhook"]["warnings"] == [24.0, 2.0]
        r = client.put(path, json={"url": receiver.url, "warnings": [48, 1]}, headers=GM)
        assert r.status_code == 200 and r.json()["webhook"]["warnings"] == [48.0, 1.0]
        r = client.put(path, json={"url": receiver.url, "warnings": [0]}, headers=GM)
        assert r.status_code == 400 and "from 15 minutes" in r.json()["detail"]
        r = client.put(path, json={"url": receiver.url, "warnings": ["soon"]}, headers=GM)
        assert r.status_code == 422
        assert client.put(path, json={"url": ""}, headers=GM).json() == {"webhook": None}
        assert gm.webhooks.webhook("club") is None


def test_send_posts_the_body_as_json(receiver):
    """The sender alone: one POST, the JSON body, a 2xx is delivered."""
    from gamesmaster.gm.webhooks import Post
    from gamesmaster.store.webhooks import PostRecord
    from datetime import datetime, timezone
    now = datetime.now(timezone.utc)
    post = Post(PostRecord(1, "club", "k", {"content": "hello", "text": "hello", "username": "gamesmaster"}, now, 0,
                           now), receiver.url)
    assert "s3cr3t-token" not in repr(post)  # the URL is a secret: a logged post does not show it
    assert send(post).error is None
    assert receiver.next() == {"content": "hello", "text": "hello", "username": "gamesmaster"}


def test_one_reader_hands_each_entry_once_to_every_channel(site, club, receiver, monkeypatch):
    """The seam: a third channel added beside the site's and the webhook's sees each new entry once, as they do."""
    from gamesmaster.gm.notices import Notifications
    seen: list[tuple[int, str]] = []

    class Recorder:
        name = "recorder"

        def deliver(self, news):
            seen.extend(news.entries)
            return []

    channels = Notifications.channels.fget
    monkeypatch.setattr(Notifications, "channels", property(lambda self: (*channels(self), Recorder())))
    gm, _ = site
    gm.webhooks.set_webhook("club", receiver.url)
    gm.press.post_press("club", "One notice", by_gm=True)
    gm.notices.notify()
    gm.notices.notify()
    assert [kind for _, kind in seen] == ["press"]
    assert gm.webhooks.webhook("club").queued == 1


def test_the_gm_console_sets_it_and_shows_how_it_fares(site, club, receiver):
    from sitetools import post
    gm, app = site
    with site_client(app) as client:
        post(client, "/gm/sign-in", {"credential": GM_CREDENTIAL}, "/gm")
        page = post(client, "/gm/games/club/webhook", {"url": "http://u:pw@hooks.example/x"}, "/gm/games/club").text
        assert "may not hold a user name or password" in page and "u:pw" not in page
        page = post(client, "/gm/games/club/webhook", {"url": receiver.url}, "/gm/games/club").text
        assert "Webhook set" in page and "0 delivered" in page and "s3cr3t-token" not in page
        assert "warns of each deadline 24 hours and 2 hours before it" in page
        page = post(client, "/gm/games/club/webhook", {"url": "", "warnings": "12, 2.5, 45m"}, "/gm/games/club").text
        assert "warns of each deadline 12 hours, 2.5 hours and 45 minutes before it" in page
        assert 'value="12, 2.5, 45m"' in page  # the card shows the times as they are written
        assert gm.webhooks.webhook("club").shown.startswith("http://127.0.0.1")  # the URL kept
        page = post(client, "/gm/games/club/webhook", {"url": "", "warnings": "soon"}, "/gm/games/club").text
        assert "e.g. 24, 2 or 30m" in page and gm.webhooks.webhook("club").warnings == (12.0, 2.5, 0.75)
        page = post(client, "/gm/games/club/webhook", {"url": "", "warnings": ""}, "/gm/games/club").text
        assert "24 hours and 2 hours before it" in page and gm.webhooks.webhook("club") is not None  # back to the default
        receiver.status = 500
        gm.press.post_press("club", "Notice", by_gm=True)
        one_pass(gm)
        receiver.next()
        page = client.get("/gm/games/club").text
        assert "1 waiting" in page and "the receiver answered 500" in page
        # as a browser sends the card: the times field filled in, the URL field empty, Remove pressed
        page = post(client, "/gm/games/club/webhook", {"url": "", "warnings": "24, 2", "remove": "1"},
                    "/gm/games/club").text
        assert "No webhook now." in page and gm.webhooks.webhook("club") is None


def test_a_worker_run_once_posts_the_results_it_published(site, club, receiver, clock):
    """`gamesmaster worker --once` (a worker run from cron, with no poster beside it) sends the posts its pass made."""
    import argparse
    import io

    from gamesmaster.cli.games import cmd_worker

    gm, _ = site
    gm.webhooks.set_webhook("club", receiver.url)
    _all_posted(gm, receiver)  # the deadline warnings the clock may already owe: not what this test is about
    deadline = gm.games.game("club").deadline
    clock.set(deadline + timedelta(minutes=1))
    out = io.StringIO()
    assert cmd_worker(argparse.Namespace(once=True, interval=30.0), out, gm) == 0
    assert "S1901M" in out.getvalue() or "Spring 1901" in out.getvalue()
    body = receiver.next()
    assert "results of Spring 1901" in body["content"]
    assert gm.webhooks.webhook("club").queued == 0
