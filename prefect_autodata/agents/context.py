"""The per-run squad context: the resources and intermediate objects of one collection.

The offline roles (``offline_roles``) and the LLM tool surface (``toolset``) keep their heavy objects
(the HTTP fetcher, the search provider, the evidence bundle, the dry-run reports) here while everything
the agents say to each other travels as routed, schema-checked messages; ``squads.research_and_develop``
makes one per run and binds it for the run's duration (``bind``/``unbind``).
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from prefect_autodata.agents.manager import ManagerPolicy
from prefect_autodata.agents.request import Request as ParsedInstruction
from prefect_autodata.errors import ConfigError
from prefect_autodata.expectations.spec import CheckSpec
from prefect_autodata.runtime.spec import CollectorSpec

Progress = Callable[[str, str], None]
"""``progress(stage, message)``: stage is a role name or ``collect``; called as the squads work."""


@dataclass
class SquadContext:
    """Per-run resources and intermediate objects of the offline roles (never sent between agents)."""

    instruction: str
    fields: list[str] | None
    sources: list[str]
    fetcher: Any
    search: Any
    today: date | None
    progress: Progress
    mirror: str | None = None
    name: str | None = None
    policy: ManagerPolicy = field(default_factory=ManagerPolicy)
    parsed: ParsedInstruction | None = None
    evidence: Any = None
    web_agent: Any = None
    blueprint: Any = None
    candidates: list[Any] = field(default_factory=list)
    candidate_index: int = 0
    spec: CollectorSpec | None = None
    test_reports: list[Any] = field(default_factory=list)
    tested: list[tuple[CollectorSpec, Any]] = field(default_factory=list)
    checks: CheckSpec | None = None
    extra: dict[str, Any] = field(default_factory=dict)


_CTX: contextvars.ContextVar[SquadContext] = contextvars.ContextVar("autodata_squad")


def current() -> SquadContext:
    """The squad context of the running collection (offline roles read their resources from it)."""
    try:
        return _CTX.get()
    except LookupError as exc:
        raise ConfigError("offline squad roles run only inside research_and_develop(...)") from exc


def bind(ctx: SquadContext) -> contextvars.Token[SquadContext]:
    """Make ``ctx`` the running collection's context (``current()``) until ``unbind(token)``."""
    return _CTX.set(ctx)


def unbind(token: contextvars.Token[SquadContext]) -> None:
    _CTX.reset(token)
