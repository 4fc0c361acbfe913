"""The sandbox task catalog: Instruct2DS templates T1-T18 instantiated on the data the sandbox serves.

Each task carries its instruction, target fields and parameters; its ground truth is computed
lazily from the Parquet tables (never from HTML), with exactly the target field names as columns.
Mapping from the data's column names to the README's target schemas lives here, in one place:

- papers: ``title``→TITLE ...; AUTHORS is rewritten to "First Last, First Last" (the anthology and
  ICML rows store BibTeX "Last, First and Last, First");
- stocks: Date as "YYYY-MM-DD"; multi-ticker tasks (T6, all-S&P 500) add a ``Ticker`` field, since
  rows of several stocks are meaningless without it (a deliberate addition to the README schema);
- NBA teams: WINS→W, LOSSES→L, YEAR is the season's first calendar year; MIN, BLKA, PFD are absent
  from the data and dropped ("score what exists");
- NBA players: SEASON_ID→YEAR, PLAYER_BIRTHDATE→BIRTHDATE ("YYYY-MM-DD"), PLAYER_*→*,
  TEAM_ABBREVIATION→TEAM_ABBR; a traded player's per-team rows and his "TOT" row are all kept;
- MLB: TEAM_ABBR is ``Team`` (e.g. "NYY"), TEAM_NAME is the era's nickname (``FLD_Team``, e.g.
  "Highlanders"); hitting BAT_*, pitching PIT_* (ShO→SHO, HBP→HB). A franchise is identified by
  the 2024 nickname that ends its name ("New York Yankees" → "Yankees") and followed through history.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import Any, Literal

import pandas as pd

from prefect_autodata.sandbox.data import data_dir, load_table

Domain = Literal["academic", "finance", "sport"]

PAPER_FIELDS = [
    "TITLE",
    "AUTHORS",
    "ABSTRACT",
    "CONFERENCE",
    "ABBR",
    "TRACK",
    "PAPER_LINK",
    "BIBTEX_LINK",
    "SUPP_LINK",
]
_PAPER_COLUMNS = {
    "TITLE": "title",
    "AUTHORS": "authors",
    "ABSTRACT": "abstract",
    "CONFERENCE": "conference",
    "ABBR": "abbr",
    "TRACK": "track",
    "PAPER_LINK": "paper_link",
    "BIBTEX_LINK": "bibtex_link",
    "SUPP_LINK": "supp_link",
}

STOCK_FIELDS = [
    "Date",
    "Open",
    "High",
    "Low",
    "Close",
    "Volume",
    "adjOpen",
    "adjHigh",
    "adjLow",
    "adjClose",
    "adjVolume",
    "divCash",
]
_STOCK_COLUMNS = {
    "Ticker": "ticker",
    "Date": "date",
    "Open": "open",
    "High": "high",
    "Low": "low",
    "Close": "close",
    "Volume": "volume",
    "adjOpen": "adjOpen",
    "adjHigh": "adjHigh",
    "adjLow": "adjLow",
    "adjClose": "adjClose",
    "adjVolume": "adjVolume",
    "divCash": "divCash",
}

# README schema; MIN, BLKA and PFD are not in the data and are dropped (score what exists).
NBA_TEAM_SCHEMA = (
    "TEAM_NAME YEAR GP W L MIN FGM FGA FG3M FG3A FTM FTA OREB DREB REB AST TOV STL BLK BLKA PF PFD PTS"
).split()
_NBA_TEAM_RENAME = {"WINS": "W", "LOSSES": "L"}

NBA_PLAYER_SCHEMA = (
    "PLAYER_NAME YEAR BIRTHDATE COUNTRY HEIGHT WEIGHT DRAFT_YEAR DRAFT_ROUND DRAFT_NUMBER TEAM_ABBR "
    "GP GS MIN FGM FGA FG3M FG3A FTM FTA OREB DREB REB AST STL BLK TOV PF PTS"
).split()
_NBA_PLAYER_RENAME = {
    "SEASON_ID": "YEAR",
    "PLAYER_BIRTHDATE": "BIRTHDATE",
    "PLAYER_COUNTRY": "COUNTRY",
    "PLAYER_HEIGHT": "HEIGHT",
    "PLAYER_WEIGHT": "WEIGHT",
    "PLAYER_DRAFT_YEAR": "DRAFT_YEAR",
    "PLAYER_DRAFT_ROUND": "DRAFT_ROUND",
    "PLAYER_DRAFT_NUMBER": "DRAFT_NUMBER",
    "TEAM_ABBREVIATION": "TEAM_ABBR",
}

MLB_HITTING_SCHEMA = "TEAM_NAME TEAM_ABBR YEAR AB R HR H 2B 3B RBI BB SO SB CS".split()
MLB_PITCHING_SCHEMA = "TEAM_NAME TEAM_ABBR YEAR W L ERA G GS CG SHO SV IP H R ER HR HB BB SO".split()
_MLB_SOURCE = {"TEAM_NAME": "FLD_Team", "TEAM_ABBR": "Team", "YEAR": "Season"}
_MLB_PITCHING_SOURCE = {"SHO": "PIT_ShO", "HB": "PIT_HBP"}


def _mlb_source(kind: str, target: str) -> str:
    if target in _MLB_SOURCE:
        return _MLB_SOURCE[target]
    if kind == "pitching":
        return _MLB_PITCHING_SOURCE.get(target, f"PIT_{target}")
    return f"BAT_{target}"


# ---------------------------------------------------------------- ground-truth builders


def _bibtex_style(authors: pd.Series) -> bool:
    """A venue stores BibTeX author lists when most of its rows join names with ' and '."""
    return bool(len(authors)) and authors.str.contains(" and ", regex=False).mean() > 0.5


def authors_to_csv(value: str, bibtex: bool) -> str:
    """'Kay, Martin and Small, Steven L.' → 'Martin Kay, Steven L. Small'; plain lists get tidy commas."""
    if not isinstance(value, str) or not value.strip():
        return ""
    if not bibtex:
        return ", ".join(p.strip() for p in value.split(",") if p.strip())
    names = []
    for part in re.split(r"\s+and\s+", value.strip()):
        bits = [b.strip() for b in part.split(",")]
        if len(bits) == 2 and all(bits):
            names.append(f"{bits[1]} {bits[0]}")
        elif len(bits) == 3 and all(bits):  # "von Last, Jr., First"
            names.append(f"{bits[2]} {bits[0]} {bits[1]}")
        else:
            names.append(" ".join(b for b in bits if b))
    return ", ".join(re.sub(r"\s+", " ", n) for n in names if n)


def _papers(conference: str, years: list[int], track: str | None) -> pd.DataFrame:
    df = load_table("papers")
    sel = df[(df["abbr"] == conference) & (df["year"].isin(years))]
    if track is not None:
        sel = sel[sel["track"] == track]
    sel = sel.sort_values(["year", "idx"], kind="stable")
    out = pd.DataFrame({f: sel[c].to_numpy() for f, c in _PAPER_COLUMNS.items()})
    bibtex = _bibtex_style(df.loc[df["abbr"] == conference, "authors"])
    out["AUTHORS"] = [authors_to_csv(a, bibtex) for a in out["AUTHORS"]]
    return out.fillna("")


def _stocks(tickers: list[str] | None, start: str, end: str, with_ticker: bool) -> pd.DataFrame:
    df = load_table("stocks")
    dates = df["date"].astype(str).str.slice(0, 10)
    mask = (dates >= start) & (dates <= end)
    if tickers is not None:
        mask &= df["ticker"].isin(tickers)
    sel = df[mask].assign(date=dates[mask]).sort_values(["ticker", "date"], kind="stable")
    fields = (["Ticker"] if with_ticker else []) + STOCK_FIELDS
    return pd.DataFrame({f: sel[_STOCK_COLUMNS[f]].to_numpy() for f in fields})


def _nba_team_fields() -> list[str]:
    cols = set(load_table("nba_teams").columns) | set(_NBA_TEAM_RENAME.values())
    return [f for f in NBA_TEAM_SCHEMA if f in cols]


def _nba_teams(team: str | None, start: int | None, end: int | None) -> pd.DataFrame:
    df = load_table("nba_teams").rename(columns=_NBA_TEAM_RENAME)
    if team is not None:
        ids = df.loc[df["TEAM_NAME"] == team, "TEAM_ID"].unique()
        if len(ids) != 1:
            raise KeyError(f"NBA team {team!r} is not exactly one franchise in the data")
        df = df[df["TEAM_ID"] == ids[0]]
    if start is not None:
        df = df[df["YEAR"] >= start]
    if end is not None:
        df = df[df["YEAR"] <= end]
    df = df.sort_values(["YEAR", "TEAM_NAME"], kind="stable")
    return df[_nba_team_fields()].reset_index(drop=True)


def _nba_player_fields() -> list[str]:
    cols = set(load_table("nba_players").columns) | set(_NBA_PLAYER_RENAME.values())
    return [f for f in NBA_PLAYER_SCHEMA if f in cols]


def _nba_players(names: list[str], start: int | None, end: int | None) -> pd.DataFrame:
    df = load_table("nba_players")
    for name in names:
        if df.loc[df["PLAYER_NAME"] == name, "PLAYER_ID"].nunique() != 1:
            raise KeyError(f"NBA player {name!r} is not exactly one person in the data")
    df = df[df["PLAYER_NAME"].isin(names)].rename(columns=_NBA_PLAYER_RENAME)
    if start is not None:
        df = df[df["YEAR"] >= start]
    if end is not None:
        df = df[df["YEAR"] <= end]
    order = {n: i for i, n in enumerate(names)}
    df = df.assign(_o=df["PLAYER_NAME"].map(order)).sort_values(["_o", "YEAR"], kind="stable")
    out = df[_nba_player_fields()].reset_index(drop=True)
    out["BIRTHDATE"] = out["BIRTHDATE"].astype(str).str.slice(0, 10)
    return out


def mlb_franchise(team: str) -> int:
    """Resolve "New York Yankees" to its franchise id via the latest season's nickname."""
    df = load_table("mlb_teams")
    latest = df[df["Season"] == df["Season"].max()]
    hits = latest[[team.endswith(str(n)) for n in latest["FLD_Team"]]]
    if len(hits) != 1:
        raise KeyError(f"MLB team {team!r} matches {len(hits)} franchises in the data")
    return int(hits["teamIDfg"].iloc[0])


