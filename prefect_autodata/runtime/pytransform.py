"""The ``python`` escape hatch: ``def transform(rows) -> rows`` run in a locked-down subprocess.

A spec is data that a scheduler reruns unattended, so code inside it gets no secrets (a scrubbed
environment), no network (a fresh network namespace via ``unshare -n`` when the kernel allows it,
and always an audit hook refusing sockets and new processes), a wall-clock timeout and an address-
space limit. Rows travel as JSON on stdin/stdout.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Any

from prefect_autodata.errors import TerminalError
from prefect_autodata.runtime.spec import PythonStep

_CHILD = r"""
import json, sys
payload = json.loads(sys.stdin.buffer.read())
_BLOCKED = ("socket.", "subprocess.", "os.system", "os.exec", "os.posix_spawn", "os.fork", "os.spawn", "pty.")
def _guard(event, args):
    if event.startswith(_BLOCKED):
        raise PermissionError(f"python step: {event} is not allowed (no network, no processes)")
sys.addaudithook(_guard)
_out, sys.stdout = sys.stdout, sys.stderr  # prints from the step must not corrupt the rows
ns = {"__name__": "autodata_step"}
exec(compile(payload["code"], "<spec python step>", "exec"), ns)
fn = ns.get("transform")
if not callable(fn):
    raise SystemExit("python step: the code must define transform(rows) -> rows")
out = fn(payload["rows"])
if not isinstance(out, list) or not all(isinstance(r, dict) for r in out):
    raise SystemExit("python step: transform(rows) must return a list of dicts")
_out.write(json.dumps(out, default=str))
"""


@functools.cache
def _unshare_prefix() -> tuple[str, ...]:
    """``unshare -n`` (root) or ``unshare -rn`` (user namespaces), whichever works here; else nothing."""
    exe = shutil.which("unshare")
    if not exe:
        return ()
    for flags in (("-n",), ("-rn",)):
        try:
            ok = subprocess.run([exe, *flags, "true"], capture_output=True, timeout=5).returncode == 0
        except (OSError, subprocess.SubprocessError):
            ok = False
        if ok:
            return (exe, *flags)
    return ()


def _limits(memory_mb: int):
    def apply() -> None:
        import resource

        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply


def run_python_step(step: PythonStep, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Run the step on ``rows``; any failure is a TerminalError with the step's own last error line."""
    payload = json.dumps({"code": step.code, "rows": rows}, default=str).encode()
    with tempfile.TemporaryDirectory(prefix="autodata-step-") as home:
        env = {"PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}
        cmd = [*_unshare_prefix(), sys.executable, "-I", "-c", _CHILD]
        try:
            proc = subprocess.run(
                cmd,
                input=payload,
                capture_output=True,
                timeout=step.timeout_s,
                env=env,
                cwd=home,
                preexec_fn=_limits(step.memory_mb) if os.name == "posix" else None,
            )
        except subprocess.TimeoutExpired as exc:
            raise TerminalError(
                f"python step timed out after {step.timeout_s:g}s (python.timeout_s)"
            ) from exc
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        last = err[-1] if err else f"exit code {proc.returncode}"
        if "MemoryError" in last or proc.returncode in (-9, 137):
            last = f"{last} (python.memory_mb={step.memory_mb})"
        raise TerminalError(f"python step failed: {last}")
    try:
        return json.loads(proc.stdout)
    except ValueError as exc:
        raise TerminalError("python step did not return JSON-serialisable rows") from exc
