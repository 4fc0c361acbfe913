"""Offline (rule-based) instruction parser: one sentence → a generic ``Request``.

No LLM. The generic part reads what any data engineer's sentence says — the kind of thing wanted (a
noun phrase), the fields ("with title, author and price", "name, team and height of every player",
"all columns"), filters ("priced under $20", "in the Fiction category", "in Berlin"), a time scope
(absolute or relative to ``today``), coverage ("top 100"), a cadence ("every weekday at 18:00") and
the sources named (URLs, domains). It holds no vocabulary of any one kind of record: record-kind
plug-ins (``agents/kinds/``) recognise what they know and refine the request (typed scope, default
fields, expected size). Only what truly blocks collection goes to ``unresolved``, as a question.
"""

from __future__ import annotations

import calendar
import functools
import re
import unicodedata
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from prefect_autodata.agents import kinds as kind_registry
from prefect_autodata.agents.kinds import Context
from prefect_autodata.agents.kinds import Mention as _Mention
from prefect_autodata.agents.request import (
    Cadence,
    EntityName,
    ExpectedSize,
    Filter,
    Request,
    RequestField,
    TimeScope,
)
from prefect_autodata.agents.vocab import (
    ALL_FIELDS,
    ATTRIBUTE_NOUNS,
    BOUNDARY_WORDS,
    CONTAINER_NOUNS,
    FIELD_WORDS,
    GENERIC_TAILS,
    ING_NOUNS,
    LEAD_MODIFIERS,
    NUMBER_WORDS,
    REQUEST_VERBS,
    VERB_FIELDS,
    is_english_word,
    plural,
    respelled_noun,
    singular,
    spelled,
)

ParsedInstruction = Request  # the name consumers knew; the plan's core is the generic Request
_VERB_FIELDS = VERB_FIELDS  # comparison verbs that name their field ("priced", "weighs", "pays")

# ---------------------------------------------------------------- dates

_MONTH_NAMES = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_MONTH_NAMES |= {m.lower(): i for i, m in enumerate(calendar.month_abbr) if m}
_MONTH_NAMES["sept"] = 9
_MONTHS = frozenset(_MONTH_NAMES)
_MON = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
_ORD = r"(?:st|nd|rd|th)?"
# Years of the last three centuries ("novels published in 1865"); "founded before 1500" is a number.
_YEAR = r"(?:18|19|20)\d{2}"

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
    **{w: n for n, w in enumerate("first second third fourth".split(), 1)},
    **{f"{n}{x}": n for n, x in ((1, "st"), (2, "nd"), (3, "rd"), (4, "th"))},
    "last": 4,
}


_DAY_PLACES = {"iso": (0, 1, 2), "ymd_slash": (0, 1, 2), "dmy_slash": (2, 0, 1), "mdy_text": (2, 0, 1)}
_DAY_PLACES["dmy_text"] = (2, 1, 0)


