"""The squads, wired: research (plan, web, tool, blueprint) and development (engineering, test,
validation) agents coordinated by the manager over OHCache, with the offline or the LLM backend.

``research_and_develop`` is the whole agent part of ``autodata collect``: instruction in, a tested
CollectorSpec and a CheckSpec out (plus the trace ID, tokens, cost, agent time and why it stopped).
The offline role implementations live in ``offline_roles`` (registered in the offline backend when
imported); they keep their heavy objects (the HTTP fetcher, the search provider, the evidence bundle)
in the per-run ``SquadContext`` (``context``) while everything they say to each other travels as
routed, schema-checked messages and cached artifacts, exactly as with the LLM backend.
"""

from __future__ import annotations

import time
import uuid
from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from prefect_autodata.agents.base import AgentRuntime, Tool, Toolbox, ToolError
from prefect_autodata.agents.budget import Budget
from prefect_autodata.agents.context import Progress, SquadContext, bind, current, unbind
from prefect_autodata.agents.manager import ManagerPolicy, StopReason, stop_reason_of
from prefect_autodata.agents.mirror import runnable, unmirrored
from prefect_autodata.agents.offline.backend import OfflineBackend
from prefect_autodata.agents.offline_roles import (  # importing it registers the offline roles
    checks_from_proposals,
    engineering_message,
    proposals_from_checks,
    soft_best,
    spec_key,
)
from prefect_autodata.agents.plan import make_plan
from prefect_autodata.agents.request import Request as ParsedInstruction
from prefect_autodata.errors import AutoDataError, BudgetExceeded
from prefect_autodata.expectations.spec import CheckSpec
from prefect_autodata.ohcache.cache import ArtifactCache
from prefect_autodata.ohcache.messages import (
    BlueprintMessage,
    EngineeringMessage,
    ManagerMessage,
    Role,
    TestMessage,
    ValidationMessage,
)
from prefect_autodata.ohcache.trace import Trace
from prefect_autodata.runtime.spec import CollectorSpec
from prefect_autodata.workspace import Workspace

# ------------------------------------------------------------------------------------------ LLM tools


def llm_tools(ctx: SquadContext, cache: ArtifactCache) -> list[Tool]:
    """The LLM agents' tools: the offline discovery, induction and test as tools (``agents/toolset.py``)."""
    from prefect_autodata.agents.toolset import llm_tools as toolset

    return toolset(ctx, cache)


# ------------------------------------------------------------------------------------------ result


