"""Finance and sport sandbox sites over real sockets: ground truth reproduced, errors shaped like the real APIs."""

from __future__ import annotations

import csv
import io
import math
import re

import httpx
import lxml.html
import pytest

from prefect_autodata.sandbox.data import load_table
from prefect_autodata.sandbox.sites import fangraphs, nba, tiingo, wiki

BROWSER = {
    "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36",
    "Referer": "https://www.nba.com/",
    "Origin": "https://www.nba.com",
}
PRICE_FIELDS = {  # target schema name -> API field
    "Open": "open", "High": "high", "Low": "low", "Close": "close", "Volume": "volume", "adjOpen": "adjOpen",
    "adjHigh": "adjHigh", "adjLow": "adjLow", "adjClose": "adjClose", "adjVolume": "adjVolume", "divCash": "divCash",
}  # fmt: skip


@pytest.fixture(scope="module")
def client(sandbox_url):
    with httpx.Client(base_url=sandbox_url, timeout=60) as c:
        yield c


def same(a, b) -> bool:
    """Equal as the scorer sees it, but without rounding: null == NaN, 82 == 82.0."""
    a_null = a is None or (isinstance(a, float) and math.isnan(a))
    b_null = b is None or (isinstance(b, float) and math.isnan(b))
    if a_null or b_null:
        return a_null and b_null
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    return str(a) == str(b)


def doc(response: httpx.Response):
    return lxml.html.fromstring(response.text)


# ------------------------------------------------------------------------------------------------ Tiingo


def test_tiingo_aapl_2024_reproduces_ground_truth(client):
    r = client.get(
        "/api.tiingo.com/tiingo/daily/AAPL/prices",
        params={"startDate": "2024-01-01", "endDate": "2024-12-31", "token": tiingo.DEMO_TOKEN},
    )
    assert r.status_code == 200
    rows = r.json()
    s = load_table("stocks")
    aapl = s[s["ticker"] == "AAPL"]
    day = aapl["date"].astype(str)
    truth = aapl[(day >= "2024-01-01") & (day <= "2024-12-31")]
    truth = truth.sort_values("date")
    assert len(rows) == len(truth) == 252
    assert rows[0]["date"] == "2024-01-02T00:00:00.000Z"
    for got, want in zip(rows, truth.to_dict("records"), strict=True):
        assert got["date"][:10] == str(want["date"])
        for field in PRICE_FIELDS.values():
            assert same(got[field], want[field]), (got["date"], field)
    assert 0 < int(r.headers["X-RateLimit-Remaining"]) < int(r.headers["X-RateLimit-Limit"])


def test_tiingo_csv_matches_json_and_header_token(client):
    params = {"startDate": "2016-03-01", "endDate": "2016-03-31"}
    auth = {"Authorization": f"Token {tiingo.DEMO_TOKEN}"}
    as_json = client.get("/api.tiingo.com/tiingo/daily/msft/prices", params=params, headers=auth).json()
    r = client.get(
        "/api.tiingo.com/tiingo/daily/msft/prices", params={**params, "format": "csv"}, headers=auth
    )
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    as_csv = list(csv.DictReader(io.StringIO(r.text)))
    assert len(as_csv) == len(as_json) > 15
    for c, j in zip(as_csv, as_json, strict=True):
        assert c["date"] == j["date"][:10]
        assert all(float(c[f]) == float(j[f]) for f in PRICE_FIELDS.values())


def test_tiingo_metadata_columns_sort_and_latest(client):
    tok = {"token": tiingo.DEMO_TOKEN}
    meta = client.get("/api.tiingo.com/tiingo/daily/brk-b", params=tok).json()
    s = load_table("stocks")
    dates = s.loc[s["ticker"] == "BRK-B", "date"].astype(str)
    assert (meta["ticker"], meta["startDate"], meta["endDate"]) == ("brk-b", dates.min(), dates.max())
    latest = client.get("/api.tiingo.com/tiingo/daily/brk-b/prices", params=tok).json()
    assert [row["date"][:10] for row in latest] == [dates.max()]
    r = client.get(
        "/api.tiingo.com/tiingo/daily/brk-b/prices",
        params={
            **tok,
            "startDate": "2020-01-01",
            "endDate": "2020-01-10",
            "columns": "close",
            "sort": "-date",
        },
    )
    rows = r.json()
    assert set(rows[0]) == {"date", "close"}
    assert [x["date"] for x in rows] == sorted((x["date"] for x in rows), reverse=True)


