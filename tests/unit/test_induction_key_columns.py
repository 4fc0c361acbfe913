"""The key of a spec without a verified key column: the columns that identify a record, never a typed
column that reads null where a row shows something else ("N/A" fuel economy): such a row would be
rejected for an empty key (zoo 310170/57 lost 9 of 292 cars)."""

import pandas as pd

from prefect_autodata.agents.induction.assemble import induce_page
from prefect_autodata.agents.induction.rules import key_columns
from prefect_autodata.runtime.columns import FETCHED_AT, SOURCE_URL
from prefect_autodata.runtime.extract import extract_page, parse_document
from prefect_autodata.runtime.normalize import raw_columns, to_frame

URL = "http://cars.test/"


def test_firm_columns_alone_when_they_tell_records_apart() -> None:
    values = {
        "model": ["Kia Rio", "Kia Rio", "Ford Ka"],
        "engine": ["1.4L", "1.6L", "1.2L"],
        "mpg": ["30 mpg", "28 mpg", "35 mpg"],
    }
    assert key_columns(["model", "engine", "mpg"], values, {"mpg"}) == ["model", "engine"]


def test_loose_columns_join_when_the_others_repeat() -> None:
    values = {"ticker": ["ADI", "ADI", "ADI"], "date": ["2017-10-11", "2017-10-12", "2017-10-13"]}
    assert key_columns(["ticker", "date"], values, {"date"}) == ["ticker", "date"]


def test_empty_columns_never_in_the_key() -> None:
    values = {"a": ["x", "", "z"], "b": ["1", "2", "3"]}
    assert key_columns(["a", "b"], values, set()) == ["b"]


def test_plain_numbers_stay_in_the_key() -> None:
    """One page of a paged listing shows each team once; the next repeats them (other seasons)."""
    values = {"team": ["ATL", "LAD", "CHC"], "innings": ["1,474.2", "1,449.2", "1,444.0"]}
    assert key_columns(["team", "innings"], values, set()) == ["team", "innings"]


def _table(rows: list[tuple[str, str, str, str]]) -> str:
    body = "".join(f"<tr><td>{a}</td><td>{b}</td><td>{c}</td><td>{d}</td></tr>" for a, b, c, d in rows)
    return (
        "<html><body><h1>Used cars</h1><table><tr><th>Vehicle</th><th>Price</th><th>Engine</th>"
        f'<th>Fuel economy</th></tr>{body}</table><a rel="next" href="?page=2">Next</a></body></html>'
    )


def test_a_row_with_na_in_a_measure_is_not_rejected() -> None:
    cars = [
        (f"Car {i}", f"${20_000 + i * 100:,}", f"{1 + i % 3}.{i % 10}L V{4 + i % 3}", f"{20 + i} mpg")
        for i in range(12)
    ]
    built = induce_page(URL, _table(cars), ["model", "price", "engine", "fuel_economy"], name="cars")
    spec = next(b.spec for b in built if "fuel_economy" in {c.name for c in b.spec.columns})
    assert spec.primary_key and "fuel_economy" not in spec.primary_key
    later = _table([("Car 99", "$9,999", "2.0L V6", "N/A"), ("Car 98", "$9,000", "2.2L V6", "25 mpg")])
    src = spec.sources[0]
    rows = extract_page(parse_document("html", later, URL), src.fields, src.records, {})
    raw = pd.DataFrame.from_records(
        [{**r, SOURCE_URL: URL, FETCHED_AT: "2026-01-01T00:00:00Z"} for r in rows]
    )
    for c in raw_columns(spec):
        if c not in raw.columns:
            raw[c] = None
    frame = to_frame(spec, raw[raw_columns(spec)])
    assert len(frame.good) == 2


def test_a_csv_key_the_file_repeats_is_not_the_key() -> None:
    """A team over its seasons in one file: the team is no key (zoo 310170/24 took the 8-row file of
    one season over the 19-row complete file because the complete one repeated its key)."""
    from prefect_autodata.agents.engineering import induce_csv
    from prefect_autodata.agents.evidence import Endpoint, Evidence
    from prefect_autodata.agents.plan import make_plan

    csv = "Team,H,R\nSTL,1481,887\nKCR,1644,879\nSTL,1390,801\nSFG,1535,925\n"
    url = "http://127.0.0.1:9/downloads/all.csv"
    ep = Endpoint(url_template=url, example_url=url, kind="csv", sample_cache_id="c")
    plan = make_plan("Every MLB team batting season with team, H and R", fields=["team", "h", "r"])
    cand = induce_csv(ep, plan, evidence=Evidence(plan=plan), reader=lambda _id: csv)
    assert cand is not None
    key = cand.spec.primary_key
    rows = [("STL", 1481, 887), ("KCR", 1644, 879), ("STL", 1390, 801), ("SFG", 1535, 925)]
    assert len({tuple(dict(zip(["team", "h", "r"], r, strict=True))[k] for k in key) for r in rows}) == 4
