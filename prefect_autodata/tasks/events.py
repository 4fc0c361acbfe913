"""The event the ``validate`` task emits when a run's checks fail (``autodata.checks.failed``, resource
``autodata.collector.<name>``); the optional per-deployment automation (``deployments/automation.py``)
listens for it."""

from __future__ import annotations

EVENT = "autodata.checks.failed"


def resource_id(collector: str) -> str:
    return f"autodata.collector.{collector}"


def emit_failed_checks(
    collector: str, *, run_id: str, policy: str | None, status: str | None, failed: list[str]
) -> None:
    """The event the automation listens for (inside a flow run; a no-op without a Prefect API)."""
    from prefect.events import emit_event

    emit_event(
        event=EVENT,
        resource={"prefect.resource.id": resource_id(collector), "prefect.resource.name": collector},
        payload={"run_id": run_id, "policy": policy, "status": status, "failed": failed},
    )
