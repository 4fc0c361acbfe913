"""Encyclopedia imitation: the "List of S&P 500 companies" article with its constituents table.

The table is built from the tickers the sandbox's price API serves (the data has no company names, so the
article shows what it can stand behind: the symbol, the listing venue's ticker link and the span of daily
prices on record). Wikipedia writes class-B shares with a dot (``BRK.B``); the price API uses a dash
(``brk-b``) like the real one, so a collector has to map them, as it would in the wild.
"""

from __future__ import annotations

import html

import anyio
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route

from prefect_autodata.sandbox.sites._html import sample_footer

HOST = "/en.wikipedia.org"
ARTICLE = "List_of_S&P_500_companies"
ARTICLE_PATH = f"{HOST}/wiki/List_of_S%26P_500_companies"

SITEMAP: list[tuple[str, str]] = [("Wikipedia: List of S&P 500 companies", ARTICLE_PATH)]


def _rows() -> list[tuple[str, str, str, str]]:
    """(wiki symbol, api ticker, first day, last day) per constituent, in symbol order."""
    from prefect_autodata.sandbox.sites.tiingo import price_index

    idx = price_index()
    out = []
    for t in sorted(idx):
        tp = idx[t]
        out.append((t.replace("-", "."), t.lower(), str(tp.days[0]), str(tp.days[-1])))
    return out


def _article(rows: list[tuple[str, str, str, str]]) -> str:
    body_rows = "".join(
        "<tr>"
        f'<td><a rel="nofollow" class="external text" href="/www.tiingo.com/{api}/overview">{html.escape(sym)}</a></td>'
        f"<td>{first}</td><td>{last}</td>"
        "</tr>\n"
        for sym, api, first, last in rows
    )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        "<title>List of S&amp;P 500 companies - Wikipedia</title></head><body>"
        '<h1 id="firstHeading" class="firstHeading">List of S&amp;P 500 companies</h1>'
        '<div id="mw-content-text"><p>The <b>S&amp;P 500</b> is a stock market index maintained by S&amp;P Dow '
        "Jones Indices. It comprises 503 common stocks which are issued by 500 large-cap companies traded on "
        "American stock exchanges.</p>"
        '<h2 id="S&amp;P_500_component_stocks">S&amp;P 500 component stocks</h2>'
        f"<p>The table lists the {len(rows)} constituents and the span of daily prices on record for each.</p>"
        '<table class="wikitable sortable" id="constituents"><thead><tr>'
        "<th>Symbol</th><th>Prices from</th><th>Prices to</th></tr></thead>"
        f"<tbody>\n{body_rows}</tbody></table>"
        '<h2 id="See_also">See also</h2><ul><li><a href="/api.tiingo.com/documentation/end-of-day">'
        f"End-of-day stock price API</a></li></ul></div>{sample_footer()}</body></html>"
    )


def routes(ctx) -> list[BaseRoute]:
    cache: dict[str, str] = {}

    async def article(request: Request) -> Response:
        if "page" not in cache:
            cache["page"] = _article(await anyio.to_thread.run_sync(_rows))
        return HTMLResponse(cache["page"])

    async def missing(request: Request) -> Response:
        title = request.path_params["title"]
        return HTMLResponse(
            f"<!doctype html><title>{html.escape(title)} - Wikipedia</title>"
            f"<h1>{html.escape(title.replace('_', ' '))}</h1>"
            "<p><b>Wikipedia does not have an article with this exact name.</b></p>",
            status_code=404,
        )

    return [Mount(HOST, routes=[Route(f"/wiki/{ARTICLE}", article), Route("/wiki/{title:path}", missing)])]


SEARCH_DOCS: list[dict] = [
    {
        "title": "List of S&P 500 companies - Wikipedia",
        "url": ARTICLE_PATH,
        "snippet": "The S&P 500 is a stock market index maintained by S&P Dow Jones Indices. "
        "The table lists every constituent's ticker symbol.",
    }
]
