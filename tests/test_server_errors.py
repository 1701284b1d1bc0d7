"""After a 500 the kept-alive connection is closed cleanly, announced by `Connection: close`
(issue 13, finding 3: uvicorn dropped it silently, and a client's next request on it went
unanswered). Served by a real uvicorn, read on a raw socket."""

import socket
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient


@pytest.fixture
def served(client: TestClient) -> Iterator[int]:
    """The test app, with a route that fails, served by uvicorn on a free port."""
    app: FastAPI = client.app  # type: ignore[assignment]

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("boom")

    app.router.routes.insert(0, app.router.routes.pop())
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="critical", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started
    yield port
    server.should_exit = True
    thread.join(timeout=10)


def exchange(sock: socket.socket, path: str) -> bytes:
    """One HTTP/1.1 request on `sock` (kept alive), and what came back until the answer's
    end or the connection's."""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body


def test_a_500_says_connection_close_and_the_next_request_is_answered(served: int) -> None:
    with socket.create_connection(("127.0.0.1", served), timeout=5) as sock:
        healthy = exchange(sock, "/healthz")
        assert healthy.startswith(b"HTTP/1.1 200")
        failed = exchange(sock, "/boom")
        assert failed.startswith(b"HTTP/1.1 500")
        assert b"\r\nconnection: close\r\n" in failed.lower()
        assert sock.recv(1) == b""  # then closed, as announced
    # A client that honours the header opens a new connection: answered.
    with socket.create_connection(("127.0.0.1", served), timeout=5) as sock:
        assert exchange(sock, "/healthz").startswith(b"HTTP/1.1 200")
