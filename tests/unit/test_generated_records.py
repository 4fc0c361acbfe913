"""Generated sample records: deterministic, shaped like the real files, enough for every site and task,
and visibly labelled; plus the resolution between the real records and the generated ones."""

from __future__ import annotations

import datetime as dt
import re
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from prefect_autodata.sandbox import data, generate, records
from prefect_autodata.sandbox.tasks import data_requirements

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def no_shared(monkeypatch, tmp_path):
    """A fresh clone: both variables name an empty folder."""
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("AUTODATA_DATA_DIR", str(empty))
    monkeypatch.setenv("AUTODATA_RECORDS_DIR", str(empty))
    return empty


def test_same_seed_same_records_other_seed_other_records():
    for make in (generate.papers, generate.nba_teams, generate.mlb_teams):
        pd.testing.assert_frame_equal(make(0), make(0))
        assert not make(0).equals(make(1))
    pd.testing.assert_frame_equal(generate.swde_records("job", 3), generate.swde_records("job", 3))
    assert not generate.swde_records("job", 3).equals(generate.swde_records("job", 4))


def test_generated_tables_carry_every_column_the_sites_and_tasks_read():
    from prefect_autodata.sandbox import tasks
    from prefect_autodata.sandbox.sites import fangraphs, jsonly, nba, tiingo

    papers = set(generate.table("papers").columns)
    assert set(tasks._PAPER_COLUMNS.values()) | {"year", "idx"} <= papers
    stocks = set(generate.table("stocks").columns)
    assert {"ticker", "date", *tiingo.PRICE_COLUMNS, *tasks._STOCK_COLUMNS.values()} <= stocks
    teams = set(generate.table("nba_teams").columns)
    assert {*nba.TEAM_STATS_HEADERS, "TEAM_ABBREVIATION"} <= teams
    assert any(c.startswith("ADV_") for c in teams)  # the Advanced measure of the team dashboard
    players = set(generate.table("nba_players").columns)
    assert {*nba.PLAYER_SEASON_HEADERS, *jsonly.FIELDS.values()} <= players
    mlb = set(generate.table("mlb_teams").columns)
    for group, prefix in fangraphs.GROUPS.items():
        for cols in fangraphs.TYPES[group].values():
            assert {prefix + c for c in cols} <= mlb, group
    for schema, kind in ((tasks.MLB_HITTING_SCHEMA, "hitting"), (tasks.MLB_PITCHING_SCHEMA, "pitching")):
        assert {tasks._mlb_source(kind, f) for f in schema} <= mlb


def test_generated_records_cover_every_catalog_requirement():
    """Every conference-year and ticker-year a catalog task names is there (the tasks' ground truths
    on generated records are checked in test_tasks_catalog)."""
    req = data_requirements()
    papers = generate.table("papers")
    have = set(zip(papers["abbr"], papers["year"], strict=True))
    biennial = {"ECCV": 2, "ICCV": 2}  # no ECCV 2019, no ICCV 2020: empty in the real set too
    for abbr, year in req["papers"]:
        if abbr in biennial and year % 2 != {"ECCV": 0, "ICCV": 1}[abbr]:
            continue
        assert (abbr, year) in have, (abbr, year)
    stocks = generate.table("stocks")
    years = pd.to_datetime(stocks["date"]).dt.year
    pairs = set(zip(stocks["ticker"], years, strict=True))
    for ticker, tyears in req["stocks"].items():
        for y in tyears:
            assert ticker == "*" or (ticker, y) in pairs, (ticker, y)
    assert set(req["long_history_tickers"]) <= set(stocks["ticker"])


@pytest.mark.requires_real_data
def test_generated_columns_have_the_real_files_dtypes():
    real = data.real_dir()
    for name in data.TABLES:
        gen = generate.table(name)
        cols = list(gen.columns)
        want = pd.read_parquet(real / f"{name}.parquet", columns=cols).head(1000)
        for c in cols:
            assert str(gen[c].dtype) == str(want[c].dtype), (name, c, gen[c].dtype, want[c].dtype)
        if name == "stocks":
            assert type(gen["date"].iloc[0]) is type(want["date"].iloc[0]) is dt.date
    for kind in records.KINDS:
        gen = generate.records(kind)
        want = pd.read_parquet(records.real_path(kind))
        assert list(gen.columns) == list(want.columns), kind
        assert [str(t) for t in gen.dtypes] == [str(t) for t in want.dtypes], kind


