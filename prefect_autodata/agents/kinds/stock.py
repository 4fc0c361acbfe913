"""Daily stock prices: tickers, household company names, the S&P 500, trading-day arithmetic."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import TYPE_CHECKING

from pydantic import Field

from prefect_autodata.agents.kinds import AddTerm, Check, Context, RecordKind, register
from prefect_autodata.agents.kinds.paper import ACRONYMS
from prefect_autodata.agents.request import ExpectedSize, Filter, KindScope, TimeScope

if TYPE_CHECKING:
    from prefect_autodata.agents.request import Request

# Household company names → ticker (general knowledge; anything else must be given as a ticker).
COMPANIES: dict[str, str] = {
    "apple": "AAPL",
    "microsoft": "MSFT",
    "amazon": "AMZN",
    "alphabet": "GOOGL",
    "google": "GOOGL",
    "nvidia": "NVDA",
    "meta": "META",
    "facebook": "META",
    "tesla": "TSLA",
    "berkshire hathaway": "BRK-B",
    "jpmorgan": "JPM",
    "jp morgan": "JPM",
    "coca-cola": "KO",
    "coca cola": "KO",
    "exxon": "XOM",
    "exxonmobil": "XOM",
    "exxon mobil": "XOM",
    "netflix": "NFLX",
    "intel": "INTC",
    "walmart": "WMT",
    "visa": "V",
    "johnson & johnson": "JNJ",
    "procter & gamble": "PG",
    "pfizer": "PFE",
    "boeing": "BA",
    "disney": "DIS",
}

# Upper-case words that are not tickers even when they look like one.
NOT_TICKERS = (
    frozenset(
        """A I S P US USA NBA MLB NFL NHL ETF ETFS OHLC OHLCV CSV JSON API ISO UTC EST ET PT GMT Q1 Q2 Q3 Q4 H1 H2
    AND OR THE ON IN OF FOR TO FROM ALL EVERY DAILY STOCK STOCKS DATA PRICE PRICES YTD EOD NYSE NASDAQ SP VOL
    SEC IPO CEO CFO AI ML NLP CV ERA RBI HR AB BB SO SB CS IP GP REB AST PTS FG FT TOV PF
    ME MY PLEASE NEED GET WANT URL URLS HTML PDF ISBN ID IDS SKU GPS USD EUR GBP UK EU UN NYC DC CSS XML RSS
    FAQ HQ PhD MBA BA BS MS TV DVD CD EV SUV VIN GDP CO2 PM UV""".split()
    )
    | ACRONYMS
)

_STOCK_WORDS = (
    r"\b(?:stocks?|shares|share prices?|equit(?:y|ies)|ohlcv?|trading days?|market data|"
    r"s&p\s*500|sp500|s&p|nasdaq|nyse)\b"
)
_PRICE_WORDS = r"\b(?:daily prices?|closing prices?|prices?|quotes?)\b"
_PRICE_HEADS = ("price", "quote", "data", "information", "info", "close", "ohlc", "ohlcv")
_SPORT_WORDS = r"\b(?:stats|statistics|season|seasons|regular[- ]season|box scores?|numbers)\b"
_SP500 = re.compile(
    r"\b(?:all|every|each|entire|whole)\b[^.]*?\bs&p\s*500\b|\bs&p\s*500\s+(?:companies|constituents|stocks|members|tickers)\b",
    re.I,
)
_TICKER = re.compile(r"(?<![\w&])\$?([A-Z]{1,5}(?:[.\-][A-Z]{1,2})?)(?:'s|’s)?(?![\w&])")


class StockScope(KindScope):
    tickers: list[str] = Field(default_factory=list)
    all_sp500: bool = False


def find_tickers(text: str, blocked: list[tuple[int, int]]) -> list[str]:
    """Ticker symbols and household company names in ``text`` (single letters only inside a list)."""
    found: list[tuple[str, int, bool]] = []
    for m in _TICKER.finditer(text):
        if any(not (m.end() <= x or m.start() >= y) for x, y in blocked):
            continue
        sym = m.group(1)
        dollar = text[m.start()] == "$"
        if sym in NOT_TICKERS and not dollar:
            continue
        found.append((sym, m.start(), dollar))
    multi = [f for f in found if len(f[0]) > 1 or f[2]]
    tickers = []
    for sym, pos, dollar in found:
        if len(sym) == 1 and not dollar:
            # A single letter counts only inside a list of other tickers ("UNH and V").
            before = text[:pos]
            if not (multi and re.search(r"(?:,|\band)\s*$", before)):
                continue
        tickers.append(sym.replace(".", "-"))
    low = text.lower()
    for name, sym in COMPANIES.items():
        if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", low):
            tickers.append(sym)
    return list(dict.fromkeys(tickers))


def _names_ticker(ctx: Context, tickers: list[str]) -> bool:
    """The generic entity phrase is itself a ticker ("AAPL in 2024") or a household company name
    ("JPMorgan (JPM) daily prices": the bracket ends the phrase at the company)."""
    head = ctx.entity_head() or ""
    name = re.sub(r"(?:'s|’s)$", "", (ctx.entity or "").strip().lower())
    return any(head in (t.lower(), f"{t.lower()}'s") for t in tickers) or COMPANIES.get(name) in tickers


# "stock number", "stock #", "in stock": a stock word naming an attribute of another kind of record
# (an identifier, a level, availability), not shares traded on a market
_ATTRIBUTE_AFTER = (
    r"(?=\s*(?:#|\b(?:numbers?|no\b\.?|ids?|codes?|levels?|status|counts?|quantit(?:y|ies)|availability)\b))"
)
_STOCK_STATE = r"\b(?:in|out\s+of|low\s+on)\s+$"


def _only_attributes(ctx: Context) -> bool:
    """Whether every stock word of the sentence names an attribute of the entity's records ("For each
    used vehicle ... the stock number, year, make"): then the entity, another thing, is what is asked."""
    hits = list(re.finditer(_STOCK_WORDS, ctx.text, re.I))
    return bool(hits) and all(
        re.match(_ATTRIBUTE_AFTER, ctx.text[m.end() :], re.I)
        or re.search(_STOCK_STATE, ctx.text[: m.start()], re.I)
        for m in hits
    )