@pytest.mark.parametrize(
    ("path", "status", "needle"),
    [
        ("/api.tiingo.com/tiingo/daily/aapl/prices", 401, "supply a token"),
        ("/api.tiingo.com/tiingo/daily/aapl/prices?token=wrong", 401, "Invalid token"),
        (f"/api.tiingo.com/tiingo/daily/nosuch/prices?token={tiingo.DEMO_TOKEN}", 404, "nosuch"),
        (f"/api.tiingo.com/tiingo/daily/aapl/prices?startDate=2024-13-40&token={tiingo.DEMO_TOKEN}", 400, "startDate"),
        (f"/api.tiingo.com/tiingo/daily/aapl/prices?startDate=2024-01-01&format=xml&token={tiingo.DEMO_TOKEN}", 400, "format"),
        (f"/api.tiingo.com/tiingo/daily/aapl/prices?startDate=2024-02-01&endDate=2024-01-01&token={tiingo.DEMO_TOKEN}", 400, "endDate"),
        (f"/api.tiingo.com/tiingo/daily/aapl/prices?columns=bogus&token={tiingo.DEMO_TOKEN}", 400, "bogus"),
    ],
)  # fmt: skip
def test_tiingo_errors_are_json_detail(client, path, status, needle):
    r = client.get(path)
    assert r.status_code == status
    assert needle in r.json()["detail"]


def test_tiingo_rate_limit_is_per_app_and_answers_429(monkeypatch, client):
    from prefect_autodata.sandbox.server import SandboxServer

    monkeypatch.setenv("AUTODATA_SANDBOX_TIINGO_RATE", "2")
    monkeypatch.setenv("AUTODATA_SANDBOX_TOKENS", "private-token")
    url = "/api.tiingo.com/tiingo/daily/aapl"
    with SandboxServer() as limited, httpx.Client(base_url=limited.base_url, timeout=30) as c:
        codes = [c.get(url, params={"token": "private-token"}).status_code for _ in range(3)]
        assert codes == [200, 200, 429]
        r = c.get(url, params={"token": "private-token"})
        assert r.status_code == 429 and "allocation" in r.json()["detail"]
        assert int(r.headers["Retry-After"]) > 0 and r.headers["X-RateLimit-Remaining"] == "0"
        assert c.get(url, params={"token": tiingo.DEMO_TOKEN}).status_code == 200  # budgets are per token
    # the session sandbox has its own counters (and never learned the private token)
    assert client.get(url, params={"token": tiingo.DEMO_TOKEN}).status_code == 200
    assert client.get(url, params={"token": "private-token"}).status_code == 401


def test_rate_limiter_window_resets():
    lim = tiingo.RateLimiter(per_hour=1, window_s=10)
    assert lim.hit("t", now=0)[0] and not lim.hit("t", now=5)[0]
    allowed, remaining, reset = lim.hit("t", now=11)
    assert allowed and remaining == 0 and reset == 21


def test_tiingo_docs_reveal_demo_token_and_working_example(client):
    page = doc(client.get(tiingo.DOCS_PATH))
    assert page.get_element_by_id("demo-token").text_content() == tiingo.DEMO_TOKEN
    example = page.cssselect("a.example")[0].get("href")
    rows = client.get(example).json()
    assert rows and {"date", *PRICE_FIELDS.values()} <= set(rows[0])
    supported = client.get(page.xpath("//a[contains(., 'Supported tickers')]/@href")[0]).text.splitlines()
    assert len(supported) - 1 == load_table("stocks")["ticker"].nunique()


# -------------------------------------------------------------------------------------------- Wikipedia


