"""The run logger of the current task (plain ``logging`` outside Prefect), so every task says what it did."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from prefect_autodata.errors import redact_secrets

MAX_LISTED = 20  # URLs and checks named one per line at most; the rest are counted


def run_logger() -> logging.Logger | logging.LoggerAdapter:
    from prefect.exceptions import MissingContextError
    from prefect.logging import get_run_logger

    try:
        return get_run_logger()
    except MissingContextError:
        return logging.getLogger("prefect_autodata")


def listed(items: Iterable[str], limit: int = MAX_LISTED) -> str:
    """``a, b, c and 12 more``: a readable bounded list for one log line."""
    items = [redact_secrets(str(i)) for i in items]
    head = items[:limit]
    more = f" and {len(items) - limit} more" if len(items) > limit else ""
    return ", ".join(head) + more
