"""Terminal UX shared by ``autodata collect`` and ``autodata demo``: live progress and the closing summary.

Everything goes to stderr so ``--json`` keeps stdout to one JSON object. Progress is a callable
``(stage, message)`` (the shape ``flows.collect.collect`` reports through); it counts agent steps,
pages and rows from the messages it sees so the status line shows them while agents work.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.table import Table

from prefect_autodata.errors import redact_secrets

_PAGES = re.compile(r"\b(\d+)\s+(?:pages?|requests?|responses?)\b")
_ROWS = re.compile(r"\b(\d+)\s+(?:rows?|records?)\b")


class LiveProgress:
    """A Rich status line (stage, agent steps, pages, rows, elapsed) plus one log line per message."""

    def __init__(self, console: Console | None = None, *, title: str = "autodata") -> None:
        self.console = console or Console(stderr=True)
        self.title = title
        self.steps = 0
        self.pages = 0
        self.rows = 0
        self.stage = "starting"
        self._t0 = time.monotonic()
        self._status: Any = None

    def __enter__(self) -> LiveProgress:
        if self.console.is_terminal:
            self._status = self.console.status(self._line(), spinner="dots")
            self._status.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._status is not None:
            self._status.__exit__(None, None, None)
            self._status = None

    def _line(self) -> str:
        return (
            f"[bold]{self.title}[/] {self.stage}: {self.steps} agent steps, {self.pages} pages, "
            f"{self.rows} rows, {time.monotonic() - self._t0:.0f}s"
        )

    def __call__(self, stage: str, message: str) -> None:
        message = redact_secrets(message)
        if stage != self.stage:
            self.steps += 1
        self.stage = stage
        if m := _PAGES.search(message):
            self.pages = max(self.pages, int(m.group(1)))
        if m := _ROWS.search(message):
            self.rows = max(self.rows, int(m.group(1)))
        self.console.print(f"[dim]{stage:>11}[/] {message}", highlight=False)
        if self._status is not None:
            self._status.update(self._line())


def summary_table(title: str, items: Iterable[tuple[str, Any]]) -> Table:
    """Two columns, label -> value; empty values are left out."""
    table = Table(title=title, show_header=False, title_justify="left", expand=False)
    table.add_column(style="bold")
    table.add_column(overflow="fold")
    for label, value in items:
        if value is None or value == "":
            continue
        table.add_row(label, str(value))
    return table


def print_summary(title: str, items: Iterable[tuple[str, Any]], console: Console | None = None) -> None:
    (console or Console(stderr=True)).print(summary_table(title, items))
