"""NBA imitation: the stats.nba.com JSON API and the www.nba.com pages whose scripts call it.

API (``/stats.nba.com/stats/<endpoint>``) answers like the real one: ``{"resource", "parameters",
"resultSets": [{"name", "headers", "rowSet"}]}``; seasons are written ``"2023-24"``; a missing parameter is
a plain-text 400 (``The TeamID property is required.``) and a malformed one names the regular expression it
must match. Like the real service it refuses clients that do not look like a browser on nba.com: no
browser ``User-Agent`` -> 403 "Access Denied"; a browser UA without an nba.com ``Referer``/``Origin`` -> the
request hangs (``AUTODATA_SANDBOX_NBA_HANG_S`` seconds, default 30, released early when the client goes).

Pages (``/www.nba.com``): ``/teams``, ``/players``, ``/stats/team/<id>``, ``/stats/player/<id>`` and
``/stats/teams/traditional?Season=`` carry the human-readable name in the title and h1 and fetch the API
from an inline script, as the real pages do.
"""

from __future__ import annotations

import asyncio
import html
import os
import re
from dataclasses import dataclass

import anyio
import numpy as np
import pandas as pd
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route

from prefect_autodata.sandbox.data import load_table
from prefect_autodata.sandbox.sites._api import ProcessData, clean, json_response
from prefect_autodata.sandbox.sites._html import bare_page

API = "/stats.nba.com/stats"
WWW = "/www.nba.com"
DEFAULT_HANG_S = 30.0

TEAM_STATS_HEADERS = [
    "TEAM_ID", "TEAM_CITY", "TEAM_NAME", "YEAR", "GP", "WINS", "LOSSES", "WIN_PCT", "CONF_RANK", "DIV_RANK",
    "PO_WINS", "PO_LOSSES", "CONF_COUNT", "DIV_COUNT", "NBA_FINALS_APPEARANCE", "FGM", "FGA", "FG_PCT", "FG3M",
    "FG3A", "FG3_PCT", "FTM", "FTA", "FT_PCT", "OREB", "DREB", "REB", "AST", "PF", "STL", "TOV", "BLK", "PTS",
    "PTS_RANK",
]  # fmt: skip
TEAM_COUNTING = ["FGM", "FGA", "FG3M", "FG3A", "FTM", "FTA", "OREB", "DREB", "REB", "AST", "PF", "STL", "TOV", "BLK", "PTS"]  # fmt: skip
PLAYER_SEASON_HEADERS = [
    "PLAYER_ID", "SEASON_ID", "LEAGUE_ID", "TEAM_ID", "TEAM_ABBREVIATION", "PLAYER_AGE", "GP", "GS", "MIN", "FGM",
    "FGA", "FG_PCT", "FG3M", "FG3A", "FG3_PCT", "FTM", "FTA", "FT_PCT", "OREB", "DREB", "REB", "AST", "STL", "BLK",
    "TOV", "PF", "PTS",
]  # fmt: skip
PLAYER_COUNTING = ["MIN", "FGM", "FGA", "FG3M", "FG3A", "FTM", "FTA", "OREB", "DREB", "REB", "AST", "STL", "BLK", "TOV", "PF", "PTS"]  # fmt: skip
CAREER_HEADERS = ["PLAYER_ID", "LEAGUE_ID", "TEAM_ID", "GP", "GS", "MIN", "FGM", "FGA", "FG_PCT",
                  "FG3M", "FG3A", "FG3_PCT", "FTM", "FTA", "FT_PCT", "OREB", "DREB", "REB", "AST", "STL", "BLK",
                  "TOV", "PF", "PTS"]  # fmt: skip
