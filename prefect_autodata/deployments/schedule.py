"""Schedules from plain English ("every weekday after market close") or an explicit cron/interval/RRule.

A user states the cadence in the instruction or with ``--schedule``; Prefect needs one of its three
schedule kinds. ``parse_schedule`` turns either form into a typed ``ScheduleSpec`` that renders to a
``prefect.yaml`` entry and to a ``prefect.schedules`` object, so both deploy paths agree.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError, model_validator

from prefect_autodata.errors import ConfigError

# US equities close at 16:00 New York time; end-of-day vendors publish by ~17:00.
MARKET_TZ = "America/New_York"
AFTER_CLOSE = (17, 30)

_DAYS = {
    "monday": 1,
    "tuesday": 2,
    "wednesday": 3,
    "thursday": 4,
    "friday": 5,
    "saturday": 6,
    "sunday": 0,
}
# place names and abbreviations a phrase may use for its timezone ("at 9am in New York", "02:00 UTC")
_ZONES = {
    "new york": "America/New_York",
    "nyc": "America/New_York",
    "eastern": "America/New_York",
    "et": "America/New_York",
    "est": "America/New_York",
    "edt": "America/New_York",
    "chicago": "America/Chicago",
    "central": "America/Chicago",
    "ct": "America/Chicago",
    "cst": "America/Chicago",
    "cdt": "America/Chicago",
    "denver": "America/Denver",
    "los angeles": "America/Los_Angeles",
    "san francisco": "America/Los_Angeles",
    "pacific": "America/Los_Angeles",
    "pt": "America/Los_Angeles",
    "pst": "America/Los_Angeles",
    "pdt": "America/Los_Angeles",
    "toronto": "America/Toronto",
    "sao paulo": "America/Sao_Paulo",
    "london": "Europe/London",
    "paris": "Europe/Paris",
    "berlin": "Europe/Berlin",
    "frankfurt": "Europe/Berlin",
    "amsterdam": "Europe/Amsterdam",
    "zurich": "Europe/Zurich",
    "madrid": "Europe/Madrid",
    "moscow": "Europe/Moscow",
    "dubai": "Asia/Dubai",
    "mumbai": "Asia/Kolkata",
    "india": "Asia/Kolkata",
    "ist": "Asia/Kolkata",
    "singapore": "Asia/Singapore",
    "hong kong": "Asia/Hong_Kong",
    "shanghai": "Asia/Shanghai",
    "beijing": "Asia/Shanghai",
    "tokyo": "Asia/Tokyo",
    "jst": "Asia/Tokyo",
    "seoul": "Asia/Seoul",
    "sydney": "Australia/Sydney",
    "utc": "UTC",
    "gmt": "UTC",
    "z": "UTC",
}
_ORDINAL_WORDS = (
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
    "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"
).split()
_ORDINALS: dict[str, int | str] = {w: i + 1 for i, w in enumerate(_ORDINAL_WORDS)}
_ORDINALS.update({f"twenty-{w}": 20 + i + 1 for i, w in enumerate(_ORDINAL_WORDS[:9])})
_ORDINALS.update({f"twenty {w}": 20 + i + 1 for i, w in enumerate(_ORDINAL_WORDS[:9])})
_ORDINALS.update({"thirtieth": 30, "thirty-first": 31, "thirty first": 31, "last": "L"})
_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "eight": 8, "ten": 10,
    "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty-five": 45, "a": 1, "an": 1,
}  # fmt: skip
# "twice a day": how many runs a period has
_TIMES = {"once": 1, "twice": 2, "two times": 2, "three times": 3, "thrice": 3, "four times": 4}
# a day-of-month token: "15th", "15", "fifteenth", "twenty-first", "last"
_DOM_TOKEN = (
    r"(?:\d{1,2}(?:st|nd|rd|th)?|"
    + "|".join(sorted((re.escape(k) for k in _ORDINALS), key=len, reverse=True))
    + ")"
)
_CRON_FIELD = r"(?:[\d*/,\-?]+|[A-Za-z]{3}(?:[-,][A-Za-z]{3})*)"
_UNITS = {"minute": 60, "min": 60, "hour": 3600, "day": 86400, "week": 604800, "second": 1, "sec": 1}


class ScheduleSpec(BaseModel):
    """One Prefect schedule: exactly one of cron / interval (seconds) / rrule, plus its timezone."""

    kind: Literal["cron", "interval", "rrule"]
    cron: str | None = None
    interval: int | None = Field(None, gt=0, description="Seconds between runs.")
    rrule: str | None = None
    timezone: str = "UTC"
    phrase: str | None = Field(None, description="What the user wrote, kept for review.")

    @model_validator(mode="after")
    def _valid(self) -> ScheduleSpec:
        from prefect.schedules import validate_cron_string, validate_rrule_string

        value = getattr(self, self.kind)
        if value is None:
            raise ValueError(f"schedule kind {self.kind!r} needs a {self.kind} value")
        try:
            if self.kind == "cron":
                validate_cron_string(self.cron)
            elif self.kind == "rrule":
                validate_rrule_string(self.rrule)
        except ValueError as exc:
            raise ValueError(f"invalid {self.kind} {value!r}: {exc}") from exc
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        try:
            ZoneInfo(self.timezone)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown timezone {self.timezone!r}") from exc
        return self

    def to_yaml_entry(self) -> dict[str, Any]:
        """The item under ``schedules:`` in prefect.yaml."""
        if self.kind == "interval":
            return {"interval": self.interval, "timezone": self.timezone}
        if self.kind == "cron":
            return {"cron": self.cron, "timezone": self.timezone}
        return {"rrule": self.rrule, "timezone": self.timezone}

    def to_prefect(self) -> Any:
        """A ``prefect.schedules`` object for ``Flow.to_deployment(schedules=[...])``."""
        from datetime import timedelta

        from prefect.schedules import Cron, Interval, RRule

        if self.kind == "interval":
            return Interval(timedelta(seconds=self.interval or 0), timezone=self.timezone)
        if self.kind == "cron":
            return Cron(self.cron or "", timezone=self.timezone)
        return RRule(self.rrule or "", timezone=self.timezone)

    def describe(self) -> str:
        value = {"cron": self.cron, "interval": f"every {self.interval}s", "rrule": self.rrule}[self.kind]
        return f"{self.kind} {value} ({self.timezone})"

    def in_words(self) -> str:
        """``At 05:30 PM, Monday through Friday (America/New_York)`` (cron-descriptor for cron)."""
        if self.kind == "cron":
            from cron_descriptor import Options, get_description

            opts = Options()
            opts.verbose = False
            text = get_description(self.cron, opts)
        elif self.kind == "interval":
            text = "Every " + _seconds_in_words(self.interval or 0)
        else:
            text = f"RRule {self.rrule}"
        return f"{text} ({self.timezone})"

    def next_runs(self, n: int = 3, after: datetime | None = None) -> list[datetime]:
        """The next ``n`` run times, in the schedule's timezone (intervals count from ``after``)."""
        from zoneinfo import ZoneInfo

        tz = ZoneInfo(self.timezone)
        start = (after or datetime.now(tz)).astimezone(tz)
        if self.kind == "cron":
            from croniter import croniter

            it = croniter(self.cron, start)
            return [it.get_next(datetime) for _ in range(n)]
        if self.kind == "interval":
            from datetime import timedelta

            step = timedelta(seconds=self.interval or 0)
            return [start + step * (i + 1) for i in range(n)]
        from dateutil.rrule import rrulestr

        rule = rrulestr(self.rrule or "", dtstart=start.replace(microsecond=0), ignoretz=False)
        out: list[datetime] = []
        t = start
        while len(out) < n:
            nxt = rule.after(t)
            if nxt is None:
                break
            out.append(nxt)
            t = nxt
        return out


