"""Tiingo imitation: the end-of-day REST API, its documentation page and per-ticker overview pages.

Mounted hosts: ``/api.tiingo.com`` (API + docs), ``/apimedia.tiingo.com`` (supported-tickers file) and
``/www.tiingo.com`` (human overview pages that fetch the API from an inline script).

Tokens: the documented demo token plus any in ``AUTODATA_SANDBOX_TOKENS`` (comma-separated), sent as
``?token=`` or ``Authorization: Token <t>``. Each token gets ``AUTODATA_SANDBOX_TIINGO_RATE`` requests per
hour (fixed window from its first request); past that the API answers 429 with ``Retry-After``. The
counters live on the app instance that ``routes`` built, so two sandboxes never share a budget.

Prices are indexed once per process (ticker -> column arrays) so a 10-year request is a slice plus one
serialisation, fast enough for a 1.2M-row landing benchmark.
"""

from __future__ import annotations

import html
import math
import os
import threading
import time
from dataclasses import dataclass
from datetime import date, datetime

import anyio
import numpy as np
import pandas as pd
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route

from prefect_autodata.sandbox.data import load_table
from prefect_autodata.sandbox.sites._api import ProcessData, json_response
from prefect_autodata.sandbox.sites._html import bare_page

DEMO_TOKEN = "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678"
DEFAULT_RATE = 20000
PRICE_COLUMNS = (
    "close",
    "high",
    "low",
    "open",
    "volume",
    "adjClose",
    "adjHigh",
    "adjLow",
    "adjOpen",
    "adjVolume",
    "divCash",
    "splitFactor",
)
INT_COLUMNS = frozenset({"volume", "adjVolume"})
API = "/api.tiingo.com"
DOCS_PATH = f"{API}/documentation/end-of-day"
SUPPORTED_PATH = "/apimedia.tiingo.com/docs/tiingo/daily/supported_tickers.csv"

SITEMAP: list[tuple[str, str]] = [
    ("Tiingo end-of-day API documentation", DOCS_PATH),
    ("Tiingo supported tickers (CSV)", SUPPORTED_PATH),
    ("Tiingo AAPL overview", "/www.tiingo.com/aapl/overview"),
]


# ----------------------------------------------------------------------------------------------- index


@dataclass(frozen=True)
class TickerPrices:
    """One ticker's trading days as column arrays (dates as numpy days for searchsorted slicing)."""

    ticker: str
    days: np.ndarray  # datetime64[D], ascending
    columns: dict[str, np.ndarray]
    has_nan: bool = False

    def bounds(self, start: date | None, end: date | None) -> tuple[int, int]:
        lo = 0 if start is None else int(np.searchsorted(self.days, np.datetime64(start, "D"), "left"))
        hi = (
            len(self.days)
            if end is None
            else int(np.searchsorted(self.days, np.datetime64(end, "D"), "right"))
        )
        return lo, max(lo, hi)


def _build_index() -> dict[str, TickerPrices]:
    df = load_table("stocks")
    # pd.to_datetime is ~20x faster than numpy on a column of datetime.date objects
    days = pd.to_datetime(df["date"]).to_numpy().astype("datetime64[D]")
    codes, names = pd.factorize(df["ticker"], sort=True)
    order = np.lexsort((days.astype(np.int64), codes))
    codes, days = codes[order], days[order]
    cols = {c: df[c].to_numpy()[order] for c in PRICE_COLUMNS}
    starts = np.searchsorted(codes, np.arange(len(names)), "left")
    ends = np.searchsorted(codes, np.arange(len(names)), "right")
    out: dict[str, TickerPrices] = {}
    for name, s, e in zip(names, starts.tolist(), ends.tolist(), strict=True):
        if e > s:
            out[str(name).upper()] = TickerPrices(str(name), days[s:e], {c: a[s:e] for c, a in cols.items()})
    return out


_INDEX: ProcessData[dict[str, TickerPrices]] = ProcessData(_build_index)


def price_index() -> dict[str, TickerPrices]:
    """ticker (upper case) -> prices, built once per process from the ``stocks`` table."""
    return _INDEX.get()


def tickers() -> list[str]:
    return sorted(price_index())


# ----------------------------------------------------------------------------------------- rate limit


