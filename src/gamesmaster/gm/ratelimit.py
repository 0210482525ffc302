"""Token buckets that limit how often something may be tried: failed sign-ins, mail answers.

Kept in memory, per process: with N processes a client gets at most N times the burst.
Used by the doors (the web site per address and per credential guessed, the mail door
per sender), which know who is asking.
"""

from __future__ import annotations

import threading
import time
from typing import Callable

from .errors import Limited


class RateLimiter:
    """Failed credential attempts, limited per key with a token bucket (in memory).

    Each key (a client address, or a game) holds `burst` tokens, refilled at `rate` tokens a
    second; every failed attempt takes one. A key with no token left is refused (HTTP 429)
    before its credential is even checked, until a token has grown back. Limits are kept
    per process: with N web processes a client gets at most N times the burst.
    """

    def __init__(self, burst: float, rate: float, clock: Callable[[], float] | None = None, max_keys: int = 100_000) -> None:
        self.burst, self.rate = float(burst), float(rate)
        self.clock = clock or time.monotonic
        self.max_keys = max_keys
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def _level(self, key: str, now: float) -> float:
        tokens, since = self._buckets.get(key, (self.burst, now))
        return min(self.burst, tokens + (now - since) * self.rate)

    def allowed(self, key: str) -> bool:
        """Whether an attempt from KEY may be checked now (at least one token left)."""
        with self._lock:
            return self._level(key, self.clock()) >= 1.0

    def failed(self, key: str) -> None:
        """Take a token from KEY for a failed attempt."""
        with self._lock:
            now = self.clock()
            if len(self._buckets) >= self.max_keys:  # bounded memory: forget the full buckets
                self._buckets = {k: v for k, v in self._buckets.items() if self._level(k, now) < self.burst}
                if len(self._buckets) >= self.max_keys:  # still full: keep the newest half
                    newest = sorted(self._buckets.items(), key=lambda kv: kv[1][1])[-(self.max_keys // 2):]
                    self._buckets = dict(newest)
            self._buckets[key] = (max(0.0, self._level(key, now) - 1.0), now)

    def take(self, key: str) -> bool:
        """Take a token from KEY if it has one left: whether it had (an attempt that costs whether or not it fails)."""
        with self._lock:
            if self._level(key, self.clock()) < 1.0:
                return False
        self.failed(key)
        return True

    def failing(self, key: str) -> bool:
        """Whether KEY has failed recently (its bucket is not full)."""
        with self._lock:
            return self._level(key, self.clock()) < self.burst

    def refuse_if_spent(self, key: str, saying: Callable[[int], str]) -> None:
        """Raise Limited, its message saying(seconds to wait), while KEY has no token left."""
        if not self.allowed(key):
            wait = self.retry_after(key)
            raise Limited(saying(wait), wait)

    def retry_after(self, key: str) -> int:
        """Seconds until KEY has a token again."""
        with self._lock:
            level = self._level(key, self.clock())
        return max(1, int((1.0 - level) / self.rate + 0.999)) if level < 1.0 else 0