class SquadResult(BaseModel):
    """What the squads produced for one instruction, and how it went."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    spec: CollectorSpec | None = None
    checks: CheckSpec | None = None
    plan: ParsedInstruction
    blueprint: BlueprintMessage | None = None
    test: TestMessage | None = None
    trace_id: str
    tokens: int = 0
    cost_usd: float = 0.0
    agent_seconds: float = 0.0
    stop_reason: StopReason
    detail: str = ""
    backend: str = "offline"
    notes: list[str] = []
    fields: dict[str, dict[str, Any]] = {}  # per requested field: rule (or None) and dry-run fill rate

    @property
    def ok(self) -> bool:
        return self.stop_reason == "success" and self.spec is not None


def _tb(rt: AgentRuntime) -> Toolbox:
    return Toolbox(rt, Role.ENGINEERING, rt.tools, [])


def _final_messages(rt: AgentRuntime) -> tuple[Any, Any, Any, Any]:
    eng = test = val = bp = None
    for e in rt.graph.edges:
        b = e.body
        if isinstance(b, EngineeringMessage):
            eng = b
        elif isinstance(b, TestMessage):
            test = b
        elif isinstance(b, ValidationMessage):
            val = b
        elif isinstance(b, BlueprintMessage):
            bp = b
    return eng, test, val, bp


def research_and_develop(
    instruction: str,
    *,
    sources: list[str] | None = None,
    fields: list[str] | None = None,
    name: str | None = None,
    backend: Literal["offline", "llm"] | Any = "offline",
    workspace: Workspace | None = None,
    search: Any = None,
    search_url: str | None = None,
    mirror: str | None = None,
    today: date | None = None,
    budget: Budget | None = None,
    llm_settings: Any = None,
    max_repairs: int = 4,
    fetch_policy: Any = None,
    progress: Progress | None = None,
    run_id: str | None = None,
) -> SquadResult:
    """Instruction → plan → research → blueprint → spec ⇄ dry runs → checks, scheduled by the manager.

    Never raises for an agent-level failure (unresolvable instruction, nothing found, budget, no
    progress): the result's ``stop_reason`` and ``detail`` say what happened. ``mirror`` is a local
    mirror base URL (``--sandbox``): the returned spec names the real hosts and runs through it.
    """
    from prefect_autodata.agents.tool import search_provider_from_config
    from prefect_autodata.runtime.fetch import Fetcher
    from prefect_autodata.runtime.policy import FetchPolicy

    t0 = time.monotonic()
    ws = (workspace or Workspace.default()).ensure()
    run_id = run_id or f"collect-{uuid.uuid4().hex[:10]}"
    trace = Trace.for_run(ws.traces_dir, run_id)
    cache = ArtifactCache(ws.cache_dir)
    say = progress or (lambda _s, _m: None)
    sources = [s.strip() for s in (sources or []) if s and s.strip()]
    from prefect_autodata.redact import scan_url

    for s in sources:  # a --source URL's credentials never reach the plan, the trace or the cache
        scan_url(s)
    hosts = set()
    from urllib.parse import urlsplit

    for s in sources + ([search_url] if search_url else []) + ([mirror] if mirror else []):
        h = urlsplit(s).hostname
        if h:
            hosts.add(h)
    fetcher = Fetcher(fetch_policy or FetchPolicy(rate_limit_per_host=0, concurrency_per_host=8), hosts)
    if search is None and not sources:
        search = search_provider_from_config(search_url)
    parsed = make_plan(instruction, fields=fields, today=today, sources=sources)
    ctx = SquadContext(
        instruction=instruction,
        fields=fields,
        sources=sources,
        fetcher=fetcher,
        search=search,
        today=today,
        progress=say,
        mirror=mirror,
        name=name,
        policy=ManagerPolicy(max_repairs=max_repairs),
        parsed=parsed,
    )
    is_llm = backend == "llm" or getattr(backend, "name", "") == "llm"
    if backend == "llm":
        from prefect_autodata.agents.llm import LLMBackend, LLMSettings

        backend = LLMBackend(llm_settings or LLMSettings.from_env())
    if is_llm:
        budget = budget or backend.settings.budget
        if backend.settings.api_key.get_secret_value():
            trace.add_secret(backend.settings.api_key.get_secret_value())
    rt = AgentRuntime(
        cache=cache,
        trace=trace,
        budget=budget or Budget(max_tokens=None, max_cost_usd=None),
        tools=llm_tools(ctx, cache) if is_llm else (),
    )
    agents_from = backend if is_llm else (backend if backend not in (None, "offline") else OfflineBackend())
    rt.add(*(agents_from.agent(r) for r in Role))
    token = bind(ctx)
    stop: StopReason = "error"
    detail = ""
    soft = False
    try:
        req = f"Request: {instruction}" + (f" | fields: {', '.join(fields)}" if fields else "")
        if sources:
            req += f" | sources: {', '.join(sources)}"
        rt.post(Role.MANAGER, ManagerMessage(next=Role.PLAN, instruction=req[:2000]))
        rt.step(Role.PLAN)
        rt.run_managed(max_rounds=4 * max_repairs + 20)
        fin = trace.of_event("finish")
        reason = fin[-1].get("reason", "") if fin else ""
        stop = stop_reason_of(ManagerMessage(next="finish", reason=reason))
        detail = reason.split(":", 1)[1].strip() if ":" in reason else ""
        if stop == "no_progress" and not is_llm and (best := soft_best(ctx)) is not None:
            # The closest spec beats no dataset when its only problems are soft (fields absent, short sample).
            ctx.spec, soft = best, True
            eid = rt.post(
                Role.ENGINEERING, engineering_message(ctx, best, f"accepted with issues: {detail}", _tb(rt))
            )
            rt.step(Role.VALIDATION)
            stop, detail = "success", f"accepted with soft issues after repairs: {detail} (edge {eid.seq})"
    except BudgetExceeded as exc:
        stop, detail = "budget", str(exc)
    except AutoDataError as exc:
        stop, detail = "error", str(exc)
    finally:
        unbind(token)
        if ctx.web_agent is not None:
            ctx.web_agent.close()
        fetcher.close()
    eng, test, val, bp = _final_messages(rt)
    spec = checks = None
    notes: list[str] = []
    if eng is not None:
        try:
            spec = unmirrored(CollectorSpec.parse(eng.spec), mirror)
            if name and spec.name != name:
                spec = CollectorSpec.model_validate(
                    {**spec.model_dump(mode="json", exclude_none=True), "name": name}
                )
        except AutoDataError as exc:
            stop, detail = (
                ("error", f"the engineering agent's spec is invalid: {exc}")
                if stop == "success"
                else (stop, detail)
            )
    if val is not None and spec is not None:
        checks = ctx.checks
        if checks is None:
            cached = (
                [a for a in val.artifacts if cache.meta(a).summary.startswith("CheckSpec")]
                if val.artifacts
                else []
            )
            if cached:
                checks = CheckSpec.from_yaml(cache.get_text(cached[-1]), source=cached[-1])
            else:
                checks, skipped = checks_from_proposals(spec.name, list(val.checks))
                notes += [f"check skipped: {s}" for s in skipped]
        if checks.name != spec.name:
            checks = checks.model_copy(update={"name": spec.name})
    if stop == "success" and (spec is None or (test is not None and test.verdict != "pass" and not soft)):
        stop, detail = "error", detail or "the squads finished without a passing spec"
    from prefect_autodata.agents.test import fields_report, requested_names, tried_summary

    wanted = requested_names(ctx.parsed or parsed)
    final_rep = (
        ctx.extra.get("reports", {}).get(spec_key(ctx.spec)) if ctx.spec is not None else None
    ) or next(
        (r for s, r in reversed(ctx.tested) if ctx.spec is not None and s.version == ctx.spec.version), None
    )
    field_info = fields_report(spec, final_rep, wanted) if spec is not None else {}
    if stop != "success" and wanted and stop != "unresolvable":
        detail = f"{detail}; tried per field: {tried_summary(ctx.tested, wanted)}"
    summary = rt.meter.summary()
    trace.emit(
        "squads_done",
        stop_reason=stop,
        detail=detail,
        tokens=summary["tokens"],
        cost_usd=summary["cost_usd"],
        by_role=summary["by_role"],
        seconds=round(time.monotonic() - t0, 3),
    )
    return SquadResult(
        spec=spec,
        checks=checks,
        plan=ctx.parsed or parsed,
        blueprint=bp,
        test=test,
        trace_id=run_id,
        tokens=int(summary["tokens"]),
        cost_usd=float(summary["cost_usd"]),
        agent_seconds=round(time.monotonic() - t0, 3),
        stop_reason=stop,
        detail=detail,
        backend="llm" if is_llm else "offline",
        notes=notes,
        fields=field_info,
    )


__all__ = [
    "SquadContext",
    "SquadResult",
    "ToolError",
    "checks_from_proposals",
    "current",
    "proposals_from_checks",
    "research_and_develop",
    "runnable",
    "unmirrored",
]
