"""The request's filters and time scope as a row filter in the spec, when the source takes no parameter.

A page shows every record; the user asked for some ("published in 2019", "price under 20", "only
the Findings track"). A filter on a column the spec produces becomes a small ``python`` step of the
CollectorSpec (visible in the YAML, run in the runtime's sandboxed subprocess): equality and
membership compare normalised text (case, accents and whitespace folded; "So ny" and "Sony", "For-Profit"
and "for profit" are the same), ``contains`` is a substring test, ``ge``/``le``/``range``
compare numbers, years or ISO dates. A filter on a column the spec does not produce is not applied
here and is named in the returned notes (the result says the data is unfiltered on it).
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from prefect_autodata.agents.induction.matching import expected_type, name_score

_CODE = """import re
import unicodedata
from datetime import date, datetime
FILTERS = {filters!r}
_MONTHS = {{m: i + 1 for i, m in enumerate(["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"])}}

def _num(v):
    s = re.sub(r"[^0-9.+-]", "", str(v).replace(",", ""))
    try:
        return float(s)
    except ValueError:
        return None

def _day(v):
    s = str(v).strip()
    m = re.match(r"(\\d{{4}})[-/.](\\d{{1,2}})[-/.](\\d{{1,2}})", s)
    if m:
        return date(int(m[1]), int(m[2]), int(m[3])).isoformat()
    m = re.match(r"(\\d{{1,2}})\\.(\\d{{1,2}})\\.(\\d{{4}})", s)  # 19.06.2020: day first
    if m:
        return date(int(m[3]), int(m[2]), int(m[1])).isoformat()
    m = re.match(r"(\\d{{1,2}})/(\\d{{1,2}})/(\\d{{4}})", s)
    if m:
        a, b, y = int(m[1]), int(m[2]), int(m[3])
        return (date(y, b, a) if a > 12 else date(y, a, b)).isoformat()
    m = re.match(r"([A-Za-z]{{3}})[a-z]*\\.?\\s+(\\d{{1,2}}),?\\s+(\\d{{4}})", s)
    if m and m[1].lower() in _MONTHS:
        return date(int(m[3]), _MONTHS[m[1].lower()], int(m[2])).isoformat()
    m = re.match(r"(\\d{{1,2}})\\s+([A-Za-z]{{3}})[a-z]*\\.?,?\\s+(\\d{{4}})", s)
    if m and m[2].lower() in _MONTHS:
        return date(int(m[3]), _MONTHS[m[2].lower()], int(m[1])).isoformat()
    m = re.search(r"(?<!\\d)(1[5-9]\\d\\d|20\\d\\d)(?!\\d)", s)
    return m[1] if m else None

def _text(v):
    s = unicodedata.normalize("NFKD", str(v))
    s = "".join(c for c in s if not unicodedata.combining(c))
    return re.sub(r"\\s+", " ", s).strip().casefold()

def _squeeze(t):
    return re.sub(r"[\\W_]+", "", t)

def _same(t, value):
    u = _text(value)
    return t == u or (_squeeze(t) != "" and _squeeze(t) == _squeeze(u))

def _cmp(v, bound, kind):
    if kind == "day":
        d = _day(v)
        return None if d is None else (d[: len(bound)] if len(d) > len(bound) else d)
    return _num(v)

def _ok(v, op, value, kind):
    if v is None or str(v).strip() == "":
        return False
    t = _text(v)
    if op == "eq":
        return _same(t, value)
    if op == "in":
        return any(_same(t, x) for x in value)
    if op == "contains":
        return _text(value) in t or _squeeze(_text(value)) in _squeeze(t)
    lo, hi = (value if op == "range" else (value, None) if op == "ge" else (None, value))
    ref = lo if lo is not None else hi
    x = _cmp(v, str(ref), kind)
    if x is None:
        return False
    lo = None if lo is None else str(lo) if kind == "day" else float(lo)
    hi = None if hi is None else str(hi) if kind == "day" else float(hi)
    return (lo is None or x >= lo) and (hi is None or x <= hi)

def _any(r, op, value, kind, cols):
    return any(_ok(r.get(c), op, value, kind) for c in cols)

def transform(rows):
    return [
        r
        for r in rows
        if all(
            _any(r, op, value, kind, c) if isinstance(c, list) else _ok(r.get(c), op, value, kind)
            for c, op, value, kind in FILTERS
        )
    ]
