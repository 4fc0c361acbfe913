"""Shared, expensive fixtures: one sandbox per session; markers follow the folder a test lives in."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("DO_NOT_TRACK", "1")
# a flow run without PREFECT_API_URL starts one ephemeral server per test process (shared by every test of
# it); on a loaded CI machine its first start takes longer than Prefect's 20 s default
os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "300")

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "requires_real_data: needs the real Instruct2DS/SWDE records; skipped on generated ones"
    )


def real_data_missing() -> str | None:
    """Why a test that needs the real records cannot run here (None when they are present)."""
    from prefect_autodata.sandbox import data, records

    if data.is_generated():
        return "needs the real Instruct2DS records (../shared/instruct2ds or AUTODATA_DATA_DIR)"
    if records.is_generated():
        return "needs the real SWDE records (../shared/records or AUTODATA_RECORDS_DIR)"
    return None


def pytest_collection_modifyitems(config, items):
    missing: list[str | None] = []
    for item in items:
        parts = Path(str(item.fspath)).parts
        for marker in ("unit", "integration", "e2e"):
            if marker in parts:
                item.add_marker(getattr(pytest.mark, marker))
        if item.get_closest_marker("requires_real_data"):
            if not missing:
                missing.append(real_data_missing())
            if missing[0]:
                item.add_marker(pytest.mark.skip(reason=missing[0]))


@pytest.fixture(scope="session")
def sandbox():
    """A live sandbox (chaos none) on a free loopback port for the whole session."""
    from prefect_autodata.sandbox.server import SandboxServer

    with SandboxServer() as server:
        yield server


@pytest.fixture(scope="session")
def sandbox_url(sandbox) -> str:
    return sandbox.base_url


@pytest.fixture()
def prefect_api_url() -> str:
    """The Prefect API of this test process, for ``autodata`` subprocesses that run a flow: pass it as
    PREFECT_API_URL and the child talks to the session's server instead of starting an ephemeral one of its
    own (a server start is ~25 s of CPU: Prefect's server app imported, its database opened).

    PREFECT_API_URL when set (the e2e harness), else this process's ephemeral server, started once and shared
    with every in-process flow run; started again if a test stopped it (``deployments.dask`` stops the one
    it started)."""
    from prefect.settings import PREFECT_API_URL

    if url := PREFECT_API_URL.value():
        return url
    from prefect.server.api.server import SubprocessASGIServer

    server = SubprocessASGIServer()  # the instance Prefect's own client uses without an API URL
    server.start(timeout=300)
    return server.api_url


@pytest.fixture()
def workspace(tmp_path, monkeypatch):
    from prefect_autodata.workspace import Workspace

    monkeypatch.setenv("AUTODATA_WORKSPACE", str(tmp_path / "ws"))
    return Workspace(tmp_path / "ws").ensure()


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