INFO_HEADERS = [
    "PERSON_ID", "FIRST_NAME", "LAST_NAME", "DISPLAY_FIRST_LAST", "DISPLAY_LAST_COMMA_FIRST", "PLAYER_SLUG",
    "BIRTHDATE", "COUNTRY", "HEIGHT", "WEIGHT", "SEASON_EXP", "TEAM_ID", "TEAM_ABBREVIATION", "FROM_YEAR",
    "TO_YEAR", "DRAFT_YEAR", "DRAFT_ROUND", "DRAFT_NUMBER",
]  # fmt: skip
ALL_PLAYERS_HEADERS = [
    "PERSON_ID", "DISPLAY_LAST_COMMA_FIRST", "DISPLAY_FIRST_LAST", "ROSTERSTATUS", "FROM_YEAR", "TO_YEAR",
    "PLAYER_SLUG", "TEAM_ID", "TEAM_CITY", "TEAM_NAME", "TEAM_ABBREVIATION", "GAMES_PLAYED_FLAG",
]  # fmt: skip
DASH_BASE = ["FGM", "FGA", "FG_PCT", "FG3M", "FG3A", "FG3_PCT", "FTM", "FTA", "FT_PCT", "OREB", "DREB", "REB", "AST", "TOV", "STL", "BLK", "PF", "PTS"]  # fmt: skip

SEASON_RE = r"^(\d{4}-\d{2})$"
PERMODE_RE = r"^(Totals)|(PerGame)$"
SEASONTYPE_RE = r"^(Regular Season)|(Pre Season)|(Playoffs)|(All Star)$"
LEAGUE_RE = r"^(00)|(10)|(20)$"
MEASURE_RE = r"^(Base)|(Advanced)$"

SITEMAP: list[tuple[str, str]] = [
    ("NBA.com teams", f"{WWW}/teams"),
    ("NBA.com players", f"{WWW}/players"),
    (
        "NBA.com team stats by season",
        f"{WWW}/stats/teams/traditional?Season=2023-24&SeasonType=Regular+Season",
    ),
]


def season_label(year: int) -> str:
    """1949 -> '1949-50' (the API's season id for the season starting that autumn)."""
    return f"{year}-{(year + 1) % 100:02d}"


def _matrix(df: pd.DataFrame, cols: list[str]) -> list[list]:
    """Rows as JSON-ready lists: NaN -> null, whole floats -> ints (the API sends 82, not 82.0)."""
    columns = [[clean(v) for v in df[c].tolist()] for c in cols]
    return [list(r) for r in zip(*columns, strict=True)] if columns else []


def _split(df: pd.DataFrame, key: str, rows: list[list]) -> dict[int, list[list]]:
    """Group pre-rendered rows by a key column of the same (sorted) frame."""
    keys = df[key].to_numpy()
    out: dict[int, list[list]] = {}
    for k, r in zip(keys.tolist(), rows, strict=True):
        out.setdefault(int(k), []).append(r)
    return out


# ----------------------------------------------------------------------------------------------- data


@dataclass(frozen=True)
class Team:
    team_id: int
    city: str
    name: str
    abbreviation: str
    min_year: int
    max_year: int


@dataclass(frozen=True)
class Player:
    player_id: int
    name: str
    from_year: int
    to_year: int
    last_team_id: int
    last_team: str
    info_row: list
    seasons: frozenset[int]


@dataclass(frozen=True)
class NbaData:
    teams: dict[int, Team]
    team_rows: dict[int, list[list]]  # TEAM_STATS_HEADERS order, YEAR as int
    season_teams: dict[int, pd.DataFrame]
    players: dict[int, Player]
    player_rows: dict[int, list[list]]  # PLAYER_SEASON_HEADERS order, SEASON_ID as int


def nba_data() -> NbaData:
    """Index both NBA tables once per process."""
    return _DATA.get()


