"""FanGraphs imitation: MLB team batting/pitching/fielding leaderboards, their JSON API and team pages.

``/www.fangraphs.com/leaders/major-league?stats=bat|pit|fld&type=0|1|8&team=0,ts&season=&season1=`` is a
server-rendered, paginated HTML table (``pageitems``/``pagenum``) whose inline script names the JSON
endpoint the page itself calls: ``/www.fangraphs.com/api/leaders/major-league/data`` with the same
parameters, answering ``{"data": [...], "totalCount": n}`` with every column the data has for that group.
Rows are one team-season (like ``ind=1``); ``team=<teamid>,ts`` narrows to one franchise. Bad parameters
get FanGraphs' ASP.NET-style 400 (``{"title": ..., "status": 400, "errors": {param: [msg]}}``).
"""

from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass
from urllib.parse import urlencode

import pandas as pd
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route

from prefect_autodata.sandbox.data import load_table
from prefect_autodata.sandbox.sites._api import ProcessData, clean, json_response
from prefect_autodata.sandbox.sites._html import bare_page

HOST = "/www.fangraphs.com"
LEADERS = f"{HOST}/leaders/major-league"
API = f"{HOST}/api/leaders/major-league/data"
GROUPS = {"bat": "BAT_", "pit": "PIT_", "fld": "FLD_"}
GROUP_TITLES = {"bat": "Batting", "pit": "Pitching", "fld": "Fielding"}
# Columns the HTML table shows per (stats, type); the JSON API always sends every column.
TYPES: dict[str, dict[int, list[str]]] = {
    "bat": {
        0: ["G", "AB", "PA", "H", "1B", "2B", "3B", "HR", "R", "RBI", "BB", "IBB", "SO", "HBP", "SF", "SH", "GDP", "SB", "CS", "AVG"],
        1: ["PA", "BB%", "K%", "BB/K", "AVG", "OBP", "SLG", "OPS", "ISO", "Spd", "BABIP", "UBR", "wGDP", "wSB", "wRC", "wRAA", "wOBA", "wRC+"],
        8: ["G", "PA", "HR", "R", "RBI", "SB", "BB%", "K%", "ISO", "BABIP", "AVG", "OBP", "SLG", "wOBA", "wRC+", "BsR", "Off", "Def", "WAR"],
    },
    "pit": {
        0: ["W", "L", "ERA", "G", "GS", "CG", "ShO", "SV", "BS", "IP", "TBF", "H", "R", "ER", "HR", "BB", "IBB", "HBP", "WP", "BK", "SO"],
        1: ["K/9", "BB/9", "K/BB", "HR/9", "K%", "BB%", "AVG", "WHIP", "BABIP", "LOB%", "ERA-", "FIP-", "xFIP-", "ERA", "FIP", "E-F", "xFIP", "SIERA"],
        8: ["W", "L", "SV", "G", "GS", "IP", "K/9", "BB/9", "HR/9", "BABIP", "LOB%", "GB%", "HR/FB", "ERA", "FIP", "xFIP", "WAR"],
    },
    "fld": {
        0: ["G", "GS", "Inn", "PO", "A", "E", "FE", "TE", "DP", "DPS", "DPT", "DPF", "SB", "CS", "PB", "WP", "FP", "TZ"],
        1: ["Inn", "rSB", "rGDP", "rARM", "rGFP", "rPM", "DRS", "BIZ", "Plays", "RZR", "OOZ", "ARM", "DPR", "RngR", "ErrR", "UZR", "UZR/150", "Def"],
        8: ["Inn", "PO", "A", "E", "DP", "FP", "DRS", "UZR", "Def", "OAA"],
    },
}  # fmt: skip
DEFAULT_SORT = {"bat": "WAR", "pit": "WAR", "fld": "Def"}

SITEMAP: list[tuple[str, str]] = [
    (
        "FanGraphs MLB team batting leaderboard",
        f"{LEADERS}?stats=bat&type=8&team=0,ts&season=2024&season1=2024",
    ),
    (
        "FanGraphs MLB team pitching leaderboard",
        f"{LEADERS}?stats=pit&type=8&team=0,ts&season=2024&season1=2024",
    ),
    ("FanGraphs MLB teams", f"{HOST}/teams"),
]


