"""Routing exactly as Eq. 3: an agent's context is the messages addressed to it before t, in order."""

from __future__ import annotations

import random

import pytest

from prefect_autodata.errors import ConfigError
from prefect_autodata.ohcache.hypergraph import Hypergraph
from prefect_autodata.ohcache.messages import ALL_ROLES, FreeText, Role
from prefect_autodata.ohcache.routing import DEFAULT_ROUTES, RoutingTable


def _random_graph(seed: int, n: int = 200) -> Hypergraph:
    rng = random.Random(seed)
    g = Hypergraph()
    for i in range(n):
        src = rng.choice(ALL_ROLES)
        others = [r for r in ALL_ROLES if r != src]
        targets = rng.sample(others, rng.randint(1, len(others)))
        g.add(src, targets, FreeText(role=src, text=f"m{i}"))
    return g


@pytest.mark.parametrize("seed", range(20))
def test_context_is_exactly_eq3(seed):
    g = _random_graph(seed)
    rng = random.Random(seed + 1000)
    for role in ALL_ROLES:
        t = rng.randint(0, len(g))
        ctx = g.context(role, before=t)
        expected = [e for e in g.edges if role in e.targets and e.seq < t]
        assert ctx == expected  # same messages, same order
        assert all(role in e.targets and e.source != role for e in ctx)  # never a message not addressed to it
        assert [e.seq for e in ctx] == sorted(e.seq for e in ctx)


def test_hyperedge_invariants():
    g = Hypergraph()
    with pytest.raises(ConfigError, match="empty target set"):
        g.add(Role.PLAN, [], FreeText(role=Role.PLAN, text="x"))
    with pytest.raises(ConfigError, match="its own source"):
        g.add(Role.PLAN, [Role.PLAN, Role.WEB], FreeText(role=Role.PLAN, text="x"))
    with pytest.raises(ValueError):
        g.add(Role.PLAN, ["nobody"], FreeText(role=Role.PLAN, text="x"))
    assert len(g) == 0


def test_default_routing_table_is_the_papers():
    rt = RoutingTable()
    assert rt.targets(Role.PLAN) == {Role.WEB, Role.TOOL, Role.BLUEPRINT, Role.MANAGER}
    assert rt.targets(Role.WEB) == {Role.TOOL, Role.BLUEPRINT, Role.MANAGER}
    assert rt.targets(Role.TOOL) == {Role.WEB, Role.BLUEPRINT, Role.MANAGER}
    assert rt.targets(Role.BLUEPRINT) == {Role.ENGINEERING, Role.TEST, Role.VALIDATION, Role.MANAGER}
    assert rt.targets(Role.ENGINEERING) == {Role.TEST, Role.VALIDATION, Role.MANAGER}
    assert rt.targets(Role.TEST) == {Role.ENGINEERING, Role.VALIDATION, Role.MANAGER}
    assert rt.targets(Role.VALIDATION) == {Role.ENGINEERING, Role.TEST, Role.MANAGER}
    assert rt.targets(Role.MANAGER, scheduled=Role.TEST) == {Role.TEST}
    with pytest.raises(ConfigError, match="needs the scheduled agent"):
        rt.targets(Role.MANAGER)


def test_routing_is_configurable_and_broadcast_is_a3():
    custom = RoutingTable(routes={**DEFAULT_ROUTES, Role.PLAN: [Role.WEB]})
    assert custom.targets(Role.PLAN) == {Role.WEB}
    with pytest.raises(ConfigError, match="routes to itself"):
        RoutingTable(routes={Role.WEB: [Role.WEB]})
    b = RoutingTable(broadcast=True)
    for role in ALL_ROLES:
        assert b.targets(role) == set(ALL_ROLES) - {role}


def test_routed_runtime_never_leaks(tmp_path):
    """Through the runtime: a research message never reaches the development squad."""
    from prefect_autodata.agents.base import AgentRuntime

    rt = AgentRuntime(cache=tmp_path)
    rt.post(Role.WEB, FreeText(role=Role.WEB, text="page seen"))
    assert rt.inbox(Role.ENGINEERING) == [] and rt.inbox(Role.TEST) == []
    assert [e.body.text for e in rt.inbox(Role.BLUEPRINT)] == ["page seen"]
