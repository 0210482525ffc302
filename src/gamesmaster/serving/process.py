"""One more web process of `gamesmaster serve`, on the listening socket the first one opened.

Started by `serve` itself (see site.WebProcesses), not by hand: it serves pages and the
API only; the deadline worker and the mail door stay in the first process.
"""

from __future__ import annotations

import argparse
import socket
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from ..config import Config
from ..gm import Gamesmaster
from ..web.app import create_app
from ..web.security import load_secrets
from .site import THREADS, database_url, run_server, site_server

if TYPE_CHECKING:
    import uvicorn


def _until_told(server: uvicorn.Server) -> None:
    """Stop the server when stdin closes: the first process stopped, or is gone (even killed outright)."""
    while sys.stdin.buffer.read(1024):
        pass
    server.should_exit = True


def main(argv: list[str] | None = None) -> int:
    """Serve on the socket whose file descriptor the first process passed down."""
    ap = argparse.ArgumentParser(prog="gamesmaster.serving.process", description=__doc__)
    ap.add_argument("--fd", type=int, required=True, help="the listening socket's file descriptor")
    ap.add_argument("--data", type=Path, required=True, help="the data directory (the site's secrets)")
    ap.add_argument("--threads", type=int, default=THREADS, help="requests worked on at once")
    args = ap.parse_args(argv)
    sock = socket.socket(fileno=args.fd)
    config = Config.from_environ().with_paths(data_dir=args.data)  # read once, as the first process read it
    # the first process brought the schema up to date
    gm = Gamesmaster.open(database_url(args.data, config.paths), migrate=False, config=config)
    server = site_server(create_app(gm, load_secrets(args.data, site=config.site), settings=config.site))
    threading.Thread(target=_until_told, args=(server,), name="gamesmaster-first-process", daemon=True).start()
    try:
        run_server(server, sock, args.threads)
    finally:
        gm.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