class RateLimiter:
    """Per-token hourly allocation (fixed window opened by the token's first request); thread-safe."""

    def __init__(self, per_hour: int, window_s: float = 3600.0) -> None:
        self.per_hour = per_hour
        self.window_s = window_s
        self._lock = threading.Lock()
        self._windows: dict[str, tuple[float, int]] = {}

    def hit(self, token: str, now: float | None = None) -> tuple[bool, int, float]:
        """Count one request; returns (allowed, remaining, reset epoch seconds)."""
        now = time.time() if now is None else now
        with self._lock:
            start, used = self._windows.get(token, (now, 0))
            if now - start >= self.window_s:
                start, used = now, 0
            allowed = used < self.per_hour
            if allowed:
                used += 1
            self._windows[token] = (start, used)
        return allowed, max(0, self.per_hour - used), start + self.window_s


def _env_tokens() -> set[str]:
    raw = os.environ.get("AUTODATA_SANDBOX_TOKENS", "")
    return {t.strip() for t in raw.split(",") if t.strip()} | {DEMO_TOKEN}


def _env_rate() -> int:
    raw = os.environ.get("AUTODATA_SANDBOX_TIINGO_RATE", "").strip()
    try:
        rate = int(raw) if raw else DEFAULT_RATE
    except ValueError:
        rate = DEFAULT_RATE
    return max(1, rate)


# ------------------------------------------------------------------------------------------- helpers


def _detail(message: str, status: int, headers: dict[str, str] | None = None) -> Response:
    return json_response({"detail": message}, status, headers)


def _parse_date(name: str, raw: str | None) -> date | None:
    if raw is None or raw == "":
        return None
    try:
        return date.fromisoformat(raw) if len(raw) == 10 else datetime.fromisoformat(raw).date()
    except ValueError:
        raise _BadParam(f"Error: {name} '{raw}' is not a valid date; expected YYYY-MM-DD") from None


class _BadParam(Exception):
    pass


def _num(v: float) -> str:
    return "" if isinstance(v, float) and math.isnan(v) else repr(v)


# -------------------------------------------------------------------------------------------- routes


