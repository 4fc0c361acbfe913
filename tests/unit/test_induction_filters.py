"""Request filters and time scope as a row filter: the generated step keeps exactly the wanted rows."""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace as NS

from prefect_autodata.agents.induction.filters import row_filter

ROWS = [
    {"title": "A", "track": "Findings", "price": "$12.50", "published": "2019-03-04"},
    {"title": "B", "track": "Main", "price": "$30.00", "published": "March 9, 2021"},
    {"title": "C", "track": "findings", "price": "$8", "published": "12/31/2019"},
    {"title": "D", "track": "Main", "price": "", "published": "2018-01-01"},
]


def _run(code, rows):
    ns: dict = {}
    exec(compile(code, "<filter>", "exec"), ns)  # the same function the runtime runs in its sandbox
    return [r["title"] for r in ns["transform"](rows)]


def _plan(filters=(), scope=None):
    return NS(filters=[NS(field=f, op=o, value=v) for f, o, v in filters], time_scope=scope)


def test_equality_is_case_insensitive():
    code, notes = row_filter(_plan([("track", "eq", "Findings")]), ["title", "track", "price"])
    assert _run(code, ROWS) == ["A", "C"] and notes == []


def test_numeric_bounds_on_money_and_membership():
    code, _ = row_filter(_plan([("price", "le", 15), ("title", "in", ["A", "B", "D"])]), ["title", "price"])
    assert _run(code, ROWS) == ["A"]


def test_time_scope_on_a_date_column_in_any_format():
    scope = NS(
        start_date=date(2019, 1, 1), end_date=date(2019, 12, 31), start_year=None, end_year=None, years=[2019]
    )
    code, _ = row_filter(_plan(scope=scope), ["title", "published"])
    assert _run(code, ROWS) == ["A", "C"]


def test_filters_on_absent_columns_are_named_not_applied():
    code, notes = row_filter(_plan([("genre", "eq", "poetry")]), ["title", "price"])
    assert code is None and "genre" in notes[0]