def _mlb(kind: str, team: str | None, start: int | None, end: int | None) -> pd.DataFrame:
    df = load_table("mlb_teams")
    if team is not None:
        df = df[df["teamIDfg"] == mlb_franchise(team)]
    if start is not None:
        df = df[df["Season"] >= start]
    if end is not None:
        df = df[df["Season"] <= end]
    df = df.sort_values(["Season", "Team"], kind="stable")
    schema = MLB_HITTING_SCHEMA if kind == "hitting" else MLB_PITCHING_SCHEMA
    fields = [f for f in schema if _mlb_source(kind, f) in df.columns]
    return pd.DataFrame({f: df[_mlb_source(kind, f)].to_numpy() for f in fields})


# ---------------------------------------------------------------- the catalog


@dataclass(frozen=True)
class Task:
    """One benchmark task; ``ground_truth()`` is computed on first use and cached per data directory."""

    id: str
    template: str
    domain: Domain
    instruction: str
    fields: list[str]
    params: dict[str, Any] = field(default_factory=dict)
    entity: str = ""

    def ground_truth(self) -> pd.DataFrame:
        """The expected dataset (a fresh copy: callers may mutate it)."""
        key = (self.id, str(data_dir()))
        with _gt_lock:
            if key not in _gt_cache:
                _gt_cache[key] = _build(self)
            return _gt_cache[key].copy()

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "template": self.template,
            "domain": self.domain,
            "instruction": self.instruction,
            "fields": list(self.fields),
            "params": dict(self.params),
        }


