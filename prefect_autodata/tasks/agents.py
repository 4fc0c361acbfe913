"""Agent steps as named Prefect tasks, so a collection's plan/web/tool/blueprint/engineering/test/
validation/manager turns are visible (and timed) in the Prefect UI.

The squads schedule their agents through ``AgentRuntime.step(role)`` inside
``research_and_develop``; ``agent_steps_as_tasks()`` runs each such step as a Prefect task named
after the role for the duration of a flow, without the squads knowing about Prefect.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

from prefect import task
from prefect.cache_policies import NO_CACHE

_lock = threading.Lock()


@contextlib.contextmanager
def agent_steps_as_tasks() -> Iterator[None]:
    """Within this block (inside a flow run) every agent step is a task run named after its role."""
    from prefect.context import FlowRunContext

    from prefect_autodata.agents.base import AgentRuntime

    if FlowRunContext.get() is None:  # plain Python: nothing to show
        yield
        return
    with _lock:
        original = AgentRuntime.step

        def step(self: Any, role: Any, *args: Any, **kwargs: Any) -> Any:
            name = getattr(role, "value", str(role))
            agent_task = task(
                lambda: original(self, role, *args, **kwargs),
                name=name,
                task_run_name=f"{name}",
                cache_policy=NO_CACHE,
                retries=0,
            )
            return agent_task()

        AgentRuntime.step = step  # type: ignore[method-assign]
        try:
            yield
        finally:
            AgentRuntime.step = original  # type: ignore[method-assign]


@task(name="research-and-develop", cache_policy=NO_CACHE)
def research_and_develop_task(instruction: str, **kwargs: Any) -> Any:
    """The squads (plan -> research -> blueprint -> spec <-> dry runs -> checks); each agent turn a subtask."""
    from prefect_autodata.agents.squads import research_and_develop

    with agent_steps_as_tasks():
        return research_and_develop(instruction, **kwargs)
