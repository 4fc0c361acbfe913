"""One real ``prefect server`` and one process worker per e2e session, on loopback, in a temp PREFECT_HOME.

The server takes tens of seconds to migrate a fresh SQLite database on this machine, so it is
shared; logs of both processes go to ``test-artifacts/`` for diagnosis. The worker is stopped
before the server (a worker whose API vanishes spins on reconnects).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from prefect_autodata.deployments.deploy import PROCESS_POOL
from prefect_autodata.sandbox.server import free_port

PREFECT = str(Path(sys.executable).with_name("prefect"))
STARTUP_S = 240


def _stop(proc: subprocess.Popen, timeout: float = 20) -> None:
    """SIGTERM the process group we started, then SIGKILL it if it lingers."""
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def _wait_healthy(url: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"prefect server exited ({proc.returncode}); see {log}")
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"prefect server not healthy after {STARTUP_S}s; see {log}")


@pytest.fixture(scope="session")
def prefect_env(tmp_path_factory) -> dict[str, str]:
    """Environment every process of the harness shares (server, worker, CLI subprocesses)."""
    home = tmp_path_factory.mktemp("prefect-home")
    port = free_port()
    api = f"http://127.0.0.1:{port}/api"
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PREFECT_", "AUTODATA_SECRET_", "AUTODATA_WORKSPACE"))
    }
    env.update(
        PREFECT_HOME=str(home),
        PREFECT_API_URL=api,
        PREFECT_UI_API_URL=api,
        PREFECT_API_DATABASE_CONNECTION_URL=f"sqlite+aiosqlite:///{home}/prefect.db",
        PREFECT_SERVER_ANALYTICS_ENABLED="false",
        DO_NOT_TRACK="1",
        PREFECT_WORKER_QUERY_SECONDS="1",
        PREFECT_SERVER_API_PORT=str(port),
        PREFECT_LOGGING_LEVEL="INFO",
    )
    return env


@pytest.fixture(scope="session")
def prefect_server(prefect_env, artifacts_dir):
    """``prefect server start`` on a free loopback port; yields the API URL (``.../api``)."""
    from prefect.settings import PREFECT_API_URL, temporary_settings

    api = prefect_env["PREFECT_API_URL"]
    port = prefect_env["PREFECT_SERVER_API_PORT"]
    log = artifacts_dir / "prefect-server.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [PREFECT, "server", "start", "--host", "127.0.0.1", "--port", port],
            env=prefect_env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        _wait_healthy(api, proc, log)
        with temporary_settings(updates={PREFECT_API_URL: api}):
            yield api
    finally:
        _stop(proc)


@pytest.fixture(scope="session")
def prefect_worker(prefect_server, prefect_env, artifacts_dir):
    """A process worker polling the autodata pool every second (the pool is created if missing)."""
    log = artifacts_dir / "prefect-worker.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [PREFECT, "worker", "start", "--pool", PROCESS_POOL, "--type", "process", "--name", "e2e-worker"],
            env=prefect_env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + STARTUP_S
        while "started" not in log.read_text().lower():
            if proc.poll() is not None:
                raise RuntimeError(f"prefect worker exited ({proc.returncode}); see {log}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"prefect worker did not start in {STARTUP_S}s; see {log}")
            time.sleep(0.5)
        yield proc
    finally:
        _stop(proc)
