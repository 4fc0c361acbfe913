"""The spec's python escape hatch: runs code on rows, but with no network, no secrets, bounded time and memory."""

from __future__ import annotations

import pytest

from prefect_autodata.errors import TerminalError
from prefect_autodata.runtime.pytransform import run_python_step
from prefect_autodata.runtime.spec import PythonStep


def step(code: str, **kw) -> PythonStep:
    return PythonStep(code=code, **kw)


def test_transforms_rows_and_prints_do_not_corrupt_output():
    code = "def transform(rows):\n    print('debug')\n    return [dict(r, y=r['x'] * 2) for r in rows]"
    assert run_python_step(step(code), [{"x": 1}, {"x": 2}]) == [{"x": 1, "y": 2}, {"x": 2, "y": 4}]


def test_network_is_refused():
    code = (
        "import socket\n"
        "def transform(rows):\n"
        "    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n"
        "    s.connect(('127.0.0.1', 9))\n"
        "    return rows"
    )
    with pytest.raises(TerminalError, match="socket"):
        run_python_step(step(code), [])


def test_secrets_are_not_inherited(monkeypatch):
    monkeypatch.setenv("AUTODATA_SECRET_API_TOKEN", "do-not-leak")
    code = "import os\ndef transform(rows):\n    return [{'k': k, 'v': v} for k, v in os.environ.items()]"
    env = {r["k"]: r["v"] for r in run_python_step(step(code), [])}
    assert "AUTODATA_SECRET_API_TOKEN" not in env
    assert "do-not-leak" not in env.values()


def test_timeout_and_memory_limits():
    with pytest.raises(TerminalError, match="timed out after 1s"):
        run_python_step(step("def transform(rows):\n    while True: pass", timeout_s=1), [])
    with pytest.raises(TerminalError, match="memory_mb=128"):
        run_python_step(
            step("def transform(rows):\n    b = bytearray(1024**3)\n    return rows", memory_mb=128), []
        )


def test_bad_return_value_is_one_clear_error():
    with pytest.raises(TerminalError, match="must return a list of dicts"):
        run_python_step(step("def transform(rows):\n    return 3"), [])
