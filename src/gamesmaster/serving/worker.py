"""The deadline worker as a background thread, beside a door in the same process."""

from __future__ import annotations

import sys
import threading
from typing import TextIO

from ..gm import Gamesmaster
from ..gm.worker import Pass, describe


class Worker(threading.Thread):
    """The deadline worker loop, in the background: process every game that is due."""

    def __init__(self, gm: Gamesmaster, interval: float, out: TextIO) -> None:
        super().__init__(name="gamesmaster-deadlines", daemon=True)
        self.gm, self.interval, self.out = gm, interval, out
        self.stopping = threading.Event()

    def run(self) -> None:
        """Pass after pass, `interval` seconds apart, until stopped."""
        one_pass = Pass(self.gm)
        while not self.stopping.is_set():
            try:
                for p in one_pass():
                    print(f"deadline: {describe(p)}", file=self.out, flush=True)
            except Exception as exc:  # noqa: BLE001 - the loop must go on; the error is reported
                print(f"deadline worker: {exc}", file=sys.stderr, flush=True)
            self.stopping.wait(self.interval)

    def stop(self) -> None:
        """Stop after the pass under way (waiting for it at most 30 seconds)."""
        self.stopping.set()
        self.join(timeout=30)
