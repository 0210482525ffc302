"""`gamesmaster serve`: the web site on the store, with the demo, the deadline worker, the mail
intake and the DAIDE door where asked, under uvicorn in one or more processes."""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ..config import DATABASE_URL, Config, Paths, child_environ
from ..gm import Gamesmaster, GMError, default_url
from ..mail.config import MailConfig
from ..web.demo import DEMO_GAME, load_demo
from ..web.security import GM_ENV, SiteSecrets, load_secrets
from .webhook import Poster
from .worker import Worker

if TYPE_CHECKING:
    import uvicorn  # imported where the site starts: a command that serves nothing does without it
    from starlette.types import ASGIApp

log = logging.getLogger("gamesmaster.web")
CREDENTIALS_FILE = "credentials.txt"


# Requests a web process works on at once. Measured with bench/load (300 players on SQLite): 16 threads
# cost 3.55 ms of the server's CPU a request, 8 cost 2.84 and 4 cost 2.72 (2 cost 3.17: requests wait
# behind a submission queued for the write lock); past a few threads more only contend for the GIL, and
# the one holding the store's write lock waits for it longest.
THREADS = 8


@dataclass
class Options:
    """What `gamesmaster serve` was asked to run."""

    host: str = "127.0.0.1"
    port: int = 8000
    data: Path | None = None
    demo: bool = True
    mail: bool = True
    smtp_port: int = 2525
    worker_interval: float = 30.0
    new_gm_credential: bool = False
    worker: bool = True  # run the deadline worker in this process (--no-worker: web only)
    daide: tuple[tuple[str, int], ...] = ()  # games served to DAIDE bots, each on its port (--daide GAME:PORT)
    threads: int = THREADS  # requests a web process works on at once
    web_processes: int = 0  # web processes on the one socket (0: one a CPU, at most four)
    config: Config | None = None  # the settings (None: read from the environment when serving starts)


def default_web_processes() -> int:
    """One web process a CPU (a process runs Python on one CPU at a time), at most four."""
    return max(1, min(4, os.cpu_count() or 1))


REQUEST_SECONDS = 20.0  # a client has this long to send a whole request, headers and body
IDLE_SECONDS = 5  # a kept-alive connection with no request in it is closed after this long
CONNECTIONS = 1_000  # connections and requests a web process holds at once; beyond them a 503