# ----------------------------------------------------------------------------------------------- data


@dataclass(frozen=True)
class TeamInfo:
    team_id: int
    abbreviation: str
    nickname: str
    slug: str
    first: int
    last: int


@dataclass(frozen=True)
class MlbData:
    frames: dict[str, pd.DataFrame]  # group -> Season, teamid, TeamName, TeamNameAbb + stripped stat columns
    teams: dict[int, TeamInfo]
    slugs: dict[str, int]
    seasons: tuple[int, int]


def mlb_data() -> MlbData:
    """Split the wide table into per-group frames once per process."""
    return _DATA.get()


def _build() -> MlbData:
    m = load_table("mlb_teams").sort_values(["Season", "teamIDfg"], kind="stable")
    base = pd.DataFrame(
        {
            "Season": m["Season"].astype(int),
            "teamid": m["teamIDfg"].astype(int),
            # Like the real API: TeamName is the club's name in that season (Highlanders, then
            # Yankees), TeamNameAbb its code; the Team cell links the code to the team page.
            "TeamName": (m["FLD_Team"] if "FLD_Team" in m.columns else m["Team"]).astype(str),
            "TeamNameAbb": m["Team"].astype(str),
        }
    )
    frames = {}
    for group, prefix in GROUPS.items():
        cols = [c for c in m.columns if c.startswith(prefix) and c != f"{prefix}Team"]
        stats = m[cols].rename(columns=lambda c, p=prefix: c[len(p) :])
        frames[group] = pd.concat([base, stats], axis=1).reset_index(drop=True)
    latest = m.drop_duplicates("teamIDfg", keep="last")
    span = m.groupby("teamIDfg")["Season"].agg(["min", "max"])
    teams: dict[int, TeamInfo] = {}
    slugs: dict[str, int] = {}
    last_season = int(m["Season"].max())
    for r in latest.itertuples(index=False):
        tid = int(r.teamIDfg)
        nickname = str(getattr(r, "FLD_Team", "") or r.Team)
        slug = re.sub(r"[^a-z0-9]+", "-", nickname.lower()).strip("-") or str(r.Team).lower()
        if slug in slugs or int(span.loc[tid, "max"]) != last_season:
            slug = f"{slug}-{tid}"
        slugs[slug] = tid
        teams[tid] = TeamInfo(
            tid, str(r.Team), nickname, slug, int(span.loc[tid, "min"]), int(span.loc[tid, "max"])
        )
    return MlbData(frames, teams, slugs, (int(m["Season"].min()), last_season))


_DATA: ProcessData[MlbData] = ProcessData(_build)


# ------------------------------------------------------------------------------------------- queries


class _BadParam(Exception):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Query:
    stats: str
    type: int
    team: int  # 0 = all teams
    season: int
    season1: int
    pageitems: int
    pagenum: int
    sortstat: str
    sortdir: str

    def params(self, **override: object) -> str:
        values = {
            "pos": "all",
            "stats": self.stats,
            "lg": "all",
            "qual": 0,
            "type": self.type,
            "season": self.season,
            "season1": self.season1,
            "ind": 1,
            "team": f"{self.team},ts",
            "pageitems": self.pageitems,
            "pagenum": self.pagenum,
            "sortstat": self.sortstat,
            "sortdir": self.sortdir,
        }
        values.update(override)
        return urlencode(values, safe=",")


def _int(q, name: str, default: int, lo: int, hi: int) -> int:
    raw = q.get(name)
    if raw is None or raw == "":
        return default
    if not re.fullmatch(r"-?\d{1,9}", raw):
        raise _BadParam(name, f"The value '{raw}' is not valid.")
    value = int(raw)
    if not lo <= value <= hi:
        raise _BadParam(name, f"The value '{raw}' must be between {lo} and {hi}.")
    return value