def routes(ctx) -> list[BaseRoute]:
    """Build the Tiingo hosts with a rate limiter owned by this app instance."""
    tokens = _env_tokens()
    limiter = RateLimiter(_env_rate())

    def authorise(request: Request) -> tuple[Response | None, dict[str, str]]:
        token = request.query_params.get("token")
        auth = request.headers.get("authorization", "")
        if not token and auth.lower().startswith("token "):
            token = auth[6:].strip()
        if not token:
            return _detail("Please supply a token", 401), {}
        if token not in tokens:
            return _detail("Invalid token.", 401), {}
        allowed, remaining, reset = limiter.hit(token)
        headers = {
            "X-RateLimit-Limit": str(limiter.per_hour),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": str(int(math.ceil(reset))),
        }
        if not allowed:
            headers["Retry-After"] = str(max(1, int(math.ceil(reset - time.time()))))
            msg = (
                f"Error: You have run over your hourly request allocation of {limiter.per_hour} requests. "
                "Please upgrade your plan or wait for the allocation to reset."
            )
            return _detail(msg, 429, headers), headers
        return None, headers

    async def lookup(raw: str) -> TickerPrices | None:
        return (await _INDEX.aget()).get(raw.upper())

    async def metadata(request: Request) -> Response:
        denied, headers = authorise(request)
        if denied is not None:
            return denied
        raw = request.path_params["ticker"]
        tp = await lookup(raw)
        if tp is None:
            return _detail(f"Error: Ticker '{raw}' not found", 404, headers)
        body = {
            "ticker": tp.ticker.lower(),
            "name": None,
            "exchangeCode": None,
            "startDate": str(tp.days[0]),
            "endDate": str(tp.days[-1]),
            "description": None,
        }
        return json_response(body, headers=headers)

    async def prices(request: Request) -> Response:
        denied, headers = authorise(request)
        if denied is not None:
            return denied
        q = request.query_params
        raw = request.path_params["ticker"]
        try:
            start = _parse_date("startDate", q.get("startDate"))
            end = _parse_date("endDate", q.get("endDate"))
            fmt = (q.get("format") or "json").lower()
            if fmt not in ("json", "csv"):
                raise _BadParam(f"Error: format '{q.get('format')}' is not supported; use json or csv")
            freq = (q.get("resampleFreq") or "daily").lower()
            if freq != "daily":
                raise _BadParam(f"Error: resampleFreq '{q.get('resampleFreq')}' is not supported; use daily")
            sort = q.get("sort") or "date"
            if sort not in ("date", "-date"):
                raise _BadParam(f"Error: sort '{sort}' is not supported; use date or -date")
            wanted = [c.strip() for c in (q.get("columns") or "").split(",") if c.strip()]
            unknown = [c for c in wanted if c not in PRICE_COLUMNS and c != "date"]
            if unknown:
                raise _BadParam(
                    f"Error: columns {','.join(unknown)} are not valid; choose from {PRICE_COLUMNS}"
                )
            if start and end and end < start:
                raise _BadParam("Error: endDate must be on or after startDate")
        except _BadParam as exc:
            return _detail(str(exc), 400, headers)
        tp = await lookup(raw)
        if tp is None:
            return _detail(f"Error: Ticker '{raw}' not found", 404, headers)
        if start is None and end is None:
            lo, hi = max(0, len(tp.days) - 1), len(tp.days)  # like the real API: latest day only
        else:
            lo, hi = tp.bounds(start, end)
        cols = [c for c in PRICE_COLUMNS if not wanted or c in wanted]
        days = np.datetime_as_string(tp.days[lo:hi], unit="D").tolist()
        values = [tp.columns[c][lo:hi].tolist() for c in cols]
        if sort == "-date":
            days.reverse()
            for v in values:
                v.reverse()
        if fmt == "csv":
            lines = [",".join(["date", *cols])]
            lines.extend(
                ",".join([d, *(_num(v) for v in row)]) for d, *row in zip(days, *values, strict=True)
            )
            return PlainTextResponse("\n".join(lines) + "\n", headers=headers, media_type="text/csv")
        keys = ["date", *cols]
        rows = [
            dict(zip(keys, (f"{d}T00:00:00.000Z", *row), strict=True))
            for d, *row in zip(days, *values, strict=True)
        ]
        if tp.has_nan:  # NaN is not JSON; the real API sends null
            for r in rows:
                for k, v in r.items():
                    if isinstance(v, float) and v != v:
                        r[k] = None
        return json_response(rows, headers=headers)

    async def docs(request: Request) -> Response:
        t = (
            "aapl"
            if await lookup("aapl")
            else next(iter(await anyio.to_thread.run_sync(tickers)), "aapl").lower()
        )
        example = f"{API}/tiingo/daily/{t}/prices?startDate=2024-01-02&endDate=2024-12-31&token={DEMO_TOKEN}"
        params = [
            (
                "startDate",
                "YYYY-MM-DD",
                "First day to return (inclusive). Without any date only the latest day.",
            ),
            ("endDate", "YYYY-MM-DD", "Last day to return (inclusive)."),
            ("format", "json | csv", "Response format; json is the default."),
            ("columns", "comma list", "Return only these fields, e.g. open,close,volume."),
            ("sort", "date | -date", "Order of the rows."),
            ("resampleFreq", "daily", "Only daily bars are offered here."),
            ("token", "string", "Your API token (or send the header Authorization: Token &lt;token&gt;)."),
        ]
        rows = "".join(f"<tr><td><code>{n}</code></td><td>{k}</td><td>{d}</td></tr>" for n, k, d in params)
        fields = "".join(f"<li><code>{c}</code></li>" for c in ("date", *PRICE_COLUMNS))
        body = (
            "<h1>End-of-Day Prices</h1>"
            "<p>Daily open, high, low, close and volume, plus split- and dividend-adjusted prices, for every "
            "supported US equity.</p>"
            "<h2>Endpoints</h2><ul>"
            f"<li>Prices: <code>GET {API}/tiingo/daily/&lt;ticker&gt;/prices</code></li>"
            f"<li>Meta data: <code>GET {API}/tiingo/daily/&lt;ticker&gt;</code></li></ul>"
            f'<h2>Parameters</h2><table id="parameters"><thead><tr><th>Name</th><th>Type</th>'
            f"<th>Description</th></tr></thead><tbody>{rows}</tbody></table>"
            f"<h2>Response fields</h2><ul>{fields}</ul>"
            "<h2>Authentication</h2>"
            f'<p>Try the API with the demo token <code id="demo-token">{DEMO_TOKEN}</code>. '
            "Every token has an hourly request allocation; responses carry <code>X-RateLimit-Limit</code>, "
            "<code>X-RateLimit-Remaining</code> and <code>X-RateLimit-Reset</code>, and a request over the "
            "allocation is answered with 429 and <code>Retry-After</code>.</p>"
            f'<h2>Example</h2><p><a class="example" href="{html.escape(example)}">{html.escape(example)}</a></p>'
            f'<p><a href="{SUPPORTED_PATH}">Supported tickers</a></p>'
        )
        return bare_page("Tiingo API Documentation — End-of-Day", body)

    async def supported(request: Request) -> Response:
        idx = await anyio.to_thread.run_sync(price_index)
        lines = ["ticker,exchange,assetType,priceCurrency,startDate,endDate"]
        lines.extend(f"{t.lower()},,Stock,USD,{idx[t].days[0]},{idx[t].days[-1]}" for t in sorted(idx))
        return PlainTextResponse("\n".join(lines) + "\n", media_type="text/csv")

    async def overview(request: Request) -> Response:
        raw = request.path_params["ticker"]
        tp = await lookup(raw)
        if tp is None:
            return HTMLResponse(
                f"<!doctype html><title>Not Found</title><h1>Ticker {html.escape(raw)} not found</h1>",
                status_code=404,
            )
        t = tp.ticker.upper()
        last = np.datetime_as_string(tp.days[-30:], unit="D").tolist()
        shown = ("open", "high", "low", "close", "volume")
        values = [tp.columns[c][-30:].tolist() for c in shown]
        recent = "".join(
            f"<tr><td>{d}</td>" + "".join(f"<td>{_num(v)}</td>" for v in row) + "</tr>"
            for d, *row in zip(last, *values, strict=True)
        )
        api = f"{API}/tiingo/daily/{t.lower()}/prices"
        script = (
            "<script>\n"
            f"const TOKEN = '{DEMO_TOKEN}';\n"
            "async function loadHistory(start, end) {\n"
            f"  const url = '{api}?startDate=' + start + '&endDate=' + end + '&token=' + TOKEN;\n"
            "  const rows = await (await fetch(url)).json();\n"
            "  document.getElementById('history').dataset.rows = rows.length;\n"
            "}\n"
            f"loadHistory('{tp.days[0]}', '{tp.days[-1]}');\n"
            "</script>"
        )
        body = (
            f"<h1>{t} stock price history</h1>"
            f"<p>Daily end-of-day prices for {t} from {tp.days[0]} to {tp.days[-1]}. "
            f'Full history through the <a href="{DOCS_PATH}">end-of-day API</a>.</p>'
            f'<table id="history"><thead><tr><th>Date</th><th>Open</th><th>High</th><th>Low</th><th>Close</th>'
            f"<th>Volume</th></tr></thead><tbody>{recent}</tbody></table>{script}"
        )
        return bare_page(f"{t} Overview — Tiingo", body)

    return [
        Mount(
            API,
            routes=[
                Route("/documentation/end-of-day", docs),
                Route("/tiingo/daily/{ticker}", metadata),
                Route("/tiingo/daily/{ticker}/prices", prices),
            ],
        ),
        Mount("/apimedia.tiingo.com", routes=[Route("/docs/tiingo/daily/supported_tickers.csv", supported)]),
        Mount("/www.tiingo.com", routes=[Route("/{ticker}/overview", overview)]),
    ]


def search_docs() -> list[dict]:
    """One result per ticker overview plus the API documentation, for the sandbox search engine."""
    docs = [
        {
            "title": "End-of-Day Stock Prices API Documentation — Tiingo",
            "url": DOCS_PATH,
            "snippet": "REST API for daily open, high, low, close, volume and adjusted prices of US stocks; "
            "JSON or CSV, startDate/endDate parameters, demo token.",
        }
    ]
    for t in tickers():
        docs.append(
            {
                "title": f"{t} historical prices — Tiingo",
                "url": f"/www.tiingo.com/{t.lower()}/overview",
                "snippet": f"{t} daily stock prices: open, high, low, close, volume, dividends and splits.",
            }
        )
    return docs