def _seconds_in_words(seconds: int) -> str:
    for unit, size in (("week", 604800), ("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds % size == 0 and seconds >= size:
            k = seconds // size
            return f"{k} {unit}{'s' if k != 1 else ''}" if k != 1 else unit
    return f"{seconds} seconds"


def _time_of_day(text: str) -> tuple[int, int] | None:
    """``6am``, ``6:30 pm``, ``18:00``, ``noon``, ``midnight`` -> (hour, minute): the first one named."""
    times = _times_of_day(text)
    return times[0] if times else None


def _times_of_day(text: str) -> list[tuple[int, int]]:
    """Every time of day a phrase names, in order (``at 6am and 6pm`` -> [(6, 0), (18, 0)])."""
    found: list[tuple[int, tuple[int, int]]] = []
    for m in re.finditer(r"\bnoon\b|\bmidday\b", text):
        found.append((m.start(), (12, 0)))
    for m in re.finditer(r"\bmidnight\b", text):
        found.append((m.start(), (0, 0)))
    taken: list[tuple[int, int]] = []
    # "am"/"pm" only as a word of their own: "16:30 America/New_York" has no "am" in it
    for m in re.finditer(r"\b(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)(?![a-z])", text):
        h, mi = int(m.group(1)), int(m.group(2) or 0)
        if not 1 <= h <= 12 or mi > 59:
            raise ConfigError(f"schedule: {m.group(0)!r} is not a time of day")
        pm = m.group(3).startswith("p")
        found.append((m.start(), ((h % 12) + (12 if pm else 0), mi)))
        taken.append(m.span())
    for m in re.finditer(r"\b(\d{1,2}):(\d{2})\b", text):
        if any(a <= m.start() < b for a, b in taken):
            continue
        h, mi = int(m.group(1)), int(m.group(2))
        if h > 23 or mi > 59:
            raise ConfigError(f"schedule: {m.group(0)!r} is not a time of day")
        found.append((m.start(), (h, mi)))
    return [hm for _, hm in sorted(found)]


def _zone(text: str) -> tuple[str | None, str]:
    """The timezone a phrase names (an IANA name, a city, an abbreviation) and the phrase without it."""
    from zoneinfo import available_timezones

    m = re.search(r"\b([A-Z][A-Za-z_]+(?:/[A-Za-z_\-]+)+)\b", text)
    if m and m.group(1) in available_timezones():
        return m.group(1), (text[: m.start()] + text[m.end() :])
    lower = text.lower()
    for place in sorted(_ZONES, key=len, reverse=True):
        pat = rf"(?:\b(?:in|at|on)\s+)?\b{re.escape(place)}\b(?:\s+time)?"
        if len(place) <= 3:  # abbreviations only as their own word, after a time or "in"
            pat = rf"(?:(?<=\d)|(?<=\d\s)|(?<=am\s)|(?<=pm\s)|\bin\s+){re.escape(place)}\b"
        hit = re.search(pat, lower)
        if hit:
            return _ZONES[place], text[: hit.start()] + " " + text[hit.end() :]
    return None, text


def _dom_value(token: str) -> str:
    token = token.strip()
    if token in _ORDINALS:
        return str(_ORDINALS[token])
    day = int(re.match(r"\d+", token).group(0))  # type: ignore[union-attr]
    if not 1 <= day <= 31:
        raise ConfigError(f"schedule: day {day} of the month does not exist")
    return str(day)


def _days_of_month(t: str) -> list[str]:
    """``on the 15th``, ``15th of every month``, ``the 1st and 15th of each month``, ``on the
    twenty-first of the month``, ``on day 3``, ``on the last day of the month`` -> cron days ('L': last).
    A numeric day needs its ordinal suffix or an ``on the`` / ``day`` before it ("every 15 minutes" is
    no day); a word ordinal needs ``of ... month`` after it ("the first page" is none)."""
    tok = _DOM_TOKEN
    days: list[str] = []
    # a list of days ending in "of (every|each|the) month": "the 1st and 15th of each month"
    m = re.search(
        rf"\b(?:on\s+)?(?:the\s+)?({tok}(?:\s*(?:,|and|&)\s*(?:the\s+)?{tok})*)\s+(?:day\s+)?of\s+"
        r"(?:every|each|the|a)\s+(?:calendar\s+)?month\b",
        t,
    )
    if m:
        days = [_dom_value(x) for x in re.findall(tok, m.group(1))]
        return list(dict.fromkeys(days))
    m = re.search(
        r"\bon\s+the\s+(\d{1,2}(?:st|nd|rd|th)?(?:\s*(?:,|and|&)\s*(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?)*)\b",
        t,
    )
    if m is None:
        m = re.search(
            r"\b(\d{1,2}(?:st|nd|rd|th)(?:\s*(?:,|and|&)\s*(?:the\s+)?\d{1,2}(?:st|nd|rd|th))*)\b(?!\s*(?:hour|minute|week|day))",
            t,
        )
    if m is None:
        m = re.search(r"\bday\s+(\d{1,2})\b", t)
    if m:
        return list(dict.fromkeys(_dom_value(x) for x in re.findall(r"\d{1,2}", m.group(1))))
    return []


def _day_of_month(t: str) -> str | None:
    """The cron day-of-month field of a phrase (``1,15``, ``L``), None when it names no day."""
    days = _days_of_month(t)
    if not days:
        return None
    if "L" in days and len(days) > 1:
        raise ConfigError("schedule: the last day of the month cannot be combined with other days in cron")
    return ",".join(days)


def _count(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBER_WORDS[word]


_NUM = r"(\d+|" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True)) + r")"
_NTH = {"first": 1, "second": 2, "third": 3, "fourth": 4, "last": -1}
_RR_DAYS = {0: "SU", 1: "MO", 2: "TU", 3: "WE", 4: "TH", 5: "FR", 6: "SA"}


def _rrule(freq: str, n: int, h: int, mi: int, extra: str = "") -> str:
    return f"FREQ={freq};INTERVAL={n}{extra};BYHOUR={h};BYMINUTE={mi};BYSECOND=0"


def _english(text: str) -> ScheduleSpec | None:
    zone, rest = _zone(text)
    t = " ".join(rest.lower().replace(",", " , ").split()).replace(" ,", ",")
    t = re.sub(r"\bbi-weekly\b", "biweekly", t)
    times = _times_of_day(t)
    at = times[0] if times else None
    if at is None:  # a part of the day stands for its usual hour
        if re.search(r"\b(morning|mornings)\b", t):
            at = (6, 0)
        elif re.search(r"\b(evening|evenings)\b", t):
            at = (18, 0)
        elif re.search(r"\b(nightly|night|nights|overnight)\b", t):
            at = (2, 0)
    market = re.search(r"\b(market|trading|exchange)\b|\bafter (the )?close\b", t) is not None
    if market and re.search(r"\bclose[sd]?\b|\bclosing\b", t):
        h, mi = at or AFTER_CLOSE
        return ScheduleSpec(kind="cron", cron=f"{mi} {h} * * 1-5", timezone=zone or MARKET_TZ, phrase=text)
    if market and re.search(r"\b(before|at|ahead of)\s+(the\s+)?(market\s+)?open(s|ing)?\b", t):
        h, mi = at or (9, 0)  # the New York open is 09:30: a run before it
        return ScheduleSpec(kind="cron", cron=f"{mi} {h} * * 1-5", timezone=zone or MARKET_TZ, phrase=text)
    tz = zone or (MARKET_TZ if market else "UTC")
    # "every 15 minutes", "every two hours", "every half hour": a fixed interval
    if re.search(r"\b(every|each)\s+half\s+(an\s+)?hour\b|\bhalf-hourly\b", t):
        return ScheduleSpec(kind="interval", interval=1800, timezone=tz, phrase=text)
    m = re.search(rf"\bevery\s+{_NUM}\s*(second|sec|minute|min|hour)s?\b", t)
    if m:
        return ScheduleSpec(
            kind="interval", interval=_count(m.group(1)) * _UNITS[m.group(2)], timezone=tz, phrase=text
        )
    if re.search(r"\bevery\s+other\s+hour\b", t):
        return ScheduleSpec(kind="interval", interval=7200, timezone=tz, phrase=text)
    if re.search(r"\b(hourly|every hour|each hour|once an hour|top of (every|each|the) hour)\b", t):
        return ScheduleSpec(kind="interval", interval=3600, timezone=tz, phrase=text)
    h, mi = at or (0, 0)
    hours = sorted({hh for hh, mm in times if mm == mi}) if len(times) > 1 else [h]
    days = [d for name, d in _DAYS.items() if re.search(rf"\b{name}s?\b", t)]
    # "every other week", "every two weeks", "biweekly", "fortnightly": a weekly RRule, interval 2+
    m = re.search(rf"\bevery\s+(other|{_NUM[1:-1]})\s+weeks?\b", t)
    n_weeks = (2 if m.group(1) == "other" else _count(m.group(1))) if m else None
    if n_weeks is None and re.search(r"\b(biweekly|fortnightly|every fortnight)\b", t):
        n_weeks = 2
    if n_weeks is not None and n_weeks > 1:
        byday = ",".join(_RR_DAYS[d] for d in sorted(days)) if days else "MO"
        rule = _rrule("WEEKLY", n_weeks, h, mi, f";BYDAY={byday}")
        return ScheduleSpec(kind="rrule", rrule=rule, timezone=tz, phrase=text)
    m = re.search(rf"\bevery\s+(other|{_NUM[1:-1]})\s+days?\b", t)
    if m:
        n = 2 if m.group(1) == "other" else _count(m.group(1))
        if n > 1:
            return ScheduleSpec(kind="rrule", rrule=_rrule("DAILY", n, h, mi), timezone=tz, phrase=text)
    hour_field = ",".join(str(x) for x in hours)
    # "twice a day", "three times daily": evenly spread from the first time named (midnight)
    m = re.search(
        r"\b(once|twice|thrice|two times|three times|four times)\s+(a|per|each)?\s*(day|daily)\b", t
    )
    if m is None:
        m = re.search(r"\b(once|twice|thrice|two times|three times|four times)\s+()(daily)\b", t)
    if m:
        k = _TIMES[m.group(1)]
        if len(times) < k:
            hour_field = ",".join(str(x) for x in sorted({(h + i * 24 // k) % 24 for i in range(k)}))
        return ScheduleSpec(kind="cron", cron=f"{mi} {hour_field} * * *", timezone=tz, phrase=text)
    m = re.search(r"\b(twice|two times)\s+(a|per|each)\s+week\b", t)
    if m:
        dow = ",".join(str(d) for d in sorted(days)) if len(days) >= 2 else "1,4"
        return ScheduleSpec(kind="cron", cron=f"{mi} {hour_field} * * {dow}", timezone=tz, phrase=text)
    m = re.search(r"\b(twice|two times)\s+(a|per|each)\s+month\b|\bsemi-?monthly\b", t)
    if m:
        dom = _day_of_month(t) or "1,15"
        return ScheduleSpec(kind="cron", cron=f"{mi} {hour_field} {dom} * *", timezone=tz, phrase=text)
    monthly = re.search(r"\b(month|monthly|months)\b", t) is not None
    # "the first Monday of every month": an n-th weekday is an RRule
    m = re.search(
        r"\b(first|second|third|fourth|last)\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
        r"\s+of\s+(?:every|each|the|a)\s+month\b",
        t,
    )
    if m:
        byday = f"{_NTH[m.group(1)]}{_RR_DAYS[_DAYS[m.group(2)]]}"
        return ScheduleSpec(
            kind="rrule", rrule=_rrule("MONTHLY", 1, h, mi, f";BYDAY={byday}"), timezone=tz, phrase=text
        )
    dom = _day_of_month(t) if monthly else None
    m = re.search(rf"\bevery\s+(other|{_NUM[1:-1]})\s+months?\b", t)
    if m:
        n = 2 if m.group(1) == "other" else _count(m.group(1))
        if n > 1:
            extra = f";BYMONTHDAY={'-1' if dom == 'L' else (dom or '1')}"
            return ScheduleSpec(
                kind="rrule", rrule=_rrule("MONTHLY", n, h, mi, extra), timezone=tz, phrase=text
            )
    if dom is not None:
        return ScheduleSpec(kind="cron", cron=f"{mi} {hour_field} {dom} * *", timezone=tz, phrase=text)
    if re.search(
        r"\b(every|each)\s+(weekday|business day|working day|trading day|work day)s?\b"
        r"|\b(on\s+)?weekdays\b|\b(monday|mon)\s*(-|to|through|thru)\s*(friday|fri)\b",
        t,
    ):
        return ScheduleSpec(kind="cron", cron=f"{mi} {hour_field} * * 1-5", timezone=tz, phrase=text)
    if re.search(r"\b(every|each)\s+weekend\b|\b(on\s+)?weekends\b", t):
        return ScheduleSpec(kind="cron", cron=f"{mi} {hour_field} * * 0,6", timezone=tz, phrase=text)
    if days and (
        re.search(r"\b(every|each|on)\b|\bweekly\b", t) or any(re.search(rf"\b{n}s\b", t) for n in _DAYS)
    ):
        dow = ",".join(str(d) for d in sorted(days))
        return ScheduleSpec(kind="cron", cron=f"{mi} {hour_field} * * {dow}", timezone=tz, phrase=text)
    if re.search(r"\b(weekly|every week|each week|once a week|once per week)\b", t):
        return ScheduleSpec(kind="cron", cron=f"{mi} {hour_field} * * 1", timezone=tz, phrase=text)
    if re.search(r"\b(monthly|every month|each month|once a month|once per month)\b", t):
        return ScheduleSpec(kind="cron", cron=f"{mi} {hour_field} 1 * *", timezone=tz, phrase=text)
    if re.search(r"\b(quarterly|every quarter|each quarter|once a quarter)\b", t):
        return ScheduleSpec(kind="cron", cron=f"{mi} {hour_field} 1 1,4,7,10 *", timezone=tz, phrase=text)
    if re.search(r"\b(yearly|annually|every year|each year|once a year)\b", t):
        return ScheduleSpec(kind="cron", cron=f"{mi} {hour_field} 1 1 *", timezone=tz, phrase=text)
    words = re.sub(r"\b(at|am|pm|noon|midnight|and|on)\b", "", t)
    bare_time = at is not None and times and not re.search(r"[a-z]{3,}", words)
    if (
        re.search(
            r"\b(daily|every day|each day|once a day|nightly|every night|each night|every morning"
            r"|each morning|every evening|each evening|every (?:single )?day)\b",
            t,
        )
        or (times and re.search(r"\bevery\b", t))
        or bare_time  # "16:30 America/New_York": a time of day alone means every day
    ):
        return ScheduleSpec(kind="cron", cron=f"{mi} {hour_field} * * *", timezone=tz, phrase=text)
    return None


def parse_schedule(text: str, *, timezone: str | None = None) -> ScheduleSpec:
    """``--schedule`` value -> ScheduleSpec. Accepts cron (5 fields), ``RRULE:``/``FREQ=`` strings,
    intervals (``3600``, ``15m``, ``2h``, ``every 10 minutes``) and English phrases; else one clear error."""
    raw = (text or "").strip()
    if not raw:
        raise ConfigError(
            "schedule is empty: give a cron string, an interval or a phrase like 'daily at 6am'"
        )
    try:
        spec: ScheduleSpec | None
        if re.fullmatch(r"(?i)(RRULE:|DTSTART|FREQ=).*", raw, flags=re.S):
            spec = ScheduleSpec(kind="rrule", rrule=raw, phrase=raw)
        elif re.fullmatch(rf"{_CRON_FIELD}(\s+{_CRON_FIELD}){{4}}", raw):
            spec = ScheduleSpec(kind="cron", cron=raw, phrase=raw)
        elif m := re.fullmatch(r"(\d+)\s*(s|m|h|d)?", raw.lower()):
            mult = {"s": 1, "m": 60, "h": 3600, "d": 86400, None: 1}[m.group(2)]
            spec = ScheduleSpec(kind="interval", interval=int(m.group(1)) * mult, phrase=raw)
        else:
            spec = _english(raw)
    except ValidationError as exc:  # invalid cron / rrule / interval / timezone
        detail = str(exc.errors()[0]["msg"]).removeprefix("Value error, ")
        raise ConfigError(f"schedule {raw!r}: {detail}") from exc
    if spec is None:
        raise ConfigError(
            f"schedule {raw!r} is not understood: use a cron string ('30 17 * * 1-5'), an interval "
            "('3600', '15m', 'every 2 hours'), an RRule ('FREQ=WEEKLY;BYDAY=MO') or a phrase like "
            "'every weekday after market close', 'daily at 6am', 'hourly', 'every Monday'"
        )
    if timezone:
        try:
            spec = ScheduleSpec.model_validate({**spec.model_dump(), "timezone": timezone})
        except ValidationError as exc:
            raise ConfigError(
                f"schedule timezone: {exc.errors()[0]['msg']}".replace("Value error, ", "")
            ) from exc
    return spec


# Where a cadence may start inside an instruction: "every"/"each", a day of the month ("on the 15th of",
# "15th of every month", "the first Monday of"), "twice a day", "on weekdays", "after market close",
# the -ly words. "daily" etc. count only when they end the clause or take a time ("refresh daily at
# 6am"), not as an adjective of the data ("the daily stock data"). The cadence runs to the clause end.
_CADENCE_START = re.compile(
    r"\b(?:every|each)\s"
    r"|\b(?:on\s+)?(?:the\s+)?" + _DOM_TOKEN + r"(?:\s*(?:,|and|&)\s*(?:the\s+)?" + _DOM_TOKEN + r")*"
    r"(?:\s+(?:day|monday|tuesday|wednesday|thursday|friday|saturday|sunday))?\s+of\s+(?:every|each|the|a)\s+month\b"
    r"|\b(?:once|twice|thrice|two times|three times|four times)\s+(?:a|per|each)?\s*(?:day|daily|week|month)\b"
    r"|\b(?:on\s+)?(?:weekdays|weekends)\b|\b(?:monday|mon)\s*(?:-|to|through|thru)\s*(?:friday|fri)\b"
    r"|\b(?:after|at|before|ahead of)\s+(?:the\s+)?(?:market\s+)?(?:close|closing|open)\b"
    r"|\b(?:biweekly|bi-weekly|fortnightly|semi-?monthly|half-hourly|hourly|quarterly|yearly|annually)\b"
    r"|\b(?:daily|weekly|monthly|nightly)(?=\s*(?:$|[.,;)]|at\b|on\b|after\b|before\b))",
    re.IGNORECASE,
)
# what ends the cadence clause: a sentence mark, or the start of another request part
_CADENCE_END = re.compile(
    r"[.;!?]|\s(?:and\s+)?(?:save|store|land|load|put|write)\b|\s(?:into|as csv|as json)\b"
    r"|,\s*(?:with|including|for|from|in)\b"
)
# "each day of 2024", "every trading day in 2023": a scope, not a cadence
_SCOPE_NOT_CADENCE = re.compile(
    r"^(?:every|each)\s+[\w\s-]{1,30}?\s(?:of|in|during|for)\s+(?:19|20)\d\d\b", re.I
)


def schedule_from_instruction(instruction: str) -> ScheduleSpec | None:
    """The cadence stated inside an instruction ("... for 2024, every weekday after market close", "...
    on the 15th of every month"), if any: from the first place a cadence can start to the clause end
    (so "the 15th of every month" keeps its day); later starts are tried when an earlier reads as none."""
    text = instruction or ""
    for m in _CADENCE_START.finditer(text):
        tail = text[m.start() :]
        if _SCOPE_NOT_CADENCE.match(tail):
            continue
        end = _CADENCE_END.search(tail, len(m.group(0)))
        phrase = tail[: end.start() if end else len(tail)].strip(" ,")
        try:
            spec = _english(phrase)
        except ConfigError:
            continue
        if spec is not None:
            return spec
    return None
