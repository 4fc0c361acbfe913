"""The LLM plan agent on its own: one sentence → the same ``Request`` the offline parser produces.

``autodata plan --backend llm`` runs only the plan role (nothing is fetched): the model's reading of the
sentence is merged into the offline parse (``outputs.request_from_reply``); a reply that still does not
validate after one repair turn leaves the offline parse as the answer (``source`` says which it is).
"""

from __future__ import annotations

import tempfile
import uuid
from dataclasses import dataclass
from datetime import date

from prefect_autodata.agents.base import AgentRuntime
from prefect_autodata.agents.budget import Budget
from prefect_autodata.agents.llm.agent import LLMBackend
from prefect_autodata.agents.llm.config import LLMSettings
from prefect_autodata.agents.llm.outputs import PLAN_SLOT, PlanSlot
from prefect_autodata.agents.request import Request
from prefect_autodata.ohcache.cache import ArtifactCache
from prefect_autodata.ohcache.messages import ManagerMessage, Role
from prefect_autodata.ohcache.trace import Trace


@dataclass
class PlanReading:
    """The Request, where it came from (``llm`` or the offline fallback), and what reading it cost."""

    request: Request
    source: str
    tokens: int
    cost_usd: float


def read_request(
    instruction: str,
    *,
    fields: list[str] | None = None,
    schema: list[tuple[str, str | None]] | None = None,
    today: date | None = None,
    settings: LLMSettings | None = None,
    backend: LLMBackend | None = None,
) -> PlanReading:
    """The LLM plan agent's Request for ``instruction`` (``--fields``/``--schema`` win, as offline)."""
    from prefect_autodata.agents.plan import make_plan

    offline = make_plan(instruction, fields=fields, schema=schema, today=today)
    backend = backend or LLMBackend(settings or LLMSettings.from_env())
    trace = Trace(f"plan-{uuid.uuid4().hex[:10]}")
    trace.add_secret(backend.settings.api_key.get_secret_value())
    slot = PlanSlot(offline=offline)
    token = PLAN_SLOT.set(slot)
    try:
        with tempfile.TemporaryDirectory(prefix="autodata-plan-") as tmp:
            budget = backend.settings.budget or Budget()
            rt = AgentRuntime(cache=ArtifactCache(tmp), trace=trace, budget=budget)
            rt.add(backend.agent(Role.PLAN))
            names = [f.name for f in offline.fields if f.origin in ("fields", "schema")]
            req = f"Request: {instruction}" + (f" | fields: {', '.join(names)}" if names else "")
            rt.post(Role.MANAGER, ManagerMessage(next=Role.PLAN, instruction=req[:2000]))
            rt.step(Role.PLAN)
            summary = rt.meter.summary()
    finally:
        PLAN_SLOT.reset(token)
    return PlanReading(
        request=slot.request or offline,
        source=slot.source or "offline",
        tokens=int(summary["tokens"]),
        cost_usd=float(summary["cost_usd"]),
    )


__all__ = ["PlanReading", "read_request"]
