"""An optional Prefect automation per deployment: notify a notification block when a run's checks fail.

The ``validate`` task emits ``autodata.checks.failed`` (resource ``autodata.collector.<name>``) when
checks fail; the automation reacts to that event and sends the block's notification (any Prefect
notification block: a custom webhook, Slack, e-mail...). Created at deploy time with
``--notify-block``; re-deploying replaces it (one automation per collector).
"""

from __future__ import annotations

from typing import Any

from prefect_autodata.errors import ConfigError, TerminalError
from prefect_autodata.tasks.events import EVENT, resource_id


def _notification_block(name: str) -> Any:
    """``type-slug/name`` or a custom-webhook block's name -> the loaded block (one clear error)."""
    from prefect.blocks.core import Block
    from prefect.blocks.notifications import CustomWebhookNotificationBlock

    try:
        return Block.load(name) if "/" in name else CustomWebhookNotificationBlock.load(name)
    except ValueError as exc:
        raise ConfigError(
            f"--notify-block: no notification block {name!r} (give 'type-slug/name', or the name of a "
            "Custom Webhook block)"
        ) from exc


def automation_name(collector: str) -> str:
    return f"autodata {collector}: failed checks"


def ensure_failed_checks_automation(collector: str, notify_block: str) -> str:
    """Create (or replace) the automation for ``collector``; returns its id."""
    from datetime import timedelta

    from prefect.automations import Automation
    from prefect.events.actions import SendNotification
    from prefect.events.schemas.automations import EventTrigger, Posture

    block = _notification_block(notify_block)
    block_id = getattr(block, "_block_document_id", None)
    if block_id is None:
        raise ConfigError(f"--notify-block: {notify_block!r} is not a saved block")
    name = automation_name(collector)
    try:
        Automation.read(name=name).delete()
    except (ValueError, Exception):  # none yet
        pass
    try:
        created = Automation(
            name=name,
            description=f"Notify {notify_block} when a run of {collector} fails its checks.",
            trigger=EventTrigger(
                expect={EVENT},
                match={"prefect.resource.id": resource_id(collector)},
                posture=Posture.Reactive,
                threshold=1,
                within=timedelta(0),
            ),
            actions=[
                SendNotification(
                    block_document_id=block_id,
                    subject=f"autodata: {collector} failed its checks",
                    body=(
                        f"Collector {collector}: checks {{{{ event.payload.status }}}} under policy "
                        "{{ event.payload.policy }} in run {{ event.payload.run_id }}; failed: "
                        "{{ event.payload.failed | join(', ') }}"
                    ),
                )
            ],
        ).create()
    except Exception as exc:
        raise TerminalError(f"could not create the failed-checks automation for {collector}: {exc}") from exc
    return str(created.id)
