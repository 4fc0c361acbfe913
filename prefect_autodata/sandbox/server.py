"""Run the sandbox app with uvicorn: in the foreground (CLI) or in a background thread (tests, --sandbox)."""

from __future__ import annotations

import socket
import threading
import time

import uvicorn

from prefect_autodata.errors import TerminalError
from prefect_autodata.sandbox.app import build_app


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


class SandboxServer:
    """A live sandbox on a real socket; use as a context manager. ``base_url`` has no trailing slash."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, chaos: str = "none", seed: int = 0) -> None:
        self.host = host
        self.port = port or free_port(host)
        self.chaos = chaos
        self.seed = seed
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> SandboxServer:
        app = build_app(chaos=self.chaos, seed=self.seed)
        config = uvicorn.Config(app, host=self.host, port=self.port, log_level="warning", access_log=False)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name="autodata-sandbox", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise TerminalError(f"sandbox failed to start on {self.base_url}")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)

    def __enter__(self) -> SandboxServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def serve_forever(host: str = "127.0.0.1", port: int = 8765, chaos: str = "none", seed: int = 0) -> None:
    """Foreground server for ``autodata sandbox serve``."""
    uvicorn.run(build_app(chaos=chaos, seed=seed), host=host, port=port, log_level="info")
