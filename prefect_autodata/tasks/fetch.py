"""The ``fetch`` task: run a spec's requests (retried by Prefect only for transient errors)."""

from __future__ import annotations

from prefect import task

from prefect_autodata.errors import TransientError
from prefect_autodata.flows.run_collector import fetch_step


def transient_only(task, task_run, state) -> bool:
    """Retry policy: timeouts, 5xx and 429 are worth another try; bad specs and 4xx are not."""
    exc = state.data if isinstance(state.data, BaseException) else None
    if exc is None:
        try:
            exc = state.result(raise_on_failure=False)
        except Exception:
            return False
    return isinstance(exc, TransientError)


fetch_task = task(
    fetch_step, name="fetch", retries=2, retry_delay_seconds=[5, 30], retry_condition_fn=transient_only
)