def test_sp500_wiki_table_lists_every_ticker_and_links_to_prices(client):
    r = client.get(wiki.ARTICLE_PATH)
    assert r.status_code == 200
    page = doc(r)
    assert "List of S&P 500 companies" in page.findtext(".//title")
    table = page.get_element_by_id("constituents")
    symbols = [a.text_content() for a in table.xpath(".//tbody/tr/td[1]/a")]
    tickers = set(load_table("stocks")["ticker"].unique())
    assert {s.replace(".", "-") for s in symbols} == tickers and len(symbols) == len(tickers)
    overview = table.xpath(".//tbody/tr/td[1]/a/@href")[0]
    assert client.get(overview).status_code == 200
    assert client.get("/en.wikipedia.org/wiki/No_such_article").status_code == 404


# -------------------------------------------------------------------------------------------------- NBA


def test_stats_nba_refuses_non_browser_clients(sandbox_url):
    url = f"{sandbox_url}/stats.nba.com/stats/commonteamyears?LeagueID=00"
    r = httpx.get(url)
    assert r.status_code == 403 and "Access Denied" in r.text
    with pytest.raises(httpx.ReadTimeout):  # browser UA but not from nba.com: the real service hangs
        httpx.get(url, headers={"User-Agent": BROWSER["User-Agent"]}, timeout=1.0)


def _team_truth(team_name: str):
    t = load_table("nba_teams")
    return t[t["TEAM_NAME"] == team_name].sort_values("YEAR")


def test_nba_team_seasons_reproduce_ground_truth_via_team_page(client):
    teams = doc(client.get("/www.nba.com/teams"))
    href = teams.xpath("//ul[@id='teams']//a[.='Boston Celtics']/@href")[0]
    page = client.get(href)
    assert "Boston Celtics" in doc(page).findtext(".//h1")
    api = re.search(r"renderStats\('([^']+teamyearbyyearstats[^']+)'", page.text).group(1)
    data = client.get(api, headers=BROWSER).json()
    rs = data["resultSets"][0]
    got = [dict(zip(rs["headers"], row, strict=True)) for row in rs["rowSet"]]
    truth = _team_truth("Boston Celtics").to_dict("records")
    assert len(got) == len(truth) > 70
    for g, w in zip(got, truth, strict=True):
        assert g["YEAR"] == nba.season_label(w["YEAR"]) and int(g["YEAR"][:4]) == w["YEAR"]
        for col in rs["headers"]:
            if col != "YEAR":
                assert same(g[col], w[col]), (g["YEAR"], col)


def test_nba_player_seasons_reproduce_ground_truth_via_player_page(client):
    players = doc(client.get("/www.nba.com/players"))
    href = players.xpath("//ul[@id='players']//a[.='LeBron James']/@href")[0]
    page = client.get(href)
    assert "LeBron James" in doc(page).findtext(".//title")
    urls = re.findall(r"renderStats\('([^']+)'", page.text)
    info_url = next(u for u in urls if "commonplayerinfo" in u)
    career_url = next(u for u in urls if "playercareerstats" in u)
    info_rs = client.get(info_url, headers=BROWSER).json()["resultSets"][0]
    info = dict(zip(info_rs["headers"], info_rs["rowSet"][0], strict=True))
    career = client.get(career_url, headers=BROWSER).json()["resultSets"]
    seasons = next(s for s in career if s["name"] == "SeasonTotalsRegularSeason")
    got = [dict(zip(seasons["headers"], row, strict=True)) for row in seasons["rowSet"]]
    p = load_table("nba_players")
    truth = p[p["PLAYER_NAME"] == "LeBron James"].to_dict("records")
    assert len(got) == len(truth) > 20
    for g, w in zip(got, truth, strict=True):
        assert int(g["SEASON_ID"][:4]) == w["SEASON_ID"]
        for col in ("TEAM_ABBREVIATION", "GP", "GS", "MIN", "FGM", "FGA", "FG3M", "FG3A", "FTM", "FTA", "OREB",
                    "DREB", "REB", "AST", "STL", "BLK", "TOV", "PF", "PTS"):  # fmt: skip
            assert same(g[col], w[col]), (g["SEASON_ID"], col)
        assert info["BIRTHDATE"] == w["PLAYER_BIRTHDATE"] and info["COUNTRY"] == w["PLAYER_COUNTRY"]
        assert info["HEIGHT"] == w["PLAYER_HEIGHT"] and float(info["WEIGHT"]) == w["PLAYER_WEIGHT"]
        assert (info["DRAFT_YEAR"], info["DRAFT_ROUND"], info["DRAFT_NUMBER"]) == (
            w["PLAYER_DRAFT_YEAR"], w["PLAYER_DRAFT_ROUND"], w["PLAYER_DRAFT_NUMBER"],
        )  # fmt: skip