"""


def _norm(name: str) -> str:
    return "_".join(re.findall(r"[a-z0-9]+", name.lower()))


def _column_for(field: str, columns: list[str], plan: Any = None) -> str | None:
    """The produced column a filter's field names: by name, else through the plan's fields (the user
    asked for "club" and the record kind reads it as its team column, which the filter is on)."""
    best = max(columns, key=lambda c: name_score(field, c), default=None)
    if best is not None and name_score(field, best) >= 0.8:
        return best
    wanted = {_norm(field)}
    kind = _kind_of(plan)
    if kind is not None and (col := kind.map_field(field)) is not None:
        wanted.add(_norm(col))
    for f in getattr(plan, "fields", None) or []:
        name = getattr(f, "name", None)
        if name in columns and _norm(str(getattr(f, "normalized", "") or "")) in wanted:
            return name
        if name in columns and kind is not None and (col := kind.map_field(name)) is not None:
            if _norm(col) in wanted:
                return name
    return None


def _kind_of(plan: Any) -> Any:
    name = getattr(plan, "kind", None)
    if not isinstance(name, str):
        return None
    from prefect_autodata.agents import kinds

    return kinds.get(name)


def _time_column(columns: list[str], plan: Any, undated: frozenset[str] = frozenset()) -> str | None:
    """The column a time scope restricts: a date or year column by name, else a requested field the
    plan types as a date or normalises to date/year/season ("trading day" of a daily price). A column
    whose values are counts (``undated``: "weeks released" 1, 2, 8) holds no time to restrict."""
    columns = [c for c in columns if c not in undated]
    col = next((c for c in columns if expected_type(c) in ("date", "year")), None)
    if col is not None:
        return col
    for f in getattr(plan, "fields", None) or []:
        name = getattr(f, "name", None)
        norm = _norm(str(getattr(f, "normalized", "") or ""))
        if name in columns and (getattr(f, "type", None) == "date" or norm in ("date", "year", "season")):
            return name
    return None


def _kind(column: str, value: Any) -> str:
    if expected_type(column) in ("date", "year") or isinstance(value, date):
        return "day"
    if isinstance(value, list | tuple) and value and isinstance(value[0], date):
        return "day"
    return "number"


def _plain(v: Any) -> Any:
    if isinstance(v, date):
        return v.isoformat()
    if isinstance(v, list | tuple):
        return [_plain(x) for x in v]
    return v


def scope_fields(plan: Any, requested: list[str]) -> list[str]:
    """Fields the request restricts but does not ask to land: the field of each filter, and ``year``
    or ``date`` for a time scope, when no requested field reads as it.

    Why: "club seasons for 1996 to 1997" names no year column; the spec must still read the
    source's year (or the filter's field) to keep only the rows asked for. The inducer matches these
    only against columns no requested field took, and the row filter compares on them; one the source
    does not show is reported by ``row_filter`` (its filter "not applied").
    """
    if plan is None:
        return []
    out: list[str] = []
    for f in getattr(plan, "filters", None) or []:
        field = str(f.field)
        if field != "*" and _column_for(field, requested, plan) is None:
            out.append(_norm(field) or field)
    scope = getattr(plan, "time_scope", None)
    if scope is not None and _time_column(requested, plan) is None:
        has_day = bool(scope.start_date or scope.end_date or scope.dates)
        out.append("date" if has_day else "year")
    return [x for x in dict.fromkeys(out) if x not in requested]


def scope_keys(plan: Any, requested: list[str], labels: dict[Any, str], taken: set[Any]) -> dict[str, Any]:
    """``{scope field: source key}`` for the ``scope_fields`` a key of the source is named as (a JSON
    key, a CSV header, a table column; ``labels``: key -> its name or display label), among the keys
    no requested field took. A scope field no key is named as is left out (``row_filter`` reports it)."""
    out: dict[str, Any] = {}
    used = set(taken)
    for field in scope_fields(plan, requested):
        best = max(
            ((name_score(field, str(label)), k) for k, label in labels.items() if k not in used),
            key=lambda x: x[0],
            default=None,
        )
        if best is not None and best[0] >= 0.8:
            out[field] = best[1]
            used.add(best[1])
    if any(
        str(f.field) == "*" and f.op in ("eq", "in", "contains") for f in getattr(plan, "filters", None) or []
    ):
        # "player seasons for MEM": a value whose field the request does not name is looked for in
        # every column the record has, so each key no requested field took is read for the filter
        # too (``row_filter`` tests a "*" filter on all the columns it is given).
        for k, label in labels.items():
            name = _norm(str(label)) or _norm(str(k))
            if k in used or not name or name in requested or name in out:
                continue
            out[name] = k
            used.add(k)
    return out


def row_filter(
    plan: Any, columns: list[str], undated: frozenset[str] = frozenset()
) -> tuple[str | None, list[str]]:
    """``(python code or None, notes)`` for the plan's filters and time scope over ``columns``;
    ``undated``: columns whose sampled values are plain numbers, no dates or years (see
    ``_time_column``)."""
    out: list[tuple[str, str, Any, str]] = []
    notes: list[str] = []
    for f in getattr(plan, "filters", None) or []:
        value = _plain(f.value)
        aliases = [_plain(a) for a in getattr(f, "aliases", None) or []]
        if aliases and f.op in ("eq", "in"):
            value = [*(value if isinstance(value, list) else [value]), *aliases]
            f = f.model_copy(update={"op": "in"}) if hasattr(f, "model_copy") else f
        if str(f.field) == "*":  # "Nikon only": the value in any produced column
            if f.op in ("eq", "in", "contains") and columns:
                out.append((list(columns), f.op, value, "text"))  # type: ignore[arg-type]
            continue
        col = _column_for(str(f.field), columns, plan)
        if col is None:
            notes.append(f"filter {f.field} {f.op} {f.value!r} not applied: no such column")
            continue
        kind = _kind(col, f.value)
        if f.op in ("ge", "le", "range") and kind == "number" and expected_type(col) == "year":
            kind = "day"
        out.append((col, f.op, value, kind))
    scope = getattr(plan, "time_scope", None)
    if scope is not None:
        col = _time_column(columns, plan, undated)
        lo = (
            scope.start_date.isoformat()
            if scope.start_date
            else (str(scope.start_year) if scope.start_year else None)
        )
        hi = (
            scope.end_date.isoformat()
            if scope.end_date
            else (str(scope.end_year) if scope.end_year else None)
        )
        if scope.years and not (lo or hi):
            lo, hi = str(min(scope.years)), str(max(scope.years))
        if col is None and (lo or hi):
            notes.append("time scope not applied: no date or year column")
        elif col is not None and (lo or hi):
            if col not in {c for c, *_ in out if isinstance(c, str)}:
                out.append((col, "range", [lo, hi], "day"))
    if not out:
        return None, notes
    return _CODE.format(filters=out), notes


_RESTRICTS = re.compile(
    r"\bonly\b|\bfilters?\b|\brestrict|\blimit(?:s|ed)?\s+(?:to|the)\b|\bmatching\b", re.I
)
_SUBJECT = re.compile(
    r"\b(?:with|by|of|for|whose)\s+(?:this|the\s+given|a|the)?\s*([\w .'-]{2,40}?)(?:\s*[(,;.]|$)"
)


def param_filters(
    plan: Any, names: dict[str, str], taken: set[str] = frozenset()
) -> list[tuple[str, list[str]]]:
    """``(parameter, values to try)`` for each equality filter of the request a documented parameter takes.

    Why: an API documentation says "``team`` — only seasons with this team"; asking the server for those
    records reads one page instead of every page and a row filter. The parameter is the one whose
    description restricts the records and names the filter's field (or whose own name is the field);
    the values are the filter's value and its aliases (the caller keeps the first the server answers
    with records, and the row filter stays in the spec). ``taken``: paging and auth parameters.
    """
    out: list[tuple[str, list[str]]] = []
    used: set[str] = set(taken)
    for f in getattr(plan, "filters", None) or []:
        if f.op not in ("eq", "in") or str(f.field) == "*":
            continue
        values = f.value if isinstance(f.value, list | tuple) else [f.value]
        values = [*values, *(getattr(f, "aliases", None) or [])]
        values = [
            str(v)
            for v in dict.fromkeys(_plain(v) for v in values)
            if isinstance(v, str | int) and str(v).strip()
        ]
        if not values:
            continue
        best: tuple[float, str] | None = None
        for name, desc in names.items():
            if name in used or "." in name or not _RESTRICTS.search(desc or ""):
                continue
            m = _SUBJECT.search(desc)
            subject = m.group(1) if m else ""
            score = max(name_score(str(f.field), name), name_score(str(f.field), subject) if subject else 0.0)
            if score >= 0.8 and (best is None or score > best[0]):
                best = (score, name)
        if best is not None:
            used.add(best[1])
            out.append((best[1], values[:8]))
    return out
