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


def _table_html(header, rows):
    head = "".join(f"<th>{h}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{v}</td>" for v in r) + "</tr>" for r in rows)
    return f"<html><body><table><tr>{head}</tr>{body}</table></body></html>"


def _landed(spec, html):
    """The rows the spec's field rules read from ``html``, then its python step (as the runtime runs it)."""
    from prefect_autodata.agents.induction.dom import parse

    root = parse(html)
    src = spec.sources[0]
    rows = []
    for rec in root.xpath(src.records.xpath):
        row = {}
        for f in src.fields:
            got = rec.xpath(f.xpath)
            row[f.name] = " ".join(
                x.text_content() if hasattr(x, "text_content") else str(x) for x in got
            ).strip()
        rows.append(row)
    if spec.python is None:
        return rows
    ns: dict = {}
    exec(compile(spec.python.code, "<filter>", "exec"), ns)
    return ns["transform"](rows)


def test_a_time_scope_on_a_field_not_requested_reads_the_sources_year_column():
    from prefect_autodata.agents.induction.assemble import induce_page
    from prefect_autodata.agents.plan import make_plan

    plan = make_plan(
        "every club season for the years 1996 to 1997 with club and wins", today=date(2025, 3, 1)
    )
    html = _table_html(
        ["Club", "Season", "Wins", "Losses"],
        [
            ["Otters", "1995-96", "40", "42"],
            ["Otters", "1996-97", "50", "32"],
            ["Herons", "1997-98", "41", "41"],
            ["Herons", "1998-99", "20", "62"],
            ["Lynx", "1996-97", "33", "49"],
        ],
    )
    built = induce_page("https://example.org/seasons", html, list(plan.field_names), name="s", plan=plan)
    spec = built[0].spec
    assert [c.name for c in spec.columns] == ["club", "wins", "year"]
    kept = _landed(spec, html)
    assert [(r["club"], r["wins"]) for r in kept] == [("Otters", "50"), ("Herons", "41"), ("Lynx", "33")]
    # coverage counts the requested fields only: the year is read to filter, not asked for
    assert set(built[0].matches) == {"club", "wins"}
    assert "not applied" not in built[0].why


def test_a_filter_field_the_source_lacks_is_reported_not_applied():
    from prefect_autodata.agents.induction.assemble import induce_page
    from prefect_autodata.agents.plan import make_plan

    plan = make_plan("every film whose genre is Comedy with title and director", today=date(2025, 3, 1))
    html = _table_html(["Title", "Director"], [["A", "X"], ["B", "Y"], ["C", "Z"]])
    built = induce_page("https://example.org/films", html, list(plan.field_names), name="f", plan=plan)
    assert built and all(b.spec.python is None for b in built)
    assert [r["title"] for r in _landed(built[0].spec, html)] == ["A", "B", "C"]
    assert "filter genre eq 'Comedy' not applied" in built[0].why  # said in the candidate's rationale


def test_text_filters_compare_normalised_values():
    """Case, accents, whitespace and punctuation inside a value do not decide equality ("So ny" as two
    spans on the page is the user's "Sony"); a longer word is still another value."""
    code, _ = row_filter(
        _plan([("brand", "eq", "Sony"), ("type", "in", ["Private For-Profit"])]), ["title", "brand", "type"]
    )
    rows = [
        {"title": "A", "brand": "So ny", "type": "private  for-profit"},
        {"title": "B", "brand": "SONY", "type": "Private"},
        {"title": "C", "brand": "Söny", "type": "Private for profit"},
        {"title": "D", "brand": "Sonya", "type": "Private For-Profit"},
    ]
    assert _run(code, rows) == ["A", "C"]


def test_scope_keys_name_the_source_key_a_scope_is_on_among_the_untaken():
    from prefect_autodata.agents.induction.filters import scope_fields, scope_keys
    from prefect_autodata.agents.plan import make_plan

    plan = make_plan(
        "every club season for the years 1996 to 1997 with club and wins", today=date(2025, 3, 1)
    )
    assert scope_fields(plan, ["club", "wins"]) == ["year"]
    labels = {"c": "Club", "w": "W", "yr": "Season", "l": "Losses"}
    assert scope_keys(plan, ["club", "wins"], labels, {"c", "w"}) == {"year": "yr"}
    assert scope_keys(plan, ["club", "wins"], labels, {"c", "w", "yr"}) == {}
    assert scope_fields(plan, ["club", "wins", "season"]) == []  # the requested season is the scope's column