def business_days(start: date, end: date) -> int:
    days = (end - start).days + 1
    weeks, rest = divmod(days, 7)
    count = weeks * 5
    for i in range(rest):
        if (start + timedelta(days=weeks * 7 + i)).weekday() < 5:
            count += 1
    return count


class StockKind(RecordKind):
    name = "stock"
    domain = "finance"
    singular = "daily stock price"
    plural = "daily stock prices"
    default_fields = (
        "Date Open High Low Close Volume adjOpen adjHigh adjLow adjClose adjVolume divCash".split()
    )
    vocabulary = {
        "date": "Date",
        "day": "Date",
        "open": "Open",
        "opening price": "Open",
        "high": "High",
        "daily high": "High",
        "low": "Low",
        "daily low": "Low",
        "close": "Close",
        "closing price": "Close",
        "volume": "Volume",
        "trading volume": "Volume",
        "adjusted close": "adjClose",
        "adjusted closing price": "adjClose",
        "dividend": "divCash",
        "ticker": "Ticker",
        "symbol": "Ticker",
    }
    field_types = {"Date": "date", "Ticker": "string", "Volume": "integer"}
    scope_model = StockScope
    location_filters = False

    def detect(self, ctx: Context) -> float:
        if ctx.has(_STOCK_WORDS) and (ctx.entity_is(*_PRICE_HEADS) or not _only_attributes(ctx)):
            return 80.0
        # an acronym after a quantifier names a class of things ("every GPU", "all ETFs", "each ATM"),
        # not one company's shares: upper case alone is no ticker evidence
        tickers = [
            t
            for t in find_tickers(ctx.text, ctx.date_spans)
            if not re.search(rf"\b(?:every|each|all|any)\s+{re.escape(t)}s?\b", ctx.text, re.I)
        ]
        # "ticker" asked as a field ("ETFs with ticker, name and issuer") is stock evidence only with a
        # named ticker or a price series
        if ctx.has(r"\btickers?\b") and (tickers or ctx.has(_PRICE_WORDS)):
            return 80.0
        # "daily fuel prices", "grinder prices": a word before "price" that does not qualify a price
        # series names what is priced; without a ticker that is no stock evidence
        series = {"daily", "weekly", "monthly", "hourly", "intraday", "closing", "close", "opening", "open"}
        series |= {"historical", "historic", "adjusted", "eod", "latest", "current", "recent", "past"}
        series |= {"last", "average", "adj", "high", "low", "share", "stock", "market", "end-of-day"}
        qualified = all(w in series for w in (ctx.entity or "").lower().split()[:-1])
        if ctx.has(_PRICE_WORDS) and (
            (ctx.entity_is(*_PRICE_HEADS) and (tickers or qualified)) or _names_ticker(ctx, tickers)
        ):
            return 80.0
        if (
            tickers
            and not ctx.has(_SPORT_WORDS)
            and (ctx.entity_is(*_PRICE_HEADS) or _names_ticker(ctx, tickers))
        ):
            return 50.0
        return 0.0

    def refine(self, req: Request, ctx: Context) -> None:
        scope = StockScope(all_sp500=bool(_SP500.search(ctx.text)))
        if not scope.all_sp500:
            scope.tickers = find_tickers(ctx.text, ctx.date_spans)
        req.kind_scope = scope
        if scope.tickers:
            req.filters = [f for f in req.filters if f.field != "ticker"]
            req.filters.append(Filter(field="ticker", op="in", value=list(scope.tickers)))
        if not scope.tickers and not scope.all_sp500 and not ctx.has_source:
            req.unresolved.append(
                "no stock ticker or company named: which tickers (or 'all S&P 500 companies')?"
            )
        ts = req.time_scope
        if ts is not None and ts.years and ts.start_date is None:
            ts.start_date, ts.end_date = date(ts.years[0], 1, 1), date(ts.years[-1], 12, 31)
        if ts is None or (ts.start_date is None and not ts.dates):
            if req.is_resolved:
                req.assumptions.append("no date range named: collect every trading day the source has")
        elif ts.end_date is not None and ts.end_date > ctx.today:
            ts.end_date = ctx.today
            req.assumptions.append(f"prices cannot be collected after today ({ctx.today.isoformat()})")
        if req.is_resolved:
            scope.template = _template(req.time_scope, scope)

    def fields_for(self, req: Request) -> list[str]:
        s = req.kind_scope
        out = list(self.default_fields)
        if isinstance(s, StockScope) and (s.all_sp500 or len(s.tickers) > 1):
            out.insert(0, "Ticker")
        return out

    def expected_size(self, req: Request) -> ExpectedSize | None:
        s, ts = req.kind_scope, req.time_scope
        if not isinstance(s, StockScope) or ts is None:
            return None
        n = 503 if s.all_sp500 else len(s.tickers)
        who = "all ~503 S&P 500 constituents" if s.all_sp500 else f"{n} ticker(s)"
        if ts.dates and ts.start_date == ts.end_date:
            return ExpectedSize(rows=n, basis=f"one trading day × {who}, if the market was open")
        if not (ts.start_date and ts.end_date):
            return None
        days = business_days(ts.start_date, ts.end_date)
        return ExpectedSize(rows=days * n, basis=f"{days} weekdays × {who}; exchange holidays not subtracted")

    def checks(self, req: Request) -> list[Check]:
        return [
            Check("high >= low", "compare", ("High", "Low"), op=">="),
            Check("high >= close", "compare", ("High", "Close"), op=">="),
            Check("low <= open", "compare", ("Low", "Open"), op="<="),
            Check("volume >= 0", "range", ("Volume",), min=0),
        ]

    def who(self, req: Request) -> list[str]:
        s = req.kind_scope
        if not isinstance(s, StockScope):
            return []
        return (["every S&P 500 constituent"] if s.all_sp500 else []) + list(s.tickers)

    def terms(self, req: Request, add: AddTerm, t: dict[str, float]) -> None:
        s = req.kind_scope
        if not isinstance(s, StockScope):
            return
        for tk in s.tickers:
            t[tk.lower()] = 3.0
        if s.all_sp500:
            t["500"] = 2.0
            t["constituents"] = 1.0

    def search_queries(self, req: Request) -> list[str]:
        s = req.kind_scope
        if not isinstance(s, StockScope):
            return []
        q = ["list of S&P 500 companies constituents"] if s.all_sp500 else []
        q += [f"{tk} daily stock prices" for tk in s.tickers[:3]]
        if not s.tickers:
            q.append("daily stock prices open high low close volume")
        return q


def _template(ts: TimeScope | None, s: StockScope) -> str | None:
    if ts is None:
        return None
    if ts.dates and ts.start_date == ts.end_date:
        return "T6" if len(s.tickers) > 1 or s.all_sp500 else "T5"
    if (
        ts.start_date
        and ts.end_date
        and (ts.start_date.month, ts.start_date.day, ts.end_date.month, ts.end_date.day) == (1, 1, 12, 31)
        and ts.start_date.year == ts.end_date.year
    ):
        return "T4"
    return "T5"


register(StockKind())