def _mk_date(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _month(s: str) -> int:
    return _MONTH_NAMES[s.lower().rstrip(".")[:4] if s.lower().startswith("sept") else s.lower().rstrip(".")]


# Units after a number that make it an amount, not a year ("2000 dollars", "1500 MB", "2000 km").
_AMOUNT_UNIT = (
    r"(?:dollars?|euros?|usd|eur|gbp|chf|cad|aud|jpy|pounds?|yen|francs?|rupees?|bucks|k|bn|thousand|"
    r"million|billion|%|percent|hectares?|ha|acres?|km|kilomet(?:er|re)s?|miles?|mi|met(?:er|re)s?|m|ft|feet|foot|kg|kilos?|"
    r"kilograms?|g|grams?|lbs?|tons?|tonnes?|mb|gb|tb|kb|kw|kwh|mw|w|watts?|cc|hp|kcal|sq\s?ft|m2|m²|"
    r"barrels?|gallons?|lit(?:er|re)s?|millilit(?:er|re)s?|ml|ounces?|oz|knots?|mph|kph|"
    r"square\s+(?:met(?:er|re)s?|feet|foot|miles?))"
)
_TIME_UNIT_WORDS = r"(?:seconds?|minutes?|mins|hours?|hrs|days?|weeks?|months?|years?|inch(?:es)?|in|cm|mm|celsius|fahrenheit|degrees?)"
# The unit a value is read in ("capacity in MW", "volume in cubic metres", "cooking time in minutes").
# ("age in millions of years", "range in nautical miles")
_READ_IN_UNIT = (
    r"(?:(?:cubic|square|nautical)\s+[a-z]+|(?:hundreds|thousands|millions|billions)\s+of\s+[a-z]+|"
    + _AMOUNT_UNIT
    + r"|"
    + _TIME_UNIT_WORDS
    + r")"
)
# Comparison words and the operator each means (longest first in the patterns built from them).
_OPS = {
    **dict.fromkeys(
        "under|below|less than|fewer than|lower than|cheaper than|at most|no more than|up to|<=|≤|<".split(
            "|"
        ),
        "le",
    ),
    **dict.fromkeys(
        "over|above|more than|greater than|higher than|at least|no less than|exceeding|>=|≥|>".split("|"),
        "ge",
    ),
    **dict.fromkeys(("before", "earlier than"), "le"),
    **dict.fromkeys(("after", "later than"), "ge"),
    "=": "eq",
}
_CMP_WORDS = sorted(_OPS, key=len, reverse=True)
_CMP = r"(?P<op>" + "|".join(_CMP_WORDS) + ")"
# Comparisons of quantity ("at least 2000"); "before/after/since/up to 2000" compare times.
_QUANTITY_CMP = (
    r"(?:"
    + "|".join(
        w for w in _CMP_WORDS if w not in ("before", "earlier than", "after", "later than", "up to", "=")
    )
    + ")"
)
_TIME_NOUNS = re.compile(
    r"(?:year|date|season|day|month|decade|century|founded|built|established|opened|published|released|"
    r"launched|born|made|dated|created|started|vintage)s?$",
    re.I,
)


def _is_amount(text: str, start: int, end: int) -> bool:
    """A year-like number that is an amount: money or a measure ("$2000", "2000 dollars", "2000 km",
    "between 2000 and 3000 euros"), or the bound of a comparison of a quantity ("a capacity of at
    least 2000", "more than 1500 reviews"), not of a time ("a model year over 2015")."""
    before, after = text[:start], text[end:]
    if re.search(r"[$€£]\s?$|\b(?:top|first|latest|newest)\s+$", before, re.I):
        return True  # money, or a count of records ("the top 2000 companies")
    unit = rf"\s?{_AMOUNT_UNIT}(?![\w$€£])|\s+per\s+[a-z]"
    if re.match(unit, after, re.I) and not (
        re.match(r"\s+per\b", after, re.I)
        and re.search(r"\b(?:in|during|for|of|since|from|until|till|by|through)\s+$", before, re.I)
    ):
        return True  # "2000 per month" is money, "sales in 2024 per region" a year
    # "between 2000 and 3000 dollars", "2000-2500 euros": a range takes the unit of its last bound
    if re.match(rf"\s*(?:-|to|and)\s*[$€£]?\s?\d[\d,.]*(?:{unit})", after, re.I):
        return True
    # "between 1200 and 2000 seats", "from 2000 to 3500 seats": a range's bounds are of one kind
    other = re.search(r"\b(?:between|from)\s+[$€£]?\s?(\d(?:[\d,.]*\d)?)\s*(?:and|to|-)\s*$", before, re.I)
    if other is None and re.search(r"\b(?:between|from)\s*$", before, re.I):
        other = re.match(r"\s*(?:and|to|-)\s*[$€£]?\s?(\d(?:[\d,.]*\d)?)(?![\d/])", after, re.I)
    if other is not None and not re.fullmatch(_YEAR, other.group(1)):
        return True
    cm = re.search(rf"(?P<pre>(?:[A-Za-z]+\s+){{0,3}})(?:(?:of|is|are)\s+)?{_QUANTITY_CMP}\s*$", before, re.I)
    if cm is None:
        return False
    pre = [w for w in cm.group("pre").lower().split() if w not in LEAD_MODIFIERS and w not in ("with", "and")]
    nxt = re.match(r"\s+([a-z]+)", after)
    noun = nxt.group(1).lower() if nxt else ""
    if any(_TIME_NOUNS.fullmatch(w) for w in pre[-2:]) or (noun and _TIME_NOUNS.fullmatch(noun)):
        return False
    return bool(pre) or (bool(noun) and noun not in BOUNDARY_WORDS)


def _overlaps(a: int, b: int, spans: list[tuple[int, int]]) -> bool:
    """Whether [a, b) overlaps a span already explained (a date, a filter, a blocked phrase)."""
    return any(not (b <= x or a >= y) for x, y in spans)


def _find_dates(text: str) -> list[_Mention]:
    out: list[_Mention] = []
    taken: list[tuple[int, int]] = []

    for kind, pat in _DATE_PATTERNS:
        for m in re.finditer(pat, text, flags=re.IGNORECASE):
            if _overlaps(*m.span(), taken):
                continue
            g = [x for x in m.groups() if x is not None]
            mention = None
            if kind in _DAY_PLACES:  # a day: its year, month and day groups (03/04/2024 month first)
                a, b = int(g[0]) if g[0].isdigit() else 0, int(g[1]) if g[1].isdigit() else 0
                y, mo, d = (
                    g[i] for i in (_DAY_PLACES[kind] if kind != "dmy_slash" or a <= 12 else (2, 1, 0))
                )
                d = _mk_date(int(y), int(mo) if mo.isdigit() else _month(mo), int(d))
                amb = kind == "dmy_slash" and a <= 12 and b <= 12 and a != b
                mention = d and _Mention(kind="day", start=d, end=d, span=m.span(), ambiguous=amb)
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
            elif not _is_amount(text, *m.span()):
                y = int(g[0])
                mention = _Mention(kind="year", start=date(y, 1, 1), end=date(y, 12, 31), span=m.span())
            if mention:
                out.append(mention)
                taken.append(m.span())
    return sorted(out, key=lambda x: x.span)


# ---------------------------------------------------------------- time scope

_ALL_HISTORY = re.compile(
    r"\ball[- ]time\b|\b(?:entire|whole|full|complete)\s+(?:history|career)\b|\bever\b|\bevery season\b|\ball seasons\b|\bcareer\b",
    re.I,
)
_UNIT = r"(day|week|month|year|season|quarter)s?"
_NUM = r"(\d{1,3}|" + "|".join(w for w in NUMBER_WORDS if len(w) > 2) + ")"


def _n(word: str) -> int:
    return int(word) if word.isdigit() else NUMBER_WORDS[word]


def _minus_months(d: date, n: int) -> date:
    y, m = divmod(d.year * 12 + d.month - 1 - n, 12)
    return date(y, m + 1, min(d.day, calendar.monthrange(y, m + 1)[1]))


def _relative_time(lo: str, today: date) -> TimeScope | None:
    """Phrases anchored on today, read by one convention (docs/bench/parser-accuracy.md): "the last/past
    N days, weeks, months or quarters" ("the past month": N = 1) are the N units counted back from today,
    today included (the last 30 days in 2025-06-01: 05-03 … 06-01); "the last/past N years or seasons"
    ("the past year": N = 1) are the N calendar years ending with the current one (the past 3 years:
    2023, 2024, 2025); a bare "last year" is the year before; "this week/month/year", "year to date",
    "yesterday", "today"."""

    def ts(start: date, end: date, phrase: str, dated: bool = True) -> TimeScope:
        return TimeScope(
            kind="relative",
            phrase=phrase,
            start_date=start if dated else None,
            end_date=end if dated else None,
            start_year=start.year,
            end_year=end.year,
            years=list(range(start.year, end.year + 1)),
        )

    if m := re.search(r"(?<!the )(?<!past )\blast year\b", lo):
        return ts(date(today.year - 1, 1, 1), date(today.year - 1, 12, 31), m.group(0))
    if m := re.search(
        rf"\b(?:(?:last|past|previous|recent)\s+{_NUM}\s+{_UNIT}|(?:last|past)\s+(?P<one>day|week|month|year))\b",
        lo,
    ):
        n, unit = (1, m.group("one")) if m.group("one") else (_n(m.group(1)), m.group(2))
        if unit in ("year", "season"):
            return ts(date(today.year - n + 1, 1, 1), today, m.group(0), dated=False)
        if unit in ("day", "week"):
            return ts(today - timedelta(days=n * (7 if unit == "week" else 1) - 1), today, m.group(0))
        return ts(
            _minus_months(today, n * (3 if unit == "quarter" else 1)) + timedelta(days=1), today, m.group(0)
        )
    if m := re.search(rf"\b(?:next|coming|upcoming)\s+{_NUM}\s+(day|week|month)s?\b", lo):
        # "for the next 30 days": from today to the day N units ahead
        n, unit = _n(m.group(1)), m.group(2)
        ahead = (
            _minus_months(today, -n)
            if unit == "month"
            else today + timedelta(days=n * (7 if unit == "week" else 1))
        )
        return ts(today, ahead, m.group(0))
    if m := re.search(r"\b(?:year[- ]to[- ]date|ytd|so far this year)\b", lo):
        return ts(date(today.year, 1, 1), today, m.group(0))
    if m := re.search(r"\bthis\s+(year|month|week)\b", lo):
        start = {"year": date(today.year, 1, 1), "month": today.replace(day=1)}.get(m.group(1))
        return ts(start or today - timedelta(days=today.weekday()), today, m.group(0))
    if m := re.search(r"\b(?:yesterday|today(?:'s)?)\b", lo):
        d = today - timedelta(days=1 if m.group(0) == "yesterday" else 0)
        return ts(d, d, m.group(0))
    return None


def _resolve_time(t: str, mentions: list[_Mention], today: date, req: Request) -> TimeScope | None:
    """Turn date mentions and their connecting words into years / a date range / single dates."""
    ts = TimeScope()
    if any(m.ambiguous for m in mentions):
        req.assumptions.append(
            "numeric dates like 03/04/2024 read month-first (US); write ISO dates to be sure"
        )
    lo = t.lower()

    def before(m: _Mention, n: int = 24) -> str:
        return lo[max(0, m.span[0] - n) : m.span[0]]

    def between(a: _Mention, b: _Mention) -> str:
        return lo[a.span[1] : b.span[0]]

    # "between 1 and 31 January 2026", "from 3 to 9 May 2025": the first day borrows the second's month
    for d in (x for x in mentions if x.kind == "day"):
        if (
            len(mentions) == 1
            and (
                lead := re.search(
                    r"\b(?:between|from)\s+(\d{1,2})(?:st|nd|rd|th)?\s+(?:and|to|-|until|through|till)\s*$",
                    before(d),
                )
            )
            and (d0 := _mk_date(d.start.year, d.start.month, int(lead.group(1)))) is not None
            and d0 <= d.start
        ):
            ts.phrase = t[d.span[0] - len(lead.group(0)) : d.span[1]]
            ts.start_date, ts.end_date = d0, d.start
            ts.start_year = ts.end_year = d0.year
            ts.years = [d0.year]
            return ts
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
        ts.phrase = t[a.span[0] : b.span[1]]
        if a.kind in ("year", "season") and b.kind in ("year", "season"):
            ts.start_year, ts.end_year = a.start.year, b.start.year
        else:
            ts.start_date, ts.end_date = a.start, b.end
            ts.start_year, ts.end_year = a.start.year, b.end.year
    elif m := re.search(
        rf"\b(?:since|after|starting(?: in| from)?)\s+({_YEAR})\b(?!\s*(?:-|to|through|until))"
        rf"|\b(?:from\s+)?({_YEAR})\s+(?:or|and)\s+(?:later|after|beyond|newer|since)\b"
        rf"|\b(?:from\s+)?({_YEAR})\s*(?:on|onwards?|forwards?|and up)\b(?!\s+(?:the|a|an|this|our|their|[a-z]+\.[a-z]))",
        lo,
    ):
        ts.kind, ts.phrase = "relative", m.group(0)
        # "since 2015" includes 2015; "after 2015" starts with the year after it
        y = next(g for g in m.groups() if g)
        y0 = int(y) + (1 if m.group(0).startswith("after") else 0)
        if y0 > today.year:
            # a year still to come has no "until now": "starting in 2027" covers the year it names
            ts.kind, ts.start_year, ts.end_year = "absolute", y0, y0
        else:
            ts.start_year, ts.end_year = y0, today.year
            req.assumptions.append(f"open range ends at the current year, {today.year}")
    elif m := re.search(
        rf"\b(?:year|season)s?\s+(?:(?:of|is|are)\s+)?(?P<op>at least|no earlier than|>=|≥|over|above|more than|"
        rf"greater than|later than|newer than|at most|no later than|<=|≤|under|below|less than|earlier than)"
        rf"\s+({_YEAR})\b",
        lo,
    ):
        # "a model year of at least 2015", "a vintage year under 2000": a bound on a year
        op, y = m.group("op"), int(m.group(2))
        ts.phrase = m.group(0)
        if op in ("no earlier than", "newer than") or _OPS.get(op) == "ge":
            ts.kind = "relative"
            ts.start_year = y + (0 if op in ("at least", "no earlier than", ">=", "≥") else 1)
            ts.end_year = today.year
            req.assumptions.append(f"open range ends at the current year, {today.year}")
        else:
            ts.end_year = y - (0 if op in ("at most", "no later than", "<=", "≤") else 1)
            ts.all_history = True
    elif (
        (m := re.search(r"\b(?:since|starting(?: on| from| in)?)\s+", lo))
        and mentions
        and len(mentions) == 1
        and mentions[0].kind in ("day", "period")
        and mentions[0].span[0] == m.end()
    ):
        d0 = mentions[0].start
        ts.kind, ts.phrase = "relative", t[m.start() : mentions[0].span[1]]
        # a start still to come cannot run until today: "starting in January 2027" is that month
        d1 = today if d0 <= today else mentions[0].end
        ts.start_date, ts.end_date = d0, d1
        ts.start_year, ts.end_year = d0.year, d1.year
    elif rel := _relative_time(lo, today):
        if not mentions:
            return rel
        ts = rel
    elif (
        mentions
        and (
            m := re.search(
                rf"\b(?:up to|through|until|till|to|before|by)\s+(?:the\s+)?(?:end of\s+)?({_YEAR})\b", lo
            )
        )
        and len(mentions) == 1
    ):
        ts.phrase = m.group(0)
        # "before 1900" ends with 1899 ("up to", "until", "by" 1900 keep it; so does "before the end of")
        bare_before = re.match(r"before\s+" + _YEAR, m.group(0), re.I) is not None
        ts.end_year = int(m.group(1)) - (1 if bare_before else 0)
        ts.all_history = True
    else:
        days = [x for x in mentions if x.kind == "day"]
        periods = [x for x in mentions if x.kind == "period"]
        years = [x for x in mentions if x.kind in ("year", "season")]
        if periods:
            ts.start_date, ts.end_date = periods[0].start, periods[0].end
            ts.start_year = ts.end_year = periods[0].start.year
            ts.phrase = t[periods[0].span[0] : periods[0].span[1]]
        elif days:
            ts.dates = [d.start for d in days]
            ts.start_date, ts.end_date = min(ts.dates), max(ts.dates)
            ts.start_year, ts.end_year = ts.start_date.year, ts.end_date.year
            ts.phrase = ", ".join(t[d.span[0] : d.span[1]] for d in days)
        elif years:
            ys = sorted({y.start.year for y in years})
            ts.years = ys
            ts.start_year, ts.end_year = ys[0], ys[-1]
            ts.phrase = ", ".join(t[y.span[0] : y.span[1]] for y in years)
            if len(ys) > 1 and ys != list(range(ys[0], ys[-1] + 1)):
                return ts
    if _ALL_HISTORY.search(t) and ts.start_year is None:
        ts.all_history = True
        ts.phrase = ts.phrase or _ALL_HISTORY.search(t).group(0)
    if ts.start_year is not None and ts.end_year is not None and not ts.years:
        if ts.end_year < ts.start_year:
            req.unresolved.append(
                f"the range ends ({ts.end_year}) before it starts ({ts.start_year}): which range did you mean?"
            )
            return ts
        ts.years = list(range(ts.start_year, ts.end_year + 1))
    if ts.start_year is None and ts.end_year is None and not ts.all_history and not ts.dates:
        return None
    return ts


def _scope_not_a_field(
    t: str, mentions: list[_Mention], today: date, req: Request, said: list[str]
) -> TimeScope | None:
    """ "..., this week rank, last week rank, ...": a time phrase that opens a listed field's name (a field
    noun after it) is a word of that field, not the records' time scope; the scope is read again without it."""
    ts = req.time_scope
    for _ in range(3):
        phrase = (ts.phrase or "").strip().lower() if ts is not None else ""
        if not phrase or not any(x.strip().lower().startswith(phrase + " ") for x in said):
            return ts
        hit = next(
            (
                m
                for m in re.finditer(re.escape(phrase), t, re.I)
                if any(x.strip().lower() == t[m.start() : m.start() + len(x.strip())].lower() for x in said)
            ),
            None,
        )
        if hit is None:
            return ts
        t = t[: hit.start()] + " " * len(phrase) + t[hit.end() :]
        ts = _resolve_time(t, mentions, today, Request(text=req.text))
    return ts


# ---------------------------------------------------------------- sources

# The one value-boundary rule: which words a named value (or a place) is made of, and what closes it.
_NAME = r"[A-Z][\w&'’.-]*"  # a capitalised word of a named value ("Home & Garden", "St. Louis", "O'Neil")
_NAME_SL = r"[A-Z][\w&'’./-]*"  # the same, "/" allowed ("AI/ML", "ATL/BOS")
_PLACE_WORD = r"[A-Z][\w.'’-]*"  # a capitalised word of a place ("&" joins two places, not one name)
_PLACE_NAME = rf"{_PLACE_WORD}(?:\s+{_PLACE_WORD})*"
_PLACE = rf"(?:the\s+)?{_PLACE_NAME}"
_LIST_VERBS = r"(?:with|including|listing|giving|showing|containing)"
# "for Drama", "For Action Thriller": named words joined by "&", "and", "of" or a colon
_FOR_VALUE = rf"{_NAME_SL}(?:(?:\s+(?:&|and|of)\s+|:\s+|\s+){_NAME_SL})*"

_URL = re.compile(r"\bhttps?://[^\s<>\"')\]]+", re.I)
_DOMAIN = re.compile(
    r"(?<![@\w.-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:com|org|net|edu|gov|io|co|uk|de|fr|es|it|nl|ch|"
    r"info|biz|ai|dev|app|us|ca|au|jp|eu|int|mil|tv|me|ly|gg)(?:/[^\s,;)]*)?)(?![\w-])",
    re.I,
)
_SITE_NAME = re.compile(
    r"\b(?:on|from|at|of|off)\s+((?:"
    + _NAME
    + r"\s+){0,3}?"
    + _NAME
    + r")(?:'s)?\s+(?:web\s?site|site|page|portal|"
    r"api|feed|open data portal|data portal)\b"
)


_SITE_ON = re.compile(
    r"(?:\b(?:listed|posted|published|available|found|sold|hosted|shown|featured|advertised)\s+on\s+"
    r"(?P<name>[A-Z][\w'’&-]*(?:\s+[A-Z][\w'’&-]*)?)|\bon\s+(?P<brand>[A-Z][a-z]+[A-Z][\w'’&-]*))"
    r"(?=\s*(?:[,;!?]|\.(?:\s|$)|$)|\s+(?:with|including|showing|listing|giving|in|for|from|since|during|and\s+(?:save|store|put|write|load))\b)"
)
_DAY_NAMES = frozenset(d.lower() for d in calendar.day_name)


def _find_sources(t: str) -> tuple[list[str], str]:
    """URLs, bare domains and named sites ("on the Wikipedia page"); returns them and the text with
    each replaced by "the site" (so a URL's digits are not read as years)."""
    found: list[str] = []

    def url(m: re.Match[str]) -> str:
        found.append(m.group(0).rstrip(".,;:!?"))
        tail = m.group(0)[len(m.group(0).rstrip(".,;:!?")) :]
        return "the site" + tail

    t = _URL.sub(url, t)

    def dom(m: re.Match[str]) -> str:
        found.append(m.group(1).rstrip(".,;:!?"))
        return "the site"

    t = _DOMAIN.sub(dom, t)
    for m in _SITE_NAME.finditer(t):
        name = m.group(1).strip()
        if name.lower() not in ("the", "this", "that", "our", "their", "its"):
            found.append(name)
    for m in _SITE_ON.finditer(t):
        # "movies listed on Rotten Tomatoes", "repositories on GitHub": a named site closing its clause
        # (not an acronym, which names a conference or a ticker, nor a day or a month; "books on
        # History" names a topic, so a bare "on" takes only a brand-like name)
        name = m.group("name") or m.group("brand")
        if not name.isupper() and name.split()[0].lower() not in _MONTHS | _DAY_NAMES:
            found.append(name)
    return list(dict.fromkeys(found)), t


# ---------------------------------------------------------------- entity, fields, filters

_WORDS = re.compile(r"[A-Za-zÀ-ÿ0-9][\w'’&.\-]*|[,;:()]")
_LIST_SPLIT = re.compile(
    r"\s*(?:,\s*(?:and|&|or|plus)\s+|,(?!\d{3}\b)|;|\s+and\s+|\s+&\s+|\s+as well as\s+|\s+plus\s+|/)\s*", re.I
)
_NESTED_TRIGGER = re.compile(
    r"^(?:including|include|includes|with|plus|also|as well as|and|giving|listing|showing|containing)\s+",
    re.I,
)
# "with genre Comedy drama", "with type Proprietary": a lower-case field word, then a capitalised value.
_VALUE_FEATURE = re.compile(
    r"(?P<field>[a-z][a-z]{1,20}(?: [a-z]{2,20})?) (?P<value>[A-Z][\w&'.-]*(?:,? [\w&'.-]+){0,4})"
)
# Abbreviations that finish a field's name ("win PCT", "points AVG", "record ID"), never a value.
_FIELD_ABBREVIATIONS = frozenset("pct avg no num nr id url pts max min qty amt yr dt ct pc std".split())
_FEATURE_STOP = frozenset("of for in on at by to from and or the a an with".split())
# A list written after a colon or inside brackets: "cameras: model, maker, price", "(name, phone, type)".
# a list after a colon, in brackets, or as the sentence after a request ("... contains solar? permit
# ID, status and issue date")
# (a dot of an abbreviation of single letters, "U.S. viewers", stays inside the list)
_PUNCT_LIST = re.compile(
    r"(?::\s+|\(\s*|\?\s+)(?P<chunk>(?:[^():;.!?]|(?<=\b[A-Za-z])\.(?=[A-Za-z]\.|\s+[a-z]))+)"
)
_DET = re.compile(
    r"^(?:the|their|its|his|her|each|every|all|a|an|any|of|also|both|respective|corresponding|just)\s+", re.I
)
_FIELD_TRIGGER = re.compile(
    r"\b(?:with|including|include|includes|showing|containing|incl\.|along with|giving|capturing|recording|"
    r"having|reporting|plus|listing|covering|detailing)\s+"
    # "For each park in Canada, I want the name, ...", "... in Africa give population and capital": a
    # wish (or its imperative) after a clause break introduces the list
    r"|(?:(?<=, )|(?<=; )|(?<=\. )|(?<=: )|(?<=\beach )|(?<=[A-Za-z] ))(?:(?:i|we)\s+(?:want|need|would like|['’]d like)"
    r"(?:\s+to\s+(?:see|get|have|know))?|(?:give|show)(?:\s+(?:me|us))?)\s+(?:(?:the|their|its|his|her)\s+)?"
    # "For each used vehicle in this inventory, open its detail page and collect the stock number, year,
    # make": a request verb after another clause's "and", once the records were named, lists the fields
    r"|(?<=\band )(?:collect|get|record|note|grab|extract|take|copy|capture|read)\s+(?:(?:the|their|its|his|her)\s+"
    # ("... open the full record and get title, author, call number": or the list itself)
    r"|(?=[a-z][\w'’-]*(?:\s+[a-z][\w'’-]*){0,3}\s*,))"
    # "dog breeds and their average weight, life expectancy and ...", "solar farms in Spain commissioned
    # between 2018 and 2022 and their capacity, operator and ...": the records' possessive after "and"
    # opens the list of what to give for each of them
    r"|(?<=\band )(?:their|its)\s+(?=[a-z])",
    re.I,
)
_FIELD_LEAD_IN = re.compile(
    r"(?:(?:the|their|its|some|key|basic|main|full)\s+)?(?:specs|specifications|attributes|fields|columns|"
    r"details|information|info|data|properties|characteristics|features|facts)\s+"
    r"(?:such\s+as|like|on|about|regarding|including|for|as\s+follows:?)\s+"
    r"|such\s+as\s+",
    re.I,
)
_FIELD_HEADER = re.compile(
    r"\b(?:fields?|columns?|attributes?|properties)\s*(?::|=|\bare\b|\bnamed\b)\s*"
    # without a separator, a word before must make it a header ("with the fields a, b"), else it may
    # be the records ("all properties with 3 bedrooms")
    r"|(?:" + "|".join(rf"(?<=\b{w} )" for w in "the its with these those following their".split()) + r")"
    r"(?:fields?|columns?|attributes?|properties)\s+",
    re.I,
)
_CLAUSE_END = re.compile(
    r"\s+(?:from|on|at|in(?!\s+(?:the\s+)?"
    + _READ_IN_UNIT
    + r"\b)|for|since|between|during|where|that|which|who|"
    r"(?<!date )(?<!time )(?<!day )(?:listed|posted|published|shown|available)(?=\s+(?:on|in|at|from|by|since|after|before|between|"
    r"during|under|over|to|for|via|this|last|the|a|an|now|online|\d)\b|\s*[.,;:!?]|\s*$)|"
    r"each|every|per(?=\s+(?:the|a|an|each|every|page)\b)|across|within|via|into|"
    # "points by round", "assets under management": a bare noun closing a list item is part of its name
    # ("distance to city centre": two bare words too, no determiner first)
    r"(?:to|by|(?-i:over|under|above|below))(?!\s+(?!(?:the|a|an|this|that|my|our|your|their|its)\b)[a-z]{2,}"
    r"(?:\s+(?!(?:and|or)\b)[a-z]{3,})?(?=\s*(?:,|\band\b|\bor\b|$|[.;!?])))|"
    r"whenever|then|(?-i:so)|if|as a|as an|and (?:save|store|load|put|write|export|land|run|refresh|update)|"
    r"(?:every|each)\s+(?:day|week|month|hour|weekday|morning|night))\b(?!-)|"
    # "U.S. viewers": the dots of an abbreviation of single letters end no clause
    r"(?<!\b[A-Za-z])\.(?!\d|[A-Za-z]\.)|[;:!?()]|$",
    re.I,
)
_NUMV = (
    # "a finish time under 3:00:00": a duration (h:mm:ss, m:ss) is one value
    r"(?P<val>\d{1,3}(?::[0-5]\d){1,2}(?!:?\d)|(?:[$€£]|(?:usd|eur|gbp|chf|cad|aud)\s)?\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|m|bn|%|percent)(?![\w])|\s(?:thousand|million|billion)\b)?)"
    r"(?![\w.]|,\d|-[A-Za-z])"  # "< 2-year": a hyphenated word, not a bound
)
_NOUN = r"(?!(?:in|on|at|of|for|from|with|and|or|the|a|an|to|by|per|each|every|since|between)\b)[a-z]+"
_PLACE_NOUNS = frozenset("city state country region province county".split())
# Plurals that end the names of places ("United States", "Virgin Islands", "Great Lakes", "Twin Cities").
_PLACE_PLURALS = frozenset(
    """states islands isles mountains highlands lowlands hills lakes keys falls springs heights plains
    territories provinces emirates cities counties regions towns villages valleys rivers woods forests
    peaks downs dales sands gardens shores banks beaches bays coasts glades meadows lands oaks pines
    rapids wells rocks groves gables ridges cliffs ponds harbors harbours""".split()
)
# The agent noun of a participle before "by" ("published by X" → publisher).
_AGENT_NOUNS = dict(
    pair.split(":")
    for pair in """published:publisher written:author authored:author directed:director developed:developer
    produced:producer designed:designer composed:composer painted:artist drawn:artist
    illustrated:illustrator manufactured:manufacturer made:maker built:builder owned:owner
    operated:operator run:operator organized:organizer organised:organiser founded:founder
    sponsored:sponsor hosted:host edited:editor performed:performer created:creator sung:artist""".split()
)
_MONEY_FIELD = re.compile(
    r"price|cost|salary|fee|amount|revenue|budget|wage|rent|fare|income|\bcap\b|capitali[sz]ation|valuation|"
    r"value|funding|profit|sales|earnings|turnover|spend|pay\b|gross",
    re.I,
)
# "longer than 10 km": a comparative adjective names the field it compares.
_COMPARATIVES = {
    adj: (field, op)
    for adj, field, op in (
        t.split(":")
        for t in """longer:length:ge shorter:length:le taller:height:ge heavier:weight:ge lighter:weight:le
    older:age:ge younger:age:le bigger:size:ge larger:size:ge smaller:size:le faster:speed:ge slower:speed:le
    deeper:depth:ge wider:width:ge pricier:price:ge""".split()
    )
}


def _names_records(word: str) -> bool:
    """A plural that is no field word names the records ("trails between 5 and 10 km", "laptops under
    $500"): the comparison is then on the unit's dimension or on their price."""
    return singular(word) != word and singular(word) not in FIELD_WORDS


def _subject_is_records(before: str) -> bool:
    """ "peaks higher than 2000 m": the subject is the records (a plural noun) or nothing, not a field."""
    w = re.findall(r"[A-Za-z]+", before)
    return not w or singular(w[-1].lower()) != w[-1].lower() or w[-1].lower() in BOUNDARY_WORDS


_TIME_UNITS = frozenset("seconds minutes hours days weeks months years decades".split())
_MONEY = re.compile(r"[$€£]|\b(?:dollars?|euros?|usd|eur|gbp|chf|pounds)\b", re.I)
_UNIT_WORDS = frozenset("dollars dollar euros euro usd eur gbp pounds percent stars star".split())


def normalize_name(name: str) -> str:
    """A field's normalised name (docs/requests.md, "Field names"): the user's words in lower snake
    case with the last one singular ("Phone numbers" → phone_number, "names" → name, "number of
    beds" → number_of_bed): a list's plural agrees with the many records, and it falls on the last
    word. Every other word stays as written: a plural inside a name is part of what it means ("votes
    received", "years of experience", "hours per week"). Words English keeps invariable stay ("opening
    hours", "series")."""
    words = re.findall(r"[a-z0-9]+", name.lower().replace("'s", "").replace("’s", ""))
    return "_".join([*words[:-1], singular(words[-1])]) if words else ""


def column_name(words: str) -> str:
    """The dataset column for field words of the sentence: the user's words in snake case, as written
    (not singularised: "games" stays games, "MPAA rating" becomes mpaa_rating); one word keeps its case."""
    parts = re.findall(r"[A-Za-z0-9]+", words.replace("'s", ""))
    if len(parts) == 1:
        return parts[0]
    return "_".join(p.lower() for p in parts) or words


def _number(v: str, *, money: bool = False) -> float | int:
    """ "$2.5m" → 2500000, "EUR 2 million" → 2000000, "300 m" → 300 (metres: "m" is a million only
    for money — a currency beside it, or a field that names money — or written "M" against the digits)."""
    if re.fullmatch(r"\s*\d{1,3}(?::[0-5]\d){1,2}\s*", v):
        return v.strip()  # a duration ("3:00:00") is compared as written
    money = money or bool(re.match(r"\s*(?:[$€£]|(?:usd|eur|gbp|chf|cad|aud)\b)", v, re.I))
    s = re.sub(r"^(?:usd|eur|gbp|chf|cad|aud)\b", "", v.strip(), flags=re.I).strip().lstrip("$€£").strip()
    s = s.replace(",", "")
    if re.search(r"\d\s?m$", s) and not money and not re.search(r"\dM$", s):
        s = s[:-1].strip()  # "taller than 300 m": a length
    mult = 1
    for word, m in (
        ("thousand", 1000),
        ("million", 1_000_000),
        ("billion", 1_000_000_000),
        ("bn", 1_000_000_000),
    ):
        if s.endswith(word):
            s, mult = s[: -len(word)].strip(), m
            break
    if s.endswith(("k", "K")):
        s, mult = s[:-1], 1000
    elif s.endswith(("m", "M")):
        s, mult = s[:-1], 1_000_000
    s = s.replace("%", "").replace("percent", "").strip()
    x = float(s) * mult
    return int(x) if x.is_integer() else x


_GERUND_FIELD = r"(?:listing|showing|giving)\s+[a-z]+"  # "listing date", "showing time"


def _clean_item(item: str, *, gerund: bool = False) -> str:
    item = item.strip(" .,'\"")
    if gerund and re.fullmatch(_GERUND_FIELD, item):
        return item  # "..., postcode and listing date": the gerund is a word of the last field's name
    # "whether it is accessible", "the user who asked it": the field is the word the clause is about
    item = re.sub(r"^whether\s+(?:it|they)\s+(?:is|are|has|have)\s+", "", item, flags=re.I)
    item = re.sub(
        r"(?<=\w)\s+(?:who|which|that)\s+[a-z]+(?:\s+(?:it|them|him|her|one))?$", "", item, flags=re.I
    )
    # "the character she played", "the role he is known for": a relative clause without its pronoun
    item = re.sub(
        r"(?<=[a-z])\s+(?:she|he|they|you|we|i)\s+(?:(?:is|was|are|were|has|had|have)\s+)?[a-z]+"
        r"(?:\s+(?:in|for|on|at|with|to|as|by))?$",
        "",
        item,
        flags=re.I,
    )
    # "I want market name", "need the name", "give member surname": the wish or the request verb that
    # opens a list (after a question, a dash) is no word of its first field
    item = re.sub(
        r"^(?:(?:and|so|then|also|please)\s+)*(?:(?:(?:i|we)\s+(?:would like|['’]d like|need|want|wish)"
        r"|(?:need|want)(?=\s+(?:the|their|its|his|her|all|a|an)\s))(?:\s+to\s+(?:see|get|have|know))?"
        r"|(?:give|send)(?:\s+(?:me|us))?|(?:show|list|return|get|include|add)\s+(?:me|us)"
        r"|(?:show|list|return|get|include|add)(?=\s+(?:the|their|its|his|her|all)\s))\s+",
        "",
        item,
        flags=re.I,
    )
    # "region for each quake", "stars for every hotel": the records the field is given for
    item = re.sub(r"(?<=\w)\s+(?:for|of)\s+(?:each|every)\s+[a-z]+(?:\s+[a-z]+)?$", "", item, flags=re.I)
    # "capacity in MW", "total time in minutes": the unit a value is read in is no part of its name,
    # it is the field's unit
    unit = re.search(r"(?<=\w)\s+in\s+(?:the\s+)?(" + _READ_IN_UNIT + r")$", item, flags=re.I)
    item = item[: unit.start()] if unit else item
    for _ in range(3):
        item = _DET.sub("", _NESTED_TRIGGER.sub("", item))
    item = re.sub(
        r"\s+(?:of|for|from)(?:\s+(?:each|every|all|them|it))?$", "", item.strip(" .,'\""), flags=re.I
    )
    item = re.sub(r"\s+(?:and|or|&|plus|please)$", "", item.strip(" .,'\""), flags=re.I)  # a list cut short
    if unit:
        _READ_UNITS[item.strip(" .,'\"")] = unit.group(1)
    return item.strip(" .,'\"")


# "scheduled and estimated time": two modifiers joined by "and" / "or" before one head noun, an item
# of its own, share it (the first a participle or an adjective, never a noun a field can be)
_SHARED_HEAD = re.compile(
    r"(?:^|(?<=[,:;(]))(?P<lead>\s*(?:(?:the|their|its)\s+)?)(?P<a>[a-z]{3,})\s+(?:and|or|&)\s+"
    r"(?P<b>[a-z]{3,})\s+(?P<head>[a-z]{3,})(?=\s*(?:,|;|\)|\band\b|\bor\b|[.!?]|$))"
)


def _shared_head(m: re.Match[str]) -> str:
    a, b = m.group("a"), m.group("b")
    if (
        not (_is_participle(a) or a in _ADJECTIVES)
        or not (_is_participle(b) or b in _ADJECTIVES)
        or a in FIELD_WORDS
    ):
        return m.group(0)
    return f"{m.group('lead')}{a} {m.group('head')} and {b} {m.group('head')}"


def _split_list(text: str, *, clean: bool = True) -> list[str]:
    """The one list splitter: the items of "a, b and c" (also ";", "/", "&", "plus", "as well as"), each
    cleaned of its determiners and lead words (``clean``) and empty ones dropped."""
    text = _SHARED_HEAD.sub(_shared_head, text)
    parts = [p for p in _LIST_SPLIT.split(text) if p.strip()]
    last = len(parts) - 1 if len(parts) > 1 else -1  # "..., postcode and listing date"
    return (
        # a gerund item past the first ("posted date, listing title, ...") is a field's name as well
        [x for x in (_clean_item(p, gerund=i == last or i > 0) for i, p in enumerate(parts)) if x]
        if clean
        else parts
    )


def _short_names(items: list[str], most: int = 4) -> bool:
    """Items that read as field names: a few words, no number."""
    return all(len(x.split()) <= most and not re.search(r"\d", x) for x in items)


_CMP_AHEAD = re.compile(r"\s+(?:of\s+)?(?:" + _CMP + r"\s|between\s+\d)", re.I)


_DIMENSIONS = [
    ("area", r"sq\.?\s?(?:ft|feet|m|metres|meters|km|mi)|m2|m²|km2|km²|square\s+[a-z]+|acres?|hectares?|ha"),
    ("length", r"km|kilomet(?:er|re)s?|miles?|mi|m|met(?:er|re)s?|ft|feet|foot|cm|mm|inch(?:es)?"),
    ("weight", r"kg|kilos?|kilograms?|g|grams?|lbs?|tons?|tonnes?"),
    ("size", r"kb|mb|gb|tb|kilobytes?|megabytes?|gigabytes?|terabytes?"),
    ("power", r"kw|mw|gw|w|watts?|kilowatts?|megawatts?|hp|horsepower"),
]


def _dimension(text: str) -> str | None:
    """The dimension a unit after a number measures ("20 km" → length, "2 kg" → weight), else None."""
    for name, unit in _DIMENSIONS:
        if re.match(rf"[$€£]?\s?\d[\d,]*(?:\.\d+)?\s?(?:{unit})(?![\w²])", text.strip(), re.I):
            return name
    return None


def _range_values(a: str, b: str, *, money: bool = False) -> list[float | int]:
    """ "between 1 and 5 billion": a bare first bound takes the magnitude of the second."""
    lo, hi = _number(a, money=money), _number(b, money=money)
    bare = re.fullmatch(r"\s*(?:[$€£]|(?:usd|eur|gbp|chf|cad|aud)\s)?\s?\d[\d,]*(?:\.\d+)?\s*", a, re.I)
    digits = _number(re.sub(r"[^\d.,]+$", "", b.strip()) or b, money=money)
    scale = hi / digits if bare and digits else 1
    if scale > 1 and float(scale).is_integer():
        x = lo * scale
        lo = int(x) if float(x).is_integer() else x
    return [lo, hi]


def _measured(unit: str, tail: str) -> str | None:
    """ "more than 10 years *of experience*", "at least 8 GB *of RAM*": after a unit, the noun that
    "of" names is what is measured (the field); None when the words say nothing of the kind."""
    if not unit or not (unit in _TIME_UNITS or re.fullmatch(_AMOUNT_UNIT, unit, re.I)):
        return None
    of = re.match(r"\s+of\s+(?:the\s+)?(?P<what>[a-z]+(?:\s+[a-z]+)?)", tail, re.I)
    if of is None:
        return None
    what = of.group("what").lower().split()
    cut = next((i for i, w in enumerate(what) if w in BOUNDARY_WORDS | _DETERMINERS), len(what))
    return " ".join(what[:cut]) or None


def _comparison(item: str) -> Filter | None:
    """A filter written as a field item: "price under $20", "rating above 4", "more than 100 reviews"."""
    m = re.search(rf"(?:^|\s){_CMP}\s+{_NUMV}(?:\s+(?P<noun>[a-z]+))?", item, re.I)
    if not m:
        return None
    head = item[: m.start()].strip().lower().split()
    head = [w for w in head if w not in ("with", "a", "an", "the", "of", "is", "are", "and", "that", "whose")]
    noun = (m.group("noun") or "").lower()
    if len(head) >= 2 and head[-2] == "per":
        return None  # "price per child under 12": a field, the bound qualifies the rate's unit
    if head:
        field = _VERB_FIELDS.get(head[-1], head[-1])
        if len(head) >= 2 and head[-1] not in _VERB_FIELDS and head[-2] not in BOUNDARY_WORDS:
            field = f"{head[-2]} {head[-1]}"
    elif measured := _measured(noun, item[m.end() :]):
        field = measured
    elif noun and noun not in _UNIT_WORDS:
        field = noun
    elif noun.startswith("star") and _number(m.group("val")) > 10:
        field = "star"  # "more than 1000 stars": a count, not a rating
    else:
        return None
    return Filter(field=normalize_name(field), op=_OPS[m.group("op").lower()], value=_number(m.group("val")))


_ONLY: list[Filter] = []  # the "X only" filters of the sentence being read (a kind may read X itself)
_READ_UNITS: dict[str, str] = {}  # the units its field items are read in ("time in minutes": minutes)
_ALIASES: dict[str, str] = {}  # a field's other name written in brackets after it ("batting average (AVG)")


def _listed(words: str, text: str) -> bool:
    """Whether ``words`` is an item of a list in ``text`` (between commas, "and", a colon or the end)."""
    return (
        re.search(
            rf"(?:[,:(]|\band|\bgiving|\bwith|\bincluding)\s+(?:the\s+)?{re.escape(words)}\s*(?:[,;.?!)]|\band\b|\bfor\b|$)",
            text,
        )
        is not None
    )


def _one_of(f: Filter) -> Filter:
    """An equality whose value joins named values with "or" is one of several: "status Issued or Final"
    is ``status in [Issued, Final]``. Every alternative must open with a capital (a named value), so a
    value that merely holds the word ("buy or sell" written in lower case) stays whole, and so does one
    with commas (a site's label such as "Private, 2-Year or Below")."""
    if f.op != "eq" or not isinstance(f.value, str) or not re.search(r"\sor\s", f.value) or "," in f.value:
        return f  # "Private, 2-Year or Below": one label of a site's own, commas and all
    alts = [a.strip() for a in re.split(r"\s+or\s+", f.value) if a.strip()]
    if len(alts) < 2 or not all(re.match(r"[A-Z0-9]", a) for a in alts):
        return f
    return Filter(field=f.field, op="in", value=alts)


def _find_filters(t: str, blocked: list[tuple[int, int]]) -> tuple[list[Filter], list[tuple[int, int]]]:
    """Generic predicates: comparisons, ranges, "the X category", "where F is V", "in <Place>"."""
    out: list[Filter] = []
    spans: list[tuple[int, int]] = []

    def free(a: int, b: int) -> bool:
        return not _overlaps(a, b, blocked + spans)

    def add(f: Filter, span: tuple[int, int], *, only: bool = False) -> None:
        out.append(f)
        spans.append(span)
        if only:
            _ONLY.append(f)  # an "X only" value a kind may read as its own scope

    for m in re.finditer(
        rf"\b(?:(?P<verb>priced|costing|rated|paying|earning|weighing|aged|scoring)|(?:(?P<pre>[a-z]+)\s+)?(?P<field>[a-z]+))\s+"
        rf"between\s+{_NUMV.replace('val', 'a')}\s+and\s+{_NUMV.replace('val', 'b')}",
        t,
        re.I,
    ):
        if free(*m.span()):
            raw = m.group("field") or ""
            # "in Madrid between 2000 and 3000 euros": a proper noun inside the sentence is no field
            place = bool(raw) and raw[:1].isupper() and not raw.isupper() and m.start("field") > 0
            f = _VERB_FIELDS.get((m.group("verb") or "").lower()) or ("" if place else raw.lower())
            pre = (m.group("pre") or "").lower()
            if raw.lower() in _VERB_FIELDS:  # "cameras priced between 500 and 1500 dollars"
                f, pre = _VERB_FIELDS[raw.lower()], ""
            dim = _dimension(t[m.start("b") : m.end() + 12])
            if dim and (not f or _names_records(f)):
                f, pre = dim, ""  # "trails between 5 and 10 km": the unit's dimension
            if (
                f
                and pre
                and not m.group("pre")[:1].isupper()
                and singular(pre) == pre
                and singular(f) == f
                and pre not in BOUNDARY_WORDS | LEAD_MODIFIERS | _DETERMINERS | REQUEST_VERBS
                and pre not in _VERB_FIELDS
                and not _is_participle(pre)
            ):
                f = f"{pre} {f}"  # "a market cap between 1 and 5 billion", "engine size between"
            if (
                _MONEY.search(m.group("a") + " " + m.group("b") + " " + t[m.end() : m.end() + 10])
                and not _MONEY_FIELD.search(f)
                and (not f or _names_records(f))
            ):
                f = "price"  # "laptops between 1000 and 2000 dollars": the records' price
            if not f:
                continue
            money = bool(_MONEY_FIELD.search(f))
            add(
                Filter(
                    field=normalize_name(f),
                    op="range",
                    value=_range_values(m.group("a"), m.group("b"), money=money),
                ),
                (m.end("field"), m.end()) if place else m.span(),
            )
    for m in re.finditer(
        rf"\b(?P<adj>[a-z]+er|more|less|fewer)\s+than\s+(?:an?\s+)?(?P<field>[a-z]{{3,}})\s+{_NUMV}(?![\w.])",
        t,
        re.I,
    ):
        # "stronger than magnitude 6", "higher than grade 3": the field is named after "than"
        field = m.group("field").lower()
        if (
            free(*m.span())
            and field not in BOUNDARY_WORDS | _DETERMINERS | _UNIT_WORDS
            and singular(field) == field
        ):
            op = (
                "le"
                if m.group("adj").lower() in ("less", "fewer", "lower", "smaller", "weaker", "shorter")
                else "ge"
            )
            add(Filter(field=normalize_name(field), op=op, value=_number(m.group("val"))), m.span())
    for m in re.finditer(
        rf"\b(?P<adj>{'|'.join(_COMPARATIVES)}|higher|lower)\s+than\s+{_NUMV}"
        rf"(?P<len>\s?(?:m|metres|meters|ft|feet|km|kilometres|kilometers)\b)?",
        t,
        re.I,
    ):
        adj = m.group("adj").lower()
        length = m.group("len") or re.search(r"\d\s?m$", m.group("val"))
        if adj in ("higher", "lower") and not (length and _subject_is_records(t[: m.start()])):
            continue  # "a rating higher than 4" compares the rating; "peaks higher than 2000 m" a height
        if free(*m.span()):
            field, op = _COMPARATIVES.get(adj) or ("height", "ge" if adj == "higher" else "le")
            add(Filter(field=field, op=op, value=_number(m.group("val"))), m.span())
    for m in re.finditer(
        rf"(?:(?P<verb>priced|costing|costs?|rated|paying|pays?|earning|earns?|weighing|weighs?|aged|scoring|cheaper|older|younger|taller)\s+|"
        # "a five-year return above 8%": a hyphenated modifier is a word of the field's name
        rf"\b(?P<field>[a-z]+(?:-[a-z]+)?(?:\s+[a-z]+)?)\s+(?:(?P<conn>is|are|of)\s+)?)?{_CMP}\s+{_NUMV}(?:\s+(?P<noun>{_NOUN}))?",
        t,
        re.I,
    ):
        if not free(*m.span()):
            continue
        verb = (m.group("verb") or "").lower()
        field = _VERB_FIELDS.get(verb, "")
        # a proper noun is no field ("in Leeds under 1950 a month"); an acronym may be ("GPA above 3")
        words = [
            w.lower() for w in (m.group("field") or "").split() if not (w[:1].isupper() and not w.isupper())
        ]
        # "an estimated cost over 1 million dollars", "a monthly cost under 15 pounds": after a
        # determiner "cost"/"pay" is a noun naming the field with its modifiers, not a verb
        noun_phrase = bool(
            len(words) >= 2
            and words[-1] in _VERB_FIELDS
            and not _is_participle(words[-1])  # "the site priced under $500,000": a verb still
            and re.search(r"\b(?:a|an|the|its|their|his|her)\s+$", t[: m.start("field")], re.I)
        )
        for w in words:
            if w in _VERB_FIELDS and not noun_phrase:
                field = _VERB_FIELDS[w]
        cut = max((i + 1 for i, w in enumerate(words) if w in BOUNDARY_WORDS), default=0)
        if cut and words[cut - 1] == "per" and cut < len(words):
            continue  # "price per child under 12": the bound qualifies the rate's unit, it keeps no record
        words = [w for w in words[cut:] if w not in LEAD_MODIFIERS and w not in ("is", "are")]
        noun = (m.group("noun") or "").lower()
        # "kept more than 100 clean sheets", "hit over 40 home runs": a singular word, then a plural
        # noun, is one counted noun of two words
        if (
            noun
            and singular(noun) == noun
            and noun not in BOUNDARY_WORDS | _UNIT_WORDS
            and (nxt := re.match(r"\s+([a-z]{3,})\b", t[m.end() :]))
            and singular(nxt.group(1)) != nxt.group(1)
            and nxt.group(1) not in BOUNDARY_WORDS
        ):
            noun = f"{noun} {singular(nxt.group(1))}"
        dim = _dimension(t[m.start("val") : m.end() + 12])
        if words and _is_participle(words[-1]) and noun and noun not in BOUNDARY_WORDS:
            # "players scored over 2000 points", "flats rented under 900 euros": the words after the
            # number say what is compared, not the verb ("founded before 1500" keeps its verb)
            words = []
        elif (
            len(lead := (m.group("field") or "").lower().split()) >= 2
            and words == lead[-1:]
            and (singular(lead[-2]) != lead[-2] or lead[-2] in ("that", "who", "which"))
            and words[-1] not in FIELD_WORDS | ATTRIBUTE_NOUNS
            and singular(words[-1]) == words[-1]
            and noun
            and noun not in BOUNDARY_WORDS | _UNIT_WORDS
        ):
            # "bowlers (that) took more than 300 wickets": a plural subject or a relative pronoun, its
            # verb, then the counted noun
            words = []
        if not field:
            if len(words) >= 2 and singular(words[-2]) == words[-2] and words[-2] not in _VERB_FIELDS:
                field = " ".join(words[-2:])  # "engine size over 600 cc" (not "apartments rent")
            elif words and not (dim and _names_records(words[-1])):
                field = words[-1]  # "a salary above 80000", "runtime under 100 minutes"
            elif measured := _measured(noun, t[m.end() :]):
                field = measured
            elif dim:
                field = dim  # "hiking trails over 20 km", "laptops under 2 kg": the unit's dimension
            elif noun and noun not in _UNIT_WORDS and noun not in BOUNDARY_WORDS:
                field = noun  # "more than 500 beds"
            elif noun.startswith("star") and _number(m.group("val")) > 10:
                field = "star"  # "more than 1000 stars": a count, not a rating
        val = m.group("val")
        # "a stipend of at least 2000 dollars", "with a deposit under $500": a singular noun the
        # sentence sets apart as the thing compared names the field, money or not
        named = bool(
            field
            and not verb
            and singular(field.split()[-1]) == field.split()[-1]
            and (
                m.group("conn")
                or re.search(r"\bwith\s+(?:(?:a|an|the|its|their|his|her)\s+)?$", t[: m.start("field")], re.I)
                and not set(m.group("field").lower().split()) & BOUNDARY_WORDS
            )
        )
        if (
            _MONEY.search(val + " " + noun)
            and not named
            and (
                not field
                or (singular(field.split()[-1]) not in FIELD_WORDS and not _MONEY_FIELD.search(field))
            )
        ):
            field = "price"  # "a car listing under $15,000": money compares a price
        if not field:
            continue
        if re.fullmatch(_YEAR, val.strip()) and not m.group("field"):
            continue
        add(
            Filter(
                field=normalize_name(field),
                op=_OPS[m.group("op").lower()],
                value=_number(val, money=bool(_MONEY_FIELD.search(field))),
            ),
            (m.start("op"), m.end()),
        )
    for m in _OF_VALUE.finditer(t):
        if free(*m.span()) and (f := _of_value(m.group(0).strip())) is not None:
            add(f, m.span())
    for m in re.finditer(
        r"\b(?:where|whose|with)\s+(?:the\s+)?(?P<field>[a-z]+(?:\s+[a-z]+)?)\s+(?:is|equals|=|being)\s+"
        r"(?P<val>\"[^\"]+\"|'[^']+'|(?:[<>≤≥]\s?)?[A-Z0-9][\w.\-/'’&+]*"
        # "4-year or above" after a word of a label: the label's own words ("or above" of a number
        # was read as a bound by ``_clean`` already)
        r"(?:(?:\s+|,\s+|\s*[=:]\s+)(?:[A-Z0-9][\w.\-/'’&+]*|[a-z]+-[\w\-]+|" + _OR_BOUND + r"|or|and|of|&)"
        r"(?=[\s,?!.;:)]|$))*|[\w.\-]+)",
        t,
    ):
        # ("whose date is in October": a preposition opens no value)
        if free(*m.span()) and m.group("val").lower() not in BOUNDARY_WORDS:
            val = re.sub(r"(?:[\s,]+(?:or|and|of|&))+$", "", m.group("val").strip("\"'")).rstrip(".")
            alts = re.split(r"\s*,\s*(?:or\s+)?|\s+or\s+", val)
            if re.search(r"\sor\s", val) and all(
                re.fullmatch(r"[A-Z][a-z]+(?:\s[A-Z][a-z]+)?", a) for a in alts
            ):
                # "whose cuisine is Mexican, Thai or Korean": one value of several
                out.append(Filter(field=normalize_name(m.group("field")), op="in", value=alts))
            else:
                add(
                    Filter(field=normalize_name(m.group("field")), op="eq", value=val),
                    (m.start(), m.start("val") + len(val)),
                )
    # "the universities with type Proprietary — fields: ...": a field word and its named value, closed
    # by the dash or colon that opens the field list
    for m in re.finditer(
        r"\bwith\s+(?:the\s+)?(?P<field>[a-z]+(?:\s+[a-z]+)?)\s+(?P<val>" + _NAME + r"(?:\s+" + _NAME + r")*)"
        r"(?=\s*[—–:]|\s+-\s|,\s*(?:fields?|columns?|attributes?)\s*:)",
        t,
    ):
        if free(*m.span()) and not set(m.group("field").split()) & (
            BOUNDARY_WORDS | _FEATURE_STOP | _DETERMINERS
        ):
            add(Filter(field=normalize_name(m.group("field")), op="eq", value=m.group("val")), m.span())
    for m in re.finditer(
        r"\b(?:whose\s+|where\s+(?:the\s+|its\s+|their\s+)?)(?P<field>[a-z]+(?:\s+[a-z]+)?)\s+"
        r"(?:contains?|includes?|mentions?|has)\s+(?:the\s+(?:word|term|phrase)\s+)?"
        r"(?P<val>\"[^\"]+\"|'[^']+'|" + _NAME + r"(?:\s+" + _NAME + r")*|[\w'’\-]+)",
        t,
    ):
        if free(*m.span()):
            add(
                Filter(
                    field=normalize_name(m.group("field")), op="contains", value=m.group("val").strip("\"'")
                ),
                m.span(),
            )
    # "movies for Drama, with ...", "player seasons for ATL with ...": a value closing its clause
    for m in re.finditer(
        r"\bfor\s+(?:the\s+)?(?P<val>" + _FOR_VALUE + r")"
        r"(?=\s*(?:[,;.?!(]|$)|\s+(?:" + _LIST_VERBS + r"|from|in|on|at|during)\b)",
        t,
    ):
        val = m.group("val").rstrip(".")
        first = val.split()[0].lower()
        if (
            not free(*m.span())
            or first in _MONTHS
            or re.fullmatch(r"q[1-4]|h[12]|i|me|us|you|" + _YEAR, first)
            or re.search(r"\d{4}", val)
        ):
            continue
        # "movies for Drama, Sport, Comedy with ...": values listed after the first are one of several
        vals, end = [val], m.end()
        more = re.compile(
            r"\s*,\s*(?:(?:and|or)\s+)?(?P<v>" + _NAME_SL + r"(?:\s+" + _NAME_SL + r")*)"
            r"(?=\s*(?:[,;.?!(]|$)|\s+(?:" + _LIST_VERBS + r"|from|in|on|at|during|and|or)\b)"
        )
        while alt := more.match(t, end):
            if alt.group("v").split()[0].lower() in _MONTHS | {"i", "we", "you", "please"}:
                break
            vals.append(alt.group("v"))
            end = alt.end()
        if len(vals) > 1 and (last := re.match(r"\s+(?:and|or)\s+(?P<v>" + _FOR_VALUE + r")", t[end:])):
            vals.append(last.group("v").rstrip("."))
            end += last.end()
        if len(vals) > 1:
            add(Filter(field="*", op="in", value=vals), (m.start(), end), only=True)
            continue
        add(Filter(field="*", op="eq", value=val), m.span(), only=True)
    # "Nikon only", "only the STL club", "only American": a value to keep, its field named or not
    # ("*": any of the record's fields).
    for m in re.finditer(
        # "only Public 2-year": a word of digits and letters ("2-year", "4WD") continues the value, and
        # so does a hyphenated word ("only the Private for-profit type")
        # ("only the Cuisines: Steakhouse cuisine": a value shown with its label, "Label: Value")
        r"\bonly\s+(?:the\s+)?(?P<val>(?:[A-Z][a-z]+:\s+(?=[A-Z]))?"
        + _NAME_SL
        + r"(?:\s+(?:(?:[A-Z]|\d+-?[A-Za-z])[\w&'’./-]*|[a-z]+-[a-z][\w-]*))*)"
        r"(?:\s+(?P<noun>[a-z]{3,})(?:\s+(?P<noun2>[a-z]{3,})(?=\s*[:,;.?!(]|\s*$))?)?"
        r"|(?:^|(?<=,)|(?<=\s))(?P<val2>"
        + _NAME_SL
        + r"(?:(?:\s+&)?\s+(?:[A-Z]|\d+-?[A-Za-z])[\w&'’./-]*)*)\s+only\b",
        t,
    ):
        if not free(*m.span()):
            continue
        val = (m.group("val") or m.group("val2")).rstrip(".")
        noun = m.group("noun") or ""
        if noun and (singular(noun) != noun or noun in BOUNDARY_WORDS | _DETERMINERS | REQUEST_VERBS):
            noun = ""
        noun2 = m.group("noun2") or ""
        if noun and noun2 and singular(noun2) == noun2 and noun2 not in BOUNDARY_WORDS | _DETERMINERS:
            rest = t[m.end() :]
            if _listed(noun2, rest) and not _listed(f"{noun} {noun2}", rest):
                # "only the Comedy drama genre, giving title, director, genre": the field is the word
                # the list asks for, the lower-case word before it ends the value
                val, noun = f"{val} {noun}", noun2
            else:
                noun = f"{noun} {noun2}"  # "only the Private For-Profit institution type:"
        if val.split()[0].lower() in _MONTHS or re.fullmatch(_YEAR, val):
            continue
        named = re.search(r"\bthe\s+([a-z]+)\s+$", t[: m.start("val2")]) if m.group("val2") else None
        if named and named.group(1) in ATTRIBUTE_NOUNS | FIELD_WORDS:
            noun = named.group(1)  # "in the genre Science & Nature only": the field word before the value
        add(Filter(field=noun or "*", op="eq", value=val), m.span(), only=True)
    for m in re.finditer(
        r"\b(?:on|for|along|of|at)\s+(?:the\s+)?(?P<field>[a-z]+)\s+(?P<val>\d{1,4}[A-Za-z]?)\b"
        r"(?!\s*(?:days?|weeks?|months?|years?|seasons?|hours?|minutes?|%|percent|stars?))",
        t,
    ):
        field = m.group("field").lower()
        if re.match(r"\s+[a-z]{3,}\b", t[m.end() :]) and not re.match(
            r"\s+(?:" + "|".join(sorted(BOUNDARY_WORDS | _DETERMINERS)) + r")\b", t[m.end() :]
        ):
            continue  # "trials for type 2 diabetes": a name with a number in it, not type eq 2
        if (
            free(*m.span())
            and field not in BOUNDARY_WORDS | LEAD_MODIFIERS
            and field not in ("top", "first", "last", "past", "page", "latest", "least", "most")
        ):
            val = m.group("val")
            add(Filter(field=field, op="eq", value=int(val) if val.isdigit() else val), m.span())
    # "phase 3 clinical trials", "all category 5 hurricanes": a noun and its number before the records
    if (
        lead := re.match(
            r"(?:(?:[a-z]+\s+)?(?:all|every|each|the|any)\s+)?(?P<field>[a-z]{4,})\s+(?P<val>\d{1,2})\s+(?=[a-z]{3,}\b)",
            _LEAD.sub("", t),
            re.I,
        )
    ) is not None:
        field, off = lead.group("field").lower(), len(t) - len(_LEAD.sub("", t))
        after = t[off + lead.end() :].split(None, 1)[0].lower()
        if (
            free(off + lead.start("field"), off + lead.end())
            and singular(field) == field
            and field not in BOUNDARY_WORDS | LEAD_MODIFIERS | _DETERMINERS | REQUEST_VERBS | _TIME_WORDS
            and field not in ("top", "first", "last", "latest", "next", "most", "every", "least")
            and after not in _TIME_UNITS | BOUNDARY_WORDS | _UNIT_WORDS
            and singular(after) not in _TIME_UNITS
        ):
            add(
                Filter(field=field, op="eq", value=int(lead.group("val"))),
                (off + lead.start("field"), off + lead.end()),
            )
    # "reviews of the app Duolingo", "songs by the band Queen": a common noun, then the name it gives
    for m in re.finditer(
        rf"\b(?:of|for|from|about|by)\s+the\s+(?P<field>[a-z]{{3,}})\s+(?P<val>{_NAME}(?:\s+{_NAME})*)", t
    ):
        noun = m.group("field")
        if (
            free(*m.span())
            and singular(noun) == noun
            and noun not in BOUNDARY_WORDS | LEAD_MODIFIERS | _DETERMINERS | REQUEST_VERBS | _TIME_WORDS
            and not noun.endswith(("ing", "ed", "ly"))
            and m.group("val").split()[0].lower().rstrip(".") not in _MONTHS
        ):
            add(Filter(field=noun, op="eq", value=m.group("val").rstrip(".")), m.span())
    # "in the Fiction category", 'the genre called "Film noir"': a named or quoted value of a field word
    nouns, quoted = "|".join(sorted(ATTRIBUTE_NOUNS)), r"\"[^\"]+\"|'[^']+'"
    for m in re.finditer(
        rf"\b(?:in|from|under|of|for)\s+(?:the\s+)?(?P<val>{quoted}|(?:{_NAME}\s+)*?{_NAME})\s+(?P<field>{nouns})\b"
        rf"|\b(?:in|from|under)\s+the\s+(?P<val3>{_NAME}(?:\s+[a-z]{{3,}}){{1,2}})\s+(?P<field3>{nouns})\b"
        rf"|\b(?P<field2>{nouns})\s+(?:called|named|of)?\s*(?P<val2>{quoted})",
        t,
    ):
        if free(*m.span()):
            field = m.group("field") or m.group("field2") or m.group("field3")
            val = m.group("val") or m.group("val2") or m.group("val3")
            if m.group("val3") and set(val.lower().split()[1:]) & (BOUNDARY_WORDS | _DETERMINERS):
                continue
            add(Filter(field=field.lower(), op="eq", value=val.strip("\"'")), m.span())
    # "in the Federal court", "from the Eastern conference": a named value, then the (singular) noun
    # naming the field it belongs to.
    for m in re.finditer(
        rf"\b(?:in|from|under)\s+the\s+(?P<val>(?:{_NAME}\s+)*?{_NAME})\s+(?P<field>[a-z]{{3,}})\b",
        t,
    ):
        noun = m.group("field")
        if (
            free(*m.span())
            and singular(noun) == noun
            and noun not in BOUNDARY_WORDS | LEAD_MODIFIERS | _DETERMINERS
            and not noun.endswith(("ing", "ed", "ly"))
            and m.group("val").split()[0].lower().rstrip(".") not in _MONTHS
        ):
            add(Filter(field=noun, op="eq", value=m.group("val")), m.span())
    # "comic books published by Dark Horse", "every book by Agatha Christie": the agent after "by"
    # names the field of the participle's agent noun (the author of records named bare)
    for m in re.finditer(
        rf"\b(?:(?P<verb>[a-z]+)\s+)?by\s+(?P<val>{_NAME}(?:\s+(?:{_NAME}|of|de|van|von|&))*)",
        t,
    ):
        verb = (m.group("verb") or "").lower()
        val = re.sub(r"\s+(?:of|de|van|von|&)$", "", m.group("val")).rstrip(".")
        field = _AGENT_NOUNS.get(verb)
        det = re.search(
            r"\b(?:every|each|all|the|a|an|any)\s+[a-z]+\s+by\s", t[max(0, m.start() - 8) : m.end()], re.I
        )
        if (
            field is None
            and verb
            and (singular(verb) != verb or det)
            and not verb.endswith("ed")
            and verb not in FIELD_WORDS | BOUNDARY_WORDS | REQUEST_VERBS
        ):
            field = "author"  # "books by Agatha Christie", "songs by Queen"
        if field is None or not free(*m.span()) or val.split()[0].lower() in _MONTHS | {"i", "we", "the"}:
            continue
        add(Filter(field=field, op="eq", value=val), (m.start("val"), m.start("val") + len(val)))
    # "flights from Boston to Denver", "ferry sailings from Dover to Calais": a trip's two places are
    # where the records leave from and where they go
    for m in re.finditer(
        rf"\bfrom\s+(?:the\s+)?(?P<a>{_PLACE_NAME})\s+to\s+(?:the\s+)?(?P<b>{_PLACE_NAME})\b(?!\s+\d)", t
    ):
        a, b = (re.sub(r"\s+(?:I|We)$", "", m.group(g)).rstrip(".") for g in ("a", "b"))
        firsts = {a.split()[0].lower(), b.split()[0].lower()}
        if not free(*m.span()) or firsts & (_MONTHS | _DAY_NAMES | {"i", "we"}) or a.isupper() or b.isupper():
            continue
        add(Filter(field="origin", op="eq", value=a), m.span())
        add(Filter(field="destination", op="eq", value=b), m.span())
    for m in re.finditer(
        r"(?<!\ue000)\b(?:in|near|around|across|throughout|(?<=[a-z]\s)from|(?:departing|leaving|flying|originating|shipping|arriving)\s+(?:from|at|in))\s+(?P<val>(?:the\s+)?"
        + _PLACE_WORD
        + r"(?:\s+(?:"
        + _PLACE_WORD
        + r"|of|de|del|am|upon))*)",
        t,
    ):
        val = re.sub(r"^the\s+", "", m.group("val"))
        val = re.sub(r"\s+(?:of|de|del|am|upon|I|We)$", "", val)  # "in Vienna I need ...": a new clause
        first = val.split()[0].lower().rstrip(".")
        if re.match(r"from\b", m.group(0)):
            # "grandmasters from Norway or India": a place the records come from; not a source or a
            # venue ("papers from ICML 2022", "prices from Amazon": an acronym, a field word before)
            before = re.findall(r"[a-z]+", t[: m.start()].lower())[-1:]
            # after a plural noun, or a singular one a quantifier opens ("every cricket player from
            # Australia")
            counted = bool(before) and (
                before[0].endswith("s")
                or re.search(r"\b(?:every|each|any)\s+(?:[a-z]+\s+){0,3}$", t[: m.start()].lower())
            )
            if (
                not counted
                or singular(before[0]) in FIELD_WORDS
                or val.split()[0].isupper()
                or re.match(r"\s+\d", t[m.end() :])
            ):
                continue
        if (
            not free(*m.span())
            or first in _MONTHS
            or first in ("english", "the", "q1", "q2", "q3", "q4")
            # "file size in MB", "price in USD", "temperature in Celsius": a unit
            or re.fullmatch(_READ_IN_UNIT, val, re.I)
        ):
            continue
        last = val.split()[-1].lower()
        if len(val.split()) > 1 and last in ATTRIBUTE_NOUNS and last not in _PLACE_NOUNS:
            out.append(Filter(field=last, op="eq", value=val))  # "in the Premier League": league
            spans.append(m.span())
            continue
        if (
            len(val.split()) > 1
            and m.group(0).lower().startswith("in ")
            and singular(last) != last
            and last not in _PLACE_PLURALS
            and is_english_word(last)
            and is_english_word(singular(last))
        ):
            # "each project in Tabletop Games", "deals in Home Appliances": a name whose head is a plural
            # common noun names a class of things, the records' category, not a place ("the Rocky
            # Mountains", "the United States" end in a plural of places)
            add(Filter(field="category", op="eq", value=val), m.span())
            continue
        vals, end = [val], m.start("val") + len(m.group("val"))
        # "in Germany or Austria", "in Lyon, Nice or Paris": one place of several
        while alt := re.match(r"(?:\s*,\s*|\s+(?:or|and)\s+)(?P<v>" + _PLACE_NAME + r")", t[end:]):
            first_alt = alt.group("v").split()[0].lower()
            if first_alt in _MONTHS or first_alt in ("i", "we", "you", "they", "please", "also", "then"):
                # "in Canada, I want ...": a new clause, not another place
                break
            vals.append(alt.group("v"))
            end += alt.end()
        if len(vals) > 1:
            add(Filter(field="location", op="in", value=vals), (m.start(), end))
        else:
            add(Filter(field="location", op="eq", value=val), m.span())
    return out, spans


def _phrase_after(t: str, start: int) -> str:
    m = _CLAUSE_END.search(t, max(0, start - 1))
    if m and m.start() < start:
        return ""
    return t[start : m.start() if m else len(t)]


def _inside_list(t: str, m: re.Match[str], chunk: str) -> bool:
    """ "...: posted date, listing title, monthly rent": a gerund list word ("listing", "showing") after an
    item that itself follows a list's colon or comma, with one word before the next item, is a word of a
    field's name, not a verb opening the list."""
    return bool(
        re.fullmatch(r"(?:listing|showing|giving)\s+", m.group(0), re.I)
        and re.search(r"[:,]\s*[a-z][\w'’-]*(?:\s+[a-z][\w'’-]*){0,3}\s*,\s*$", t[: m.start()])
        and re.match(r"[a-z][\w'’-]*\s*(?:,|\band\b|&)", chunk.strip())
    )


def _records_not_columns(t: str, m: re.Match[str]) -> bool:
    """ "Retrieve all properties with more than 3 bedrooms": all-columns words opening the request and
    followed by what qualifies records are the records themselves."""
    head = [w.lower() for w in re.findall(r"[A-Za-z']+", _LEAD.sub("", t[: m.start()]))]
    opening = all(w in REQUEST_VERBS or w in LEAD_MODIFIERS for w in head)
    return (
        opening
        and re.match(r"\s+(?:with|in|on|that|which|where|having|near|under|over)\b", t[m.end() :]) is not None
    )


def _find_fields(t: str, blocked: list[tuple[int, int]]) -> tuple[list[str], list[Filter], bool, int | None]:
    """Field words the sentence asks for, comparisons written among them, "all columns", and where
    the field list started (so the entity phrase stops there)."""
    if (m := ALL_FIELDS.search(t)) and not _records_not_columns(t, m):
        return [], [], True, m.start()
    items: list[str] = []
    filters: list[Filter] = []
    first: int | None = None
    for rx in (_FIELD_HEADER, _FIELD_TRIGGER):
        for m in rx.finditer(t):
            prev = (t[: m.start()].split() or [""])[-1].lower()  # "cheeses made with raw milk": the verb's
            if _overlaps(*m.span(), blocked) or (_is_participle(prev) and prev not in BOUNDARY_WORDS):
                continue
            # "with details on X, Y", "with attributes such as X, Y": the list starts after the lead-in
            begin = lead_in.end() if (lead_in := _FIELD_LEAD_IN.match(t, m.end())) else m.end()
            chunk = _phrase_after(t, begin)
            if items and re.fullmatch(_GERUND_FIELD, m.group(0).strip() + " " + chunk.strip()):
                continue  # "..., price and listing date": a field of the list read, no list verb
            if _inside_list(t, m, chunk):
                continue  # ": posted date, listing title, monthly rent": a gerund word of a listed field
            if not chunk.strip():
                # "with at bats and home runs": a field list whose first word is a preposition
                lead = re.match(r"(?:at|on|in)\s+[a-z]+(?=\s*(?:,|\band\b|&))", t[begin:])
                chunk = t[begin : begin + lead.end()] + _phrase_after(t, begin + lead.end()) if lead else ""
            if not chunk.strip():
                continue
            raw = _field_list(chunk)
            if re.match(
                r"(?:i|we|give|show|collect|get|record|note|grab|extract|take|copy|capture|read)\b",
                m.group(0),
                re.I,
            ):
                # a wish lists fields only as a list of short singular names ("..., I want the name,
                # province and area"); "In 1993, we need the team pitching seasons" names the records
                items_ = [_clean_item(x) for x in raw]
                last_words = [x.split()[-1].lower() for x in items_ if x]
                if (
                    len(items_) < 2
                    or any(len(x.split()) > 3 for x in items_)
                    or (last_words and singular(last_words[0]) != last_words[0])
                    or re.match(r"(?:all|every|each|any)\b", chunk.strip(), re.I)
                ):
                    continue
            raw = [y for x in raw for y in _split_feature(x)]
            k = next(
                (
                    i
                    for i, x in enumerate(raw)
                    if i
                    and _NESTED_TRIGGER.match(x.strip())
                    # "..., postcode and listing date": a gerund naming the last field, not a list verb
                    and not (i == len(raw) - 1 and re.fullmatch(_GERUND_FIELD, x.strip()))
                ),
                0,
            )
            if k and m.group(0).strip().lower() in ("with", "having"):
                # "bus stops with a shelter, including stop name and street": a feature, then fields
                for x in raw[:k]:
                    if re.search(rf"(?<!\d){_YEAR}(?!\d)", x):
                        continue  # "with a vintage of 1895 or later, with ...": the time scope
                    f = _comparison(x) or _value_feature(_clean_item(x))
                    filters.append(f or Filter(field=normalize_name(_clean_item(x)), op="eq", value=True))
                raw = raw[k:]
            parts = [x for x in (_clean_item(x, gerund=i == len(raw) - 1) for i, x in enumerate(raw)) if x]
            rated, compared = "", False
            rate = re.compile(rf"\s+{_CMP}\s+{_NUMV}(?=\s*(?:,|\band\b|[.;!?]|$))", re.I)
            if (
                parts
                and re.search(r"\bper\s+[a-z]+$", parts[-1])
                and (q := rate.match(t, begin + len(chunk)))
            ):
                # "price per child under 12": a rate for a class of things is one field name
                parts[-1] += q.group(0)
                rated = parts[-1]
                more = re.match(r"\s*(?:,\s*(?:and\s+)?|\s+and\s+)", t[q.end() :])
                if more:
                    parts += _split_list(_phrase_after(t, q.end() + more.end()))
            elif compared := bool(parts and _CMP_AHEAD.match(t, pos := begin + len(chunk))):
                # "... over 100 million and its capital": the list goes on after the comparison (and
                # after the next: "an ABV of at least 6% and a rating above 4"), or opens after it
                # ("... above 4: name, brewery", "... under 25 km/h; list brand, model")
                after = re.compile(
                    rf"\s+(?:of\s+)?{_CMP}\s+{_NUMV}(?:\s+{_NOUN})?(?:\s*(?:,\s*)?(?:and\s+|,\s*)"
                    rf"|\S*\s*[:;]\s*(?:(?:list|give|show|include|with)\s+(?:me\s+|us\s+)?)?)",
                    re.I,
                )
                # "with the tag etl and over 1000 stars": after "and" the comparison has no subject in the list
                cut = not re.search(r"(?:,|\band)\s*$", chunk)
                while _CMP_AHEAD.match(t, pos):
                    parts = parts[:-1] if cut else parts  # "with a rating above 4": the subject of a filter
                    cut = True
                    if (cont := after.match(t, pos)) is None:
                        break
                    parts += _split_list(more := _phrase_after(t, cont.end()))
                    pos = cont.end() + len(more)
            later = _FIELD_TRIGGER.search(t, begin + len(chunk))
            if (
                len(parts) == 1
                and not compared
                and m.group(0).strip().lower() in ("with", "having")
                and later is not None
                and later.group(0).strip().lower() not in ("with", "having")
                and not (_comparison(parts[0]) or _value_feature(parts[0]))
            ):
                # "each museum with free entry in Paris, including name and ...": a feature, then fields
                filters.append(Filter(field=normalize_name(parts[0]), op="eq", value=True))
                continue
            for it in parts:
                f = _comparison(it) or _value_feature(it)
                if f:
                    filters.append(f)
                elif (len(it.split()) <= 4 or it == rated) and not re.search(r"\d{4}", it):
                    items.append(it)
            first = m.start() if first is None else min(first, m.start())
        if items:
            break
    if items:
        # "with an award amount of at least $5,000 and a deadline in the next 60 days: name, provider,
        # ...": items written with an indefinite article are features the records have; the list after
        # the colon names the fields
        colon = next(
            (
                c
                for c in _PUNCT_LIST.finditer(t)
                if c.group(0).startswith(":")
                and "," in c.group("chunk")
                and not _overlaps(*c.span(), blocked)
            ),
            None,
        )
        if colon is not None and all(
            re.search(rf"\b(?:a|an)\s+{re.escape(it)}\b", t[: colon.start()], re.I) for it in items
        ):
            parts = _split_list(colon.group("chunk"))
            if len(parts) >= 2 and _short_names(parts):
                items = parts
    if not items:
        for m in _PUNCT_LIST.finditer(t):
            if _overlaps(*m.span(), blocked) or "," not in m.group("chunk"):
                continue
            parts = _split_list(m.group("chunk"))
            if len(parts) >= 2 and _short_names(parts):
                items.extend(parts)
                first = m.start() if first is None else min(first, m.start())
                break
    if not items and (tail := _TRAILING_LIST.search(t)):
        # "Lakes deeper than 100 metres in Finland, name, area and maximum depth": a list closing the sentence
        if not _overlaps(*tail.span(), blocked):
            items = _split_list(tail.group("chunk"))
            first = tail.start()
    return list(dict.fromkeys(items)), filters, False, first


_TRAILING_LIST = re.compile(
    r",\s*(?P<chunk>(?:[a-z][\w'’-]*(?:\s+[a-z][\w'’-]*){0,3}\s*,\s*)+(?:[a-z][\w'’-]*(?:\s+[a-z][\w'’-]*){0,3},?\s+)?"
    r"(?:and|&)\s+[a-z][\w'’-]*(?:\s+[a-z][\w'’-]*){0,3})\s*[.!?]?\s*$"
)
_INNER_TRIGGER = re.compile(r"\s+(?=" + _LIST_VERBS + r"\s)", re.I)


def _split_feature(item: str) -> list[str]:
    """ "genre Mystery with the title": a feature, then the field list it introduces (two items)."""
    m = _INNER_TRIGGER.search(item.strip())
    if m is None:
        return [item]
    head, tail = item.strip()[: m.start()], item.strip()[m.end() :]
    if _comparison(head) or _value_feature(_clean_item(head)):
        return [head, tail]
    return [item]


_COMMA, _AMP = "\x00", "\x01"
# "institution type Public, 4-Year or Above", "category Home & Garden": a field word, then a named
# value whose capitalised words (or "4-Year"-like words) go on past a comma or "&" to the end of the item
_WHOLE_VALUE = re.compile(
    r"(?:^|(?<=,))\s*[a-z][a-z]{1,20}(?: [a-z]{2,20})? [A-Z][\w'.-]*"
    r"(?:(?:,\s*|\s+(?:or|and|&)\s+|\s+)(?:[A-Z][\w'.-]*|\d+-[A-Za-z]+))+(?=\s*,|\s*$|\s+"
    + _LIST_VERBS
    + r"\s)"
)


def _abbreviated_field(item: str) -> bool:
    """ "win PCT", "points AVG, PTS": a lower-case word, then an abbreviation that finishes a field's name
    (``_FIELD_ABBREVIATIONS``), is a field, never a field and the value it must have."""
    m = re.match(r"\s*(?:the\s+)?[a-z]+(?:\s+[a-z]+)?\s+(?P<abbr>[A-Z]{2,5})\b(?![\w'.-])", item)
    return bool(m) and m.group("abbr").lower() in _FIELD_ABBREVIATIONS


def _field_list(chunk: str) -> list[str]:
    """The raw items of a field list: "&" joins one field's words when the list ends with "and" ("make &
    model, cost, and mileage"), and a named value keeps its commas and "&" ("category Home & Garden",
    "institution type Public, 4-Year or Above")."""
    if re.search(r",\s*(?:and|or)\s|,.*\sand\s", chunk):
        chunk = re.sub(r"\b([a-z]\w*) & ([a-z]\w*)\b", r"\1&\2", chunk)

    def mask(m: re.Match[str]) -> str:
        text = m.group(0)
        if not re.search(r",\s*(?:[A-Z]|\d+-)|\s&\s", text) or re.search(r",\s*(?:and|or)\s", text):
            return text
        if _abbreviated_field(text):
            return text  # "..., win PCT, PTS": a field's abbreviation, then the next field
        return text.replace(",", _COMMA).replace("&", _AMP)

    masked = _WHOLE_VALUE.sub(mask, chunk)
    return [x.replace(_COMMA, ",").replace(_AMP, "&") for x in _split_list(masked, clean=False)]


# "a rating of A", "an energy rating of B+", "a condition of Excellent": a field after an indefinite
# article, "of", then one capitalised word (a letter grade or a named level) is the value it must have.
_OF_VALUE_BODY = (
    r"(?P<field>[a-z]{3,}(?:\s+[a-z]{3,}){0,2})\s+of\s+(?P<value>[A-Z](?:[a-z]+|[+-]|(?![\w'’.&-])))"
)
_OF_VALUE = re.compile(
    r"\b(?:a|an)\s+" + _OF_VALUE_BODY + r"(?=\s*(?:[,;:.?!)]|$)|\s+(?:or|and|with|in|on|at|for|from|"
    r"including|listing|giving)\b)"
)
_OF_VALUE_ITEM = re.compile(r"(?:(?:a|an)\s+)?" + _OF_VALUE_BODY)


def _of_value(item: str) -> Filter | None:
    m = _OF_VALUE_ITEM.fullmatch(item.strip())
    if m is None or set(m.group("field").split()) & (BOUNDARY_WORDS | _FEATURE_STOP):
        return None
    return Filter(field=normalize_name(m.group("field")), op="eq", value=m.group("value"))


def _value_feature(item: str) -> Filter | None:
    """ "genre Comedy drama" → genre eq "Comedy drama": a field word written with the value it must have."""
    if (graded := _of_value(item)) is not None:
        return graded
    if (
        (
            low := re.fullmatch(
                r"(?:the\s+)?(?P<field>[a-z]+)\s+(?P<value>[a-z][a-z0-9]*(?:-[a-z0-9]+)*)", item.strip()
            )
        )
        and low.group("field") in ATTRIBUTE_NOUNS
        and (value := low.group("value")) not in BOUNDARY_WORDS | _FEATURE_STOP | FIELD_WORDS
        and singular(value) not in FIELD_WORDS
        and singular(value) == value
    ):
        return Filter(
            field=low.group("field"), op="eq", value=value
        )  # "status recruiting", "tag data-engineering"
    # "with type Proprietary — fields: name, ...": a dash closes the value (a list opens after it)
    m = _VALUE_FEATURE.fullmatch(re.sub(r"\s+[—–-]\s+.*$", "", item.strip()))
    if m is None or set(m.group("field").split()) & _FEATURE_STOP or _abbreviated_field(item):
        return None
    if m.group("value").isupper() and m.group("value").lower() in FIELD_WORDS | _FIELD_ABBREVIATIONS:
        return None  # "image URL", "CVE ID": a field name with an acronym, not a value
    if re.fullmatch(r"[A-Z]{2,}(?:\s+[a-z]+)+", m.group("value")):
        return None  # "annual TEU throughput": an acronym inside a field's name, its noun after it
    # "operator SpaceX launched in ...": a participle after the value opens the records' next clause
    words = m.group("value").split(" ")
    k = next((i for i, w in enumerate(words) if i and w.islower() and _is_participle(w)), len(words))
    return Filter(field=normalize_name(m.group("field")), op="eq", value=" ".join(words[:k]))


_DETERMINERS = frozenset("the a an all every each some any these those".split())
_DEMONSTRATIVES = frozenset("this that these those the its their his her your my our".split())
# Words that end the entity phrase: the generic boundaries, "off"/"near"-like place prepositions and
# a topic's "about" ("podcasts about history"); and words of time ("wait times every hour").
_ENTITY_STOP, _TIME_WORDS = (
    BOUNDARY_WORDS
    | set("off near around throughout along outside inside about regarding concerning".split()),
    frozenset("per last past next previous this today yesterday daily weekly monthly hourly".split()),
)
_PARTICIPLE = re.compile(r"[a-z]{3,}(?<!e)(?<!us)ed")  # granted, filed, decided; not "used", "breed"
# Irregular past participles that end a noun phrase like the regular ones ("bridges built before 1900").
_IRREGULAR_PARTICIPLES = frozenset(
    """built made written taken won born drawn grown begun driven sung sold held bought brought caught
    taught paid spent sent told worn chosen frozen stolen broken spoken hidden ridden risen fallen flown
    thrown blown shown seen given known kept lost left""".split()
)


def _is_participle(word: str) -> bool:
    """A past participle, regular or not: it ends a noun phrase ("bridges built before 1900")."""
    return bool(_PARTICIPLE.fullmatch(word)) or word in _IRREGULAR_PARTICIPLES


_ADJECTIVES = frozenset(
    "open public private new old free official raw large small big national local global annual".split()
)
_TAIL_CONTAINERS = frozenset(
    "table tables list lists dataset datasets database csv spreadsheet directory index catalog catalogue".split()
)
_LEAD = re.compile(
    # "For my thesis I need ...": a purpose before the wish
    r"^(?:(?:please|kindly|hey|hi|ok|so|now)[,\s]+)*(?:for\s+(?:my|our|a|an|this|some)\s+[a-z]+(?:\s+[a-z]+)?,?\s+(?=(?:i|we)\b))?"
    r"(?:(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+)?)?"
    r"(?:(?:can|could|may)\s+(?:i|we)\s+(?:please\s+)?(?:have|get|see|obtain)\s+)?"
    r"(?:(?:is|would)\s+it\s+(?:be\s+)?possible\s+(?:for\s+(?:you|me|us)\s+)?to\s+(?:have|get|see|collect|scrape|download|build|compile|gather|pull|fetch|extract|make|create)\s+)?"
    r"(?:(?:(?:i|we)\s*(?:would like|['’]d like|need|want|wish|(?:am|are|['’]m|['’]re)\s+(?:looking for|after))|looking for)\s+(?:to\s+(?:have|get|see|collect|scrape|download|build|compile|gather|track|monitor|pull|fetch|extract)\s+)?)?",
    re.I,
)


# A finite verb never belongs to a noun phrase: "Which dams are taller ...", "the permits that have ...".
_FINITE = frozenset(
    "are is were was have has had do does did can could will would should may might must".split()
)
# Particles and adverbs that open a post-modifier after a plural head: "cats up for adoption",
# "programming languages first released after 2010", "stations currently open".
_POST_PARTICLES = frozenset(
    "up out first still currently now recently already ever also newly originally initially".split()
)
# A leading scope clause before the request: "In Q1 2024, which ...", "From this results page, collect
# ...". One that counts the records ("For each park in Canada, I want ...") names them instead.
_SCOPE_CLAUSE = re.compile(
    r"^(?:in|during|for|from|since|over|across|throughout|within|on)\s+"
    r"(?![^,;:?]*\b(?:each|every|all)\b)[^,;:?]{1,60}?,\s+(?=\S)",
    re.I,
)
# A named source opening the request before its verb: "From https://... get every island with ...".
_SOURCE_LEAD = re.compile(
    r"^(?:from|on|at)\s+the site\s+(?=(?:" + "|".join(sorted(REQUEST_VERBS)) + r")\b)", re.I
)
# An opening before the request: a cadence ("Every Friday I want ...", "Every 15 minutes, grab ...") or a
# purpose ("To benchmark our rates I want ...", "I'm planning an offsite, so I need ..."); the wish follows.
_WISH = r"(?:i|we)\s*(?:would like|['’]d like|need|want|wish)\b"
_OPENING = re.compile(
    r"^(?:(?:(?:every|each)\s+(?:other\s+)?(?:\d+\s+)?(?:weekday|business day|working day|day|morning|night|"
    r"evening|hour|minute|week|month|quarter|year|(?:mon|tues|wednes|thurs|fri|satur|sun)day)s?"
    r"|(?:once|twice)\s+(?:a|per)\s+(?:day|week|month|hour)|daily|nightly|hourly|weekly|monthly)"
    r"\s*,?\s+(?=(?:i|we|please|" + "|".join(sorted(REQUEST_VERBS)) + r")\b)"
    r"|to\s+[a-z]+\s+[^,;:?]{1,80}?,?\s+(?=" + _WISH + r")"
    # ("I'm planning a road trip, so collect ...": the request may follow as an imperative)
    r"|(?:i|we)\s*['’](?:m|re)\s+[a-z]+ing\b[^,;:?]{0,80},\s+(?:so\s+|and\s+)?(?="
    + _WISH
    + r"|(?:please\s+)?(?:"
    + "|".join(sorted(REQUEST_VERBS))
    + r")\b))",
    re.I,
)
# "Turn this search result into a dataset of titles": the records are named after the container.
_INTO_CONTAINER = re.compile(
    r"^[a-z]+\s+[^,;:]{0,80}?\binto\s+(?:a|an|the|one)\s+(?:[a-z]+\s+)?(?P<c>[a-z]+)\s+of\s+(?P<rest>.+)",
    re.I,
)


# "Scrape the site for every coworking space", "Check this page for all the hotels": a verb, the site or
# page searched, then the counted records.
_SEARCHED_SITE = re.compile(
    r"^(?:[a-z]+\s+)?(?:the|this|that|its|their|our)\s+(?:web\s?site|site|page|portal)s?\s+for\s+"
    r"(?=(?:every|each|all|any)\b)",
    re.I,
)


def _entity(t: str, field_start: int | None, fields_first: bool) -> tuple[str | None, list[str]]:
    """The entity noun phrase (singular) and any field words written before it ("names and prices of
    all products" → product, [name, price])."""
    s = _LEAD.sub("", t.strip())
    # "From https://... get every island" (a source, then the request without a comma), "In Q1 2024,
    # which ..." (a leading scope clause): the request starts after them
    for rx in () if fields_first else (_OPENING, _SOURCE_LEAD, _SCOPE_CLAUSE):
        if lead := rx.match(s):
            s = _LEAD.sub("", s[lead.end() :])
            field_start = None if field_start is None else field_start - (len(t) - len(s))
            field_start = None if field_start is not None and field_start < 0 else field_start
            t = s
    if (into := _INTO_CONTAINER.match(s)) and into.group("c").lower() in CONTAINER_NOUNS:
        return _entity(into.group("rest"), None, True)
    if searched := _SEARCHED_SITE.match(s):
        # "Scrape the site for every coworking space ...": the site is where to look, the records follow
        return _entity(s[searched.end() :], None, True)
    s = re.sub(r"^(?:only\s+)?(?:the\s+)?first\s+page\s+(?:only\s+)?(?:of\s+)?", "", s, flags=re.I)
    toks = [m for m in _WORDS.finditer(s)]
    i = 0
    if (
        not fields_first
        and len(toks) > 2
        and toks[0].group(0).isalpha()
        and toks[0].group(0).lower() not in LEAD_MODIFIERS | REQUEST_VERBS | _DETERMINERS
        and toks[1].group(0).lower() in ("every", "each", "all", "the", "a", "an", "any", "me", "us")
    ):
        i = 1  # "Provide a table of ...", "Name every stadium ...": an imperative verb before its object
    seen_det = counted = False
    # Skip request verbs (until a determiner: "the make and model of ..."), pronouns and quantifiers.
    while i < len(toks):
        lw = toks[i].group(0).lower()
        if lw in REQUEST_VERBS and not seen_det:
            i += 1
        elif (
            lw in LEAD_MODIFIERS
            or lw in ("me", "us", "up", "out", "down", "together", "off", "through")
            or re.fullmatch(r"\d+|top|first|latest|newest|most|recent|last|up-to-date", lw)
            # "Top ten at the box office": a number word after "top" counts the records, it is none
            or (lw in NUMBER_WORDS and i > 0 and toks[i - 1].group(0).lower() == "top")
        ):
            seen_det = seen_det or lw in _DETERMINERS
            counted = counted or lw in ("every", "each", "all", "any")
            i += 1
        else:
            break
    words: list[str] = []
    start = toks[i].start() if i < len(toks) else len(s)
    possessed = False
    for tok in toks[i:]:
        w = tok.group(0)
        lw = w.lower()
        if (
            lw.endswith(("'s", "’s"))
            and len(lw) > 2
            and ((not words and seen_det) or (len(words) == 1 and words[0].lower() in _DEMONSTRATIVES))
        ):
            # "this podcast's 2011 episodes", "the museum's paintings": a possessor with its determiner
            # is a determiner; the records follow it (a year after it dates them)
            words, possessed = [], True
            continue
        if possessed and not words and re.fullmatch(_YEAR, lw):
            continue
        if (
            not words
            and lw in BOUNDARY_WORDS
            and (_PARTICIPLE.fullmatch(lw) or lw == "available")
            and re.match(r"\s+[a-z]{3,}\b", s[tok.end() :])
            and s[tok.end() :].split(None, 1)[0].lower() not in _ENTITY_STOP | _DETERMINERS
        ):
            continue  # "every registered charity", "all listed hotels": a modifier before the noun
        if lw in _ENTITY_STOP or lw in (",", ";", ":", "(", ")") or re.fullmatch(_YEAR + r".*", lw):
            break
        if words and lw in _VERB_FIELDS and re.match(rf"\s+(?:{_CMP}|\d)", s[tok.end() :], re.I):
            break  # "vaccines cost less than 50 dollars"
        if words and lw in _FINITE:
            break  # "dams are taller than 150 m", "permits have a value over ..."
        if words and lw in _POST_PARTICLES and singular(words[-1].lower()) != words[-1].lower():
            break  # "cats up for adoption", "languages first released after 2010"
        if (
            words
            and _PARTICIPLE.fullmatch(lw)
            and singular(words[-1].lower()) == words[-1].lower()
            and (nxt := re.match(r"\s+([a-z]{3,})\b", s[tok.end() :]))
            and nxt.group(1) not in _ENTITY_STOP | _DETERMINERS | _TIME_WORDS | _FINITE | _POST_PARTICLES
            and not nxt.group(1).endswith("ly")
            and not _PARTICIPLE.fullmatch(nxt.group(1))
        ):
            # "every 30-year fixed mortgage offer": a participle between a modifier and its noun
            words.append(w)
            continue
        if words and (lw in _DETERMINERS or lw in _TIME_WORDS or _is_participle(lw)):
            break  # "movies released in 2023", "wait times every hour", "bridges built before 1900"
        if words and lw in ("you", "we", "they", "i", "one"):
            break  # "papers you can find": a relative clause
        if words and re.match(r"\s+than\b", s[tok.end() :], re.I):
            break  # "hiking trails longer than 10 km"
        if words and lw.endswith("ing") and len(lw) > 4 and lw not in ING_NOUNS:
            nxt = s[tok.end() :].split(None, 1)
            if nxt and (
                nxt[0].lower() in _DETERMINERS or nxt[0].lower() in BOUNDARY_WORDS or nxt[0][:1].isdigit()
            ):
                break  # "patents citing the transistor", "cameras weighing less than 500 g"
        if field_start is not None and tok.start() >= field_start - (len(t) - len(s)):
            break
        words.append(w)
    # "members of parliament", "points of interest": a plural head, "of", a bare singular noun
    if words and words[-1].lower().endswith("s") and singular(words[-1].lower()) != words[-1].lower():
        k = len(words) + i
        if k + 1 < len(toks) and toks[k].group(0).lower() == "of":
            w2 = toks[k + 1].group(0)
            after = toks[k + 2].group(0).lower() if k + 2 < len(toks) else ""
            if (
                w2.islower()
                and singular(w2) == w2
                and w2 not in _ENTITY_STOP | LEAD_MODIFIERS | _DETERMINERS | REQUEST_VERBS
                and w2 not in FIELD_WORDS
                and (not after or after in _ENTITY_STOP or after in (",", ";", ":", "("))
                and not _CMP_AHEAD.match(s, toks[k + 1].end())  # "routes of grade at least 5"
                and (field_start is None or toks[k + 1].end() <= field_start - (len(t) - len(s)))
            ):
                words = [*words, "of", w2]
    lead_fields: list[str] = []
    rest = s[start:]
    # "the names and prices of all products", "name, team and height of every player"
    m = re.match(
        r"(?:the\s+|their\s+)?(?P<fields>[\w'’ ,&/-]+?)\s+(?:of|for)\s+(?:(?:all|every|each|the|any|these|those)\s+)+(?P<rest>.+)",
        rest,
        re.I,
    )
    if m:
        cand = _split_list(m.group("fields"))
        if (
            cand
            and (
                len(cand) > 1
                or singular(cand[0].split()[-1].lower()) in FIELD_WORDS
                or ALL_FIELDS.fullmatch("all " + cand[0].lower())
                or ALL_FIELDS.match("every " + cand[0].lower())
            )
            and not any(c.lower() in CONTAINER_NOUNS for c in cand)
            # "reviews of the app Duolingo": a common noun giving a name is no records of which to list fields
            and not (len(cand) == 1 and re.match(r"[a-z]{3,}\s+[A-Z]", m.group("rest")))
            # "the daily gold prices for the last 30 days": a time window, not the records
            and not re.match(
                r"(?:the\s+)?(?:last|past|next|previous|coming|first)\s+(?:\d+\s+|few\s+|"
                + _NUM
                + r"\s+)?"
                + _UNIT
                + r"\b",
                m.group("rest").lstrip(),
                re.I,
            )
        ):
            sub, _ = _entity(m.group("rest"), None, True)
            if sub not in (None, "one", "them", "it"):
                # "every column the site has for the asteroids": all columns, of the records named after "for"
                return sub, [] if ALL_FIELDS.match("every " + cand[0].lower()) else cand
            # "..., giving title and year for each one": the entity came first, the fields follow
    # "a list of X", "the table of X", "data on X", "information about X"
    m = re.match(
        r"(?:(?:a|an|the|one|complete|full|comprehensive|big|clean|simple|single)\s+)*(?P<c>[a-z]+)\s+(?P<prep>of|on|about|for)\s+(?P<rest>.+)",
        rest,
        re.I,
    )
    if (
        m
        and (m.group("c").lower() in CONTAINER_NOUNS or m.group("c").lower() in GENERIC_TAILS)
        # "every dataset on https://...", "the tables on the site": counted containers are the
        # records themselves when "on" says where they are, not what they hold
        and not (
            m.group("prep").lower() == "on"
            and _SITE_OBJECT.match(m.group("rest"))
            and m.group("c").lower() not in _VAGUE
            and (counted or singular(m.group("c").lower()) != m.group("c").lower())
        )
    ):
        return _entity(m.group("rest"), None, True)
    # "product names and prices" → entity "product", fields name, price
    if not fields_first:
        mm = re.match(
            r"(?P<np>[\w'’ -]+?)\s+(?P<f1>[a-z]+)\s*(?:,|\band\b|&)\s*(?P<more>[\w'’ ,&-]+)", rest, re.I
        )
        # "the daily closing price and volume": a word qualifying the field is no record noun; the
        # phrase is the records and the list its fields only when named values follow ("for TSLA")
        rate = r"daily|weekly|monthly|hourly|yearly|annual"
        qualified = mm and re.search(rf"(?<!\w)(?:[a-z]{{3,}}ing|{rate})$", mm.group("np").lower())
        if (
            mm
            and singular(mm.group("f1").lower()) in FIELD_WORDS
            and not any(w.lower() in BOUNDARY_WORDS for w in mm.group("np").split())
            and (not qualified or re.match(r"[\w'’ ,&-]*?\s+for\s+[A-Z]", mm.group("more")))
        ):
            np_words = mm.group("np").split()
            tail = _phrase_after(mm.group("more"), 0)
            more = _split_list(tail)
            if (
                more
                and all(len(x.split()) <= 3 for x in more)
                and not any(w.lower() in LEAD_MODIFIERS for w in np_words[:1])
            ):
                head = [w for w in np_words if w.lower() not in LEAD_MODIFIERS]
                if head and all(w.lower() not in REQUEST_VERBS for w in head):
                    if qualified:  # the phrase names the records, its field words the first field
                        f1 = " ".join(w for w in [*head, mm.group("f1")] if not re.fullmatch(rate, w, re.I))
                        return _noun([*head, mm.group("f1")]), [f1, *more]
                    return _noun(head), [mm.group("f1")] + more
    return _noun(words), lead_fields


# The object of "on" that is a site, not a topic (a named source reads "the site", see _find_sources).
_SITE_OBJECT = re.compile(
    r"(?:the|this|that|our|their|its|a|an)\s+(?:[\w'’.-]+\s+){0,3}?(?:web\s?site|site|page|portal|api|feed)s?\b",
    re.I,
)
# Words that name no kind of record, alone (a countable container such as "dataset" does).
_VAGUE = (GENERIC_TAILS - {"dataset"}) | {
    "stats",
    "statistics",
    "stuff",
    "things",
    "it",
    "them",
    "this",
    "that",
}


def _noun(words: list[str]) -> str | None:
    if len(words) >= 3 and words[-2].lower() == "of":  # "members of parliament" → "member of parliament"
        head = _noun(words[:-2])
        return f"{head} of {words[-1].lower()}" if head else None
    ws = [w for w in words if w.lower() not in LEAD_MODIFIERS and not re.fullmatch(r"\d+", w)]
    while (
        len(ws) > 1
        and (ws[-1].lower() in GENERIC_TAILS or ws[-1].lower() in _TAIL_CONTAINERS)
        and ws[-2].lower() not in _ADJECTIVES
    ):
        ws.pop()
    while ws and ws[0].lower() in REQUEST_VERBS:
        ws.pop(0)
    ws = [w.strip("'’") for w in ws if w.strip("'’")]
    ws = [w.rstrip(".") if w.count(".") == 1 else w for w in ws]  # "movies." at the sentence end
    ws = [w for w in ws if w]
    if not ws or all(w.lower() in _VAGUE for w in ws) or ws[-1].lower() in ("stats", "stuff", "things"):
        return None  # "Collect stats", "Chicago stats": no kind of record named
    phrase = [w.lower() if not w.isupper() or len(w) == 1 else w for w in ws]
    phrase[-1] = singular(ws[-1]) if not ws[-1].isupper() else ws[-1]  # "GPUs" -> gpu
    return " ".join(phrase)


# ---------------------------------------------------------------- coverage, cadence

_WEEKDAYS = {d.lower(): i for i, d in enumerate(calendar.day_name)}


def _coverage(lo: str) -> str:
    if m := re.search(r"\btop[- ](\d+|" + "|".join(NUMBER_WORDS) + r")\b", lo):
        return f"top {_n(m.group(1))}"
    if re.search(r"\b(?:only (?:the )?first page|first page only|just the first page|the first page)\b", lo):
        return "first page"
    if m := re.search(
        r"\b(?:first|latest|newest|last|most recent)\s+(\d+)\b(?!\s*(?:days?|weeks?|months?|years?|seasons?))",
        lo,
    ):
        return f"first {m.group(1)}" if m.group(0).startswith("first") else f"latest {m.group(1)}"
    if m := re.search(r"\b(?:a\s+)?(?:random\s+)?sample of (\d+)\b", lo):
        return f"sample {m.group(1)}"
    if m := re.search(r"\b(\d+)\s+(?:most recent|latest|newest)\b", lo):
        return f"latest {m.group(1)}"
    return "all"


_CADENCE = re.compile(
    r"\b(?:(?:every|each)\s+(?:other\s+)?(?:\d+\s+)?(?:weekday|business day|working day|day|morning|night|evening|"
    r"hour|minute|week|month|quarter|(?:mon|tues|wednes|thurs|fri|satur|sun)day)s?\b"
    r"|(?:on\s+)?(?:the\s+)?(?:(?:first|second|third|fourth|fifth|last|\d{1,2}(?:st|nd|rd|th))(?:\s*(?:,|and|&)\s*(?:the\s+)?)?)+"
    r"(?: day)? of (?:every|each|the) month\b"
    r"|on weekdays\b|after (?:the )?market close\b|after the close\b|biweekly\b|fortnightly\b"
    r"|(?:once|twice|three times) (?:a|per) (?:day|week|month|hour)\b"
    r"|(?:daily|nightly|hourly|weekly|monthly|quarterly)\b(?=\s*(?:$|[.,;!]|at\b|after\b|before\b|around\b|"
    r"from now\b|going forward\b|and\b|on\b|in the\b|until\b)))",
    re.I,
)


def _cadence(t: str) -> Cadence | None:
    m = _CADENCE.search(t)
    if not m:
        return None
    # Exclude scopes that read like cadences: "every season", "each team" are not matched by design;
    # "each day of 2024" is a scope, not a schedule.
    if re.match(r"\s+(?:of|in)\s+" + _YEAR, t[m.end() :]):
        return None
    tail = re.match(
        r"[^.;!?]*?(?=\s+(?:and\s+(?:save|store|land|load|put|write)|into|to a|to the|as csv|as json)\b|[.;!?]|$)",
        t[m.end() :],
    )
    phrase = (t[m.start() : m.end() + (tail.end() if tail else 0)]).strip(" ,")
    lo = phrase.lower()
    hh, mm = 0, 0
    tz = None
    if tm := re.search(
        r"\bat\s+(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?(?:\s*(utc|gmt|cet|cest|est|edt|pst|pdt|et|pt))?",
        lo,
    ):
        hh, mm = int(tm.group(1)), int(tm.group(2) or 0)
        if tm.group(3) and tm.group(3).startswith("p") and hh < 12:
            hh += 12
        if tm.group(3) and tm.group(3).startswith("a") and hh == 12:
            hh = 0
        tz = (tm.group(4) or "").upper() or None
    elif re.search(r"\b(?:noon|midday)\b", lo):
        hh = 12
    elif re.search(r"\bafter (?:the )?market close\b", lo):
        hh, mm, tz = 17, 30, "America/New_York"  # as the deployment schedule reads it
    elif re.search(r"\bmidnight\b", lo):
        hh = 0
    cron = None
    if (n := re.search(r"every (\d+) minutes?", lo)) is not None:
        cron = f"*/{n.group(1)} * * * *"
    elif (n := re.search(r"every (\d+) hours?", lo)) is not None:
        cron = f"{mm} */{n.group(1)} * * *"
    elif re.search(r"\b(?:hourly|every hour|each hour)\b", lo):
        cron = f"{mm} * * * *"
    elif re.search(r"\b(?:weekday|business day|working day)s?\b", lo):
        cron = f"{mm} {hh} * * 1-5"
    elif (d := re.search(r"\b(mon|tues|wednes|thurs|fri|satur|sun)days?\b", lo)) is not None:
        idx = [k for k in _WEEKDAYS if k.startswith(d.group(1))][0]
        cron = f"{mm} {hh} * * {(_WEEKDAYS[idx] + 1) % 7}"
    elif re.search(r"\b(?:weekly|every week|each week|once a week)\b", lo):
        cron = f"{mm} {hh} * * 1"
    elif (
        d := re.search(
            r"((?:\b(?:first|second|third|fourth|fifth|last|\d{1,2})(?:st|nd|rd|th)?\W*(?:and\W+|the\W+)*)+)(?:day )?of (?:every|each|the) month",
            lo,
        )
    ) is not None:
        words = {"first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5", "last": "L"}
        days = [
            words.get(x, x) for x in re.findall(r"first|second|third|fourth|fifth|last|\d{1,2}", d.group(1))
        ]
        cron = f"{mm} {hh} {','.join(days)} * *" if "L" not in days else None
    elif re.search(r"\bafter (?:the )?(?:market )?close\b", lo):
        cron = f"{mm} {hh} * * 1-5"
    elif re.search(r"\b(?:monthly|every month|each month|once a month)\b", lo):
        cron = f"{mm} {hh} 1 * *"
    elif re.search(
        r"\b(?:daily|nightly|every day|each day|every morning|every night|every evening|once a day)\b", lo
    ):
        for word, hour in (("night", 2), ("morning", 6), ("evening", 18)):
            hh = hour if word in lo and not re.search(r"\bat\b", lo) else hh
        cron = f"{mm} {hh} * * *"
    elif re.search(r"\btwice a day\b", lo):
        cron = f"{mm} {hh},{(hh + 12) % 24} * * *"
    return Cadence(phrase=phrase, cron=cron, timezone=tz)


# ---------------------------------------------------------------- the parser


_OR_BOUND = r"or\s+(?:more|higher|greater|above|over|better|less|fewer|lower|below|under)"
_OR_MORE = re.compile(
    r"(?:\b(?P<label>[A-Z][a-z]+)\s+)?\b(?P<n>\d[\d,]*(?:\.\d+)?(?:\s?%)?)(?P<unit>\s+[a-z]+)?\s+or\s+(?P<dir>more|higher|greater|above|over|better|less|fewer|lower|below|under)\b",
    re.I,
)


_QUESTION = re.compile(
    r"^(?P<scope>(?:in|during|for|since|over|across|throughout|within)\s+[^,?]{1,60},\s+)?"
    r"(?:(?:and|so|ok|hey)[,\s]+)?(?:which|what|how\s+many|(?:are|is)\s+there(?:\s+any)?)\s+"
    r"(?:(?:are|were|is|was)\s+)?(?:(?:the|all(?:\s+the)?|a|an)\s+)?"
    r"(?P<body>[^?]{3,}?)\s*\?\s*(?P<tail>.*)$",
    re.I,
)
_QUESTION_VERB = re.compile(r"^(?P<np>.+?)\s+(?:have|has|had|hold|holds|carry|carries)\s+(?=\S)", re.I)
_TAIL_LEAD = re.compile(
    r"^(?:(?:please|and|also|then|so)[,\s]+)*"
    r"(?:(?:(?:i|we)\s*(?:would like|['’]d like|need|want)|give|list|show|send|get|include|return|add)"
    r"(?:\s+(?:me|us))?(?:\s+(?:to\s+)?(?:see|get|have|know))?\s+)?(?:(?:the|their|its|his|her)\s+)?",
    re.I,
)


# A question whose verb follows its question word names no records ("What's leaving soon?", "How did
# each delegate vote ...?"): the records are the ones it or the sentence after it counts ("each delegate",
# "For each departure give ...").
_VERB_QUESTION = re.compile(
    r"^(?:what(?:['’]s|\s+(?:is|are|was|were)(?=\s+[a-z]+ing\b))|how\s+(?:(?:many|much)\s+[a-z]+\s+)?"
    r"(?:did|do|does|will|would|is|are|was|were))\s+(?P<body>[^?]+)\?\s*(?P<tail>.*)$",
    re.I,
)
_COUNTED_RECORDS = re.compile(r"\b(?:each|every)\s+(?P<n>[a-z]{3,})\b(?!-)")
_COUNTED_NOT_RECORDS = frozenset(
    "day week month year hour minute second season quarter time one other".split()
)


def _verb_question(t: str) -> str | None:
    m = _VERB_QUESTION.match(t)
    if m is None:
        return None
    body, tail = m.group("body").strip(), m.group("tail").strip()
    body = re.sub(r"^[a-z]{2,}ing\s+", "", body, flags=re.I)  # "What is showing tonight?": the verb
    for part in (body, tail):
        for c in _COUNTED_RECORDS.finditer(part):
            n = c.group("n").lower()
            if singular(n) in _COUNTED_NOT_RECORDS or n in BOUNDARY_WORDS | _DETERMINERS | FIELD_WORDS:
                continue
            return f"every {n}; {body}. {tail}".strip()
    return None


def _question(t: str) -> str:
    """ "Which charities have an income over 1 million? I need their name and website" → the request
    "charities with an income over 1 million, with name and website": a question names the records
    (its verb "have" introduces their features), and a field list may follow it as its own sentence."""
    if (counted := _verb_question(t)) is not None:
        return counted
    m = _QUESTION.match(t)
    if m is None:
        return t
    body = m.group("body").strip()
    # "What lighthouses are there in Norway?": the existential "there" adds nothing
    # "How many vegan restaurants are in Berlin?": the copula before a place adds nothing either
    body = re.sub(
        # "Which peaks in the Alps are higher than 4000 m?": nor the copula before a comparison
        r"^(?P<np>.+?)\s+(?:are|is|were|was)(?:\s+there\b|(?=\s+(?:in|on|at|near|around|listed|available)\b)"
        r"|(?=\s+(?:[a-z]+er|more|less|fewer)\s+than\b))\s*",
        r"\g<np> ",
        body,
        count=1,
        flags=re.I,
    ).strip()
    if v := _QUESTION_VERB.match(body):
        body = f"{v.group('np')} with {body[v.end() :]}"
    else:
        # "What food festivals take place in Texas?": the first plural noun heads the records and a
        # bare word after it is the question's verb ("... festivals that take place in Texas")
        ws = body.split(" ")
        for k, w in enumerate(ws[:-1]):
            lw, nxt = w.lower(), ws[k + 1]
            if not (w.isalpha() and w.islower()) or lw in BOUNDARY_WORDS or lw in _DETERMINERS:
                continue
            if singular(lw) != lw:
                if (
                    nxt.isalpha()
                    and nxt.islower()
                    and singular(nxt) == nxt
                    and nxt not in BOUNDARY_WORDS | _DETERMINERS | _FINITE | _POST_PARTICLES
                    and nxt not in FIELD_WORDS
                    and not _is_participle(nxt)
                    and not (len(nxt) > 4 and nxt.endswith(("ing", "ly")))  # "airlines fly to ..."
                ):
                    body = " ".join([*ws[: k + 1], "that", *ws[k + 1 :]])
                break
    scope = m.group("scope") or ""
    tail = m.group("tail").strip()
    cut = re.sub(
        r"(?:[,\s]+(?:please|thanks|thank you))+[.!]?$|[.!]$", "", _TAIL_LEAD.sub("", tail), flags=re.I
    )
    items = _split_list(cut) if cut else []
    if (
        items
        and _short_names(items)
        and (len(items) > 1 or singular(items[0].split()[-1].lower()) in FIELD_WORDS)
    ):
        return f"{scope}{body}, with {cut}"
    return f"{scope}{body}. {tail}" if tail else f"{scope}{body}"


# A self-correction: "with price, sorry, with list price and rating", "... with name and address, no
# wait, with name, address and ticket price": what the marker takes back is dropped, the restart kept.
_CORRECTION = r"(?:sorry|no,?\s+wait|wait|i mean|or rather|rather|make that|scratch that|correction|actually)"
_RESTARTED_LIST = re.compile(
    r"\b(?P<trig>with|including|listing|giving|showing)\b[^.;:!?]*?,\s*"
    + _CORRECTION
    + r"\s*,\s*(?=(?P=trig)\b)",
    re.I,
)
# "Scrape the lyrics pages on <site>? No - the songs, with ...": the answer replaces the records asked.
_RESTARTED_RECORDS = re.compile(
    r"^(?P<verb>[A-Za-z]+)\s+[^?]*\?\s*no\s*[,:]?\s*(?=(?:the|all|every|each)\s)", re.I
)


# "..., peak chart position in Norway, Sweden and the UK, and the album": places after a field item of
# a list qualify that field (one field per place), they scope no records. The space before the field's
# "in" becomes _GLUE, so that neither the list's clause end nor the location rule reads it.
_GLUE = "\ue000"
_PLACE_FIELDS = re.compile(
    r"(?<=[,:]\s)(?P<field>[a-z]+(?:\s+[a-z]+){0,3})\s+in\s+(?P<places>"
    + _PLACE
    + r"(?:(?:\s*,\s*|\s+and\s+)"
    + _PLACE
    + r")+)(?=\s*(?:,|\band\b|[.;!?]|$))"
)


def _place_fields(t: str) -> str:
    def spread(m: re.Match[str]) -> str:
        before = t[: m.start()]
        if (
            not re.search(r"[,:]\s*[a-z][\w'’ -]*,\s*$", before)
            or set(m.group("field").split()) & BOUNDARY_WORDS
        ):
            return m.group(0)  # an item of a list only, after another item
        places = [re.sub(r"^the\s+", "", p) for p in re.split(r"\s*,\s*|\s+and\s+", m.group("places"))]
        return ", ".join(f"{m.group('field')}{_GLUE}in {p}" for p in places)

    return _PLACE_FIELDS.sub(spread, t)


def _self_corrected(t: str) -> str:
    t = _RESTARTED_LIST.sub("", t)
    return _RESTARTED_RECORDS.sub(lambda m: m.group("verb") + " ", t, count=1)


# Brackets closing an item of a field list that name fields: "the goals scored by each (home goals, away
# goals)" enumerates the fields meant; "who started it (author)" names the field a clause describes;
# "batting average (AVG)" gives the field's other name (its column's label), kept as an alias.
_ITEM_END = r"(?=\s*(?:,|\band\b|\bor\b|[.;!?]|$))"
_ITEM_WORD = r"(?:(?!(?:and|or)\b)[a-z][\w'’-]*)"
_BRACKET_LIST = re.compile(
    r"(?:(?<=[,:]\s)|(?<=\band\s))(?P<item>(?:and\s+)?(?:the\s+)?"
    + _ITEM_WORD
    + r"(?:\s+"
    + _ITEM_WORD
    + r"){0,8})"
    r"\s*\((?P<list>[A-Za-z][\w'’ -]*(?:,\s*(?:and\s+)?[A-Za-z][\w'’ -]*)+)\)" + _ITEM_END
)
_BRACKET_CLAUSE = re.compile(
    r"\b(?:who|what|which|when|where|how|whether)\s+[a-z][\w'’ ]{0,40}?\s*\((?P<name>[A-Za-z][\w.-]*"
    r"(?:\s+[A-Za-z][\w.-]*){0,2})\)" + _ITEM_END,
    re.I,
)
_BRACKET_ALIAS = re.compile(
    r"(?P<item>\b[A-Za-z][\w'’-]*(?:\s+[A-Za-z][\w'’-]*){0,3})\s*\((?P<name>[A-Za-z][\w.-]*(?:\s+[A-Za-z][\w.-]*)"
    r"{0,2})\)" + _ITEM_END
)
_NOT_A_NAME = frozenset("or and if for the a an to of e.g i.e etc".split())


def _bracketed_names(raw: str) -> str:
    def listed(m: re.Match[str]) -> str:
        names = _split_list(m.group("list"), clean=False)
        if len(names) < 2 or not _short_names([n.strip() for n in names]):
            return m.group(0)
        lead = "and " if m.group("item").startswith("and ") else ""
        return lead + ", ".join(n.strip() for n in names)

    def named(m: re.Match[str]) -> str:
        name = m.group("name")
        if set(name.lower().split()) & _NOT_A_NAME or re.fullmatch(_READ_IN_UNIT, name, re.I):
            return m.group(0)
        return name

    def alias(m: re.Match[str]) -> str:
        name = m.group("name")
        if set(name.lower().split()) & _NOT_A_NAME or re.fullmatch(_READ_IN_UNIT, name, re.I):
            return m.group(0)
        words = m.group("item").split()
        for k in range(1, len(words) + 1):
            _ALIASES.setdefault(normalize_name(" ".join(words[-k:])), name)
        return m.group("item")

    raw = _BRACKET_LIST.sub(listed, raw)
    raw = _BRACKET_CLAUSE.sub(named, raw)
    return _BRACKET_ALIAS.sub(alias, raw)


def _clean(text: str) -> str:
    raw = unicodedata.normalize("NFC", text or "")
    # "on https://... — name, founders, website": a dash before a list closing the sentence opens it
    # like a colon; a spaced hyphen or en dash between words too ("10 - 20", "$5 - $10" stay ranges)
    # ("between 3 and 5 - name, brand", "NeurIPS 2022 - title, authors": a range needs a number after)
    # "MLB team pitching stats — ERA, WHIP and saves — for the Braves": a pair of dashes around a list
    # brackets it
    raw = re.sub(r"\s+[—―]\s+([^—―()]+?,[^—―()]+?)\s+[—―]\s+", r" (\1) ", raw)
    dash = r"(?:\s+[—―]\s+|(?<=[\w)])\s+[-–]\s+(?=[^\W\d]))"
    raw = re.sub(dash + r"(?=[^,;:.!?—―]+(?:,[^,;:.!?—―]+)+[.!?]?\s*$)", ": ", raw)
    raw = re.sub(r"\s+[—―]\s+", ", ", raw)  # "papers — fields: ...": a clause break, not a range
    raw = re.sub(r"(?<=[^\W\d)])\s+[-–]\s+(?=[^\W\d])", ", ", raw)
    raw = _bracketed_names(raw)
    # "price range ($ to $$$$) and neighborhood": a parenthesis inside a list is an aside
    raw = re.sub(r"(?<=\w)\s*\([^(),]*\)(?=\s*(?:,|\band\b|\bor\b))", "", raw)
    # "a rating of 4 or more", "500 or fewer beds": the bound written after its number
    # ("4 stars or more" → "at least 4 stars"; "Grade 5 or higher" → "grade at least 5": a capitalised
    # word before the number labels it, the field compared)
    raw = _OR_MORE.sub(
        lambda m: (
            f"{(m.group('label') or '').lower()} "
            + (
                "at most "
                if m.group("dir").lower() in ("less", "fewer", "lower", "below", "under")
                else "at least "
            )
            + m.group("n")
            + (m.group("unit") or "")
        ),
        raw,
    )
    return re.sub(r"\s+", " ", raw.replace("–", "-").replace("—", "-").replace("‐", "-")).strip()


def parse_request(
    text: str,
    *,
    fields: list[str] | None = None,
    schema: list[tuple[str, str | None]] | None = None,
    today: date | None = None,
    sources: list[str] | None = None,
    _site_names: tuple[str, ...] = (),
) -> Request:
    """Read one instruction. ``fields`` (``--fields``) and ``schema`` (``--schema``: names with optional
    types) win over the sentence; ``today`` anchors relative ranges ("since 2019", "last 30 days");
    ``sources`` (``--source``) are sources as much as the URLs the sentence names."""
    today = today or date.today()
    given = sources
    raw = unicodedata.normalize("NFC", text or "")
    req = Request(text=raw)
    _ALIASES.clear()
    t0 = _clean(raw)
    if not t0:
        req.unresolved.append("the instruction is empty: what should be collected?")
        return req
    named, t = _find_sources(t0)
    from prefect_autodata.agents.sites import possessive_owner, read_sites  # sites named by name

    named, t = read_sites(t, [*named, *_site_names], sources, req.unresolved)
    t = _place_fields(_question(_self_corrected(t)))
    sources = list(dict.fromkeys([*named, *(s for s in sources or [] if s)]))
    req.sources = sources
    mentions = _find_dates(t)
    ctx = Context(
        text=t, today=today, mentions=mentions, blocked=[m.span for m in mentions], has_source=bool(sources)
    )

    req.time_scope = _resolve_time(t, mentions, today, req)
    req.coverage = _coverage(t.lower())
    req.cadence = _cadence(t)
    blocked = [m.span for m in mentions]
    _ONLY.clear()
    _READ_UNITS.clear()
    filters, fspans = _find_filters(t, blocked)
    if lead := re.match(r"For\s+(?:the\s+)?(" + _FOR_VALUE + r"),\s+", t):
        # "For Action Thriller, can I get ...": a value to keep, then the request
        if lead.group(1).split()[0].lower() not in _MONTHS and not any(
            f.value == lead.group(1) for f in filters
        ):
            filters.append(Filter(field="*", op="eq", value=lead.group(1)))
            _ONLY.append(filters[-1])
        t = t[lead.end() :]
        t = t[:1].upper() + t[1:]
        blocked = [(a - lead.end(), b - lead.end()) for a, b in blocked if a >= lead.end()]
    only = list(_ONLY)
    said_fields, field_filters, all_fields, field_start = _find_fields(t, blocked)
    phrase, lead_fields = _entity(t, field_start, False)
    if phrase is None and said_fields and not all_fields:
        # "Top ten at the box office this weekend: movie title, ...": no records named but the first
        # field's, the noun its title or name belongs to
        own = re.fullmatch(r"(?:the\s+)?([a-z]{3,})\s+(?:title|name)", said_fields[0].strip().lower())
        if own and own.group(1) not in FIELD_WORDS | BOUNDARY_WORDS | _DETERMINERS:
            phrase = own.group(1)
    if lead_fields and not said_fields:
        said_fields = []
        for it in lead_fields:
            f = _comparison(it)
            if f:
                field_filters.append(f)
            else:
                said_fields.append(it)
    for f in field_filters:
        if not any(g.field == f.field and g.op == f.op for g in filters):
            filters.append(f)
    req.filters = [_one_of(f) for f in filters]
    req.all_fields = all_fields
    req.time_scope = _scope_not_a_field(t, mentions, today, req, said_fields)
    if phrase:
        words = phrase.split()
        if words[-1].islower() and (fixed := respelled_noun(words[-1])):
            # "dentsts in Leeds", "satelites launched ...": a record noun that is no English word is the
            # dictionary word it slips from
            words[-1] = fixed
            phrase = " ".join(words)
        last = words[-1] if words[-1].isupper() else plural(words[-1])  # an acronym stays as written
        req.entity = EntityName(singular=phrase, plural=" ".join([*words[:-1], last]))

    ctx.entity = phrase
    kind = kind_registry.detect(ctx)
    if kind is None and not _site_names and (owner := possessive_owner(t, phrase)):
        # "Cobalt Point's job postings": the records' owner of several capitalised words is the site
        return parse_request(
            text, fields=fields, schema=schema, today=today, sources=given, _site_names=(owner,)
        )
    if kind is not None:
        req.kind, req.domain = kind.name, kind.domain
        req.entity = EntityName(singular=kind.singular, plural=kind.plural)
        if not kind.location_filters:
            req.filters = [f for f in req.filters if f.field != "location"]
        before = len(req.filters)
        _refine_never_required(kind, req, ctx)
        if len([f for f in req.filters if f not in only]) > before - len(only):
            # the kind read the "X only" value as its own scope (a team, a ticker): keep its filter
            req.filters = [f for f in req.filters if f not in only]

    said_fields = [_respelled(x) for x in said_fields]
    req.fields = _choose_fields(req, kind, fields, schema, said_fields)
    _drop_field_words_as_values(req, said_fields)
    _compared_as_requested(req)
    if req.entity is None and not req.unresolved:
        req.unresolved.append(
            "cannot tell what records are wanted: which kind of record (e.g. 'every book on "
            "<url> with title, author and price')?"
        )
    if not sources and req.is_resolved and kind is None:
        req.assumptions.append(f"no source named: the web agent searches for {req.entity.plural}")
    if req.is_resolved:
        req.expected_size = kind.expected_size(req) if kind is not None else None
        if req.expected_size is not None and req.expected_size.rows <= 0:
            req.expected_size = None  # "66 weekdays × 0 tickers": no instrument named, no size known
        if req.expected_size is None and (m := re.match(r"(?:top|first|latest|sample) (\d+)$", req.coverage)):
            req.expected_size = ExpectedSize(
                rows=int(m.group(1)), basis=f"{req.coverage} requested (at most)"
            )
    return req


_COUNTED_TAILS = frozenset("count available total".split())


def _compared_as_requested(req: Request) -> None:
    """ "at least 30 vendors, with ... number of vendors", "more than 500 ratings (..., rating count)",
    "a hot desk price under 250 (..., hot desk price)": a comparison whose field words close one
    requested field's name (or open it before a word of counting: "rating count", "bikes available")
    compares that field; one with a field of its own name, or answered by several, is left."""
    names = [f.normalized for f in req.fields]
    keys = [[singular(w) for w in n.lower().split("_") if w] for n in names]
    for flt in req.filters:
        if flt.op not in ("ge", "le", "gt", "lt", "range") or flt.field in ("*", "location"):
            continue
        words = [singular(w) for w in flt.field.lower().split("_") if w]
        if not words or words in keys:
            continue
        n = len(words)
        hits = [
            name
            for name, key in zip(names, keys, strict=True)
            if len(key) > n and (key[-n:] == words or (key[:n] == words and set(key[n:]) <= _COUNTED_TAILS))
        ]
        if len(hits) == 1:
            flt.field = hits[0]


def _drop_field_words_as_values(req: Request, said: list[str]) -> None:
    """A word the user asked for as a field ("..., close and VOL") is not also a value to keep rows by:
    a membership filter loses such values, and a filter left with none is dropped (it would keep no row)."""
    words = {w.strip().lower() for w in [*said, *req.field_names]}
    kept = []
    for f in req.filters:
        if f.op == "in" and isinstance(f.value, list):
            vals = [v for v in f.value if not (isinstance(v, str) and v.strip().lower() in words)]
            if not vals:
                continue
            f = f.model_copy(update={"value": vals})
        elif f.op == "eq" and isinstance(f.value, str) and f.value.strip().lower() in words:
            continue
        kept.append(f)
    req.filters = kept


def _refine_never_required(kind: Any, req: Request, ctx: Context) -> None:
    """Let ``kind`` refine ``req`` without making the plan gate stricter than for an unknown kind.

    A kind may ask for its subject (which team, which ticker) when no source is named; but an unknown
    kind with no source is searched for, so a known kind must be too (issue #12: unresolved only when no
    entity or no source can be identified). When the kind's questions vanish once a source is assumed,
    the web agent searches and collects what the source lists; the question becomes an assumption.
    """
    if ctx.has_source:
        kind.refine(req, ctx)
        return
    trial = req.model_copy(deep=True)
    kind.refine(trial, ctx)
    if trial.is_resolved:
        _adopt(req, trial)
        return
    sourced = req.model_copy(deep=True)
    kind.refine(sourced, replace(ctx, has_source=True))
    if not sourced.is_resolved:
        _adopt(req, trial)
        return
    asked = "; ".join(trial.unresolved)
    sourced.assumptions.insert(
        0, f"no subject named ({asked}): the web agent searches for the source and collects what it lists"
    )
    _adopt(req, sourced)


def _adopt(req: Request, refined: Request) -> None:
    for name in type(req).model_fields:
        setattr(req, name, getattr(refined, name))


@functools.cache
def _field_vocabulary() -> frozenset[str]:
    """The field words the parser and the lexicon know (and the kinds' column words), to read misspellings by."""
    from prefect_autodata.agents.induction.lexicon import concepts

    words = [*FIELD_WORDS, *ATTRIBUTE_NOUNS, *(c.key for c in concepts())]
    words += [w for k in kind_registry.registered() for w in (*k.vocabulary, *k.default_fields)]
    return frozenset(singular(w) for x in words for w in re.findall(r"[a-z]+", x.lower()))


def _respelled(item: str) -> str:
    """A field item with each misspelt word read as the known field word it slips from ("adress",
    "cusine"); a word the lexicon knows, a name and an acronym stay as written."""
    from prefect_autodata.agents.induction.lexicon import is_known_word

    fix = lambda m: m.group(0) if is_known_word(m.group(0)) else spelled(m.group(0), _field_vocabulary())  # noqa: E731
    return re.sub(r"(?<![\w-])[a-z]{5,}(?![\w-])", lambda m: fix(m) or m.group(0), item)


_RATE = re.compile(r"(?:daily|weekly|monthly|hourly|yearly|annual|quarterly)\s+", re.I)


def _percent_words(name: str) -> str:
    """A field's words with a percent sign after a word read out: "win %" -> "win percentage"."""
    return re.sub(r"(?<=[\w)])\s*%", " percentage", name).strip()


def _choose_fields(
    req: Request,
    kind: Any,
    fields: list[str] | None,
    schema: list[tuple[str, str | None]] | None,
    said: list[str],
) -> list[RequestField]:
    """``--fields`` > ``--schema`` > the sentence > the kind's defaults (a kind maps the user's words
    onto its columns where it knows them)."""
    percent_said = {column_name(x).lower(): x for x in said if "%" in x}

    def mk(name: str, origin: str, typ: str | None = None) -> RequestField:
        # "win %", "FG%": a percent sign after a word names the share, another field than the word
        # alone (the wins column); its words read "win percentage" (the column keeps the user's word).
        # A ``--fields`` name the sentence writes with its percent sign ("win" for "win %") reads so too.
        words = _percent_words(percent_said.get(name.lower(), name) if origin == "fields" else name)
        col = kind.map_field(words) if kind is not None and origin in ("sentence", "fields") else None
        if col is None and kind is not None and origin == "sentence" and (rate := _RATE.match(words)):
            # "the daily open, close and adjusted close": the rate the records come at, before a column
            # the kind knows, is no word of the field
            if (col := kind.map_field(words[rate.end() :])) is not None:
                name = words = words[rate.end() :]
        if col is not None:
            # The kind knows the column ("season" is its YEAR) but the dataset keeps the user's word, and
            # a field the sentence names keeps the user's words as its normalised name (the column is
            # its first alias: "wins" -> win, W); a ``--fields`` name reads as the kind's column.
            return RequestField(
                name=column_name(name) if origin == "sentence" else name,
                normalized=normalize_name(words if origin == "sentence" else col),
                type=typ
                or kind.field_types.get(col)
                or (
                    kind.field_types.get(name) or guess_type(normalize_name(name))
                    if origin == "fields"
                    else None
                ),
                origin=origin,
                aliases=[col, *kind.names_for(col)],
            )
        if kind is not None and typ is None:
            typ = kind.field_types.get(name)
        if origin == "sentence":
            name = column_name(name)
        said_alias = _ALIASES.get(normalize_name(words)) if origin == "sentence" else None
        return RequestField(
            name=name,
            normalized=normalize_name(words),
            type=typ or guess_type(normalize_name(words)),
            unit=_unit(name) or _READ_UNITS.get(words),
            origin=origin,
            aliases=[said_alias] if said_alias else [],
        )

    if fields:
        return [mk(f, "fields") for f in fields]
    if schema:
        return [mk(n, "schema", t) for n, t in schema]
    if said:
        out: list[RequestField] = []
        # "Stock prices (daily, adjusted close)": a rate alone is how often the records come, no field
        said = [s for s in said if not _RATE.fullmatch(s.strip() + " ")] or said
        for s in said:
            f = mk(s, "sentence")
            if f.normalized and f.normalized not in [g.normalized for g in out]:
                out.append(f)
        return out
    if kind is not None:
        from prefect_autodata.agents.fields import guess_type as by_name  # the plan's types of columns

        return [
            RequestField(
                name=c,
                normalized=normalize_name(c),
                type=kind.field_types.get(c) or by_name(c),
                origin="kind_default",
                aliases=kind.names_for(c),
            )
            for c in kind.fields_for(req)
        ]
    return []


_TYPE_HINTS: list[tuple[str, str]] = [
    (r"(?:^|_)(?:date|day|birthday|birthdate|deadline)(?:$|_)|_(?:at|on)$|posted|published|released", "date"),
    (r"price|cost|salary|fee|amount|revenue|budget|wage|rent|fare|income", "decimal"),
    (r"(?:^|_)(?:url|link|website|homepage|href)(?:$|_)", "url"),
    (
        r"(?:^|_)(?:year|count|population|capacity|rank|votes|seats|beds|pages|quantity)(?:$|_)|^number_of",
        "integer",
    ),
    (
        r"rating|score|elevation|height|weight|latitude|longitude|area|percent|length|depth|temperature",
        "number",
    ),
    (
        r"(?:^|_)(?:name|title|address|phone|email|author|city|country|description|category|genre)(?:$|_)",
        "string",
    ),
]


def guess_type(normalized: str) -> str | None:
    """A first type guess from a field's normalised name; None when the name says nothing."""
    for pat, typ in _TYPE_HINTS:
        if re.search(pat, normalized):
            return typ
    return None


def _unit(name: str) -> str | None:
    m = re.search(
        r"\(([^)]+)\)|\bin\s+(usd|eur|gbp|km|m|ft|kg|lbs|meters|feet|metres|percent|%)\b", name, re.I
    )
    return (m.group(1) or m.group(2)) if m else None


def parse_instruction(text: str, *, fields: list[str] | None = None, today: date | None = None) -> Request:
    """The parser under its former name (``fields`` = ``--fields``)."""
    return parse_request(text, fields=fields, today=today)


def read_schema(path: str | Path) -> list[tuple[str, str | None]]:
    """``--schema FILE``: names with optional types (YAML/JSON list or mapping, ``name: type`` lines)."""
    from prefect_autodata.agents.fields import schema_from_file

    return schema_from_file(path)