def paced_protocol(request_seconds: float) -> type:
    """uvicorn's HTTP protocol (httptools) with a deadline for each request to arrive whole.

    uvicorn times out a connection idle between requests, but not one that sends its request a
    byte at a time: 1,800 such connections were held for 40 s, and more could have been. Here a
    connection has `request_seconds` from its opening, or from its last answer, to deliver a whole
    request; one that has not is closed. A request that has arrived takes as long as it takes
    (a live stream, a long adjudication)."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class PacedProtocol(HttpToolsProtocol):
        """HttpToolsProtocol, closing a connection whose request has not arrived whole in time."""

        _arrival: asyncio.TimerHandle | None = None
        _unanswered = 0  # requests arrived whole and not yet answered (pipelined ones included)

        def connection_made(self, transport: Any) -> None:  # noqa: D102 - uvicorn's, with the deadline
            super().connection_made(transport)
            self._expect()

        def on_message_complete(self) -> None:  # noqa: D102
            self._unanswered += 1
            self._arrived()
            super().on_message_complete()

        def on_response_complete(self) -> None:  # noqa: D102
            self._unanswered = max(0, self._unanswered - 1)
            super().on_response_complete()
            if not self._unanswered and not self.transport.is_closing():
                self._expect()

        def connection_lost(self, exc: Exception | None) -> None:  # noqa: D102
            self._arrived()
            super().connection_lost(exc)

        def _expect(self) -> None:
            self._arrived()
            self._arrival = self.loop.call_later(request_seconds, self._too_slow)

        def _arrived(self) -> None:
            if self._arrival is not None:
                self._arrival.cancel()
                self._arrival = None

        def _too_slow(self) -> None:
            self._arrival = None
            if not self.transport.is_closing():
                self.transport.close()

    return PacedProtocol


def site_server(app: ASGIApp) -> uvicorn.Server:
    """The uvicorn server for the site (proxy headers trusted from loopback, as docs/deploy.md sets up), with
    a deadline for each request to arrive (REQUEST_SECONDS) and a bound on the connections held at once."""
    import uvicorn
    config = uvicorn.Config(app, log_level="warning", access_log=False, proxy_headers=True,
                            timeout_graceful_shutdown=5, lifespan="off", http=paced_protocol(REQUEST_SECONDS),
                            timeout_keep_alive=IDLE_SECONDS, limit_concurrency=CONNECTIONS)
    return uvicorn.Server(config)


def run_server(server: uvicorn.Server, sock: socket.socket, threads: int) -> None:
    """Serve on a listening socket until SIGINT or SIGTERM."""
    import anyio.to_thread

    async def run_site() -> None:
        anyio.to_thread.current_default_thread_limiter().total_tokens = threads
        await server.serve(sockets=[sock])

    def stop(signum: int, frame: Any) -> None:
        server.should_exit = True

    # Before uvicorn takes the signals over, and after (it raises the one that stopped it again),
    # a signal asks the server to stop: the caller's cleanup still runs.
    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        with asyncio.Runner(loop_factory=server.config.get_loop_factory()) as runner:
            runner.run(run_site())
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


class WebProcesses:
    """More web processes on the same listening socket: the kernel shares the connections out.

    Each has its own store connections and memo; what they share is the database. One that
    dies is started again."""

    def __init__(self, sock: socket.socket, url: str, data: Path, threads: int) -> None:
        self.sock, self.url, self.data, self.threads = sock, url, data, threads
        self.procs: list[subprocess.Popen[bytes]] = []
        self.stopping = threading.Event()
        self.watch: threading.Thread | None = None

    def _spawn(self) -> subprocess.Popen[bytes]:
        fd = self.sock.fileno()
        env = child_environ({DATABASE_URL: self.url})
        # The process stops when its stdin closes: when this one stops it, or dies.
        return subprocess.Popen([sys.executable, "-m", "gamesmaster.serving.process", "--fd", str(fd), "--data",
                                 str(self.data), "--threads", str(self.threads)], pass_fds=(fd,), env=env,
                                stdin=subprocess.PIPE)

    def start(self, count: int) -> None:
        self.procs = [self._spawn() for _ in range(count)]
        self.watch = threading.Thread(target=self._watch, name="gamesmaster-web-processes", daemon=True)
        self.watch.start()

    def _watch(self) -> None:
        while not self.stopping.wait(1.0):
            for i, p in enumerate(self.procs):
                if p.poll() is not None and not self.stopping.is_set():
                    print(f"web process {p.pid} ended ({p.returncode}); starting another", file=sys.stderr, flush=True)
                    self.procs[i] = self._spawn()

    def stop(self) -> None:
        self.stopping.set()
        for p in self.procs:
            if p.stdin is not None:
                p.stdin.close()
        for p in self.procs:
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def database_url(data: Path, paths: Paths | None = None) -> str:
    """The store's URL: the settings' ($GAMESMASTER_DATABASE_URL), else the SQLite file in the data directory data."""
    return default_url(data, paths)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket for host:port; OSError names what is wrong."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, kind, proto, _, addr = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(addr)
    except OSError:
        sock.close()
        raise
    sock.listen(2048)  # connections wait in the queue until uvicorn takes over
    sock.set_inheritable(True)
    return sock


def _write_credentials(data: Path, secrets: SiteSecrets, demo: dict[str, str] | None) -> Path:
    path = data / CREDENTIALS_FILE
    lines = ["# Credentials generated by gamesmaster serve; only their hashes are kept by the site.",
             "# Note them down and delete this file."]
    if secrets.new_gm_credential:
        lines.append(f"GM {secrets.new_gm_credential}")
    for power, secret in (demo or {}).items():
        lines.append(f"{DEMO_GAME} {power.capitalize()} {secret}")
    old = path.read_text(encoding="utf-8").splitlines()[2:] if path.exists() else []
    keep = [l for l in old if not (secrets.new_gm_credential and l.startswith("GM "))
            and not (demo and l.startswith(DEMO_GAME + " "))]
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write("\n".join(lines + keep) + "\n")
    return path


def start_mail(gm: Gamesmaster, host: str, port: int, out: TextIO, config: MailConfig | None = None) -> Any:
    """The e-mail intake (gamesmaster.mail.server.start), if that module exists."""
    try:
        if importlib.util.find_spec("gamesmaster.mail.server") is None:
            return None
    except ModuleNotFoundError:
        return None
    module = importlib.import_module("gamesmaster.mail.server")
    # the settings go only where there are some: without, the door reads its own section (as a bare start did)
    handle = module.start(gm, host, port, **({"config": config} if config is not None else {}))
    print(f"Mail intake: SMTP on {host}:{getattr(handle, 'port', port)}", file=out, flush=True)
    notice = handle.relay_notice() if hasattr(handle, "relay_notice") else None
    if notice:
        print(notice, file=out, flush=True)
    if hasattr(handle, "gm_notice"):
        print(handle.gm_notice(), file=out, flush=True)
    return handle


def stop_mail(handle: Any) -> None:
    for name in ("stop", "close", "shutdown"):
        fn = getattr(handle, name, None)
        if callable(fn):
            fn()
            return


def serve(opts: Options, out: TextIO = sys.stdout) -> int:
    """Run the site until SIGINT or SIGTERM; returns the exit status."""
    from ..web.app import create_app

    # Read once, here; --data is put over $GAMESMASTER_DATA, and each part is handed its section.
    config = opts.config or Config.from_environ()
    config = config.with_paths(data_dir=opts.data)
    data = config.paths.data_dir
    data.mkdir(parents=True, exist_ok=True)
    gm = Gamesmaster.open(database_url(data, config.paths), config=config)
    secrets = load_secrets(data, renew_gm=opts.new_gm_credential, site=config.site)
    demo = None
    if opts.demo and not gm.games.game_ids():
        print("Loading the demo: the 1971 rulebook's sample game ...", file=out, flush=True)
        demo = load_demo(gm)
    sock = bind(opts.host, opts.port)
    host = opts.host if ":" not in opts.host else f"[{opts.host}]"
    port = sock.getsockname()[1]
    url = f"http://{host}:{port}"
    print(f"gamesmaster is serving {url}  (games kept in {gm.desk.place})", file=out)
    if demo:
        print(f"Demo game: {url}/games/{DEMO_GAME}", file=out)
    if secrets.new_gm_credential or demo:
        path = _write_credentials(data, secrets, demo)
        if secrets.new_gm_credential:
            print(f"GM credential (for {url}/gm): {secrets.new_gm_credential}", file=out)
        for power, secret in (demo or {}).items():
            print(f"  {DEMO_GAME} {power.capitalize():8} war room credential: {secret}", file=out)
        print(f"(also written to {path}, readable only by you)", file=out)
    elif config.site.gm_credential:
        print(f"GM credential: the one in ${GM_ENV}", file=out)
    else:
        print(f"GM credential: as printed when {data} was set up (see {data / CREDENTIALS_FILE} if still there); "
              "gamesmaster serve --new-gm-credential makes a new one", file=out)

    daide = None
    if opts.daide:
        from ..daide.server import start as start_daide
        try:
            daide = start_daide(gm, opts.daide, opts.host)
        except (OSError, GMError) as exc:
            sock.close()
            gm.close()
            raise GMError(f"the DAIDE door cannot start: {exc}") from None
        for game, port in daide.ports.items():
            print(f"DAIDE: {game} on {host}:{port} (bots: docs/daide.md)", file=out, flush=True)
    worker = Worker(gm, opts.worker_interval, out)
    poster = Poster(gm)  # games' webhooks: beside the deadline worker, in the one process that runs it
    if opts.worker:
        worker.start()
        poster.start()
    else:
        print("Deadline worker: not in this process (--no-worker); run `gamesmaster worker` beside it", file=out)
    mail = None
    if opts.mail:
        try:
            mail = start_mail(gm, opts.host, opts.smtp_port, out, MailConfig.from_settings(config.mail, config.site))
        except Exception as exc:  # noqa: BLE001 - the site runs without it; say why
            print(f"mail intake not started: {exc}", file=sys.stderr, flush=True)
    helpers = WebProcesses(sock, database_url(data, config.paths), data, opts.threads)
    count = opts.web_processes or default_web_processes()
    if count > 1:
        helpers.start(count - 1)
        print(f"Web processes: {count} on one socket (this one and {count - 1} more)", file=out, flush=True)
    print("Press Ctrl-C to stop.", file=out, flush=True)

    server = site_server(create_app(gm, secrets, settings=config.site))

    try:
        run_server(server, sock, opts.threads)
    finally:
        helpers.stop()
        if worker.is_alive():
            worker.stop()
        if poster.is_alive():
            poster.stop()
        if daide is not None:
            daide.stop()
        if mail is not None:
            try:
                stop_mail(mail)
            except Exception as exc:  # noqa: BLE001
                print(f"mail intake: {exc}", file=sys.stderr)
        sock.close()
        gm.close()
        print("gamesmaster stopped.", file=out, flush=True)
    return 0