_gt_cache: dict[tuple[str, str], pd.DataFrame] = {}
_gt_lock = threading.Lock()


def _build(task: Task) -> pd.DataFrame:
    p = task.params
    t = int(task.template[1:])
    if t in (1, 2, 3):
        years = [p["year"]] if "year" in p else list(range(p["start_year"], p["end_year"] + 1))
        df = _papers(p["conference"], years, p.get("track"))
    elif t == 4:
        tickers = None if p["ticker"] == "*" else [p["ticker"]]
        df = _stocks(tickers, f"{p['year']}-01-01", f"{p['year']}-12-31", "Ticker" in task.fields)
    elif t == 5:
        df = _stocks([p["ticker"]], p["start_date"], p["end_date"], False)
    elif t == 6:
        df = _stocks(p["tickers"], p["date"], p["date"], True)
    elif t in (7, 8, 9):
        df = _nba_teams(p.get("team"), p.get("start_year", p.get("year")), p.get("end_year", p.get("year")))
    elif t in (10, 11, 12):
        names = p["players"] if "players" in p else [p["player"]]
        df = _nba_players(names, p.get("start_year", p.get("year")), p.get("end_year", p.get("year")))
    else:
        kind = "hitting" if t <= 15 else "pitching"
        df = _mlb(kind, p.get("team"), p.get("start_year", p.get("year")), p.get("end_year", p.get("year")))
    return df[task.fields].reset_index(drop=True)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# (conference, year) for T1; (conference, year, track) for T2; (conference, start, end) for T3.
