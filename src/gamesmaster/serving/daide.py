"""`gamesmaster daide serve`: the DAIDE door for bots, one port a game, with the deadline worker."""

from __future__ import annotations

import signal
import threading
from typing import Sequence, TextIO

from ..gm import Gamesmaster
from .worker import Worker


def serve(gm: Gamesmaster, games: Sequence[tuple[str, int]], host: str, *, poll: float, worker_interval: float,
          worker: bool, out: TextIO) -> int:
    """Serve the games to bots until SIGINT or SIGTERM; returns the exit status.

    Before anything listens, every game must exist (GMError names the one that does not);
    OSError: a port cannot be listened on."""
    from ..daide.server import Limits, start
    for game, _ in games:
        gm.games.game(game)
    running = start(gm, list(games), host, limits=Limits(), poll=poll)
    for game, port in running.ports.items():
        print(f"DAIDE: {game} on {host}:{port}", file=out, flush=True)
    deadlines = Worker(gm, worker_interval, out)
    if worker:
        deadlines.start()
    stopping = threading.Event()
    previous = {sig: signal.signal(sig, lambda s, f: stopping.set()) for sig in (signal.SIGINT, signal.SIGTERM)}
    print("Press Ctrl-C to stop.", file=out, flush=True)
    try:
        stopping.wait()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        running.stop()
        if deadlines.is_alive():
            deadlines.stop()
        print("DAIDE door stopped.", file=out, flush=True)
    return 0
