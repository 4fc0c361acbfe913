"""A browser-only source: an NBA player-stats explorer (single-page app) whose HTML holds no records.

The season page is an empty shell; its script fetches ``/api/players?season=&page=&per_page=`` in pages
and appends rows on a "Load more" click or when the bottom sentinel scrolls into view. A plain HTTP
fetch of the page therefore sees zero records: a collector needs a real browser, or must discover the
JSON endpoint by capturing the page's XHR traffic (which is the research agent's job).
"""

from __future__ import annotations

import html
import json
import math
from functools import cache

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route

from prefect_autodata.sandbox.data import load_table
from prefect_autodata.sandbox.sites._html import sample_footer

HOST = "www.hoops-explorer.com"
PREFIX = f"/{HOST}"
DEFAULT_PER_PAGE = 25
MAX_PER_PAGE = 100
# API field -> source column, in the order the table shows them.
FIELDS = {
    "player_id": "PLAYER_ID",
    "player_name": "PLAYER_NAME",
    "season": "SEASON_ID",
    "team": "TEAM_ABBREVIATION",
    "age": "PLAYER_AGE",
    "gp": "GP",
    "gs": "GS",
    "min": "MIN",
    "fgm": "FGM",
    "fga": "FGA",
    "fg3m": "FG3M",
    "fg3a": "FG3A",
    "ftm": "FTM",
    "fta": "FTA",
    "oreb": "OREB",
    "dreb": "DREB",
    "reb": "REB",
    "ast": "AST",
    "stl": "STL",
    "blk": "BLK",
    "tov": "TOV",
    "pf": "PF",
    "pts": "PTS",
    "birthdate": "PLAYER_BIRTHDATE",
    "country": "PLAYER_COUNTRY",
    "height": "PLAYER_HEIGHT",
    "weight": "PLAYER_WEIGHT",
    "draft_year": "PLAYER_DRAFT_YEAR",
    "draft_round": "PLAYER_DRAFT_ROUND",
    "draft_number": "PLAYER_DRAFT_NUMBER",
}
SHOWN = ("player_name", "team", "age", "gp", "gs", "min", "reb", "ast", "stl", "blk", "pts")


def _clean(v: object) -> object:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    if hasattr(v, "item"):
        v = v.item()  # numpy scalar -> python
        if isinstance(v, float) and math.isnan(v):
            return None
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


@cache
def seasons() -> tuple[int, ...]:
    """Seasons (first calendar year) present in the data, newest first."""
    return tuple(sorted({int(s) for s in load_table("nba_players")["SEASON_ID"].unique()}, reverse=True))


@cache
def season_records(season: int) -> tuple[dict, ...]:
    """All player-season records of one season, in the stable order the API pages through."""
    df = load_table("nba_players")
    df = df[df["SEASON_ID"] == season].sort_values(
        ["PLAYER_NAME", "PLAYER_ID", "TEAM_ABBREVIATION"], kind="stable"
    )
    cols = list(FIELDS.values())
    out = []
    for row in df[cols].itertuples(index=False, name=None):
        out.append({k: _clean(v) for k, v in zip(FIELDS, row, strict=True)})
    return tuple(out)


def _label(season: int) -> str:
    return f"{season}-{(season + 1) % 100:02d}"


def _page(title: str, body: str) -> HTMLResponse:
    return HTMLResponse(
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title>"
        "<style>body{font-family:sans-serif;margin:2em}td,th{padding:2px 8px;border-bottom:1px solid #ddd}</style>"
        f"</head><body><header><a href='{PREFIX}/'>Hoops Explorer</a></header>{body}{sample_footer()}</body></html>"
    )


def _bad(param: str, message: str) -> JSONResponse:
    return JSONResponse(
        {"error": {"code": "invalid_parameter", "param": param, "message": message}}, status_code=400
    )


_SCRIPT = """
(function () {
  const api = %(api)s, season = %(season)d, perPage = %(per_page)d;
  const shown = %(shown)s;
  const tbody = document.querySelector('#players tbody');
  const status = document.getElementById('status');
  const more = document.getElementById('load-more');
  let page = 0, loading = false, done = false, total = 0, count = 0, visible = false;
  async function loadNext() {
    if (loading || done) return;
    loading = true; more.disabled = true;
    try {
      const r = await fetch(`${api}?season=${season}&page=${page + 1}&per_page=${perPage}`,
                            {headers: {'Accept': 'application/json'}});
      if (!r.ok) throw new Error('HTTP ' + r.status);
      const data = await r.json();
      page = data.page; total = data.total;
      for (const rec of data.results) {
        const tr = document.createElement('tr');
        tr.className = 'player-row';
        tr.dataset.playerId = rec.player_id;
        for (const k of shown) {
          const td = document.createElement('td');
          td.className = 'col-' + k;
          td.textContent = rec[k] === null ? '' : rec[k];
          tr.appendChild(td);
        }
        tbody.appendChild(tr);
        count += 1;
      }
      done = !data.has_more;
      status.textContent = `Showing ${count} of ${total} players`;
      more.hidden = done;
    } catch (e) {
      status.textContent = 'Could not load players (' + e.message + '); try again.';
    } finally {
      loading = false; more.disabled = false;
    }
    if (visible && !done) setTimeout(loadNext, 50);  // keep filling while the bottom is in view
  }
  more.addEventListener('click', loadNext);
  new IntersectionObserver((entries) => {
    visible = entries.some((e) => e.isIntersecting);
    if (visible && page > 0) loadNext();
  }).observe(document.getElementById('sentinel'));
  loadNext();
})();
"""


