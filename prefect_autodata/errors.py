"""One error hierarchy so callers (tasks, CLI) can decide: retry, or fail fast with one clear message."""

from __future__ import annotations


class AutoDataError(Exception):
    """Base of every error this package raises on purpose."""


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
