"""One error hierarchy so callers (tasks, CLI) can decide: retry, or fail fast with one clear message."""

from __future__ import annotations

import re

# query parameters that carry credentials (kept in step with runtime.urlnorm.SECRET_PARAMS)
_SECRET_QUERY = re.compile(
    r"([?&;](?:token|key|api_key|apikey|password|passwd|secret|access_token|auth|signature)=)[^&\s#'\":,)]+",
    re.IGNORECASE,
)


def redact_secrets(text: str) -> str:
    """``...?token=abc`` -> ``...?token=REDACTED``: error messages name URLs, never the credentials in them.

    Also every secret value registered with ``prefect_autodata.redact`` (resolved secrets, credentials sent)."""
    from prefect_autodata.redact import redact_text

    return redact_text(_SECRET_QUERY.sub(r"\1REDACTED", text))


class AutoDataError(Exception):
    """Base of every error this package raises on purpose. Its message never carries a URL's secret."""

    def __init__(self, *args: object) -> None:
        if args and isinstance(args[0], str):
            args = (redact_secrets(args[0]), *args[1:])
        super().__init__(*args)


class TransientError(AutoDataError):
    """Worth retrying: timeouts, 5xx, 429, connection resets."""

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class TerminalError(AutoDataError):
    """Retrying will not help: bad input, 4xx, policy refusals, invalid specs."""


class ConfigError(TerminalError):
    """A spec, block, or CLI argument is invalid; the message names the field."""


class FetchError(TerminalError):
    """A URL could not be fetched in a usable form (robots, SSRF policy, bot-check, too big...)."""


class NoRecordsError(TerminalError):
    """Extraction matched nothing: never report an empty success."""


class BudgetExceeded(TerminalError):
    """An agent run hit a hard budget (tokens, money, steps, wall time)."""