def _build() -> NbaData:
    t = load_table("nba_teams").sort_values(["TEAM_ID", "YEAR"], kind="stable")
    span = t.groupby("TEAM_ID")["YEAR"].agg(["min", "max"])
    teams = {
        int(r.TEAM_ID): Team(
            int(r.TEAM_ID), str(r.TEAM_CITY), str(r.TEAM_NAME), str(r.TEAM_ABBREVIATION),
            int(span.loc[r.TEAM_ID, "min"]), int(span.loc[r.TEAM_ID, "max"]),
        )
        for r in t.drop_duplicates("TEAM_ID", keep="last").itertuples(index=False)
    }  # fmt: skip
    team_rows = _split(t, "TEAM_ID", _matrix(t, TEAM_STATS_HEADERS))
    season_teams = {int(y): g.sort_values("TEAM_NAME") for y, g in t.groupby("YEAR")}

    p = load_table("nba_players")
    p = p.assign(_order=np.arange(len(p))).sort_values(["PLAYER_ID", "SEASON_ID", "_order"], kind="stable")
    player_rows = _split(p, "PLAYER_ID", _matrix(p, PLAYER_SEASON_HEADERS))
    agg = p.groupby("PLAYER_ID")["SEASON_ID"].agg(["min", "max", "nunique"])
    seasons = dict(
        zip(agg.index.tolist(), zip(*(agg[c].tolist() for c in agg.columns), strict=True), strict=True)
    )
    traded = p[p["TEAM_ABBREVIATION"] != "TOT"].drop_duplicates("PLAYER_ID", keep="last")
    last_team = dict(
        zip(
            traded["PLAYER_ID"].tolist(),
            zip(traded["TEAM_ID"].tolist(), traded["TEAM_ABBREVIATION"].tolist(), strict=True),
            strict=True,
        )
    )
    info_cols = [
        "PLAYER_ID",
        "TEAM_ID",
        "TEAM_ABBREVIATION",
        "PLAYER_NAME",
        "PLAYER_WEIGHT",
        "PLAYER_BIRTHDATE",
    ]
    info_cols += [
        "PLAYER_COUNTRY",
        "PLAYER_HEIGHT",
        "PLAYER_DRAFT_YEAR",
        "PLAYER_DRAFT_ROUND",
        "PLAYER_DRAFT_NUMBER",
    ]
    last = p.drop_duplicates("PLAYER_ID", keep="last")[info_cols]
    players: dict[int, Player] = {}
    for row in last.itertuples(index=False):
        pid = int(row.PLAYER_ID)
        team_id, team_abbr = last_team.get(pid, (row.TEAM_ID, row.TEAM_ABBREVIATION))
        team_id, team_abbr = int(team_id), str(team_abbr)
        name = str(row.PLAYER_NAME)
        first, _, rest = name.partition(" ")
        weight = clean(row.PLAYER_WEIGHT)
        lo, hi, n = (int(v) for v in seasons[pid])
        info = [
            int(pid), first, rest, name, f"{rest}, {first}" if rest else first,
            re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-"),
            clean(row.PLAYER_BIRTHDATE), clean(row.PLAYER_COUNTRY), clean(row.PLAYER_HEIGHT),
            None if weight is None else str(weight), n, team_id, team_abbr, str(lo), str(hi),
            clean(row.PLAYER_DRAFT_YEAR), clean(row.PLAYER_DRAFT_ROUND), clean(row.PLAYER_DRAFT_NUMBER),
        ]  # fmt: skip
        played = frozenset(r[PLAYER_SEASON_HEADERS.index("SEASON_ID")] for r in player_rows[pid])
        players[pid] = Player(pid, name, lo, hi, team_id, team_abbr, info, played)
    return NbaData(teams, team_rows, season_teams, players, player_rows)


_DATA: ProcessData[NbaData] = ProcessData(_build)


# ------------------------------------------------------------------------------------------- helpers


class _BadParam(Exception):
    pass


