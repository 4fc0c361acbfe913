"""The offline backend: deterministic role implementations behind the same ``Agent`` interface, no LLM, no key.

Role implementations register themselves (the squads' rule-based roles)::

    @register_offline_role(Role.PLAN)
    def plan(inbox: list[Message], tools: Toolbox) -> PlanMessage: ...

``OfflineBackend().agent(Role.PLAN)`` then returns an agent the runtime can run.
"""

from __future__ import annotations

from collections.abc import Callable

from prefect_autodata.agents.base import AgentOutput, Toolbox
from prefect_autodata.errors import ConfigError
from prefect_autodata.ohcache.hypergraph import Message
from prefect_autodata.ohcache.messages import Role

RoleFn = Callable[[list[Message], Toolbox], AgentOutput]

_REGISTRY: dict[Role, RoleFn] = {}


def register_offline_role(role: Role | str, fn: RoleFn | None = None):
    """Register ``fn`` as the offline implementation of ``role`` (usable as a decorator). Last one wins."""

    def deco(f: RoleFn) -> RoleFn:
        _REGISTRY[Role(role)] = f
        return f

    return deco(fn) if fn is not None else deco


def registered_roles() -> list[Role]:
    return sorted(_REGISTRY, key=list(Role).index)


class OfflineAgent:
    """Wraps a registered function as an ``Agent``."""

    def __init__(self, role: Role, fn: RoleFn) -> None:
        self.role = role
        self.fn = fn

    def run(self, inbox: list[Message], tools: Toolbox) -> AgentOutput:
        return self.fn(inbox, tools)

    def __repr__(self) -> str:
        return f"OfflineAgent({self.role.value}, {getattr(self.fn, '__qualname__', self.fn)!r})"


class OfflineBackend:
    """Hands out offline agents; ``overrides`` replaces registered roles for one backend instance."""

    name = "offline"

    def __init__(self, overrides: dict[Role, RoleFn] | None = None) -> None:
        self.overrides = {Role(k): v for k, v in (overrides or {}).items()}

    def agent(self, role: Role | str) -> OfflineAgent:
        role = Role(role)
        fn = self.overrides.get(role) or _REGISTRY.get(role)
        if fn is None:
            have = ", ".join(r.value for r in registered_roles()) or "none"
            raise ConfigError(f"no offline implementation for role {role.value!r} (registered: {have})")
        return OfflineAgent(role, fn)

    def agents(self, roles: list[Role | str] | None = None) -> list[OfflineAgent]:
        return [self.agent(r) for r in (roles or registered_roles())]