def test_trading_days_follow_the_new_york_exchange_calendar():
    xcals = pytest.importorskip("exchange_calendars")
    sessions = xcals.get_calendar("XNYS").sessions_in_range("2015-01-02", "2024-12-31")
    assert generate.trading_days(2015, 2024) == [d.date() for d in sessions]
    stocks = generate.table("stocks")
    aapl = stocks[stocks["ticker"] == "AAPL"]
    assert sum(d.year == 2024 for d in aapl["date"]) == 252


def test_prices_are_consistent():
    s = generate.table("stocks")
    assert (s["low"] <= s[["open", "close"]].min(axis=1) + 1e-9).all()
    assert (s["high"] >= s[["open", "close"]].max(axis=1) - 1e-9).all()
    assert (s["volume"] > 0).all() and (s["close"] > 0).all()
    last = s.groupby("ticker").tail(1)
    assert np.allclose(last["adjClose"], last["close"])  # adjusted to the latest day's terms
    assert (s["splitFactor"] > 1).any() and (s["divCash"] > 0).any()


def test_sport_lines_add_up():
    t = generate.table("nba_teams")
    assert (t["WINS"] + t["LOSSES"] == t["GP"]).all()
    assert (t["PTS"] == 2 * t["FGM"] + t["FG3M"] + t["FTM"]).all()
    assert t.groupby("YEAR")["TEAM_ID"].nunique().loc[2023] == 30
    p = generate.table("nba_players")
    assert (p["PTS"] == 2 * p["FGM"] + p["FG3M"] + p["FTM"]).all()
    assert p.groupby("PLAYER_NAME")["PLAYER_ID"].nunique().max() == 1  # a name is one person
    tot = p[p["TEAM_ABBREVIATION"] == "TOT"]
    assert len(tot) and (tot["GP"] <= 82).all()
    m = generate.table("mlb_teams")
    assert (m["PIT_W"] + m["PIT_L"] == m["PIT_G"]).all()
    assert m.loc[m["Season"] == 2024, "FLD_Team"].is_unique


def test_value_shapes_are_the_sites_own():
    papers = generate.table("papers")
    acl = papers[papers["abbr"] == "ACL"]
    assert acl["authors"].str.contains(r"^[^,]+, [^,]+(  and [^,]+, [^,]+)*$").all()  # BibTeX "Last, First"
    assert set(acl.loc[acl["year"] == 2023, "track"]) == {
        "Findings Track",
        "Long Paper Track",
        "Short Paper Track",
    }
    assert papers["paper_link"].str.startswith("http").all()
    auto = generate.records("auto")
    assert auto["price"].dropna().str.match(r"^\$\d{1,3}(,\d{3})+").all()
    posted = generate.records("job")["date_posted"].dropna()
    shapes = {re.sub(r"\d", "9", re.sub(r"[A-Za-z]+", "A", v)) for v in posted}
    assert len(shapes) >= 3, shapes  # each site its own date format
    phones = generate.records("restaurant")["phone"].dropna()
    assert len({re.sub(r"\d", "9", v) for v in phones}) >= 2
    for kind in records.KINDS:
        df = generate.records(kind)
        assert list(df.columns[:2]) == ["site", "page"] and df["site"].nunique() == 10
        assert (
            df[list(generate.SWDE_FIELDS[kind])].isna().any().any()
        )  # some fields missing, as on real pages


def test_an_empty_folder_means_generated_records(no_shared):
    assert data.is_generated() and not data.is_full_set()
    assert data.data_dir() == data.GENERATED
    assert "generated" in data.describe()
    assert data.load_table("papers") is generate.table("papers")
    assert data.load_columns("papers", ["abbr", "year"]).shape[1] == 2
    assert records.is_generated() and all(records.is_generated(k) for k in records.KINDS)
    df = records.load_records("camera")
    assert list(df.columns) == ["site", "page", *generate.SWDE_FIELDS["camera"]]
    assert df.attrs["generated"] is True
    with pytest.raises(KeyError, match="unknown record kind"):
        records.load_records("book")


