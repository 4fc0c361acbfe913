"""Schedules from plain English ("every weekday after market close") or an explicit cron/interval/RRule.

A user states the cadence in the instruction or with ``--schedule``; Prefect needs one of its three
schedule kinds. ``parse_schedule`` turns either form into a typed ``ScheduleSpec`` that renders to a
``prefect.yaml`` entry and to a ``prefect.schedules`` object, so both deploy paths agree.
"""

from __future__ import annotations

import re
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


def _time_of_day(text: str) -> tuple[int, int] | None:
    """``6am``, ``6:30 pm``, ``18:00``, ``noon``, ``midnight`` -> (hour, minute)."""
    if re.search(r"\bnoon\b", text):
        return 12, 0
    if re.search(r"\bmidnight\b", text):
        return 0, 0
    m = re.search(r"\b(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)", text)
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


def _english(text: str) -> ScheduleSpec | None:
    t = " ".join(text.lower().replace(",", " ").split())
    at = _time_of_day(t)
    market = re.search(r"\b(market|trading)\b|\bafter (the )?close\b", t) is not None
    if market and re.search(r"\bafter\b.*\bclose\b|\bclose\b", t):
        h, mi = at or AFTER_CLOSE
        return ScheduleSpec(kind="cron", cron=f"{mi} {h} * * 1-5", timezone=MARKET_TZ, phrase=text)
    m = re.search(r"\bevery\s+(\d+)\s*(second|sec|minute|min|hour|day|week)s?\b", t)
    if m:
        return ScheduleSpec(kind="interval", interval=int(m.group(1)) * _UNITS[m.group(2)], phrase=text)
    if re.search(r"\b(hourly|every hour|each hour)\b", t):
        return ScheduleSpec(kind="interval", interval=3600, phrase=text)
    h, mi = at or (0, 0)
    tz = MARKET_TZ if market else "UTC"
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
    if re.search(r"\b(daily|every day|each day|nightly|every night)\b", t) or (
        at is not None and re.search(r"\bevery\b", t)
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
