"""Terminal UX shared by ``autodata collect``, ``run`` and ``demo``: live progress and the closing summary.

Everything goes to stderr so ``--json`` keeps stdout to one JSON object. Progress is a callable
``(stage, message)`` (the shape ``flows.collect.collect`` reports through); it counts agent steps,
pages and rows from the messages it sees. The status line is a ``rich.progress`` bar whose elapsed
column ticks on its own (it never freezes while a step works); rows read from agents' samples are
labelled estimates until a run says how many landed. Long paths and URLs are never broken mid-token:
a value wider than the terminal is printed on its own line (terminals wrap it whole; copy still works).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from prefect_autodata.errors import redact_secrets

_PAGES = re.compile(r"\b(\d+)\s+(?:pages?|requests?|responses?|URLs?)\b")
_ROWS = re.compile(r"\b(\d+)\s+(?:rows?|records?)\b")
_LANDED = re.compile(r"\b(?:landed\s+(\d+)\s+rows?|(\d+)\s+rows?\s+(?:landed|in\s+\S+$))")


class LiveProgress:
    """A live status line (stage, agent steps, pages, rows, elapsed) plus one log line per message."""

    def __init__(self, console: Console | None = None, *, title: str = "autodata") -> None:
        self.console = console or Console(stderr=True)
        self.title = title
        self.steps = 0
        self.pages = 0
        self.rows = 0
        self.rows_landed: int | None = None
        self.stage = "starting"
        self._progress: Progress | None = None
        self._task: Any = None

    def __enter__(self) -> LiveProgress:
        if self.console.is_terminal:
            self._progress = Progress(
                SpinnerColumn(),
                TextColumn("{task.description}"),
                TimeElapsedColumn(),
                console=self.console,
                transient=True,
                refresh_per_second=4,
            )
            self._progress.__enter__()
            self._task = self._progress.add_task(self._line(), total=None)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.__exit__(None, None, None)
            self._progress = None

    def rows_text(self) -> str:
        if self.rows_landed is not None:
            return f"{self.rows_landed} rows landed"
        return f"~{self.rows} rows (estimate)" if self.rows else "0 rows"

    def _line(self) -> str:
        return (
            f"[bold]{self.title}[/] {self.stage}: {self.steps} steps, {self.pages} pages, {self.rows_text()}"
        )

    def __call__(self, stage: str, message: str) -> None:
        message = redact_secrets(message)
        if stage != self.stage:
            self.steps += 1
        self.stage = stage
        if m := _PAGES.search(message):
            self.pages = max(self.pages, int(m.group(1)))
        if m := _LANDED.search(message):
            self.rows_landed = int(m.group(1) or m.group(2))
        elif m := _ROWS.search(message):
            self.rows = max(self.rows, int(m.group(1)))
        line = Text.assemble((f"{stage:>11} ", "dim"), message)
        self.console.print(line, highlight=False, overflow="ignore", crop=False, no_wrap=False)
        if self._progress is not None:
            self._progress.update(self._task, description=self._line())


class TaskLogForwarder(logging.Handler):
    """Forwards the run's task logs (fetch, extract, validate, land, deploy) to a progress callable,
    so a flow run in this process shows what its tasks do while they do it."""

    def __init__(
        self, progress: Any, *, tasks: tuple[str, ...] = ("fetch", "extract", "validate", "land", "deploy")
    ):
        super().__init__(logging.INFO)
        self.progress = progress
        self.tasks = tasks

    def emit(self, record: logging.LogRecord) -> None:
        name = str(getattr(record, "task_run_name", "") or "")
        stage = name.rsplit("-", 1)[0] if "-" in name else name
        message = record.getMessage()
        if stage not in self.tasks or message.startswith("Finished in state"):
            return
        try:
            self.progress(stage, message)
        except Exception:  # never break a run over the terminal
            pass

    def __enter__(self) -> TaskLogForwarder:
        logging.getLogger("prefect.task_runs").addHandler(self)
        return self

    def __exit__(self, *exc: object) -> None:
        logging.getLogger("prefect.task_runs").removeHandler(self)


def summary_table(title: str, items: Iterable[tuple[str, Any]], width: int | None = None) -> Table:
    """Two columns, label -> value; empty values are left out. Values fold at spaces, never inside a
    path or URL (``overflow='ignore'`` keeps a long token whole; the terminal wraps it as one piece)."""
    table = Table(
        title=title, show_header=False, title_justify="left", expand=False, box=None, padding=(0, 1)
    )
    table.add_column(style="bold", no_wrap=True)
    table.add_column(overflow="ignore")
    for label, value in items:
        if value is None or value == "":
            continue
        table.add_row(label, str(value))
    return table


def print_summary(title: str, items: Iterable[tuple[str, Any]], console: Console | None = None) -> None:
    """The closing summary: a label/value table; values too long for the line go below their label
    whole, so a path or URL is never split (and stays copyable)."""
    console = console or Console(stderr=True)
    items = [(label, value) for label, value in items if value is not None and value != ""]
    label_w = max((len(label) for label, _ in items), default=0)
    room = max(20, console.width - label_w - 2)
    console.print(Text(title) if "[" not in title else title, highlight=False)
    for label, value in items:
        text = str(value)
        if len(text) <= room:
            console.print(Text.assemble((f"{label:<{label_w}}  ", "bold"), text), highlight=False, crop=False)
            continue
        console.print(Text(label, style="bold"), highlight=False)
        for piece in _fold(text, console.width - 2):
            console.print(Text("  " + piece), highlight=False, crop=False, overflow="ignore", no_wrap=True)


def _fold(text: str, width: int) -> list[str]:
    """Split a long value at spaces only; a single token longer than ``width`` stays whole."""
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return lines
