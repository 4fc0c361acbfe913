"""Who hears whom: the routing table that turns one agent's output into a hyperedge's target set.

Defaults follow the AutoData paper. A configurable table lets a squad add roles or tighten
routes; ``broadcast`` is ablation A3 (everyone hears everything).
"""

from __future__ import annotations

from pydantic import BaseModel, Field, model_validator

from prefect_autodata.errors import ConfigError
from prefect_autodata.ohcache.messages import ALL_ROLES, Role

DEFAULT_ROUTES: dict[Role, tuple[Role, ...]] = {
    Role.PLAN: (Role.WEB, Role.TOOL, Role.BLUEPRINT, Role.MANAGER),
    Role.WEB: (Role.TOOL, Role.BLUEPRINT, Role.MANAGER),
    Role.TOOL: (Role.WEB, Role.BLUEPRINT, Role.MANAGER),
    Role.BLUEPRINT: (Role.ENGINEERING, Role.TEST, Role.VALIDATION, Role.MANAGER),
    Role.ENGINEERING: (Role.TEST, Role.VALIDATION, Role.MANAGER),
    Role.TEST: (Role.ENGINEERING, Role.VALIDATION, Role.MANAGER),
    Role.VALIDATION: (Role.ENGINEERING, Role.TEST, Role.MANAGER),
    Role.MANAGER: (),  # the manager speaks to whichever agent it schedules
}


class RoutingTable(BaseModel):
    """source role → target roles. The manager's targets are chosen per message (its ``next``)."""

    routes: dict[Role, list[Role]] = Field(
        default_factory=lambda: {k: list(v) for k, v in DEFAULT_ROUTES.items()}
    )
    broadcast: bool = Field(
        default=False, description="Ablation A3: every message goes to every other agent."
    )

    @model_validator(mode="after")
    def _no_self_routes(self) -> RoutingTable:
        for src, targets in self.routes.items():
            if src in targets:
                raise ConfigError(
                    f"routing table: role {src.value!r} routes to itself; targets must exclude the source"
                )
        return self

    def targets(self, source: Role | str, scheduled: Role | str | None = None) -> frozenset[Role]:
        """The target set of a message from ``source`` (``scheduled``: the agent the manager picked)."""
        source = Role(source)
        if self.broadcast:
            return frozenset(r for r in ALL_ROLES if r != source)
        if source == Role.MANAGER:
            if scheduled is None:
                raise ConfigError("routing: a manager message needs the scheduled agent (its 'next' field)")
            scheduled = Role(scheduled)
            if scheduled == Role.MANAGER:
                raise ConfigError("routing: the manager cannot schedule itself")
            return frozenset({scheduled})
        targets = frozenset(self.routes.get(source, ()))
        if not targets:
            raise ConfigError(f"routing table has no targets for role {source.value!r}")
        return targets

    def table(self) -> list[tuple[str, list[str]]]:
        """Rows for docs and the CLI."""
        return [
            (r.value, [t.value for t in self.routes.get(r, [])] or ["<scheduled agent>"]) for r in ALL_ROLES
        ]