_T1 = [
    ("NeurIPS", 2017),
    ("ACL", 2023),
    ("EMNLP", 2022),
    ("NAACL", 2022),
    ("CVPR", 2021),
    ("ICCV", 2021),
    ("ICML", 2021),
    ("ICLR", 2021),
    ("ECCV", 2020),
]
_T2 = [
    ("ACL", 2023, "Findings Track"),
    ("ACL", 2023, "Long Paper Track"),
    ("ACL", 2023, "Short Paper Track"),
    ("EMNLP", 2022, "Findings Track"),
    ("EMNLP", 2022, "Main Conference Track"),
]
_T3 = [
    ("NeurIPS", 2015, 2017),
    ("ICLR", 2019, 2021),
    ("ECCV", 2018, 2020),
    ("NAACL", 2021, 2022),
    ("ICCV", 2019, 2021),
]
# Tickers the catalog follows over 2015-2024 (the generated sample records carry them all years).
LONG_HISTORY_TICKERS = ["AAPL", "MSFT", "AMZN", "GOOGL", "NVDA", "JPM", "XOM", "KO"]
_T4 = [("AAPL", 2024), ("MSFT", 2023), ("NVDA", 2020), ("JPM", 2015), ("KO", 2019), ("*", 2024)]
_T5 = [
    ("AAPL", "2023-01-03", "2023-03-31"),
    ("MSFT", "2019-06-03", "2019-12-31"),
    ("JPM", "2024-01-02", "2024-03-29"),
    ("NVDA", "2016-02-01", "2016-05-31"),
]
_T6 = [
    (["AAPL", "MSFT", "GOOGL"], "2024-03-15"),
    (["AMZN", "NVDA", "XOM", "KO"], "2018-07-02"),
    (["TSLA", "META", "BRK-B", "UNH", "V"], "2024-11-29"),
]
_T7 = ["Los Angeles Lakers", "Toronto Raptors", "Miami Heat"]
_T8 = [
    ("Golden State Warriors", 2015, 2019),
    ("Chicago Bulls", 1995, 1998),
    ("San Antonio Spurs", 2010, 2014),
]
_T9 = [2023, 2015, 1996]
_T10 = ["LeBron James", "Stephen Curry", "Dirk Nowitzki"]
_T11 = [("Kevin Durant", 2010, 2015), ("Kobe Bryant", 2005, 2009), ("James Harden", 2019, 2022)]
_T12 = [
    (["LeBron James", "Stephen Curry", "Kevin Durant"], 2019),
    (["Giannis Antetokounmpo", "Joel Embiid"], 2022),
    (["Michael Jordan", "Tim Duncan"], 1997),
]
_MLB_TEAMS = ["New York Yankees", "Los Angeles Dodgers", "Seattle Mariners"]
_MLB_RANGES = [("Boston Red Sox", 2015, 2019), ("Houston Astros", 2017, 2022), ("Chicago Cubs", 2016, 2018)]
_MLB_YEARS = [2021, 2019, 2001]


