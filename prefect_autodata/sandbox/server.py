"""Run the sandbox app with uvicorn: in the foreground (CLI) or in a background thread (tests, --sandbox)."""

from __future__ import annotations

import os
import secrets
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


def start_in_thread(app, host: str, port: int, *, name: str) -> tuple[uvicorn.Server, threading.Thread]:
    """Serve an ASGI app on a daemon thread and return once the socket accepts connections."""
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False))
    thread = threading.Thread(target=server.run, name=name, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise TerminalError(f"{name} failed to start on http://{host}:{port}")
        time.sleep(0.02)
    return server, thread


def stop_thread(server: uvicorn.Server | None, thread: threading.Thread | None) -> None:
    """Ask a server started by ``start_in_thread`` to exit and wait for its thread."""
    if server is not None:
        server.should_exit = True
    if thread is not None:
        thread.join(timeout=10)


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
        self._server, self._thread = start_in_thread(app, self.host, self.port, name="autodata-sandbox")
        return self

    def stop(self) -> None:
        stop_thread(self._server, self._thread)

    def __enter__(self) -> SandboxServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def serve_forever(host: str = "127.0.0.1", port: int = 8765, chaos: str = "none", seed: int = 0) -> None:
    """Foreground server for ``autodata sandbox serve``."""
    uvicorn.run(build_app(chaos=chaos, seed=seed), host=host, port=port, log_level="info")


def sandbox_secrets(spec) -> None:
    """Runs against the local sandbox: every secret the spec needs is a token the sandbox accepts.

    Unset secrets get a throwaway token; set ones are added to the accepted list as they are.
    """
    from prefect_autodata.runtime.spec import secret_names

    tokens = [t for t in os.environ.get("AUTODATA_SANDBOX_TOKENS", "").split(",") if t]
    for name in secret_names(spec):
        key = f"AUTODATA_SECRET_{name.upper()}"
        if not os.environ.get(key):
            os.environ[key] = secrets.token_hex(20)
        tokens.append(os.environ[key])
    os.environ["AUTODATA_SANDBOX_TOKENS"] = ",".join(dict.fromkeys(tokens))
