"""The offline backend: registered role functions become agents the runtime runs, deterministically."""

from __future__ import annotations

import pytest

from prefect_autodata.agents.base import Agent, AgentRuntime
from prefect_autodata.agents.offline import backend as offline_backend
from prefect_autodata.agents.offline.backend import OfflineBackend, register_offline_role
from prefect_autodata.errors import ConfigError
from prefect_autodata.ohcache.messages import ManagerMessage, Role, ValidationMessage


@pytest.fixture(autouse=True)
def isolated_registry(monkeypatch):
    """The registry is process-global: start each test empty and restore the real roles afterwards."""
    monkeypatch.setattr(offline_backend, "_REGISTRY", {})


def test_registry_and_managed_run(tmp_path):
    turns = iter([Role.VALIDATION, "finish"])

    @register_offline_role(Role.MANAGER)
    def manager(inbox, tools):
        return ManagerMessage(next=next(turns))

    def validation(inbox, tools):
        return {"checks": [{"name": "ticker not null", "kind": "not_null", "column": "ticker"}]}

    backend = OfflineBackend(overrides={Role.VALIDATION: validation})
    agent = backend.agent(Role.MANAGER)
    assert isinstance(agent, Agent) and agent.role == Role.MANAGER
    rt = AgentRuntime(cache=tmp_path).add(agent, backend.agent(Role.VALIDATION))
    edges = rt.run_managed()
    assert [type(e.body) for e in edges] == [ManagerMessage, ValidationMessage]
    assert rt.trace.of_event("finish")
    assert edges[1].targets == {Role.ENGINEERING, Role.TEST, Role.MANAGER}


def test_missing_role_is_a_clear_error(tmp_path):
    with pytest.raises(ConfigError, match="no offline implementation for role 'tool'"):
        OfflineBackend().agent(Role.TOOL)
    with pytest.raises(ConfigError, match="no agent registered for role 'web'"):
        AgentRuntime(cache=tmp_path).step(Role.WEB)
    with pytest.raises(ConfigError, match="is not an agent"):
        AgentRuntime(cache=tmp_path).add(object())