class _Params:
    """Case-insensitive query parameters validated the way the real API words its errors."""

    def __init__(self, request: Request) -> None:
        self._q = {k.lower(): v for k, v in request.query_params.items()}
        self.used: dict[str, str] = {}

    def get(
        self, name: str, pattern: str | None = None, default: str | None = None, required: bool = False
    ) -> str:
        raw = self._q.get(name.lower())
        if raw is None or raw == "":
            if required:
                raise _BadParam(f"The {name} property is required.")
            raw = default
        if raw is not None and pattern is not None and not re.fullmatch(pattern, raw):
            raise _BadParam(f"The field {name} must match the regular expression '{pattern}'.")
        self.used[name] = raw  # type: ignore[assignment]
        return raw  # type: ignore[return-value]

    def integer(self, name: str) -> int:
        raw = self.get(name, required=True)
        if not re.fullmatch(r"\d{1,12}", raw):
            raise _BadParam(f"The value '{raw}' is not valid for {name}.")
        return int(raw)


def _result(resource: str, params: dict, sets: list[tuple[str, list[str], list[list]]]) -> Response:
    body = {
        "resource": resource,
        "parameters": params,
        "resultSets": [{"name": n, "headers": h, "rowSet": r} for n, h, r in sets],
    }
    return json_response(body)


def _per_game(rows: list[list], headers: list[str], counting: list[str]) -> list[list]:
    gp = headers.index("GP")
    idx = [headers.index(c) for c in counting]
    out = []
    for row in rows:
        r = list(row)
        games = r[gp] or 0
        for i in idx:
            if r[i] is not None and games:
                r[i] = round(r[i] / games, 1)
        out.append(r)
    return out


def _pct(made: float, att: float) -> float:
    return round(made / att, 3) if att else 0.0


def _career(rows: list[list], pid: int) -> list[list]:
    """One career line summed over seasons, taking a traded player's TOT line instead of its parts."""
    h = PLAYER_SEASON_HEADERS
    by_season: dict[int, list] = {}
    for r in rows:
        season, team = r[h.index("SEASON_ID")], r[h.index("TEAM_ABBREVIATION")]
        if season not in by_season or team == "TOT":
            by_season[season] = r
    if not by_season:
        return []
    tot = {c: 0 for c in ("GP", "GS", *PLAYER_COUNTING)}
    for r in by_season.values():
        for c in tot:
            v = r[h.index(c)]
            tot[c] += v or 0
    line = [
        pid,
        "00",
        0,
        tot["GP"],
        tot["GS"],
        tot["MIN"],
        tot["FGM"],
        tot["FGA"],
        _pct(tot["FGM"], tot["FGA"]),
    ]
    line += [tot["FG3M"], tot["FG3A"], _pct(tot["FG3M"], tot["FG3A"]), tot["FTM"], tot["FTA"]]
    line += [_pct(tot["FTM"], tot["FTA"]), tot["OREB"], tot["DREB"], tot["REB"], tot["AST"], tot["STL"]]
    line += [tot["BLK"], tot["TOV"], tot["PF"], tot["PTS"]]
    return [[clean(float(v)) if isinstance(v, float) else v for v in line]]


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    nav = (
        f'<nav><a href="{WWW}/teams">Teams</a> <a href="{WWW}/players">Players</a> '
        f'<a href="{WWW}/stats/teams/traditional">Team stats</a></nav>'
    )
    return bare_page(title, nav + body, status)


# The pages render their tables in the browser from the API, like the real (client-rendered) site.
_RENDER_JS = """
async function renderStats(url, target, setName) {
  const resp = await fetch(url, {headers: {'Accept': 'application/json'}});
  const data = await resp.json();
  const rs = data.resultSets.find(s => !setName || s.name === setName) || data.resultSets[0];
  const table = document.createElement('table');
  table.className = 'stats-table';
  const head = table.createTHead().insertRow();
  rs.headers.forEach(h => { const th = document.createElement('th'); th.textContent = h; head.appendChild(th); });
  const body = table.createTBody();
  rs.rowSet.forEach(row => {
    const tr = body.insertRow();
    row.forEach(v => { tr.insertCell().textContent = v === null ? '' : v; });
  });
  document.getElementById(target).replaceChildren(table);
}
"""