def parse_query(request: Request, d: MlbData) -> Query:
    q = request.query_params
    stats = q.get("stats") or "bat"
    if stats not in GROUPS:
        raise _BadParam("stats", f"The value '{stats}' is not valid; use bat, pit or fld.")
    typ = _int(q, "type", 8, 0, 10_000)
    if typ not in TYPES[stats]:
        raise _BadParam("type", f"The value '{typ}' is not a supported leaderboard type; use 0, 1 or 8.")
    lo, hi = d.seasons
    season1 = _int(q, "season1", hi, lo, hi)
    season = _int(q, "season", season1, lo, hi)
    if season > season1:
        season, season1 = season1, season
    team_raw = q.get("team") or "0,ts"
    m = re.fullmatch(r"(\d{1,4})(,ts)?", team_raw)
    if not m or (int(m.group(1)) and int(m.group(1)) not in d.teams):
        raise _BadParam("team", f"The value '{team_raw}' is not valid; use 0,ts or <teamid>,ts.")
    if not m.group(2):
        raise _BadParam("team", "Only team totals are served: add ',ts' (e.g. team=0,ts).")
    pageitems = _int(q, "pageitems", 30, 1, 2_000_000_000)
    pagenum = _int(q, "pagenum", 1, 1, 1_000_000)
    sortstat = q.get("sortstat") or DEFAULT_SORT[stats]
    if sortstat not in d.frames[stats].columns:
        raise _BadParam("sortstat", f"The value '{sortstat}' is not a column of the {stats} leaderboard.")
    sortdir = q.get("sortdir") or "default"
    if sortdir not in ("default", "asc", "desc"):
        raise _BadParam("sortdir", f"The value '{sortdir}' is not valid; use default, asc or desc.")
    return Query(stats, typ, int(m.group(1)), season, season1, pageitems, pagenum, sortstat, sortdir)


def select(d: MlbData, query: Query) -> pd.DataFrame:
    f = d.frames[query.stats]
    f = f[(f["Season"] >= query.season) & (f["Season"] <= query.season1)]
    if query.team:
        f = f[f["teamid"] == query.team]
    ascending = query.sortdir == "asc" or (
        query.sortdir == "default" and query.sortstat in ("ERA", "FIP", "xFIP")
    )
    return f.sort_values(
        [query.sortstat, "Season", "teamid"], ascending=[ascending, True, True], na_position="last"
    )


def _records(f: pd.DataFrame) -> list[dict]:
    cols = list(f.columns)
    values = [[clean(v) for v in f[c].tolist()] for c in cols]
    return [dict(zip(cols, row, strict=True)) for row in zip(*values, strict=True)]


def _cell(v: object) -> str:
    v = clean(v)
    return "" if v is None else html.escape(str(v))


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    nav = f'<nav><a href="{LEADERS}">Leaders</a> <a href="{HOST}/teams">Teams</a></nav>'
    return bare_page(title, nav + body, status)


def _error(exc: _BadParam) -> Response:
    body = {
        "type": "https://tools.ietf.org/html/rfc9110#section-15.5.1",
        "title": "One or more validation errors occurred.",
        "status": 400,
        "errors": {exc.field: [str(exc)]},
    }
    return json_response(body, 400, media_type="application/problem+json")


# -------------------------------------------------------------------------------------------- routes