def test_nba_league_team_stats_for_a_season(client):
    page = client.get("/www.nba.com/stats/teams/traditional?Season=2023-24&SeasonType=Regular+Season")
    api = re.search(r"renderStats\('([^']+leaguedashteamstats[^']+)'", page.text).group(1)
    rs = client.get(api, headers=BROWSER).json()["resultSets"][0]
    got = {row[1]: dict(zip(rs["headers"], row, strict=True)) for row in rs["rowSet"]}
    t = load_table("nba_teams")
    truth = t[t["YEAR"] == 2023]
    assert set(got) == set(truth["TEAM_NAME"]) and len(got) == 30
    for w in truth.to_dict("records"):
        g = got[w["TEAM_NAME"]]
        assert (g["W"], g["L"]) == (w["WINS"], w["LOSSES"])
        assert all(same(g[c], w[c]) for c in nba.DASH_BASE)


def test_nba_all_players_and_team_years_lists(client):
    url = "/stats.nba.com/stats/commonallplayers?LeagueID=00&Season=2023-24&IsOnlyCurrentSeason=1"
    rs = client.get(url, headers=BROWSER).json()["resultSets"][0]
    p = load_table("nba_players")
    assert {row[0] for row in rs["rowSet"]} == set(p.loc[p["SEASON_ID"] == 2023, "PLAYER_ID"])
    years = client.get("/stats.nba.com/stats/commonteamyears?LeagueID=00", headers=BROWSER).json()
    assert {row[1] for row in years["resultSets"][0]["rowSet"]} == set(load_table("nba_teams")["TEAM_ID"])


@pytest.mark.parametrize(
    ("query", "needle"),
    [
        ("teamyearbyyearstats?LeagueID=00", "The TeamID property is required."),
        ("teamyearbyyearstats?TeamID=12x", "TeamID"),
        ("teamyearbyyearstats?TeamID=1610612738&PerMode=Weekly", "PerMode"),
        ("leaguedashteamstats?Season=2023", "Season"),
        ("commonallplayers?LeagueID=00&Season=2023-24&IsOnlyCurrentSeason=7", "IsOnlyCurrentSeason"),
        ("playercareerstats?PerMode=Totals", "The PlayerID property is required."),
    ],
)
def test_stats_nba_bad_parameters_are_plain_400(client, query, needle):
    r = client.get(f"/stats.nba.com/stats/{query}", headers=BROWSER)
    assert r.status_code == 400 and needle in r.text and r.headers["content-type"].startswith("text/plain")


# ----------------------------------------------------------------------------------------------- FanGraphs

HIT = ["AB", "R", "HR", "H", "2B", "3B", "RBI", "BB", "SO", "SB", "CS"]
PITCH = ["W", "L", "ERA", "G", "GS", "CG", "ShO", "SV", "IP", "H", "R", "ER", "HR", "HBP", "BB", "SO"]


def _mlb_truth(season: int):
    m = load_table("mlb_teams")
    return {r["Team"]: r for r in m[m["Season"] == season].to_dict("records")}