def _script(calls: list[tuple[str, str, str]]) -> str:
    lines = "".join(f"renderStats('{u}', '{t}', '{s}');\n" for u, t, s in calls)
    return f"<script>{_RENDER_JS}{lines}</script>"


# -------------------------------------------------------------------------------------------- routes


def routes(ctx) -> list[BaseRoute]:
    try:
        hang_s = float(os.environ.get("AUTODATA_SANDBOX_NBA_HANG_S", DEFAULT_HANG_S))
    except ValueError:
        hang_s = DEFAULT_HANG_S

    async def gate(request: Request) -> Response | None:
        """Refuse non-browser clients (403) and hang on requests that do not come from nba.com."""
        ua = request.headers.get("user-agent", "")
        if "Mozilla/" not in ua:
            return HTMLResponse(
                "<HTML><HEAD><TITLE>Access Denied</TITLE></HEAD><BODY><H1>Access Denied</H1>"
                f'You don\'t have permission to access "{html.escape(str(request.url.path))}" on this server.<P>'
                "Reference&#32;#18.sandbox</BODY></HTML>",
                status_code=403,
            )
        origin = request.headers.get("referer", "") + " " + request.headers.get("origin", "")
        if "nba.com" not in origin:
            deadline = anyio.current_time() + hang_s
            while anyio.current_time() < deadline:
                if await request.is_disconnected():
                    break
                await asyncio.sleep(0.2)
            return PlainTextResponse("", status_code=504)
        return None

    def endpoint(resource: str, handler):
        async def run(request: Request) -> Response:
            blocked = await gate(request)
            if blocked is not None:
                return blocked
            params = _Params(request)
            try:
                return await handler(params, await _DATA.aget())
            except _BadParam as exc:
                return PlainTextResponse(str(exc), status_code=400)

        return Route(f"/{resource}", run)

    async def commonteamyears(p: _Params, d: NbaData) -> Response:
        league = p.get("LeagueID", LEAGUE_RE, required=True)
        rows = [] if league != "00" else [
            ["00", t.team_id, str(t.min_year), str(t.max_year), t.abbreviation] for t in d.teams.values()
        ]  # fmt: skip
        return _result(
            "commonteamyears",
            p.used,
            [("TeamYears", ["LEAGUE_ID", "TEAM_ID", "MIN_YEAR", "MAX_YEAR", "ABBREVIATION"], rows)],
        )

    async def teamyearbyyearstats(p: _Params, d: NbaData) -> Response:
        team_id = p.integer("TeamID")
        league = p.get("LeagueID", LEAGUE_RE, default="00")
        per_mode = p.get("PerMode", PERMODE_RE, default="Totals")
        season_type = p.get("SeasonType", SEASONTYPE_RE, default="Regular Season")
        rows = d.team_rows.get(team_id, []) if league == "00" and season_type == "Regular Season" else []
        year = TEAM_STATS_HEADERS.index("YEAR")
        rows = [[*r[:year], season_label(r[year]), *r[year + 1 :]] for r in rows]
        if per_mode == "PerGame":
            rows = _per_game(rows, TEAM_STATS_HEADERS, TEAM_COUNTING)
        return _result("teamyearbyyearstats", p.used, [("TeamStats", TEAM_STATS_HEADERS, rows)])

    async def playercareerstats(p: _Params, d: NbaData) -> Response:
        pid = p.integer("PlayerID")
        p.get("LeagueID", LEAGUE_RE, default="00")
        per_mode = p.get("PerMode", r"^(Totals)|(PerGame)|(Per36)$", default="Totals")
        season = PLAYER_SEASON_HEADERS.index("SEASON_ID")
        rows = [[*r[:season], season_label(r[season]), *r[season + 1 :]] for r in d.player_rows.get(pid, [])]
        career = _career(d.player_rows.get(pid, []), pid)
        if per_mode == "PerGame":
            rows = _per_game(rows, PLAYER_SEASON_HEADERS, PLAYER_COUNTING)
            career = _per_game(career, CAREER_HEADERS, PLAYER_COUNTING)
        elif per_mode == "Per36":
            rows = _per36(rows, PLAYER_SEASON_HEADERS)
            career = _per36(career, CAREER_HEADERS)
        return _result(
            "playercareerstats",
            p.used,
            [
                ("SeasonTotalsRegularSeason", PLAYER_SEASON_HEADERS, rows),
                ("CareerTotalsRegularSeason", CAREER_HEADERS, career),
                ("SeasonTotalsPostSeason", PLAYER_SEASON_HEADERS, []),
                ("CareerTotalsPostSeason", CAREER_HEADERS, []),
            ],
        )

    async def commonplayerinfo(p: _Params, d: NbaData) -> Response:
        pid = p.integer("PlayerID")
        p.get("LeagueID", LEAGUE_RE, default="00")
        player = d.players.get(pid)
        rows = [list(player.info_row)] if player else []
        return _result("commonplayerinfo", p.used, [("CommonPlayerInfo", INFO_HEADERS, rows)])

    async def commonallplayers(p: _Params, d: NbaData) -> Response:
        league = p.get("LeagueID", LEAGUE_RE, required=True)
        season = p.get("Season", SEASON_RE, required=True)
        only_current = p.get("IsOnlyCurrentSeason", r"^[01]$", default="0")
        year = int(season[:4])
        rows = []
        for pl in d.players.values() if league == "00" else ():
            active = year in pl.seasons
            if (only_current == "1" and not active) or pl.from_year > year:
                continue
            team = d.teams.get(pl.last_team_id) if pl.to_year >= year else None
            rows.append(
                [
                    pl.player_id,
                    pl.info_row[INFO_HEADERS.index("DISPLAY_LAST_COMMA_FIRST")],
                    pl.name,
                    1 if active else 0,
                    str(pl.from_year),
                    str(pl.to_year),
                    pl.info_row[INFO_HEADERS.index("PLAYER_SLUG")],
                    team.team_id if team else 0,
                    team.city if team else "",
                    team.name if team else "",
                    team.abbreviation if team else "",
                    "Y",
                ]
            )
        rows.sort(key=lambda r: r[1])
        return _result("commonallplayers", p.used, [("CommonAllPlayers", ALL_PLAYERS_HEADERS, rows)])

    async def leaguedashteamstats(p: _Params, d: NbaData) -> Response:
        season = p.get("Season", SEASON_RE, required=True)
        season_type = p.get("SeasonType", SEASONTYPE_RE, default="Regular Season")
        per_mode = p.get("PerMode", PERMODE_RE, default="Totals")
        measure = p.get("MeasureType", MEASURE_RE, default="Base")
        p.get("LeagueID", LEAGUE_RE, default="00")
        g = d.season_teams.get(int(season[:4])) if season_type == "Regular Season" else None
        if measure == "Base":
            headers = ["TEAM_ID", "TEAM_NAME", "GP", "W", "L", "W_PCT", *DASH_BASE]
            frame = None if g is None else g.rename(columns={"WINS": "W", "LOSSES": "L", "WIN_PCT": "W_PCT"})
            rows = [] if frame is None else _matrix(frame, headers)
            if per_mode == "PerGame":
                rows = _per_game(rows, headers, [c for c in DASH_BASE if not c.endswith("_PCT")])
        else:
            adv = [c for c in (g.columns if g is not None else []) if c.startswith("ADV_")]
            headers = ["TEAM_ID", "TEAM_NAME", *(c[4:] for c in adv)]
            rows = [] if g is None else _matrix(g, ["TEAM_ID", "TEAM_NAME", *adv])
        return _result("leaguedashteamstats", p.used, [("LeagueDashTeamStats", headers, rows)])

    # ---------------------------------------------------------------------------------- www pages

    async def teams_page(request: Request) -> Response:
        d = await _DATA.aget()
        items = "".join(
            f'<li><a href="{WWW}/stats/team/{t.team_id}">{html.escape(t.name)}</a> ({t.abbreviation})</li>'
            for t in sorted(d.teams.values(), key=lambda t: t.name)
        )
        return _page("NBA Teams | NBA.com", f'<h1>NBA Teams</h1><ul id="teams">{items}</ul>')

    async def players_page(request: Request) -> Response:
        d = await _DATA.aget()
        ordered = sorted(d.players.values(), key=lambda pl: (pl.info_row[4].lower(), pl.player_id))
        items = "".join(
            f'<li><a href="{WWW}/stats/player/{pl.player_id}">{html.escape(pl.name)}</a> '
            f"{pl.from_year}–{pl.to_year + 1}</li>"
            for pl in ordered
        )
        return _page("NBA Players | NBA.com", f'<h1>NBA Players</h1><ul id="players">{items}</ul>')

    async def team_page(request: Request) -> Response:
        d = await _DATA.aget()
        team = d.teams.get(_int_or_none(request.path_params["team_id"]))
        if team is None:
            return _page("Page Not Found | NBA.com", "<h1>Page not found</h1>", 404)
        url = (
            f"{API}/teamyearbyyearstats?TeamID={team.team_id}&LeagueID=00&PerMode=Totals"
            "&SeasonType=Regular%20Season"
        )
        body = (
            f'<h1 class="team-name">{html.escape(team.name)}</h1>'
            f"<p>{team.abbreviation} | {team.min_year}-{team.max_year + 1} | Year-by-year regular season stats</p>"
            f'<section><h2>Year by year</h2><div id="year-by-year">Loading…</div></section>'
            + _script([(url, "year-by-year", "TeamStats")])
        )
        return _page(f"{team.name} Team Stats | NBA.com", body)

    async def player_page(request: Request) -> Response:
        d = await _DATA.aget()
        player = d.players.get(_int_or_none(request.path_params["player_id"]))
        if player is None:
            return _page("Page Not Found | NBA.com", "<h1>Page not found</h1>", 404)
        pid = player.player_id
        info = dict(zip(INFO_HEADERS, player.info_row, strict=True))
        facts = "".join(
            f"<dt>{k}</dt><dd>{html.escape(str(info[v] if info[v] is not None else '--'))}</dd>"
            for k, v in (("HEIGHT", "HEIGHT"), ("WEIGHT", "WEIGHT"), ("COUNTRY", "COUNTRY"),
                         ("BIRTHDATE", "BIRTHDATE"), ("DRAFT", "DRAFT_YEAR"))
        )  # fmt: skip
        calls = [
            (f"{API}/commonplayerinfo?PlayerID={pid}", "bio", "CommonPlayerInfo"),
            (f"{API}/playercareerstats?PlayerID={pid}&PerMode=Totals", "career", "SeasonTotalsRegularSeason"),
        ]
        body = (
            f'<h1 class="player-name">{html.escape(player.name)}</h1><dl class="player-facts">{facts}</dl>'
            '<section><h2>Profile</h2><div id="bio">Loading…</div></section>'
            '<section><h2>Career regular season stats</h2><div id="career">Loading…</div></section>'
            + _script(calls)
        )
        return _page(f"{player.name} Stats | NBA.com", body)

    async def league_team_stats_page(request: Request) -> Response:
        d = await _DATA.aget()
        seasons = sorted(d.season_teams, reverse=True)
        season = request.query_params.get("Season") or season_label(seasons[0])
        if not re.fullmatch(r"\d{4}-\d{2}", season) or int(season[:4]) not in d.season_teams:
            return _page(
                "Page Not Found | NBA.com", f"<h1>No team stats for season {html.escape(season)}</h1>", 404
            )
        options = "".join(
            f'<li><a href="{WWW}/stats/teams/traditional?Season={season_label(y)}&amp;SeasonType=Regular+Season">'
            f"{season_label(y)}</a></li>"
            for y in seasons
        )
        url = f"{API}/leaguedashteamstats?Season={season}&SeasonType=Regular%20Season&PerMode=Totals&MeasureType=Base"
        body = (
            f"<h1>Teams Traditional Stats {season}</h1>"
            f'<div id="team-stats">Loading…</div><h2>Seasons</h2><ul id="seasons">{options}</ul>'
            + _script([(url, "team-stats", "LeagueDashTeamStats")])
        )
        return _page(f"NBA Team Stats {season} | NBA.com", body)

    async def stats_home(request: Request) -> Response:
        body = (
            "<h1>NBA Stats</h1><ul>"
            f'<li><a href="{WWW}/teams">Teams</a></li><li><a href="{WWW}/players">Players</a></li>'
            f'<li><a href="{WWW}/stats/teams/traditional">Team traditional stats</a></li></ul>'
        )
        return _page("NBA Stats | NBA.com", body)

    api_routes = [
        endpoint("commonteamyears", commonteamyears),
        endpoint("teamyearbyyearstats", teamyearbyyearstats),
        endpoint("playercareerstats", playercareerstats),
        endpoint("commonplayerinfo", commonplayerinfo),
        endpoint("commonallplayers", commonallplayers),
        endpoint("leaguedashteamstats", leaguedashteamstats),
    ]
    www_routes = [
        Route("/teams", teams_page),
        Route("/players", players_page),
        Route("/stats", stats_home),
        Route("/stats/teams/traditional", league_team_stats_page),
        Route("/stats/team/{team_id}", team_page),
        Route("/stats/team/{team_id}/{section}", team_page),
        Route("/stats/player/{player_id}", player_page),
        Route("/stats/player/{player_id}/{section}", player_page),
    ]
    return [Mount(API, routes=api_routes), Mount(WWW, routes=www_routes)]


