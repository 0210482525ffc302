"""A client that sends its request a byte at a time is cut off, over real sockets to the site's own uvicorn
server (serving.site.site_server); a request that has arrived whole is answered."""

from __future__ import annotations

import contextlib
import socket
import threading
import time

import httpx


@contextlib.contextmanager
def site_on_a_socket(app):
    from gamesmaster.serving.site import bind, site_server

    sock = bind("127.0.0.1", 0)
    server = site_server(app)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    end = time.monotonic() + 30
    while not server.started and time.monotonic() < end:
        time.sleep(0.05)
    try:
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def _closed(conn: socket.socket, until: float) -> bool:
    """Whether the server closes the connection before `until` (dribbling a header byte now and then)."""
    conn.settimeout(0.2)
    while time.monotonic() < until:
        try:
            if conn.recv(1024) == b"":
                return True
        except socket.timeout:
            pass
        except OSError:
            return True
        try:
            conn.sendall(b"X")  # the header goes on, slowly
        except OSError:
            return True
    return False


def test_a_request_that_never_arrives_whole_is_cut_off(app, game, monkeypatch):
    monkeypatch.setattr("gamesmaster.serving.site.REQUEST_SECONDS", 1.0, raising=False)  # 20 s on a real site
    with site_on_a_socket(app) as port:
        slow = []
        for _ in range(40):
            conn = socket.create_connection(("127.0.0.1", port))
            conn.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            slow.append(conn)
        until = time.monotonic() + 20  # a bound for the wait, far above the 1 s deadline
        try:
            assert all(_closed(conn, until) for conn in slow)
        finally:
            for conn in slow:
                conn.close()
        # A body that never arrives whole is cut off too.
        conn = socket.create_connection(("127.0.0.1", port))
        conn.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 1000\r\n\r\n{")
        assert _closed(conn, time.monotonic() + 20)
        conn.close()
        # Whole requests are answered, on a connection kept alive between them.
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            assert http.get("/api/games/club").status_code == 200
            assert http.get("/api/games/club/position").status_code == 200
