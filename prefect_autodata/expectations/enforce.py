"""Enforcement at landing: run GE and/or pandera on a batch, normalise the results, apply the policy.

The runtime calls ``enforce`` before writing anything; it lands ``result.good``, writes
``result.quarantined`` to ``<table>__quarantine`` and ``result.results`` to ``_autodata_checks``.

Policy: ``fail`` lands nothing when an error-severity check fails; ``quarantine`` moves the rows
that row-level checks blame aside and lands the rest (a failing table-level check, such as a
missing column or an incomplete key set, cannot be pinned on rows, so the batch fails); ``warn``
lands everything and records the failures. Warn-severity checks never block.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import sys
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pandas as pd

from prefect_autodata.errors import ConfigError
from prefect_autodata.expectations.custom import (
    checked_columns,
    for_validation,
    prime_intermediates,
    profile,
    shared_intermediates,
)
from prefect_autodata.expectations.results import CheckResult
from prefect_autodata.expectations.spec import CheckSpec
from prefect_autodata.runtime.columns import FAILED_CHECKS
from prefect_autodata.workspace import Workspace

Status = Literal["passed", "warned", "quarantined", "failed"]
FAILED_CHECKS_COLUMN = FAILED_CHECKS
#: from this many rows on, ``enforce`` runs the two engines concurrently by default
PARALLEL_MIN_ROWS = 100_000
__all__ = ["EnforcementResult", "enforce", "profile", "FAILED_CHECKS_COLUMN", "PARALLEL_MIN_ROWS"]


@dataclass
class EnforcementResult:
    """What landing needs: the rows to land, the rows to set aside (with reasons), and the verdict."""

    good: pd.DataFrame
    quarantined: pd.DataFrame
    checks: list[CheckResult]
    status: Status
    run_id: str
    policy: str
    profile: dict[str, Any] = field(default_factory=dict)
    docs_path: Path | None = None
    gx_result: Any = field(default=None, repr=False)

    @property
    def results(self) -> list[dict[str, Any]]:
        """One dict per (check, engine): check, engine, passed, observed, failing_rows (+ severity, kind, message)."""
        return [c.as_row() for c in self.checks]

    @property
    def failed(self) -> list[CheckResult]:
        return [c for c in self.checks if not c.passed]

    def failed_names(self) -> list[str]:
        return sorted({c.check for c in self.failed})

    def summary(self) -> str:
        failed = self.failed_names()
        head = f"{self.status}: {len(self.good)} rows to land, {len(self.quarantined)} quarantined"
        return head + (f"; failed checks: {', '.join(failed)}" if failed else "")


def enforce(
    df: pd.DataFrame,
    checks: CheckSpec,
    *,
    engines: Literal["both", "gx", "pandera"] = "both",
    policy: Literal["fail", "quarantine", "warn"] | None = None,
    previous: dict | None = None,
    workspace: Workspace | None = None,
    run_id: str | None = None,
    parallel: bool | None = None,
) -> EnforcementResult:
    """Validate ``df`` against ``checks`` with the chosen engines and split it by the policy.

    ``previous`` is ``profile()`` of the last landed batch (drift checks need it). With a
    ``workspace`` the run's Data Docs page is built and its path returned in ``docs_path``.
    ``parallel`` runs pandera in a forked child while GE runs here, so a large batch costs the
    slower engine's time instead of the sum (default: on for ``PARALLEL_MIN_ROWS`` rows or more
    with both engines, where ``fork`` exists and a core is idle); the results are the same either way.
    """
    if engines not in ("both", "gx", "pandera"):
        raise ConfigError(f"engines must be 'both', 'gx' or 'pandera', not {engines!r}")
    policy = policy or checks.policy
    if policy not in ("fail", "quarantine", "warn"):
        raise ConfigError(f"policy must be 'fail', 'quarantine' or 'warn', not {policy!r}")
    if not isinstance(df, pd.DataFrame):
        raise ConfigError(f"enforce needs a pandas DataFrame, got {type(df).__name__}")
    run_id = run_id or uuid.uuid4().hex[:12]
    frame = df.reset_index(drop=True)
    columns = [str(c) for c in frame.columns]
    # same rows and positions; good/quarantined come from ``frame``
    vframe = for_validation(frame, only=checked_columns(checks))

    if parallel is None:
        parallel = engines == "both" and len(frame) >= PARALLEL_MIN_ROWS and _idle_core()
    parallel = parallel and engines == "both" and _can_fork()

    results: list[CheckResult] = []
    gx_result = None
    with shared_intermediates():
        if parallel:
            prime_intermediates(vframe, checks)  # hashed once, inherited by the child
        child = _PanderaChild(frame, vframe, checks, previous, columns) if parallel else None
        pandera_results: list[CheckResult] | None = None
        gx_results: list[CheckResult] = []
        batch_profile: dict[str, Any] | None = None
        try:
            if engines in ("both", "pandera") and child is None:
                pandera_results = _validate_pandera(vframe, checks, previous, columns)
            if engines in ("both", "gx"):
                from prefect_autodata.expectations.to_gx import validate_gx

                gx_results, gx_result = validate_gx(
                    vframe, checks, previous=previous, columns=columns, run_id=run_id
                )
            if child is not None:
                pandera_results, batch_profile = child.collect()
                if pandera_results is None:  # the child failed: run (and raise) here, as sequentially
                    pandera_results = _validate_pandera(vframe, checks, previous, columns)
        finally:
            if child is not None:
                child.close()
        results += (pandera_results or []) + gx_results

    status, bad_rows = _verdict(results, policy, len(frame))
    if status == "failed":
        good, quarantined = frame.iloc[0:0], _with_reasons(frame.iloc[0:0], {})
    elif bad_rows:
        reasons = _reasons(results)
        mask = frame.index.isin(sorted(bad_rows))
        good = frame.loc[~mask]
        quarantined = _with_reasons(frame.loc[mask], reasons)
    else:
        good, quarantined = frame, _with_reasons(frame.iloc[0:0], {})

    result = EnforcementResult(
        good=good,
        quarantined=quarantined,
        checks=results,
        status=status,
        run_id=run_id,
        policy=policy,
        profile=batch_profile if batch_profile is not None else profile(frame, view=vframe),
        gx_result=gx_result,
    )
    if workspace is not None:  # callers that want the reports in one call; the run pipeline reports itself
        report_result(result, checks, workspace)
    return result


def report_result(result: EnforcementResult, checks: CheckSpec, workspace: Workspace) -> EnforcementResult:
    """The reports of a validation: the Data Docs page (its path in ``result.docs_path``), the workspace's
    run record and the Prefect artifact. Validation itself (``enforce``) writes nothing."""
    from prefect_autodata.expectations import report

    if result.gx_result is not None:
        result.docs_path = report.build_data_docs(
            result.gx_result, checks, workspace, run_id=result.run_id, status=result.status
        )
    report.record_run(result, checks, workspace)
    report.publish_artifact(result, checks)
    return result


def _validate_pandera(vframe, checks, previous, columns) -> list[CheckResult]:
    from prefect_autodata.expectations.to_pandera import validate_pandera

    return validate_pandera(vframe, checks, previous=previous, columns=columns)


def _can_fork() -> bool:
    """Fork is cheap (copy-on-write frame) on Linux; daemonic processes may not have children."""
    return (
        sys.platform == "linux"
        and "fork" in mp.get_all_start_methods()
        and _cores() > 1
        and not mp.current_process().daemon
    )


def _idle_core() -> bool:
    """A second process only pays off with a core to spare; on a saturated machine the fork costs
    CPU (copy-on-write faults) and saves no wall time.

    Judged by the processes running right now (``/proc/loadavg``, this one included), not the
    1-minute load average, which still counts this process's own work of the last minute (a
    landing that just used every core reads as a busy machine).
    """
    cores = _cores()
    try:
        with open("/proc/loadavg", encoding="ascii") as fh:
            running = int(fh.read().split()[3].split("/")[0])
        return running - 1 < cores
    except (OSError, ValueError, IndexError):  # no /proc: the load average is all there is
        pass
    try:
        return os.getloadavg()[0] <= cores - 1
    except OSError:
        return True


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class _PanderaChild:
    """pandera on the validation view in a forked child; only the normalised results come back.

    The child shares the frame copy-on-write (nothing is pickled on the way in) and sends a
    list of ``CheckResult`` (failing row positions included) and the batch's drift profile
    through a pipe. Any failure in
    the child (an exception, a crash, a kill) yields ``None`` from ``collect`` so the caller
    validates in-process and the user sees exactly what a sequential run would show.
    """

    def __init__(
        self,
        frame: pd.DataFrame,
        vframe: pd.DataFrame,
        checks: CheckSpec,
        previous: dict | None,
        columns: list[str],
    ):
        ctx = mp.get_context("fork")
        self._recv, send = ctx.Pipe(duplex=False)

        def run() -> None:
            try:
                # the drift profile rides along: it costs the parent nothing while GE runs there
                payload: Any = (
                    _validate_pandera(vframe, checks, previous, columns),
                    profile(frame, view=vframe),
                )
            except BaseException:  # reported by the in-process rerun, with its real traceback
                payload = None
            try:
                send.send(payload)
            except (OSError, ValueError, TypeError):  # parent gone, or unpicklable: parent reruns
                pass
            send.close()

        self._proc = ctx.Process(target=run, name="autodata-pandera", daemon=True)
        self._proc.start()
        send.close()  # the parent keeps only the reading end, so a dead child reads as EOF

    def collect(self) -> tuple[list[CheckResult] | None, dict[str, Any] | None]:
        """(pandera's results, the batch profile), or (None, None) if the child failed."""
        try:
            payload = self._recv.recv()
        except (EOFError, OSError):
            payload = None
        self._recv.close()
        self.close()
        if isinstance(payload, tuple) and len(payload) == 2 and isinstance(payload[0], list):
            return payload[0], payload[1]
        return None, None

    def close(self) -> None:
        """Reap the child; one still running (the parent failed first) is stopped, not left behind."""
        if not self._recv.closed:  # not collected: the parent gave up first
            self._recv.close()
            self._proc.terminate()
        self._proc.join()


def _verdict(results: list[CheckResult], policy: str, n_rows: int) -> tuple[Status, set[int]]:
    """Decide the run status and which row positions to quarantine."""
    blocking = [r for r in results if not r.passed and r.severity == "error"]
    warned = [r for r in results if not r.passed and r.severity == "warn"]
    if not blocking:
        return ("warned" if warned else "passed"), set()
    if policy == "warn":
        return "warned", set()
    if policy == "fail":
        return "failed", set()
    bad: set[int] = set()
    for r in blocking:
        if not r.failing_index:
            return "failed", set()  # table-level failure: rows cannot be blamed
        bad.update(r.failing_index)
    if len(bad) >= n_rows:
        return "failed", set()
    return "quarantined", bad


def _reasons(results: list[CheckResult]) -> dict[int, set[str]]:
    out: dict[int, set[str]] = {}
    for r in results:
        if not r.passed and r.severity == "error":
            for i in r.failing_index:
                out.setdefault(i, set()).add(r.check)
    return out


def _with_reasons(rows: pd.DataFrame, reasons: dict[int, set[str]]) -> pd.DataFrame:
    rows = rows.copy()
    rows[FAILED_CHECKS_COLUMN] = pd.Series(
        [",".join(sorted(reasons.get(i, ()))) for i in rows.index], index=rows.index, dtype="object"
    )
    return rows