def _int_or_none(raw: str) -> int | None:
    return int(raw) if raw.isdigit() and len(raw) < 13 else None


def _per36(rows: list[list], headers: list[str]) -> list[list]:
    m = headers.index("MIN")
    idx = [headers.index(c) for c in PLAYER_COUNTING if c != "MIN"]
    out = []
    for row in rows:
        r = list(row)
        minutes = r[m] or 0
        for i in idx:
            if r[i] is not None and minutes:
                r[i] = round(r[i] * 36 / minutes, 1)
        out.append(r)
    return out


def search_docs() -> list[dict]:
    """One result per team and player page plus the index pages, for the sandbox search engine."""
    d = nba_data()
    docs = [
        {"title": "NBA Teams | NBA.com", "url": f"{WWW}/teams", "snippet": "All 30 NBA teams: rosters, schedules and stats."},
        {"title": "NBA Players | NBA.com", "url": f"{WWW}/players", "snippet": "Every NBA player, current and historical."},
        {
            "title": "NBA Team Traditional Stats | NBA.com",
            "url": f"{WWW}/stats/teams/traditional",
            "snippet": "Regular season team statistics for every season: wins, losses, points, rebounds, assists.",
        },
    ]  # fmt: skip
    for t in d.teams.values():
        docs.append(
            {
                "title": f"{t.name} Team Stats | NBA.com",
                "url": f"{WWW}/stats/team/{t.team_id}",
                "snippet": f"{t.name} ({t.abbreviation}) year-by-year regular season statistics, "
                f"{t.min_year}-{t.max_year + 1}.",
            }
        )
    for pl in d.players.values():
        docs.append(
            {
                "title": f"{pl.name} Stats | NBA.com",
                "url": f"{WWW}/stats/player/{pl.player_id}",
                "snippet": f"{pl.name} career regular season stats and bio, {pl.from_year}-{pl.to_year + 1}.",
            }
        )
    return docs