def test_a_folder_with_the_files_is_read(monkeypatch, tmp_path):
    for name in data.TABLES:
        generate.table(name).head(50).to_parquet(tmp_path / f"{name}.parquet")
    generate.records("auto").head(20).to_parquet(tmp_path / "swde_auto.parquet")
    monkeypatch.setenv("AUTODATA_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("AUTODATA_RECORDS_DIR", str(tmp_path))
    assert not data.is_generated() and data.data_dir() == tmp_path
    assert len(data.load_table("stocks")) == 50
    assert not records.is_generated("auto") and records.is_generated("movie") and records.is_generated()
    assert (
        len(records.load_records("auto")) == 20 and records.load_records("auto").attrs["generated"] is False
    )
    (tmp_path / "mlb_teams.parquet").unlink()
    other = tmp_path / "again"  # a new value of the variable is resolved afresh
    other.mkdir()
    monkeypatch.setenv("AUTODATA_DATA_DIR", str(other))
    assert data.is_generated()


def test_pages_say_when_records_are_generated(monkeypatch, tmp_path, no_shared):
    from prefect_autodata.sandbox.sites._html import bare_page, page

    note = data.sample_note()
    assert "generated" in note
    assert note in page("t", "<p>x</p>") and note in bare_page("t", "<p>x</p>").body.decode()
    for name in data.TABLES:
        generate.table(name).head(5).to_parquet(tmp_path / f"{name}.parquet")
    monkeypatch.setenv("AUTODATA_DATA_DIR", str(tmp_path))
    assert data.sample_note() == ""
    assert "generated" not in page("t", "<p>x</p>")


def test_demo_summary_names_the_records(no_shared):
    from prefect_autodata.demo import DemoResult, demo_summary_items

    r = DemoResult(status="succeeded", db="x.duckdb", instruction="i", records=data.describe())
    assert ("records", data.describe()) in demo_summary_items(r)
    assert "generated" in dict(demo_summary_items(r))["records"]


def test_no_outside_data_is_committed():
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    data_files = [f for f in files.splitlines() if re.search(r"\.(parquet|csv|feather|arrow)$", f, re.I)]
    # A hand-written held-out page may offer a small invented CSV download beside its table
    # (tests/data/wild3/opendata_playgrounds): a fixture of a few rows, never a dataset.
    fixtures = [
        f for f in data_files if re.match(r"tests/data/wild\d*/", f) and (ROOT / f).stat().st_size <= 4096
    ]
    assert [f for f in data_files if f not in fixtures] == []
    assert not (ROOT / "prefect_autodata" / "sandbox" / "data").exists()


_PAGES_SCRIPT = """
import json
from starlette.testclient import TestClient
from prefect_autodata.sandbox.app import build_app, sitemap
from prefect_autodata.sandbox.data import sample_note

out = []
with TestClient(build_app()) as c:
    for _, path in sitemap():
        r = c.get(path, headers={"User-Agent": "Mozilla/5.0", "Referer": "https://www.nba.com/"})
        if "html" in r.headers.get("content-type", ""):
            out.append([path, r.status_code, sample_note() in r.text])
print(json.dumps({"note": sample_note(), "pages": out}))
"""


def test_every_record_page_of_the_sandbox_says_generated(no_shared):
    """In a fresh interpreter (the sites keep their data per process): each site's entry page."""
    import json
    import os
    import sys

    res = subprocess.run(
        [sys.executable, "-c", _PAGES_SCRIPT],
        cwd=ROOT,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    got = json.loads(res.stdout.strip().splitlines()[-1])
    assert "generated" in got["note"]
    # the picture-book library is synthetic by design and the search engine lists no records
    exempt = ("/www.picturebook-library.org/", "/search")
    pages = [p for p in got["pages"] if not p[0].startswith(exempt)]
    assert len(pages) >= 14
    assert [p for p in pages if p[1] != 200 or not p[2]] == []