def routes(ctx) -> list[BaseRoute]:
    async def home(request: Request) -> Response:
        items = "".join(
            f"<li><a href='{PREFIX}/seasons/{s}/players'>{_label(s)} season players</a></li>"
            for s in seasons()
        )
        return _page(
            "Hoops Explorer — NBA player stats by season",
            f"<h1>NBA player statistics</h1><p>Pick a season.</p><ul class='seasons'>{items}</ul>",
        )

    async def season_page(request: Request) -> Response:
        season = request.path_params["season"]
        if season not in seasons():
            return HTMLResponse(
                f"<!doctype html><html><head><title>404 Not Found</title></head><body><h1>No season {season}</h1>"
                f"<p><a href='{PREFIX}/'>All seasons</a></p></body></html>",
                status_code=404,
            )
        head = "".join(f"<th>{html.escape(k.replace('_', ' ').title())}</th>" for k in SHOWN)
        script = _SCRIPT % {
            "api": json.dumps(f"{PREFIX}/api/players"),
            "season": season,
            "per_page": DEFAULT_PER_PAGE,
            "shown": json.dumps(SHOWN),
        }
        body = (
            f"<h1>NBA players, {_label(season)} regular season</h1>"
            "<p id='status'>Loading players…</p>"
            f"<table id='players'><thead><tr>{head}</tr></thead><tbody></tbody></table>"
            "<button id='load-more' type='button'>Load more</button>"
            "<div id='sentinel' style='height:1px'></div>"
            "<noscript>This explorer needs JavaScript.</noscript>"
            f"<script>{script}</script>"
        )
        return _page(f"NBA players {_label(season)} — Hoops Explorer", body)

    async def api_players(request: Request) -> Response:
        q = request.query_params
        unknown = sorted(set(q) - {"season", "page", "per_page"})
        if unknown:
            return _bad(unknown[0], f"unknown parameter {unknown[0]!r}")
        try:
            season = int(q.get("season", ""))
        except ValueError:
            return _bad("season", "season is required and must be a year such as 2023")
        if season not in seasons():
            return _bad("season", f"no data for season {season}")
        try:
            page = int(q.get("page", "1"))
            per_page = int(q.get("per_page", str(DEFAULT_PER_PAGE)))
        except ValueError:
            return _bad("page", "page and per_page must be integers")
        if page < 1:
            return _bad("page", "page must be >= 1")
        if not 1 <= per_page <= MAX_PER_PAGE:
            return _bad("per_page", f"per_page must be between 1 and {MAX_PER_PAGE}")
        recs = season_records(season)
        start = (page - 1) * per_page
        chunk = list(recs[start : start + per_page])
        return JSONResponse(
            {
                "season": season,
                "page": page,
                "per_page": per_page,
                "total": len(recs),
                "has_more": start + per_page < len(recs),
                "results": chunk,
            }
        )

    return [
        Mount(
            PREFIX,
            routes=[
                Route("/", home),
                Route("/seasons/{season:int}/players", season_page),
                Route("/api/players", api_players),
            ],
        )
    ]


SITEMAP = [("Hoops Explorer (JS-only NBA player stats)", f"{PREFIX}/seasons/2023/players")]


def search_docs() -> list[dict]:
    """One search document per season page, plus the explorer's home."""
    docs = [
        {
            "title": "Hoops Explorer — NBA player stats by season",
            "url": f"{PREFIX}/",
            "snippet": "Interactive explorer of NBA player regular-season statistics: points, rebounds, assists.",
        }
    ]
    for s in seasons():
        docs.append(
            {
                "title": f"NBA players {_label(s)} season stats — Hoops Explorer",
                "url": f"{PREFIX}/seasons/{s}/players",
                "snippet": f"All NBA players of the {_label(s)} ({s}) regular season: games, minutes, points, "
                "rebounds, assists, steals, blocks.",
            }
        )
    return docs
