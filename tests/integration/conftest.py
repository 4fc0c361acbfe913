"""Loopback test servers for integration tests: one way to serve a test's own site on 127.0.0.1.

``serve(app)`` (per test) and ``loopback(app)`` (per session, for module fixtures) take either an ASGI
app (Starlette, served by uvicorn on a daemon thread) or an ``http.server`` request handler class
(served by a ``ThreadingHTTPServer``), return the base URL once the socket accepts connections, and stop
the servers they started when their scope ends.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


class _Servers:
    def __init__(self) -> None:
        self._stops: list[Callable[[], None]] = []

    def start(self, app: Any) -> str:
        if isinstance(app, type) and issubclass(app, BaseHTTPRequestHandler):
            httpd = ThreadingHTTPServer(("127.0.0.1", 0), app)
            thread = threading.Thread(target=httpd.serve_forever, name=app.__name__, daemon=True)
            thread.start()

            def stop() -> None:
                httpd.shutdown()
                httpd.server_close()
                thread.join(timeout=10)

            self._stops.append(stop)
            return f"http://127.0.0.1:{httpd.server_address[1]}"
        from prefect_autodata.sandbox.server import free_port, start_in_thread, stop_thread

        port = free_port()
        server, thread = start_in_thread(app, "127.0.0.1", port, name=f"loopback-{port}")
        self._stops.append(lambda: stop_thread(server, thread))
        return f"http://127.0.0.1:{port}"

    def stop_all(self) -> None:
        while self._stops:
            self._stops.pop()()


@pytest.fixture
def serve() -> Iterator[Callable[[Any], str]]:
    """``serve(app_or_handler) -> base URL``; the servers stop when the test ends."""
    servers = _Servers()
    yield servers.start
    servers.stop_all()


@pytest.fixture(scope="session")
def loopback() -> Iterator[Callable[[Any], str]]:
    """``loopback(app_or_handler) -> base URL`` for module- or session-scoped fixtures; stopped at the end."""
    servers = _Servers()
    yield servers.start
    servers.stop_all()
