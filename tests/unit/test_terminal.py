"""Terminal output at 80 columns: no path split mid-token, estimates labelled, ls readable (nothing cut),
failed checks named with the policy that applied."""

from __future__ import annotations

import io
import time

from rich.console import Console

from prefect_autodata.deployments.listing import CollectorRow
from prefect_autodata.ui import LiveProgress, print_summary

LONG_PATH = "/home/someone/projects/warehouse/workspace/data_docs/aapl-daily-2024/5ee32abb18e14dde.html"


def _console(width: int = 80) -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=width, force_terminal=False, color_system=None), buf


def test_summary_never_splits_a_path_at_80_columns():
    console, buf = _console()
    print_summary("succeeded: aapl-daily-2024", [("report", LONG_PATH), ("rows", "252 landed")], console)
    out = buf.getvalue()
    assert LONG_PATH in out  # one piece, copyable
    assert all(len(line) <= 80 for line in out.splitlines() if LONG_PATH not in line)
    assert "252 landed" in out


def test_long_values_with_spaces_fold_at_spaces():
    console, buf = _console()
    value = " ".join(f"word{i:02d}" for i in range(30))
    print_summary("t", [("warning", value)], console)
    words = buf.getvalue().split()
    assert [w for w in words if w.startswith("word")] == value.split()


def test_rows_from_samples_are_labelled_estimates_until_landed():
    console, buf = _console()
    p = LiveProgress(console)
    p("engineering", "spec x: json (JSON records at $[*] (262 in the sample) of http://h/p)")
    p("test", "dry run: 262 rows")
    assert p.rows_text() == "~262 rows (estimate)"
    p("land", "landed 252 rows in aapl (db), 0 quarantined")
    assert p.rows_text() == "252 rows landed"


def test_live_elapsed_column_ticks_without_messages():
    from rich.progress import TimeElapsedColumn

    buf = io.StringIO()
    console = Console(file=buf, width=80, force_terminal=True, color_system=None)
    with LiveProgress(console) as p:
        assert p._progress is not None
        assert any(isinstance(c, TimeElapsedColumn) for c in p._progress.columns)
        assert p._progress.live.auto_refresh  # the clock is redrawn by rich's refresh thread
        task = p._progress.tasks[0]
        before = task.elapsed or 0.0
        time.sleep(0.05)
        assert (task.elapsed or 0.0) > before  # elapsed grows while no message arrives


def test_ls_is_readable_at_80_columns():
    from prefect_autodata.cli import ls_renderable

    rows = [
        CollectorRow(
            name="sp500-daily-all-constituents",
            table="sp500_daily_all_constituents",
            rows=125_000,
            last_run_at="2026-12-01 17:31:02.123456+00:00",
            last_status="failed_checks",
            last_error="checks failed under policy quarantine: row_count_min (a table-level check)",
            deployment="run_collector/sp500-daily-all-constituents",
            schedule="cron 30 17 * * 1-5 (America/New_York)",
        ),
        CollectorRow(name="aapl-daily-2024", table="aapl_daily_2024", rows=252),
    ]
    console, buf = _console(80)
    console.print(ls_renderable(rows, 80))
    out = buf.getvalue()
    assert "…" not in out and all(len(line) <= 80 for line in out.splitlines())
    for text in ("sp500-daily-all-constituents", "2026-12-01 17:31:02", "failed_checks", "row_count_min"):
        assert text in out
    assert "run_collector/sp500-daily-all-constituents" in out and "never run" in out
    wide, wbuf = _console(160)
    wide.print(ls_renderable(rows, 160))
    assert "error" in wbuf.getvalue() and "…" not in wbuf.getvalue()


def test_failed_checks_message_names_checks_and_their_policy():
    from prefect_autodata.flows.run_collector import Validated, failed_checks_message

    v = Validated(
        None, None, [], "failed_checks", "failed", None, policy="quarantine", failed=["row_count_min"]
    )
    msg = failed_checks_message(v)
    assert "policy quarantine" in msg and "row_count_min" in msg and "policy fail" not in msg
    v.policy = "fail"
    assert "policy fail" in failed_checks_message(v)
