"""Failure classes found on the layout zoo that happen before or after induction, reproduced on a
small site served here on 127.0.0.1 with records generated in the test (seeded):

- the dataset's columns were named by the parser's singular forms or cut phrases ("rating of"),
  not as the user named the fields; a field list after a colon was not read at all (before the fix
  this sentence planned no field);
- every row is kept: an upper-case field word ("..., and GRADE") is a column, never a row filter.
"""

from __future__ import annotations

import random

import duckdb
import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route

from prefect_autodata.flows.collect import collect
from prefect_autodata.sandbox.server import free_port, start_in_thread, stop_thread

WORDS = "amber birch cedar delta ember fjord grove harbor iris juniper kelp lumen marsh onyx".split()


def _lamps(n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    names: set[str] = set()
    out = []
    while len(out) < n:
        name = " ".join(rng.sample(WORDS, 2)).title() + f" {rng.randint(10, 99)}"
        if name in names:
            continue
        names.add(name)
        out.append({"model": name, "lamps_sold": rng.randint(1, 900), "grade": rng.choice("ABC")})
    return out


def lamp_site(rows: list[dict]) -> Starlette:
    def page(request):
        body = "".join(
            f"<tr><td>{r['model']}</td><td>{r['lamps_sold']}</td><td>{r['grade']}</td></tr>" for r in rows
        )
        return HTMLResponse(
            "<html><head><title>Lamps</title></head><body><h1>Our lamps</h1>"
            "<table><thead><tr><th>Model</th><th>Lamps sold</th><th>Grade</th></tr></thead>"
            f"<tbody>{body}</tbody></table></body></html>"
        )

    return Starlette(routes=[Route("/", page)])


@pytest.fixture
def site():
    seed = random.randrange(10**6)
    rows = _lamps(30, seed)
    port = free_port()
    server, thread = start_in_thread(lamp_site(rows), "127.0.0.1", port, name="zoo-regression-site")
    yield f"http://127.0.0.1:{port}/", rows, seed
    stop_thread(server, thread)


def _landed(db: str, table: str) -> tuple[list[str], list[tuple]]:
    con = duckdb.connect(db, read_only=True)
    try:
        cur = con.execute(f'SELECT * FROM "{table}"')
        return [d[0] for d in cur.description], cur.fetchall()
    finally:
        con.close()


def test_columns_are_named_as_the_user_named_the_fields_and_no_field_word_filters_rows(
    site, workspace, tmp_path
):
    url, rows, seed = site
    res = collect(
        "Build a table of the lamps on this page: model, lamps sold, and GRADE",
        sources=[url],
        workspace=workspace,
        db=tmp_path / "lamps.duckdb",
    )
    assert res.status == "succeeded", (seed, res.stop_reason, res.detail, res.error)
    cols, got = _landed(res.db, res.table)
    assert {"model", "lamps_sold", "GRADE"} <= set(cols), cols
    i, j, k = cols.index("model"), cols.index("lamps_sold"), cols.index("GRADE")
    landed = sorted((r[i], int(r[j]), r[k]) for r in got)
    assert landed == sorted((r["model"], r["lamps_sold"], r["grade"]) for r in rows), seed
