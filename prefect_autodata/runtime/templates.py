"""Request templates: ``{param}`` placeholders, relative dates for schedules, and secrets kept out of specs.

A scheduled rerun must ask for "yesterday", not a date frozen on the day the spec was written,
so date parameters accept relative expressions resolved against ``today`` at run time.
Secrets are written ``{secret:NAME}`` and resolved from ``AUTODATA_SECRET_<NAME>`` (or a Prefect
Secret block named ``autodata-<name>``); lineage gets the redacted form.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterator, Mapping
from datetime import date, datetime, timedelta
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from prefect_autodata.errors import ConfigError

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::([^{}]*))?\}")
_REL = re.compile(
    r"^(today|yesterday|last_trading_day|start_of_year|end_of_year|start_of_month)\s*(?:([+-])\s*(\d+)\s*d?)?$"
)
REDACTED = "REDACTED"


def last_trading_day(today: date) -> date:
    """The latest NYSE session strictly before ``today`` (weekends and exchange holidays skipped)."""
    from prefect_autodata.runtime.trading_calendar import last_trading_day as session_before

    return session_before(today)


def resolve_date(expr: str, today: date | None = None) -> date:
    """ISO date or a relative expression (``today``, ``today-1``, ``last_trading_day``, ``start_of_year+3``)."""
    today = today or date.today()
    text = str(expr).strip()
    try:
        return date.fromisoformat(text)
    except ValueError:
        pass
    m = _REL.match(text.lower())
    if not m:
        raise ValueError(
            f"date {expr!r} is neither ISO (YYYY-MM-DD) nor one of today, yesterday, last_trading_day, "
            "start_of_year, end_of_year, start_of_month (optionally +N / -N days)"
        )
    base = {
        "today": today,
        "yesterday": today - timedelta(days=1),
        "last_trading_day": last_trading_day(today),
        "start_of_year": date(today.year, 1, 1),
        "end_of_year": date(today.year, 12, 31),
        "start_of_month": today.replace(day=1),
    }[m.group(1)]
    if m.group(2):
        n = int(m.group(3))
        base = base + timedelta(days=n if m.group(2) == "+" else -n)
    return base


def secret_value(name: str) -> str:
    """Resolve ``{secret:NAME}``: env ``AUTODATA_SECRET_<NAME>`` first, then a Prefect Secret block."""
    from prefect_autodata.redact import register

    env = os.environ.get(f"AUTODATA_SECRET_{name.upper()}")
    if env is not None:
        register(env)  # redacted by value from every URL, error, log, trace and table from now on
        return env
    try:
        from prefect.blocks.system import Secret

        value = Secret.load(f"autodata-{name.lower().replace('_', '-')}").get()
        register(value)
        return value
    except Exception as exc:  # no server, no block: one clear message
        raise ConfigError(
            f"secret {name!r} is not set: export AUTODATA_SECRET_{name.upper()} or create the Prefect Secret "
            f"block 'autodata-{name.lower().replace('_', '-')}'"
        ) from exc


def render(template: str, values: Mapping[str, Any], *, redact: bool = False, where: str = "template") -> str:
    """Fill ``{name}`` placeholders; ``{secret:NAME}`` from the environment (or REDACTED when ``redact``)."""

    def sub(m: re.Match) -> str:
        key, arg = m.group(1), m.group(2)
        if key == "secret":
            if not arg:
                raise ConfigError(f"{where}: '{{secret:NAME}}' needs a name")
            return REDACTED if redact else secret_value(arg)
        if key not in values:
            raise ConfigError(
                f"{where}: unknown placeholder {{{key}}} (known: {', '.join(sorted(values)) or 'none'})"
            )
        val = values[key]
        if arg and isinstance(val, date | datetime):
            return val.strftime(arg)
        return "" if val is None else str(val)

    return _PLACEHOLDER.sub(sub, template)


def has_secret(template: str) -> bool:
    return any(m.group(1) == "secret" for m in _PLACEHOLDER.finditer(template))


def placeholders(template: str) -> set[str]:
    return {m.group(1) for m in _PLACEHOLDER.finditer(template) if m.group(1) != "secret"}


def expand(param_values: Mapping[str, list[Any]]) -> Iterator[dict[str, Any]]:
    """Cartesian product of parameter values, in declaration order (deterministic request order)."""
    keys = list(param_values)
    for combo in itertools.product(*(param_values[k] for k in keys)):
        yield dict(zip(keys, combo, strict=True))


def redact_url(url: str, secret_params: set[str]) -> str:
    """Replace the values of query parameters that carried a secret, for lineage and logs."""
    if not secret_params:
        return url
    parts = urlsplit(url)
    q = [
        (k, REDACTED if k in secret_params else v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
    ]
    return urlunsplit(parts._replace(query=urlencode(q)))