def routes(ctx) -> list[BaseRoute]:
    async def api(request: Request) -> Response:
        d = await _DATA.aget()
        try:
            query = parse_query(request, d)
        except _BadParam as exc:
            return _error(exc)
        f = select(d, query)
        start = (query.pagenum - 1) * query.pageitems
        page = f.iloc[start : start + query.pageitems]
        rows = _records(page)
        for r in rows:
            r["Team"] = f'<a href="{HOST}/teams/{d.teams[r["teamid"]].slug}/stats">{r["TeamNameAbb"]}</a>'
        body = {"data": rows, "totalCount": len(f), "sortField": query.sortstat, "sortDir": query.sortdir}
        return json_response(body)

    async def leaders(request: Request) -> Response:
        d = await _DATA.aget()
        try:
            query = parse_query(request, d)
        except _BadParam as exc:
            return _page(
                "Invalid leaderboard query | FanGraphs",
                f"<h1>Invalid query</h1><p>{html.escape(str(exc))}</p>",
                400,
            )
        f = select(d, query)
        total = len(f)
        pages = max(1, math.ceil(total / query.pageitems))
        start = (query.pagenum - 1) * query.pageitems
        page = f.iloc[start : start + query.pageitems]
        cols = [c for c in TYPES[query.stats][query.type] if c in f.columns]
        head = "<th>#</th><th>Season</th><th>Team</th>" + "".join(f"<th>{html.escape(c)}</th>" for c in cols)
        body_rows = []
        for i, row in enumerate(page.itertuples(index=False), start=start + 1):
            rec = dict(zip(page.columns, row, strict=True))
            team = d.teams[int(rec["teamid"])]
            cells = "".join(f'<td data-stat="{html.escape(c)}">{_cell(rec[c])}</td>' for c in cols)
            body_rows.append(
                f'<tr><td>{i}</td><td data-stat="Season">{rec["Season"]}</td>'
                f'<td data-stat="Team"><a href="{HOST}/teams/{team.slug}/stats" title="{html.escape(rec["TeamName"])}">'
                f"{html.escape(rec['TeamNameAbb'])}</a></td>"
                f"{cells}</tr>"
            )
        nav = []
        if query.pagenum > 1:
            nav.append(
                f'<a class="prev" href="{LEADERS}?{html.escape(query.params(pagenum=query.pagenum - 1))}">Prev</a>'
            )
        nav.append(f'<span class="page-info">Page {query.pagenum} of {pages}</span>')
        if query.pagenum < pages:
            nav.append(
                f'<a class="next" href="{LEADERS}?{html.escape(query.params(pagenum=query.pagenum + 1))}">Next</a>'
            )
        tabs = "".join(
            f'<a href="{LEADERS}?{html.escape(query.params(stats=s, type=t, pagenum=1, sortstat=DEFAULT_SORT[s]))}">'
            f"{GROUP_TITLES[s]} ({['Standard', 'Advanced', 'Dashboard'][[0, 1, 8].index(t)]})</a> "
            for s in GROUPS
            for t in (0, 1, 8)
        )
        years = "".join(
            f'<a href="{LEADERS}?{html.escape(query.params(season=y, season1=y, pagenum=1))}">{y}</a> '
            for y in range(d.seasons[1], d.seasons[0] - 1, -1)
        )
        api_url = f"{API}?{query.params()}"
        span = str(query.season) if query.season == query.season1 else f"{query.season}-{query.season1}"
        title = (
            f"Major League Leaderboards » {span} » Teams » {GROUP_TITLES[query.stats]} Statistics | FanGraphs"
        )
        script = (
            "<script>\n"
            f"window.__LEADERBOARD_API__ = '{api_url}';\n"
            "async function refreshLeaderboard() {\n"
            "  const resp = await fetch(window.__LEADERBOARD_API__);\n"
            "  const json = await resp.json();\n"
            "  document.getElementById('leaders').dataset.total = json.totalCount;\n"
            "}\n"
            "refreshLeaderboard();\n"
            "</script>"
        )
        body = (
            f"<h1>{html.escape(span)} Team {GROUP_TITLES[query.stats]} Leaderboard</h1>"
            f'<div class="leaders-tabs">{tabs}</div>'
            f'<div class="table-scroll"><table id="leaders" class="leaders-table"><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(body_rows)}</tbody></table></div>"
            f'<div class="pagination">{" ".join(nav)}</div>'
            f'<div class="seasons"><h2>Seasons</h2>{years}</div>{script}'
        )
        return _page(title, body)

    async def teams_index(request: Request) -> Response:
        d = await _DATA.aget()
        current = sorted((t for t in d.teams.values() if t.last == d.seasons[1]), key=lambda t: t.nickname)
        past = sorted(
            (t for t in d.teams.values() if t.last != d.seasons[1]), key=lambda t: (t.abbreviation, t.first)
        )
        li = lambda t: (  # noqa: E731
            f'<li><a href="{HOST}/teams/{t.slug}/stats">{html.escape(t.nickname)}</a> ({t.abbreviation}, '
            f"{t.first}-{t.last})</li>"
        )
        body = (
            f'<h1>MLB Teams</h1><h2>Current</h2><ul id="teams">{"".join(li(t) for t in current)}</ul>'
            f'<h2>Historical franchises</h2><ul id="past-teams">{"".join(li(t) for t in past)}</ul>'
        )
        return _page("MLB Teams | FanGraphs", body)

    async def team_page(request: Request) -> Response:
        d = await _DATA.aget()
        tid = d.slugs.get(request.path_params["slug"])
        if tid is None:
            return _page("Page Not Found | FanGraphs", "<h1>Team not found</h1>", 404)
        team = d.teams[tid]
        links = "".join(
            f'<li><a href="{LEADERS}?{html.escape(Query(s, 0, tid, team.first, team.last, 200, 1, DEFAULT_SORT[s], "default").params())}">'
            f"{team.nickname} {GROUP_TITLES[s].lower()} by season, {team.first}-{team.last}</a></li>"
            for s in GROUPS
        )
        f = d.frames["bat"]
        f = f[f["teamid"] == tid].sort_values("Season", ascending=False).head(10)
        recent = "".join(
            f"<tr><td>{r.Season}</td><td>{_cell(r.G)}</td><td>{_cell(r.R)}</td><td>{_cell(r.HR)}</td>"
            f"<td>{_cell(r.AVG)}</td></tr>"
            for r in f[["Season", "G", "R", "HR", "AVG"]].itertuples(index=False)
        )
        body = (
            f'<h1 class="team-name">{html.escape(team.nickname)}</h1>'
            f'<p>{team.abbreviation} | {team.first}-{team.last}</p><ul id="team-leaderboards">{links}</ul>'
            f'<h2>Recent seasons</h2><table id="recent"><thead><tr><th>Season</th><th>G</th><th>R</th><th>HR</th>'
            f"<th>AVG</th></tr></thead><tbody>{recent}</tbody></table>"
        )
        return _page(f"{team.nickname} Stats | FanGraphs", body)

    return [
        Mount(
            HOST,
            routes=[
                Route("/leaders/major-league", leaders),
                Route("/api/leaders/major-league/data", api),
                Route("/teams", teams_index),
                Route("/teams/{slug}", team_page),
                Route("/teams/{slug}/stats", team_page),
            ],
        )
    ]


