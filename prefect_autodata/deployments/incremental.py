"""A scheduled collector fetches only what is new: a fixed date range becomes an open-ended incremental spec.

An agent (or a person) writes a spec for the range the instruction named (``start: 2026-11-02``,
``end: 2026-11-30``). Scheduled as it is, every run would fetch the same closed range again. For a
schedule the range is opened: the end becomes ``today``, and ``incremental`` resumes each request
from the last landed value of the date column, per partition (the column filled from the request's
other parameter, e.g. one cursor per ticker). A range that ended in the past is not reopened: its
deployment is not scheduled (the caller warns). Nothing here knows a site: it reads the spec's shape.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from prefect_autodata.runtime.spec import CollectorSpec


@dataclass
class Opened:
    """The spec to deploy and what was decided about it."""

    spec: CollectorSpec
    incremental: bool
    closed_past: bool = False
    note: str = ""


def _date_params(source, today: date) -> dict[str, date]:
    from prefect_autodata.runtime.templates import resolve_date

    out = {}
    for k, p in source.params.items():
        if p.date is not None:
            try:
                out[k] = resolve_date(p.date, today)
            except ValueError:
                continue
    return out


_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def lift_literal_dates(spec: CollectorSpec) -> CollectorSpec:
    """Two literal ISO dates in a source's query (``startDate: '2024-01-02'``) become date parameters
    (``{start}``/``{end}``), so the range can be opened like a declared one. Otherwise unchanged."""
    data = spec.model_dump(mode="json", exclude_none=True)
    changed = False
    for s in data["sources"]:
        query = (s.get("request") or {}).get("params") or {}
        params = s.setdefault("params", {})
        literal = {k: v for k, v in query.items() if isinstance(v, str) and _ISO.match(v)}
        declared = [k for k, p in params.items() if p.get("date") is not None]
        if len(literal) != 2 or declared:
            continue
        (k1, v1), (k2, v2) = sorted(literal.items(), key=lambda kv: kv[1])
        names = ("start", "end") if not {"start", "end"} & set(params) else ("range_start", "range_end")
        for (key, value), pname in zip(((k1, v1), (k2, v2)), names, strict=True):
            query[key] = "{" + pname + "}"
            params[pname] = {"date": value}
        changed = True
    return CollectorSpec.model_validate(data) if changed else spec


def open_ended(spec: CollectorSpec, today: date | None = None, *, reopen_past: bool = False) -> Opened:
    """The spec a schedule should run (see the module docstring). Unchanged when there is no date range.

    ``reopen_past``: the range was the writer's default, not the user's (the request named no time
    scope), so even a range that ended long ago is opened up to today.
    """
    today = today or date.today()
    lifted = lift_literal_dates(spec)
    if lifted is not spec:
        spec = lifted
    if spec.incremental is not None:
        inc = spec.incremental
        source = next((s for s in spec.sources if inc.param in s.params), None)
        end = inc.end_param and source is not None and _date_params(source, today).get(inc.end_param)
        if end and end < today and not _relative(source.params[inc.end_param].date):
            return _reopen(
                spec, source, inc.param, inc.end_param, inc.cursor, inc.partition_by, today, reopen_past
            )
        return Opened(spec, incremental=True, note="incremental on " + inc.cursor)
    date_cols = [c.name for c in spec.output_columns() if c.type == "date"]
    for source in spec.sources:
        if not source.emit:
            continue
        dates = _date_params(source, today)
        if len(dates) != 2 or len(date_cols) != 1:
            continue
        (start_p, _), (end_p, _) = sorted(dates.items(), key=lambda kv: kv[1])
        partition = _partition(source, exclude={start_p, end_p})
        if partition is False:
            return Opened(spec, incremental=False, note="several requests without a partition column")
        return _reopen(spec, source, start_p, end_p, date_cols[0], partition or None, today, reopen_past)
    return Opened(spec, incremental=False)


def _relative(expr: str | None) -> bool:
    try:
        date.fromisoformat(str(expr))
        return False
    except ValueError:
        return True


def _partition(source, exclude: set[str]) -> str | None | bool:
    """The field filled from the source's other multi-valued parameter (None: one request; False: unknown)."""
    others = [k for k in source.params if k not in exclude]
    if not others:
        return None
    for f in source.fields:
        if f.from_param in others:
            return f.name
    return False


def _reopen(
    spec, source, start_p, end_p, cursor, partition, today: date, reopen_past: bool = False
) -> Opened:
    """End -> today, incremental on the date column; a range that ended before ``today`` stays closed."""
    from prefect_autodata.runtime.templates import resolve_date

    end = resolve_date(source.params[end_p].date, today)
    data = spec.model_dump(mode="json", exclude_none=True)
    past = end < today and not _relative(source.params[end_p].date) and _ended_long_ago(end, today)
    if past and not reopen_past:
        return Opened(
            spec,
            incremental=False,
            closed_past=True,
            note=f"the data range ends {end.isoformat()}, in the past: a schedule would fetch nothing new",
        )
    for s in data["sources"]:
        if s["name"] == source.name:
            s["params"][end_p] = {**s["params"][end_p], "date": "today"}
    data["incremental"] = {"cursor": cursor, "param": start_p, "end_param": end_p}
    if partition:
        data["incremental"]["partition_by"] = partition
    opened = CollectorSpec.model_validate(data)
    per = f" per {partition}" if partition else ""
    return Opened(
        opened,
        incremental=True,
        note=f"open-ended: {end_p} is today, {start_p} resumes after the last landed {cursor}{per}",
    )


def _ended_long_ago(end: date, today: date) -> bool:
    """A range ending within the last week is "up to now" (the agent wrote today's date a few days ago)."""
    return (today - end).days > 7