def _make() -> list[Task]:
    tasks: list[Task] = []

    def add(tid: str, template: str, domain: Domain, instr: str, fields: list[str], entity: str, **params):
        tasks.append(Task(tid, template, domain, instr, fields, params, entity))

    for conf, year in _T1:
        add(
            f"t01-{_slug(conf)}-{year}",
            "T1",
            "academic",
            f"Collect all accepted papers of {conf} {year}.",
            PAPER_FIELDS,
            "paper",
            conference=conf,
            year=year,
        )
    for conf, year, track in _T2:
        add(
            f"t02-{_slug(conf)}-{year}-{_slug(track.removesuffix(' Track'))}",
            "T2",
            "academic",
            f"Collect all accepted papers of {conf} {year} {track}.",
            PAPER_FIELDS,
            "paper",
            conference=conf,
            year=year,
            track=track,
        )
    for conf, y0, y1 in _T3:
        add(
            f"t03-{_slug(conf)}-{y0}-{y1}",
            "T3",
            "academic",
            f"Collect all accepted papers of {conf} from {y0} to {y1}.",
            PAPER_FIELDS,
            "paper",
            conference=conf,
            start_year=y0,
            end_year=y1,
        )
    for ticker, year in _T4:
        if ticker == "*":
            add(
                f"t04-sp500-{year}",
                "T4",
                "finance",
                f"Collect the daily stock information of all S&P 500 companies in {year}.",
                ["Ticker", *STOCK_FIELDS],
                "stock",
                ticker="*",
                year=year,
            )
            continue
        add(
            f"t04-{_slug(ticker)}-{year}",
            "T4",
            "finance",
            f"Collect the daily stock information of {ticker} in {year}.",
            STOCK_FIELDS,
            "stock",
            ticker=ticker,
            year=year,
        )
    for ticker, start, end in _T5:
        add(
            f"t05-{_slug(ticker)}-{start}-{end}",
            "T5",
            "finance",
            f"Collect the daily stock information of {ticker} between {start} and {end}.",
            STOCK_FIELDS,
            "stock",
            ticker=ticker,
            start_date=start,
            end_date=end,
        )
    for tickers, date in _T6:
        add(
            f"t06-{'-'.join(_slug(t) for t in tickers)}-{date}",
            "T6",
            "finance",
            f"Collect the daily stock information of {_join(tickers)} on {date}.",
            ["Ticker", *STOCK_FIELDS],
            "stock",
            tickers=tickers,
            date=date,
        )
    nba_team_fields = [f for f in NBA_TEAM_SCHEMA if f not in ("MIN", "BLKA", "PFD")]
    for team in _T7:
        add(
            f"t07-{_slug(team)}",
            "T7",
            "sport",
            f"Collect all regular-season statistics of NBA {team} up to 2024.",
            nba_team_fields,
            "nba_team",
            team=team,
            end_year=2024,
        )
    for team, y0, y1 in _T8:
        add(
            f"t08-{_slug(team)}-{y0}-{y1}",
            "T8",
            "sport",
            f"Collect all regular-season statistics of NBA {team} from {y0} to {y1}.",
            nba_team_fields,
            "nba_team",
            team=team,
            start_year=y0,
            end_year=y1,
        )
    for year in _T9:
        add(
            f"t09-nba-teams-{year}",
            "T9",
            "sport",
            f"Collect all NBA regular-season team statistics of {year}.",
            nba_team_fields,
            "nba_team",
            year=year,
        )
    for name in _T10:
        add(
            f"t10-{_slug(name)}",
            "T10",
            "sport",
            f"Collect all regular-season statistics of NBA player {name} up to 2024.",
            NBA_PLAYER_SCHEMA,
            "nba_player",
            player=name,
            end_year=2024,
        )
    for name, y0, y1 in _T11:
        add(
            f"t11-{_slug(name)}-{y0}-{y1}",
            "T11",
            "sport",
            f"Collect all regular-season statistics of NBA player {name} from {y0} to {y1}.",
            NBA_PLAYER_SCHEMA,
            "nba_player",
            player=name,
            start_year=y0,
            end_year=y1,
        )
    for names, year in _T12:
        add(
            f"t12-{'-'.join(_slug(n.split()[-1]) for n in names)}-{year}",
            "T12",
            "sport",
            f"Collect all regular-season statistics of NBA players {_join(names)} in {year}.",
            NBA_PLAYER_SCHEMA,
            "nba_player",
            players=names,
            year=year,
        )
    for base, kind, schema in ((13, "hitting", MLB_HITTING_SCHEMA), (16, "pitching", MLB_PITCHING_SCHEMA)):
        entity = f"mlb_{kind}"
        for team in _MLB_TEAMS:
            add(
                f"t{base:02d}-{_slug(team)}",
                f"T{base}",
                "sport",
                f"Collect all regular-season {kind} statistics of MLB {team} up to 2024.",
                schema,
                entity,
                team=team,
                end_year=2024,
            )
        for team, y0, y1 in _MLB_RANGES:
            add(
                f"t{base + 1:02d}-{_slug(team)}-{y0}-{y1}",
                f"T{base + 1}",
                "sport",
                f"Collect all regular-season {kind} statistics of MLB {team} from {y0} to {y1}.",
                schema,
                entity,
                team=team,
                start_year=y0,
                end_year=y1,
            )
        for year in _MLB_YEARS:
            add(
                f"t{base + 2:02d}-mlb-{kind}-{year}",
                f"T{base + 2}",
                "sport",
                f"Collect the {kind} statistics of all MLB teams in {year}.",
                schema,
                entity,
                year=year,
            )
    return tasks


