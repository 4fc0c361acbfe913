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
_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "tenth": 10,
    "fifteenth": 15,
    "twentieth": 20,
    "last": "L",
}
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
    """``6am``, ``6:30 pm``, ``18:00``, ``noon``, ``midnight`` -> (hour, minute)."""
    if re.search(r"\bnoon\b", text):
        return 12, 0
    if re.search(r"\bmidnight\b", text):
        return 0, 0
    # "am"/"pm" only as a word of their own: "16:30 America/New_York" has no "am" in it
    m = re.search(r"\b(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)(?![a-z])", text)
    if m:
        h, mi = int(m.group(1)), int(m.group(2) or 0)
        if not 1 <= h <= 12 or mi > 59:
            raise ConfigError(f"schedule: {m.group(0)!r} is not a time of day")
        pm = m.group(3).startswith("p")
        return (h % 12) + (12 if pm else 0), mi
    m = re.search(r"\b(?:at\s+)?(\d{1,2}):(\d{2})\b", text)
    if m:
        h, mi = int(m.group(1)), int(m.group(2))
        if h > 23 or mi > 59:
            raise ConfigError(f"schedule: {m.group(0)!r} is not a time of day")
        return h, mi
    return None


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


def _day_of_month(t: str) -> str | None:
    """``on the 15th``, ``on the first of every month``, ``on day 3`` -> cron day-of-month."""
    m = re.search(r"\b(?:on\s+)?(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)\b(?!\s*(?:hour|minute))", t)
    if m is None:
        m = re.search(r"\bday\s+(\d{1,2})\b", t)
    if m:
        day = int(m.group(1))
        if not 1 <= day <= 31:
            raise ConfigError(f"schedule: day {day} of the month does not exist")
        return str(day)
    m = re.search(r"\b(?:on\s+)?the\s+(" + "|".join(_ORDINALS) + r")\s+(?:day\s+)?of\b", t)
    return str(_ORDINALS[m.group(1)]) if m else None


def _english(text: str) -> ScheduleSpec | None:
    zone, rest = _zone(text)
    t = " ".join(rest.lower().replace(",", " ").split())
    at = _time_of_day(t)
    market = re.search(r"\b(market|trading)\b|\bafter (the )?close\b", t) is not None
    if market and re.search(r"\bafter\b.*\bclose\b|\bclose\b", t):
        h, mi = at or AFTER_CLOSE
        return ScheduleSpec(kind="cron", cron=f"{mi} {h} * * 1-5", timezone=zone or MARKET_TZ, phrase=text)
    m = re.search(r"\bevery\s+(\d+)\s*(second|sec|minute|min|hour|day|week)s?\b", t)
    if m:
        return ScheduleSpec(
            kind="interval",
            interval=int(m.group(1)) * _UNITS[m.group(2)],
            timezone=zone or "UTC",
            phrase=text,
        )
    if re.search(r"\b(hourly|every hour|each hour)\b", t):
        return ScheduleSpec(kind="interval", interval=3600, timezone=zone or "UTC", phrase=text)
    h, mi = at or (0, 0)
    tz = zone or (MARKET_TZ if market else "UTC")
    dom = _day_of_month(t)
    if dom is not None and re.search(r"\b(month|monthly)\b", t):
        return ScheduleSpec(kind="cron", cron=f"{mi} {h} {dom} * *", timezone=tz, phrase=text)
    if re.search(r"\b(every|each)\s+(weekday|business day|working day|trading day)s?\b|\bweekdays\b", t):
        return ScheduleSpec(kind="cron", cron=f"{mi} {h} * * 1-5", timezone=tz, phrase=text)
    days = [d for name, d in _DAYS.items() if re.search(rf"\b{name}s?\b", t)]
    if days and re.search(r"\b(every|each|on)\b|\bweekly\b", t):
        dow = ",".join(str(d) for d in sorted(days))
        return ScheduleSpec(kind="cron", cron=f"{mi} {h} * * {dow}", timezone=tz, phrase=text)
    if re.search(r"\b(weekly|every week|each week)\b", t):
        return ScheduleSpec(kind="cron", cron=f"{mi} {h} * * 1", timezone=tz, phrase=text)
    if re.search(r"\b(monthly|every month|each month)\b", t):
        return ScheduleSpec(kind="cron", cron=f"{mi} {h} 1 * *", timezone=tz, phrase=text)
    bare_time = at is not None and not re.search(r"[a-z]{3,}", re.sub(r"\b(at|am|pm|noon|midnight)\b", "", t))
    if (
        re.search(r"\b(daily|every day|each day|nightly|every night)\b", t)
        or (at is not None and re.search(r"\bevery\b", t))
        or bare_time  # "16:30 America/New_York": a time of day alone means every day
    ):
        return ScheduleSpec(kind="cron", cron=f"{mi} {h} * * *", timezone=tz, phrase=text)
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


# "daily" etc. count as a cadence only when they end the clause or take a time ("refresh daily at 6am"),
# not as an adjective of the data ("the daily stock data").
_CADENCE = re.compile(
    r"\b(every\s+[^.;]*|each\s+[^.;]*|hourly"
    r"|(?:daily|weekly|monthly|nightly)(?=\s*(?:$|[.,;)]|at\b|on\b|after\b|before\b))[^.;]*)",
    re.IGNORECASE,
)


def schedule_from_instruction(instruction: str) -> ScheduleSpec | None:
    """The cadence stated inside an instruction ("... for 2024, every weekday after market close"), if any."""
    for m in _CADENCE.finditer(instruction or ""):
        try:
            spec = _english(m.group(0))
        except ConfigError:
            continue
        if spec is not None:
            return spec
    return None
