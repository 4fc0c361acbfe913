"""Offline (rule-based) instruction parser: one sentence → a typed scope the plan agent can act on.

No LLM: regular expressions over general vocabulary (``vocab.py``). It recognises the 18 Instruct2DS
template families and free phrasings, and never guesses: whatever it cannot resolve is listed in
``missing`` with a sentence saying exactly what is absent, and ``is_resolved`` is False.
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from datetime import date, timedelta
from typing import Literal

from pydantic import BaseModel, Field

from prefect_autodata.agents.offline.vocab import (
    COMPANIES,
    CONFERENCES,
    MLB_TEAMS,
    NBA_TEAMS,
    NOT_TICKERS,
    TRACKS,
    Franchise,
)

Entity = Literal["paper", "stock", "nba_team", "nba_player", "mlb_hitting", "mlb_pitching", "unknown"]
Domain = Literal["academic", "finance", "sport", "unknown"]

DEFAULT_FIELDS: dict[str, list[str]] = {
    "paper": "TITLE AUTHORS ABSTRACT CONFERENCE ABBR TRACK PAPER_LINK BIBTEX_LINK SUPP_LINK".split(),
    "stock": "Date Open High Low Close Volume adjOpen adjHigh adjLow adjClose adjVolume divCash".split(),
    "nba_team": (
        "TEAM_NAME YEAR GP W L MIN FGM FGA FG3M FG3A FTM FTA OREB DREB REB AST TOV STL BLK BLKA PF PFD PTS"
    ).split(),
    "nba_player": (
        "PLAYER_NAME YEAR BIRTHDATE COUNTRY HEIGHT WEIGHT DRAFT_YEAR DRAFT_ROUND DRAFT_NUMBER TEAM_ABBR "
        "GP GS MIN FGM FGA FG3M FG3A FTM FTA OREB DREB REB AST STL BLK TOV PF PTS"
    ).split(),
    "mlb_hitting": "TEAM_NAME TEAM_ABBR YEAR AB R HR H 2B 3B RBI BB SO SB CS".split(),
    "mlb_pitching": "TEAM_NAME TEAM_ABBR YEAR W L ERA G GS CG SHO SV IP H R ER HR HB BB SO".split(),
    "unknown": [],
}
_DOMAIN: dict[str, Domain] = {
    "paper": "academic",
    "stock": "finance",
    "nba_team": "sport",
    "nba_player": "sport",
    "mlb_hitting": "sport",
    "mlb_pitching": "sport",
    "unknown": "unknown",
}


class TeamRef(BaseModel):
    league: Literal["NBA", "MLB"]
    name: str
    abbr: str


class Venue(BaseModel):
    abbr: str
    name: str


class ExpectedSize(BaseModel):
    """How many rows to expect; ``approx`` is True unless the count is certain from the request alone."""

    rows: int
    approx: bool = True
    basis: str


class ParsedInstruction(BaseModel):
    """What the sentence asks for. Years follow the source's convention: an NBA season is named by
    its first calendar year (2019 means 2019-20)."""

    text: str
    entity: Entity = "unknown"
    domain: Domain = "unknown"
    template: str | None = None
    fields: list[str] = Field(default_factory=list)
    fields_source: Literal["user", "default"] = "default"
    years: list[int] = Field(default_factory=list)
    start_year: int | None = None
    end_year: int | None = None
    all_history: bool = False
    start_date: date | None = None
    end_date: date | None = None
    dates: list[date] = Field(default_factory=list)
    tickers: list[str] = Field(default_factory=list)
    all_sp500: bool = False
    teams: list[TeamRef] = Field(default_factory=list)
    all_teams: bool = False
    players: list[str] = Field(default_factory=list)
    venue: Venue | None = None
    track: str | None = None
    expected_size: ExpectedSize | None = None
    assumptions: list[str] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list)

    @property
    def is_resolved(self) -> bool:
        return not self.missing


# ---------------------------------------------------------------- dates

_MONTH_NAMES = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_MONTH_NAMES |= {m.lower(): i for i, m in enumerate(calendar.month_abbr) if m}
_MONTH_NAMES["sept"] = 9
_MON = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
_ORD = r"(?:st|nd|rd|th)?"
_YEAR = r"(?:19|20)\d{2}"

# Each pattern yields a mention: a day, a period (start, end) or a year.
_DATE_PATTERNS: list[tuple[str, str]] = [
    ("iso", rf"\b({_YEAR})-(\d{{1,2}})-(\d{{1,2}})\b"),
    ("ymd_slash", rf"\b({_YEAR})/(\d{{1,2}})/(\d{{1,2}})\b"),
    ("dmy_slash", rf"\b(\d{{1,2}})[/.](\d{{1,2}})[/.]({_YEAR})\b"),
    ("mdy_text", rf"\b({_MON})\s+(\d{{1,2}}){_ORD},?\s+({_YEAR})\b"),
    ("dmy_text", rf"\b(\d{{1,2}}){_ORD}\s+(?:of\s+)?({_MON}),?\s+({_YEAR})\b"),
    ("quarter", rf"\b[Qq]([1-4])\s*(?:of\s+)?({_YEAR})\b|\b({_YEAR})\s*[Qq]([1-4])\b"),
    (
        "quarter_words",
        rf"\b(first|second|third|fourth|1st|2nd|3rd|4th|last)\s+quarter\s+(?:of\s+)?({_YEAR})\b",
    ),
    ("half", rf"\b[Hh]([12])\s*(?:of\s+)?({_YEAR})\b|\b({_YEAR})\s*[Hh]([12])\b"),
    ("half_words", rf"\b(first|second)\s+half\s+(?:of\s+)?({_YEAR})\b"),
    ("month", rf"\b({_MON})\s+({_YEAR})\b"),
    ("season", rf"\b({_YEAR})\s*[-/–]\s*(\d{{2}}|{_YEAR})\s+(?:nba\s+|mlb\s+)?seasons?\b"),
    ("season_short", rf"\b({_YEAR})[-/](\d{{2}})\b(?!\d)"),
    ("year", rf"(?<!\d)({_YEAR})(?!\d)"),
]
_WORD_ORD = {
    "first": 1,
    "1st": 1,
    "second": 2,
    "2nd": 2,
    "third": 3,
    "3rd": 3,
    "fourth": 4,
    "4th": 4,
    "last": 4,
}


class _Mention(BaseModel):
    kind: Literal["day", "period", "year", "season"]
    start: date
    end: date
    span: tuple[int, int]
    ambiguous: bool = False


def _mk_date(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _month(s: str) -> int:
    return _MONTH_NAMES[s.lower().rstrip(".")[:4] if s.lower().startswith("sept") else s.lower().rstrip(".")]


def _find_dates(text: str) -> list[_Mention]:
    out: list[_Mention] = []
    taken: list[tuple[int, int]] = []

    def free(a: int, b: int) -> bool:
        return all(b <= x or a >= y for x, y in taken)

    for kind, pat in _DATE_PATTERNS:
        for m in re.finditer(pat, text, flags=re.IGNORECASE):
            if not free(*m.span()):
                continue
            g = [x for x in m.groups() if x is not None]
            mention = None
            if kind in ("iso", "ymd_slash"):
                d = _mk_date(int(g[0]), int(g[1]), int(g[2]))
                mention = d and _Mention(kind="day", start=d, end=d, span=m.span())
            elif kind == "dmy_slash":
                a, b, y = int(g[0]), int(g[1]), int(g[2])
                amb = a <= 12 and b <= 12 and a != b
                d = _mk_date(y, b, a) if a > 12 else _mk_date(y, a, b)
                mention = d and _Mention(kind="day", start=d, end=d, span=m.span(), ambiguous=amb)
            elif kind == "mdy_text":
                d = _mk_date(int(g[2]), _month(g[0]), int(g[1]))
                mention = d and _Mention(kind="day", start=d, end=d, span=m.span())
            elif kind == "dmy_text":
                d = _mk_date(int(g[2]), _month(g[1]), int(g[0]))
                mention = d and _Mention(kind="day", start=d, end=d, span=m.span())
            elif kind in ("quarter", "quarter_words", "half", "half_words"):
                if kind in ("quarter", "half"):
                    n, y = (int(g[0]), int(g[1])) if len(g[0]) == 1 else (int(g[1]), int(g[0]))
                else:
                    n, y = _WORD_ORD[g[0].lower()], int(g[1])
                months = 3 if kind.startswith("quarter") else 6
                m0 = (n - 1) * months + 1
                m1 = m0 + months - 1
                end = date(y, m1, calendar.monthrange(y, m1)[1])
                mention = _Mention(kind="period", start=date(y, m0, 1), end=end, span=m.span())
            elif kind == "month":
                y, mo = int(g[1]), _month(g[0])
                end = date(y, mo, calendar.monthrange(y, mo)[1])
                mention = _Mention(kind="period", start=date(y, mo, 1), end=end, span=m.span())
            elif kind in ("season", "season_short"):
                y0, tail = int(g[0]), g[1]
                y1 = int(tail) if len(tail) == 4 else (y0 // 100) * 100 + int(tail)
                if y1 < y0:
                    y1 += 100
                if y1 == y0 + 1:
                    mention = _Mention(
                        kind="season", start=date(y0, 1, 1), end=date(y0, 12, 31), span=m.span()
                    )
                elif kind == "season" and y1 > y0:  # "2015-2018 seasons": a range of seasons
                    out.append(
                        _Mention(kind="year", start=date(y0, 1, 1), end=date(y0, 12, 31), span=m.span())
                    )
                    mention = _Mention(kind="year", start=date(y1, 1, 1), end=date(y1, 12, 31), span=m.span())
            else:
                y = int(g[0])
                mention = _Mention(kind="year", start=date(y, 1, 1), end=date(y, 12, 31), span=m.span())
            if mention:
                out.append(mention)
                taken.append(m.span())
    return sorted(out, key=lambda x: x.span)


# ---------------------------------------------------------------- entities

_SPORT_STOP = {"NBA", "MLB"}
_NAME_WORD = r"[A-ZÀ-Þ][\w'’.\-]*"
_NAME_SEQ = re.compile(
    rf"(?<![\w'’])({_NAME_WORD}(?:\s+(?:{_NAME_WORD}|de|da|van|von|der|del|la|le)){{1,3}})"
)
_LEADING_NOISE = {
    "collect",
    "get",
    "give",
    "fetch",
    "download",
    "show",
    "find",
    "pull",
    "scrape",
    "gather",
    "retrieve",
    "list",
    "i",
    "please",
    "need",
    "want",
    "compile",
    "build",
    "grab",
    "all",
    "every",
    "the",
    "regular-season",
    "season",
    "stats",
    "statistics",
    "career",
    "player",
    "players",
    "nba",
    "and",
}


def _franchise_patterns(teams: list[Franchise]) -> list[tuple[re.Pattern[str], Franchise, str]]:
    """(pattern, franchise, kind) longest first; full names case-insensitive, nicknames capitalised."""
    pats: list[tuple[int, re.Pattern[str], Franchise, str]] = []
    for t in teams:
        for full in (t.name, *[a for a in t.aliases if " " in a or "'" in a]):
            pats.append((len(full), re.compile(rf"(?<!\w){re.escape(full)}(?!\w)", re.I), t, "name"))
        for nick in (t.nickname, *[a for a in t.aliases if " " not in a and "'" not in a]):
            pats.append((len(nick), re.compile(rf"(?<!\w){re.escape(nick)}(?!\w)"), t, "nickname"))
        for ab in (t.abbr, *t.abbrs):
            pats.append((len(ab), re.compile(rf"(?<![\w$]){ab}(?![\w])"), t, "abbr"))
    pats.sort(key=lambda p: -p[0])
    return [(p, t, k) for _, p, t, k in pats]


_NBA_PATS = _franchise_patterns(NBA_TEAMS)
_MLB_PATS = _franchise_patterns(MLB_TEAMS)


def _find_teams(
    text: str, pats: list[tuple[re.Pattern[str], Franchise, str]], allow_abbr: bool
) -> list[tuple[Franchise, tuple[int, int]]]:
    found: list[tuple[Franchise, tuple[int, int]]] = []
    taken: list[tuple[int, int]] = []
    for pat, team, kind in pats:
        if kind == "abbr" and not allow_abbr:
            continue
        for m in pat.finditer(text):
            a, b = m.span()
            if any(not (b <= x or a >= y) for x, y in taken):
                continue
            taken.append((a, b))
            found.append((team, (a, b)))
    found.sort(key=lambda x: x[1])
    seen: set[str] = set()
    unique = []
    for t, span in found:
        if t.name not in seen:
            seen.add(t.name)
            unique.append((t, span))
    return unique


def _find_venue(text: str) -> tuple[Venue | None, tuple[int, int] | None]:
    candidates: list[tuple[int, str, tuple[int, int]]] = []
    for abbr, (full, aliases) in CONFERENCES.items():
        for alias in (full, *aliases):
            for m in re.finditer(rf"(?<!\w){re.escape(alias)}(?!\w)", text, re.I):
                candidates.append((len(alias), abbr, m.span()))
        for m in re.finditer(rf"(?<![\w-]){re.escape(abbr)}(?![\w])", text, re.I):
            candidates.append((len(abbr), abbr, m.span()))
    if not candidates:
        return None, None
    _, abbr, span = max(candidates, key=lambda c: c[0])
    return Venue(abbr=abbr, name=CONFERENCES[abbr][0]), span


_TICKER = re.compile(r"(?<![\w&])\$?([A-Z]{1,5}(?:[.\-][A-Z]{1,2})?)(?:'s|’s)?(?![\w&])")


def _find_tickers(text: str, blocked: list[tuple[int, int]]) -> list[str]:
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


def _find_players(text: str, blocked: list[tuple[int, int]]) -> list[str]:
    names = []
    for m in _NAME_SEQ.finditer(text):
        a, b = m.span()
        if any(not (b <= x or a >= y) for x, y in blocked):
            # Trim the sequence at the first blocked span (e.g. "Curry Golden State Warriors").
            continue
        words = re.sub(r"(?:'s|’s)$", "", m.group(1)).split()
        while words and (words[0].lower() in _LEADING_NOISE or words[0].isupper()):
            words.pop(0)
        while words and (words[-1].lower() in _LEADING_NOISE or words[-1].isupper()):
            words.pop()
        if len(words) >= 2 and not any(w.lower().rstrip(".") in _MONTH_NAMES for w in words):
            names.append(" ".join(words))
    return list(dict.fromkeys(names))


# ---------------------------------------------------------------- the parser

_KW = {
    "paper": r"\b(?:papers?|accepted|proceedings|publications?|articles?|conference|venue)\b",
    "stock": r"\b(?:stocks?|shares?|share prices?|equit(?:y|ies)|tickers?|ohlcv?|trading days?|daily prices?|"
    r"closing prices?|prices?|quotes?|market data|s&p\s*500|sp500|s&p)\b",
    "nba": r"\b(?:nba|basketball)\b",
    "mlb": r"\b(?:mlb|baseball|major league)\b",
    "sport": r"\b(?:stats|statistics|season|seasons|regular[- ]season|box scores?|numbers)\b",
    "player": r"\b(?:players?|career)\b",
    "team": r"\b(?:teams?|franchises?|club)\b",
    "hitting": r"\b(?:hitting|batting|hitters?|batters?|offen[cs]e|offensive)\b",
    "pitching": r"\b(?:pitching|pitchers?|bullpen|staff era)\b",
}
_SP500 = re.compile(
    r"\b(?:all|every|each|entire|whole)\b[^.]*?\bs&p\s*500\b|\bs&p\s*500\s+(?:companies|constituents|stocks|members|tickers)\b",
    re.I,
)
_ALL_TEAMS = re.compile(
    r"\b(?:all|every|each)\s+(?:(?:nba|mlb|the)\s+)*teams?\b|\bleague[- ]wide\b|\bteam statistics of\b", re.I
)
_ALL_HISTORY = re.compile(
    r"\ball[- ]time\b|\b(?:entire|whole|full|complete)\s+(?:history|career)\b|\bever\b|\bevery season\b|\ball seasons\b|\bcareer\b",
    re.I,
)


def _has(key: str, text: str) -> bool:
    return re.search(_KW[key], text, re.I) is not None


def _business_days(start: date, end: date) -> int:
    days = (end - start).days + 1
    weeks, rest = divmod(days, 7)
    count = weeks * 5
    for i in range(rest):
        if (start + timedelta(days=weeks * 7 + i)).weekday() < 5:
            count += 1
    return count


def parse_instruction(
    text: str, *, fields: list[str] | None = None, today: date | None = None
) -> ParsedInstruction:
    """Parse one instruction. ``fields`` overrides the entity's default target schema; ``today``
    anchors open ranges such as "since 2019"."""
    today = today or date.today()
    raw = unicodedata.normalize("NFC", text or "")
    t = re.sub(r"\s+", " ", raw.replace("–", "-").replace("—", "-").replace("‐", "-")).strip()
    res = ParsedInstruction(text=raw)
    if not t:
        res.missing.append("the instruction is empty")
        return res

    # 1. Named things, longest and most specific first.
    mentions = _find_dates(t)
    date_spans = [m.span for m in mentions]
    venue, venue_span = _find_venue(t)
    nba_ctx, mlb_ctx = _has("nba", t), _has("mlb", t)
    nba_teams = _find_teams(t, _NBA_PATS, allow_abbr=nba_ctx and not mlb_ctx)
    mlb_teams = _find_teams(t, _MLB_PATS, allow_abbr=mlb_ctx and not nba_ctx)
    if nba_ctx and not mlb_ctx:
        mlb_teams = [x for x in mlb_teams if x[1] not in [s for _, s in nba_teams]]
    team_spans = [s for _, s in nba_teams + mlb_teams]

    # 2. Entity.
    entity: Entity = "unknown"
    stockish = _has("stock", t)
    if venue is not None or (_has("paper", t) and not stockish and not (nba_ctx or mlb_ctx)):
        entity = "paper"
    elif stockish and not (nba_ctx or mlb_ctx or nba_teams or mlb_teams):
        entity = "stock"
    elif mlb_ctx or (mlb_teams and not nba_teams and not nba_ctx):
        hit, pit = _has("hitting", t), _has("pitching", t)
        if hit and not pit:
            entity = "mlb_hitting"
        elif pit and not hit:
            entity = "mlb_pitching"
        else:
            res.domain = "sport"
            res.missing.append(
                "the MLB request does not say whether hitting or pitching statistics are wanted"
                if not (hit and pit)
                else "the MLB request asks for both hitting and pitching; make it two requests"
            )
    else:
        blocked = date_spans + team_spans + ([venue_span] if venue_span else [])
        players = _find_players(t, blocked)
        if nba_ctx or nba_teams or (players and _has("sport", t)):
            if (players and (_has("player", t) or not nba_teams)) or (_has("player", t) and not nba_teams):
                entity = "nba_player"
                res.players = players
            else:
                entity = "nba_team"
        elif _find_tickers(t, date_spans) and _has("sport", t) is False:
            entity = "stock"
    res.entity = entity
    if entity != "unknown":
        res.domain = _DOMAIN[entity]

    # 3. Time scope.
    _resolve_time(t, mentions, res, today)

    # 4. Entity-specific scope.
    if entity == "paper":
        res.venue = venue
        for pat, label in TRACKS:
            if re.search(pat, t, re.I):
                res.track = label
                break
        if venue is None:
            res.missing.append("no conference named (e.g. NeurIPS, ACL, CVPR)")
        if not res.years and not _time_error(res):
            res.missing.append("no year or year range for the papers")
    elif entity == "stock":
        res.all_sp500 = bool(_SP500.search(t))
        if not res.all_sp500:
            res.tickers = _find_tickers(t, date_spans)
        if not res.tickers and not res.all_sp500:
            res.missing.append("no stock ticker or company named (or 'all S&P 500 companies')")
        if res.start_date is None and not res.dates and not _time_error(res):
            res.missing.append("no year or date range for the stock request")
        if res.end_date is not None and res.end_date > today:
            res.end_date = today
            res.assumptions.append(f"prices cannot be collected after today ({today.isoformat()})")
    elif entity in ("nba_team", "mlb_hitting", "mlb_pitching"):
        chosen = nba_teams if entity == "nba_team" else mlb_teams
        res.teams = [TeamRef(league=f.league, name=f.name, abbr=f.abbr) for f, _ in chosen]
        res.all_teams = not res.teams and (bool(_ALL_TEAMS.search(t)) or len(res.years) == 1)
        league = "NBA" if entity == "nba_team" else "MLB"
        if not res.teams and not res.all_teams:
            res.missing.append(f"no {league} team named (or 'all teams')")
        if not res.years and not res.all_history and not _time_error(res):
            res.missing.append(f"no season, year range or 'up to' year for the {league} request")
    elif entity == "nba_player":
        if not res.players:
            res.missing.append("no NBA player named")
        if not res.years and not res.all_history and not _time_error(res):
            res.missing.append("no season, year range or 'up to' year for the NBA player request")
    elif not res.missing:
        res.missing.append(
            "cannot tell what records are wanted: papers of a conference, stock prices, "
            "NBA team or player statistics, or MLB hitting or pitching statistics"
        )

    # 5. Fields, template, expected size.
    if fields:
        res.fields, res.fields_source = list(fields), "user"
    else:
        res.fields = list(DEFAULT_FIELDS[entity])
        if entity == "stock" and (res.all_sp500 or len(res.tickers) > 1):
            res.fields.insert(0, "Ticker")
    res.template = _template(res)
    res.expected_size = _expected_size(res)
    return res


def _resolve_time(t: str, mentions: list[_Mention], res: ParsedInstruction, today: date) -> None:
    """Turn date mentions and their connecting words into years / a date range / single dates."""
    if any(m.ambiguous for m in mentions):
        res.assumptions.append(
            "numeric dates like 03/04/2024 read month-first (US); write ISO dates to be sure"
        )
    lo = t.lower()

    def before(m: _Mention, n: int = 24) -> str:
        return lo[max(0, m.span[0] - n) : m.span[0]]

    def between(a: _Mention, b: _Mention) -> str:
        return lo[a.span[1] : b.span[0]]

    # Two mentions joined as a range: "from A to B", "between A and B", "A-B", "A through B".
    pair = None
    for a, b in zip(mentions, mentions[1:], strict=False):
        gap = between(a, b).strip()
        ranged = gap in ("-", "to", "through", "thru", "until", "till")
        if ranged or (gap == "and" and re.search(r"between\s*$", before(a))):
            pair = (a, b)
            break
    if pair:
        a, b = pair
        if a.kind in ("year", "season") and b.kind in ("year", "season"):
            res.start_year, res.end_year = a.start.year, b.start.year
        else:
            res.start_date, res.end_date = a.start, b.end
            res.start_year, res.end_year = a.start.year, b.end.year
    elif m := re.search(
        rf"\b(?:since|after|starting(?: in| from)?)\s+({_YEAR})\b(?!\s*(?:-|to|through|until))", lo
    ):
        res.start_year, res.end_year = int(m.group(1)), today.year
        res.assumptions.append(f"open range ends at the current year, {today.year}")
    elif m := re.search(r"\b(?:last|past)\s+(\d{1,2}|two|three|four|five|ten)\s+(?:years|seasons)\b", lo):
        n = {"two": 2, "three": 3, "four": 4, "five": 5, "ten": 10}.get(m.group(1)) or int(m.group(1))
        res.start_year, res.end_year = today.year - n + 1, today.year
        res.assumptions.append(f"'last {n} years' means {res.start_year}-{res.end_year}")
    elif (
        mentions
        and (
            m := re.search(
                rf"\b(?:up to|through|until|till|to|before|by)\s+(?:the\s+)?(?:end of\s+)?({_YEAR})\b", lo
            )
        )
        and len(mentions) == 1
    ):
        res.end_year = int(m.group(1))
        res.all_history = True
    else:
        days = [x for x in mentions if x.kind == "day"]
        periods = [x for x in mentions if x.kind == "period"]
        years = [x for x in mentions if x.kind in ("year", "season")]
        if periods:
            res.start_date, res.end_date = periods[0].start, periods[0].end
            res.start_year = res.end_year = periods[0].start.year
        elif days:
            res.dates = [d.start for d in days]
            res.start_date, res.end_date = min(res.dates), max(res.dates)
            res.start_year, res.end_year = res.start_date.year, res.end_date.year
        elif years:
            ys = sorted({y.start.year for y in years})
            res.years = ys
            res.start_year, res.end_year = ys[0], ys[-1]
            if len(ys) > 1 and ys != list(range(ys[0], ys[-1] + 1)):
                return
    if _ALL_HISTORY.search(t) and res.start_year is None:
        res.all_history = True
    if res.start_year is not None and res.end_year is not None and not res.years:
        if res.end_year < res.start_year:
            res.missing.append(f"the range ends ({res.end_year}) before it starts ({res.start_year})")
            return
        res.years = list(range(res.start_year, res.end_year + 1))
    if res.years and res.start_date is None and res.entity == "stock":
        res.start_date, res.end_date = date(res.years[0], 1, 1), date(res.years[-1], 12, 31)


def _time_error(r: ParsedInstruction) -> bool:
    return any(m.startswith("the range ends") for m in r.missing)


def _template(r: ParsedInstruction) -> str | None:
    if r.missing:
        return None
    if r.entity == "paper":
        if r.track:
            return "T2"
        return "T1" if len(r.years) == 1 else "T3"
    if r.entity == "stock":
        if r.dates and r.start_date == r.end_date:
            return "T6" if len(r.tickers) > 1 or r.all_sp500 else "T5"
        if (
            r.start_date
            and r.end_date
            and (r.start_date.month, r.start_date.day, r.end_date.month, r.end_date.day)
            == (
                1,
                1,
                12,
                31,
            )
            and r.start_date.year == r.end_date.year
        ):
            return "T4"
        return "T5"
    if r.entity == "nba_team":
        if r.all_teams:
            return "T9"
        return "T7" if r.all_history else "T8"
    if r.entity == "nba_player":
        if len(r.players) > 1:
            return "T12"
        return "T10" if r.all_history else "T11"
    if r.entity in ("mlb_hitting", "mlb_pitching"):
        base = 13 if r.entity == "mlb_hitting" else 16
        if r.all_teams:
            return f"T{base + 2}"
        return f"T{base}" if r.all_history else f"T{base + 1}"
    return None


def _expected_size(r: ParsedInstruction) -> ExpectedSize | None:
    if r.missing:
        return None
    if r.entity == "stock":
        n = 503 if r.all_sp500 else len(r.tickers)
        who = "all ~503 S&P 500 constituents" if r.all_sp500 else f"{n} ticker(s)"
        if r.dates and r.start_date == r.end_date:
            return ExpectedSize(rows=n, basis=f"one trading day × {who}, if the market was open")
        assert r.start_date and r.end_date
        days = _business_days(r.start_date, r.end_date)
        return ExpectedSize(rows=days * n, basis=f"{days} weekdays × {who}; exchange holidays not subtracted")
    if r.entity in ("nba_team", "mlb_hitting", "mlb_pitching"):
        if r.all_teams:
            return ExpectedSize(
                rows=30 * len(r.years), basis="30 teams per modern season (fewer in early eras)"
            )
        if r.years:
            n = len(r.years) * len(r.teams)
            return ExpectedSize(rows=n, basis="one row per team season, if the team existed every season")
        return None
    if r.entity == "nba_player" and r.years:
        n = len(r.years) * len(r.players)
        return ExpectedSize(rows=n, basis="one row per player season (missed seasons fewer, trades add rows)")
    return None