_CATALOG: list[Task] = _make()
_BY_ID: dict[str, Task] = {t.id: t for t in _CATALOG}


def catalog() -> list[Task]:
    """All sandbox tasks, in template order."""
    return list(_CATALOG)


def get_task(task_id: str) -> Task:
    """Look a task up by id; the KeyError names the closest ids so a typo is easy to fix."""
    try:
        return _BY_ID[task_id]
    except KeyError:
        import difflib

        close = difflib.get_close_matches(task_id, list(_BY_ID), n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise KeyError(f"unknown sandbox task {task_id!r}{hint}") from None


def data_requirements() -> dict[str, Any]:
    """What the records must contain so every task is answerable (the generated samples are tested against it)."""
    papers: set[tuple[str, int]] = set()
    stock_years: dict[str, set[int]] = {}
    for t in _CATALOG:
        p = t.params
        if t.entity == "paper":
            years = [p["year"]] if "year" in p else range(p["start_year"], p["end_year"] + 1)
            papers.update((p["conference"], y) for y in years)
        elif t.entity == "stock":
            if "year" in p:
                years, tickers = {p["year"]}, [p["ticker"]]
            elif "date" in p:
                years, tickers = {int(p["date"][:4])}, p["tickers"]
            else:
                years = set(range(int(p["start_date"][:4]), int(p["end_date"][:4]) + 1))
                tickers = [p["ticker"]]
            for tk in tickers:
                stock_years.setdefault(tk, set()).update(years)
    return {
        "papers": sorted(papers),
        "stocks": {k: sorted(v) for k, v in sorted(stock_years.items())},
        "long_history_tickers": list(LONG_HISTORY_TICKERS),
    }