def search_docs() -> list[dict]:
    """Leaderboards and one page per franchise, for the sandbox search engine."""
    d = mlb_data()
    last = d.seasons[1]
    docs = [
        {
            "title": f"Major League Leaderboards » {last} » Teams » Batting Statistics | FanGraphs",
            "url": f"{LEADERS}?stats=bat&type=0&team=0,ts&season={last}&season1={last}",
            "snippet": "MLB team batting stats: AB, R, H, 2B, 3B, HR, RBI, BB, SO, SB, CS, AVG, OBP, SLG, wOBA, wRC+, WAR.",
        },
        {
            "title": f"Major League Leaderboards » {last} » Teams » Pitching Statistics | FanGraphs",
            "url": f"{LEADERS}?stats=pit&type=0&team=0,ts&season={last}&season1={last}",
            "snippet": "MLB team pitching stats: W, L, ERA, G, GS, CG, ShO, SV, IP, H, R, ER, HR, BB, SO, FIP, WAR.",
        },
        {
            "title": "MLB Teams | FanGraphs",
            "url": f"{HOST}/teams",
            "snippet": f"Every MLB franchise, {d.seasons[0]} to {last}.",
        },
    ]
    for t in d.teams.values():
        docs.append(
            {
                "title": f"{t.nickname} Stats | FanGraphs",
                "url": f"{HOST}/teams/{t.slug}/stats",
                "snippet": f"{t.nickname} ({t.abbreviation}) team batting, pitching and fielding by season, "
                f"{t.first}-{t.last}.",
            }
        )
    return docs