def test_fangraphs_hitting_html_with_pagination_reproduces_ground_truth(client):
    url = f"{fangraphs.LEADERS}?stats=bat&type=0&team=0,ts&season=2024&season1=2024&pageitems=12"
    rows: dict[str, dict] = {}
    pages = 0
    while url:
        page = doc(client.get(url))
        pages += 1
        headers = [th.text_content() for th in page.xpath("//table[@id='leaders']/thead//th")]
        for tr in page.xpath("//table[@id='leaders']/tbody/tr"):
            cells = dict(zip(headers, (td.text_content() for td in tr.xpath("./td")), strict=True))
            rows[cells["Team"]] = cells
        nxt = page.xpath("//div[@class='pagination']/a[@class='next']/@href")
        url = nxt[0] if nxt else None
    truth = _mlb_truth(2024)
    assert pages == 3 and set(rows) == set(truth) and len(rows) == 30
    for team, w in truth.items():
        for col in HIT:
            assert same(float(rows[team][col]), w[f"BAT_{col}"]), (team, col)


def test_fangraphs_pitching_json_api_named_by_the_page(client):
    page = client.get(f"{fangraphs.LEADERS}?stats=pit&type=8&team=0,ts&season=2024&season1=2024")
    api = re.search(r"__LEADERBOARD_API__ = '([^']+)'", page.text).group(1)
    body = client.get(api).json()
    truth = _mlb_truth(2024)
    assert body["totalCount"] == len(body["data"]) == len(truth)
    for row in body["data"]:
        w = truth[row["TeamNameAbb"]]
        assert row["Season"] == 2024 and row["teamid"] == w["teamIDfg"]
        assert row["TeamName"] == w["FLD_Team"]  # the club's name in that season
        for col in PITCH:
            assert same(row[col], w[f"PIT_{col}"]), (row["TeamNameAbb"], col)


def test_fangraphs_team_page_links_full_history(client):
    index = doc(client.get("/www.fangraphs.com/teams"))
    href = index.xpath("//ul[@id='teams']//a[.='Yankees']/@href")[0]
    team = doc(client.get(href))
    link = team.xpath("//ul[@id='team-leaderboards']//a[contains(., 'batting')]/@href")[0]
    api = link.replace(fangraphs.LEADERS, fangraphs.API)
    data = client.get(api).json()["data"]
    m = load_table("mlb_teams")
    truth = m[m["teamIDfg"] == data[0]["teamid"]]
    assert sorted(r["Season"] for r in data) == sorted(truth["Season"])


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("stats=xyz", "stats"),
        ("season=19x", "season"),
        ("team=abc", "team"),
        ("type=5", "type"),
        ("pagenum=0", "pagenum"),
    ],
)
def test_fangraphs_bad_parameters_are_validation_problems(client, query, field):
    r = client.get(f"{fangraphs.API}?{query}")
    assert r.status_code == 400 and field in r.json()["errors"]


# ---------------------------------------------------------------------------------------- shared contract


@pytest.mark.parametrize(
    "path",
    [
        "/api.tiingo.com/nope",
        "/www.nba.com/nope/deeper",
        "/stats.nba.com/stats/nosuchendpoint",
        "/www.fangraphs.com/leaders/minor-league",
        "/www.tiingo.com/zzzz/overview",
        "/www.nba.com/stats/player/999999999",
    ],
)
def test_unknown_paths_are_404_html(client, path):
    r = client.get(path, headers=BROWSER)
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")


def test_search_docs_point_at_live_pages(client):
    for mod in (tiingo, wiki, nba, fangraphs):
        docs = mod.search_docs() if hasattr(mod, "search_docs") else mod.SEARCH_DOCS
        assert docs and all({"title", "url", "snippet"} <= set(d) for d in docs)
        for d in docs[:3] + docs[-2:]:
            assert client.get(d["url"]).status_code == 200, d["url"]
    titles = {d["title"] for d in nba.search_docs()}
    assert "Boston Celtics Team Stats | NBA.com" in titles and "LeBron James Stats | NBA.com" in titles


def test_sitemap_entries_resolve(client):
    for mod in (tiingo, wiki, nba, fangraphs):
        for _title, path in mod.SITEMAP:
            assert client.get(path).status_code == 200, path
