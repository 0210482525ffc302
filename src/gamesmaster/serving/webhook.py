"""The webhook poster: sends the posts the notification pass queued for games' webhooks, in the background.

Each pass first runs the notification pass over the games with a webhook (so a game no
account plays in is read too), then sends what is due, one request at a time with a short
timeout. A receiver that answers 2xx
took the post; 5xx, 429, a refused connection or no answer in time: tried again later
(gm.webhooks.Backoff); any other answer is a refusal that trying again will not change, and
the post is given up at once. What went wrong is recorded for the GM in words of our own:
never the URL, which is a secret, nor what the receiver said (it may echo it).
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import TextIO

from ..gm import Gamesmaster
from ..gm.webhooks import Post

TIMEOUT = 10.0  # seconds a receiver has to answer a post
RETRY_STATUSES = frozenset({408, 425, 429})  # 4xx that say "later", not "no"


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A webhook that answers with a redirect is refused: following it would post the news somewhere unchosen."""

    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


_opener = urllib.request.build_opener(_NoRedirects)


@dataclass(frozen=True)
class Outcome:
    """What became of one try: delivered (error None), or why not, and whether trying again may help."""

    error: str | None
    final: bool = False


def send(post: Post, timeout: float = TIMEOUT) -> Outcome:
    """POST the post's JSON to its URL."""
    data = json.dumps(post.body).encode()
    request = urllib.request.Request(post.url, data=data, method="POST",
                                     headers={"Content-Type": "application/json", "User-Agent": "gamesmaster"})
    try:
        with _opener.open(request, timeout=timeout) as answer:
            answer.read(64 * 1024)  # read (a little of) the answer, so the connection ends cleanly
            return Outcome(None)
    except urllib.error.HTTPError as exc:
        code = exc.code
        if code >= 500 or code in RETRY_STATUSES:
            return Outcome(f"the receiver answered {code}")
        return Outcome(f"the receiver refused the post ({code})", final=True)
    except (TimeoutError, socket.timeout):
        return Outcome(f"no answer in {timeout:g} seconds")
    except urllib.error.URLError as exc:
        reason = exc.reason
        if isinstance(reason, (TimeoutError, socket.timeout)):
            return Outcome(f"no answer in {timeout:g} seconds")
        if isinstance(reason, ConnectionRefusedError):
            return Outcome("the connection was refused")
        if isinstance(reason, socket.gaierror):
            return Outcome("the receiver's host name is not known")
        return Outcome(f"the post could not be sent ({type(reason).__name__})")
    except (OSError, ValueError) as exc:  # a reset connection, a malformed answer
        return Outcome(f"the post could not be sent ({type(exc).__name__})")


def one_pass(gm: Gamesmaster, timeout: float = TIMEOUT) -> int:
    """Read the news of the games with a webhook into the channels, then send the posts due now; returns how many
    were delivered."""
    hooked = gm.webhooks.hooked_games()
    if hooked:
        gm.notices.notify(hooked)
    delivered = 0
    for post in gm.webhooks.webhook_posts_due():
        outcome = send(post, timeout)
        gm.webhooks.webhook_posted(post, outcome.error, final=outcome.final)
        delivered += outcome.error is None
    return delivered


class Poster(threading.Thread):
    """The poster's loop in the background, `interval` seconds between passes, until stopped."""

    def __init__(self, gm: Gamesmaster, interval: float = 10.0, out: TextIO = sys.stderr) -> None:
        super().__init__(name="gamesmaster-webhooks", daemon=True)
        self.gm, self.interval, self.out = gm, interval, out
        self.stopping = threading.Event()

    def run(self) -> None:
        """Pass after pass; a pass that fails is reported and the next goes on."""
        while not self.stopping.is_set():
            try:
                one_pass(self.gm)
            except Exception as exc:  # noqa: BLE001 - the loop must go on; the error is reported
                print(f"webhook poster: {exc}", file=self.out, flush=True)
            self.stopping.wait(self.interval)

    def stop(self) -> None:
        """Stop after the pass under way."""
        self.stopping.set()
        self.join(timeout=2 * TIMEOUT)


__all__ = ["Outcome", "Poster", "TIMEOUT", "one_pass", "send"]
