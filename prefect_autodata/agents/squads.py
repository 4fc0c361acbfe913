"""The squads, wired: research (plan, web, tool, blueprint) and development (engineering, test,
validation) agents coordinated by the manager over OHCache, with the offline or the LLM backend.

``research_and_develop`` is the whole agent part of ``autodata collect``: instruction in, a tested
CollectorSpec and a CheckSpec out (plus the trace ID, tokens, cost, agent time and why it stopped).
Offline role implementations are registered in the backend registry here; they keep their heavy
objects (the HTTP fetcher, the search provider, the evidence bundle) in a per-run ``SquadContext``
while everything they say to each other travels as routed, schema-checked messages and cached
artifacts, exactly as with the LLM backend.
"""

from __future__ import annotations

import contextvars
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from prefect_autodata.agents.base import AgentRuntime, Tool, Toolbox, ToolError
from prefect_autodata.agents.budget import Budget
from prefect_autodata.agents.manager import ManagerPolicy, StopReason, decide, stop_reason_of
from prefect_autodata.agents.offline.backend import OfflineBackend, register_offline_role
from prefect_autodata.agents.offline.instruction import ParsedInstruction
from prefect_autodata.agents.plan import make_plan, plan_message
from prefect_autodata.errors import AutoDataError, BudgetExceeded, ConfigError
from prefect_autodata.expectations.spec import Check, CheckSpec
from prefect_autodata.ohcache.cache import ArtifactCache
from prefect_autodata.ohcache.hypergraph import Message
from prefect_autodata.ohcache.messages import (
    BlueprintMessage,
    CheckProposal,
    EngineeringMessage,
    ManagerMessage,
    Role,
    TestMessage,
    ValidationMessage,
)
from prefect_autodata.ohcache.trace import Trace
from prefect_autodata.runtime.spec import CollectorSpec, mirrored
from prefect_autodata.workspace import Workspace

Progress = Callable[[str, str], None]
"""``progress(stage, message)``: stage is a role name or ``collect``; called as the squads work."""


# ------------------------------------------------------------------------------------------ context


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


# ------------------------------------------------------------------------------------------ specs and checks


def spec_to_message_dict(spec: CollectorSpec) -> dict[str, Any]:
    return spec.model_dump(mode="json", exclude_none=True)


def _unmirror(url: str, mirror: str) -> str:
    prefix = mirror.rstrip("/") + "/"
    if url.startswith(prefix):
        rest = url[len(prefix) :]
        if rest and "." in rest.split("/", 1)[0]:
            return "https://" + rest
    return url


def unmirrored(spec: CollectorSpec, mirror: str | None) -> CollectorSpec:
    """Inverse of ``runtime.spec.mirrored``: ``<mirror>/host/path`` becomes ``https://host/path``.

    Specs are saved pointing at the real hosts so that ``autodata run NAME`` (or ``--sandbox`` again)
    reruns them; the run itself goes through the mirror. A ``base_url`` equal to the mirror is folded
    into absolute source URLs first.
    """
    if not mirror:
        return spec
    mirror = mirror.rstrip("/")
    data = spec.model_dump(mode="json", exclude_none=True)
    base = (data.get("base_url") or "").rstrip("/")
    for s in data["sources"]:
        url = s["request"]["url"]
        if url.startswith("{base_url}") and base:
            url = base + url[len("{base_url}") :]
        s["request"]["url"] = _unmirror(url, mirror)
        headers = s["request"].get("headers") or {}
        for k, v in list(headers.items()):
            headers[k] = _unmirror(v, mirror)
        ref = next((v for k, v in headers.items() if k.lower() == "referer"), None)
        for k, v in list(headers.items()):
            if v.rstrip("/") == mirror and ref and ref != v:
                parts = urlsplit(ref)
                headers[k] = f"{parts.scheme}://{parts.netloc}"
    if base:
        data["base_url"] = _unmirror(base, mirror) if base != mirror else None
        if data["base_url"] is None:
            data.pop("base_url")
    return CollectorSpec.model_validate(data)


def runnable(spec: CollectorSpec, mirror: str | None) -> CollectorSpec:
    """The spec as it runs now: through the mirror when one is active (idempotent)."""
    return mirrored(unmirrored(spec, mirror), mirror) if mirror else spec


_CHECK = TypeAdapter(Check)


def proposals_from_checks(checks: CheckSpec) -> list[CheckProposal]:
    """A CheckSpec as the validation role's message content (one proposal per check)."""
    out = []
    for c in checks.checks:
        data = c.model_dump(mode="json", exclude_none=True)
        kind = data.pop("kind")
        data.pop("name", None)
        column = data.pop("column", None)
        out.append(CheckProposal(name=c.check_name, kind=kind, column=column, params=data))
    return out


def checks_from_proposals(name: str, proposals: list[CheckProposal]) -> tuple[CheckSpec, list[str]]:
    """CheckProposals (e.g. from an LLM) → a CheckSpec; proposals that do not fit a check kind are skipped and named."""
    checks, skipped = [], []
    seen: set[str] = set()
    for p in proposals:
        data: dict[str, Any] = {"kind": p.kind, "name": p.name, **p.params}
        if p.column is not None:
            data.setdefault("column", p.column)
            if p.kind == "unique":
                data.pop("column")
                data.setdefault("columns", [p.column])
        try:
            c = _CHECK.validate_python(data)
        except ValidationError as exc:
            skipped.append(f"{p.name}: {exc.errors()[0]['msg']}")
            continue
        if c.check_name in seen:
            skipped.append(f"{p.name}: duplicate name")
            continue
        seen.add(c.check_name)
        checks.append(c)
    return CheckSpec(name=name, policy="quarantine", checks=checks), skipped


# ------------------------------------------------------------------------------------------ offline roles


def _latest(inbox: list[Message], kind: type) -> Any:
    for edge in reversed(inbox):
        if isinstance(edge.body, kind):
            return edge.body
    return None


@register_offline_role(Role.PLAN)
def plan_role(inbox: list[Message], tools: Toolbox):
    ctx = current()
    ctx.parsed = make_plan(ctx.instruction, fields=ctx.fields, today=ctx.today, sources=ctx.sources)
    cid = tools.store(
        ctx.parsed.model_dump_json(),
        kind="json",
        summary=f"parsed instruction ({ctx.parsed.kind or (ctx.parsed.entity.singular if ctx.parsed.entity else None)})",
        media_type="application/json",
    )
    msg = plan_message(ctx.parsed, artifacts=[cid])
    ctx.progress("plan", msg.scope if ctx.parsed.is_resolved else "missing: " + "; ".join(ctx.parsed.missing))
    return msg


@register_offline_role(Role.WEB)
def web_role(inbox: list[Message], tools: Toolbox):
    from prefect_autodata.agents.web import WebAgent, store_evidence, web_message

    ctx = current()
    agent = WebAgent(
        fetcher=ctx.fetcher, store=tools.store, search=ctx.search, log=lambda m: ctx.progress("web", m)
    )
    ctx.web_agent = agent
    ev = agent.discover(ctx.parsed, ctx.sources or None)
    ctx.evidence = ev
    eid = store_evidence(ev, tools.store)
    ctx.extra["evidence_id"] = eid
    ctx.progress("web", f"{len(ev.candidates)} pages, {len(ev.endpoints)} endpoints")
    return web_message(ev, eid)


@register_offline_role(Role.TOOL)
def tool_role(inbox: list[Message], tools: Toolbox):
    from prefect_autodata.agents.web import tool_message

    ctx = current()
    return tool_message(ctx.web_agent, ctx.evidence)


@register_offline_role(Role.BLUEPRINT)
def blueprint_role(inbox: list[Message], tools: Toolbox):
    from prefect_autodata.agents.blueprint import blueprint_message, choose_blueprint

    ctx = current()
    ctx.blueprint = choose_blueprint(ctx.evidence, fields=ctx.parsed.field_names, name=ctx.name)
    msg = blueprint_message(ctx.blueprint)
    ctx.progress("blueprint", msg.headline())
    return msg


def _candidate_spec(c: Any) -> CollectorSpec:
    if isinstance(c, CollectorSpec):
        return c
    if isinstance(c, dict):
        return CollectorSpec.parse(c)
    return c.spec


def _engineering_message(
    ctx: SquadContext, spec: CollectorSpec, rationale: str, tools: Toolbox
) -> EngineeringMessage:
    cid = tools.store(
        spec.to_yaml(),
        kind="spec",
        summary=f"CollectorSpec {spec.name} v{spec.version}",
        media_type="application/yaml",
    )
    ctx.extra["spec_cache_id"] = cid
    return EngineeringMessage(
        title=f"{spec.name} ({spec.sources[-1].kind})",
        spec=spec_to_message_dict(spec),
        rationale=rationale[:2000],
        spec_cache_id=cid,
        artifacts=[cid],
    )


def _spec_name(ctx: SquadContext) -> str:
    if ctx.name:
        return ctx.name
    from prefect_autodata.agents.naming import default_name

    return default_name(ctx.parsed)


@register_offline_role(Role.ENGINEERING)
def engineering_role(inbox: list[Message], tools: Toolbox):
    ctx = current()
    last_test = _latest(inbox, TestMessage)
    if ctx.spec is None or last_test is None:
        from prefect_autodata.agents.engineering import induce

        ctx.candidates = list(
            induce(
                ctx.evidence,
                ctx.parsed,
                reader=tools.runtime.cache,
                fetcher=ctx.fetcher,
                name=_spec_name(ctx),
            )
        )
        if not ctx.candidates:
            raise ConfigError("wrapper induction found no records matching the target fields on any source")
        ctx.candidates = _measured_order(ctx, ctx.candidates)
        ctx.candidate_index = 0
        chosen = ctx.candidates[0]
        why = getattr(chosen, "rationale", "") or "best-scoring induced candidate"
        if ctx.extra.get("measured_why"):
            why = f"{ctx.extra['measured_why']}; {why}"
    else:
        from prefect_autodata.agents.engineering import repair

        why = ""
        chosen = repair(ctx.spec, ctx.test_reports[-1], history=ctx.test_reports, candidates=ctx.candidates)
        if chosen is not None:
            why = chosen.rationale or f"repaired after: {last_test.repair_hint}"
        if chosen is None and _honest_now(ctx):
            # The measured best already reaches the honest bar and no repair applies: the candidates
            # after it measured worse (or were never measured within the bound), so trying them only
            # costs dry runs. Keeping it lets the manager stop and accept it as the closest table.
            chosen = ctx.spec
            why = f"kept the best measured candidate (no repair for: {last_test.repair_hint})"
        if chosen is None:
            ctx.candidate_index = min(ctx.candidate_index + 1, len(ctx.candidates) - 1)
            chosen = ctx.candidates[ctx.candidate_index]
            why = f"next candidate {ctx.candidate_index + 1}/{len(ctx.candidates)} after: {last_test.repair_hint}"
    ctx.spec = _candidate_spec(chosen)
    if ctx.name and ctx.spec.name != ctx.name:
        ctx.spec = CollectorSpec.model_validate(
            {**ctx.spec.model_dump(mode="json", exclude_none=True), "name": ctx.name}
        )
    ctx.progress(
        "engineering", f"spec {ctx.spec.name}: {', '.join(s.kind for s in ctx.spec.sources)} ({why[:120]})"
    )
    return _engineering_message(ctx, ctx.spec, why, tools)


def _spec_key(spec: CollectorSpec) -> str:
    return spec.model_dump_json(exclude_none=True)


def _test(ctx: SquadContext, spec: CollectorSpec) -> Any:
    """The test agent's report on ``spec`` as it runs now (one dry run per distinct spec and run)."""
    from prefect_autodata.agents.test import test_spec

    cache = ctx.extra.setdefault("reports", {})
    key = _spec_key(spec)
    if key not in cache:
        cache[key] = test_spec(runnable(spec, ctx.mirror), ctx.parsed, fetcher=ctx.fetcher, today=ctx.today)
        ctx.tested.append((spec, cache[key]))
    return cache[key]


def _honest_now(ctx: SquadContext) -> bool:
    """Whether the spec under test measured honest and was the top of the measured ranking."""
    from prefect_autodata.agents import ranking
    from prefect_autodata.agents.test import requested_names

    rep = ctx.extra.get("reports", {}).get(_spec_key(ctx.spec)) if ctx.spec is not None else None
    if rep is None or not ctx.extra.get("measured_why") or ctx.candidate_index != 0:
        return False
    m = ranking.measure(
        rep,
        requested_names(ctx.parsed),
        expected_rows=_expected_rows(ctx),
        whole=ranking.read_whole(ctx.spec),
    )
    return m.honest


def _expected_rows(ctx: SquadContext) -> int | None:
    size = getattr(ctx.parsed, "expected_size", None)
    return getattr(size, "rows", None) if size is not None else None


def _measured_order(ctx: SquadContext, candidates: list[Any]) -> list[Any]:
    """The candidates with the first few dry-run and ranked by what was measured (``agents.ranking``);
    the ones not measured follow in their prior order."""
    from prefect_autodata.agents import ranking
    from prefect_autodata.agents.test import requested_names

    if len(candidates) < 2:
        return list(candidates)
    wanted = requested_names(ctx.parsed)
    ranked = ranking.select(
        candidates,
        lambda c: _test(ctx, _candidate_spec(c)),
        wanted,
        expected_rows=_expected_rows(ctx),
        log=lambda m: ctx.progress("engineering", m),
    )
    measured = {id(m.candidate) for m in ranked}
    rest = [c for c in ranking.prior_order(candidates) if id(c) not in measured]
    best = ranked[0]
    ctx.extra["measured_why"] = (
        f"chosen by measurement among {len(ranked)} dry-run candidates "
        f"(score {best.measure.score:.2f}: {best.measure.why})"
    )
    return [m.candidate for m in ranked] + rest


@register_offline_role(Role.TEST)
def test_role(inbox: list[Message], tools: Toolbox):
    from prefect_autodata.agents.test import to_message

    ctx = current()
    report = _test(ctx, ctx.spec)
    ctx.test_reports.append(report)
    msg = to_message(report, spec_cache_id=ctx.extra.get("spec_cache_id"))
    ctx.progress("test", msg.headline() + (f": {msg.repair_hint[:160]}" if msg.verdict == "fail" else ""))
    return msg


@register_offline_role(Role.VALIDATION)
def validation_role(inbox: list[Message], tools: Toolbox):
    from prefect_autodata.agents.validation import design_checks

    ctx = current()
    checks = design_checks(ctx.parsed, ctx.spec, ctx.evidence, name=ctx.spec.name, today=ctx.today)
    ctx.checks = checks
    cid = tools.store(
        checks.to_yaml(),
        kind="spec",
        summary=f"CheckSpec {checks.name}: {len(checks.checks)} checks",
        media_type="application/yaml",
    )
    ctx.progress("validation", f"{len(checks.checks)} checks")
    proposals = proposals_from_checks(checks) or [
        CheckProposal(name="row_count", kind="row_count", params={"min": 1}, rationale="never land nothing")
    ]
    return ValidationMessage(checks=proposals, notes=f"CheckSpec in {cid}", artifacts=[cid])


@register_offline_role(Role.MANAGER)
def manager_role(inbox: list[Message], tools: Toolbox):
    ctx = current()
    meter = tools.runtime.meter
    left = None if meter.budget.max_steps is None else meter.budget.max_steps - meter.steps
    policy = ManagerPolicy(max_repairs=ctx.policy.max_repairs, patience=ctx.policy.patience, steps_left=left)
    msg = decide(inbox, policy)
    if msg.next == "finish":
        ctx.progress("manager", f"finish ({msg.reason})")
    return msg


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


def _soft_best(ctx: SquadContext) -> CollectorSpec | None:
    """The best measured spec among those tested that reaches the honest bar (``ranking.honest``:
    rows, no hard issue, at least two thirds of the requested fields produced, filled and well typed, no
    table-level finding), or None: then the run ends as a ``no_spec`` naming what was tried."""
    from prefect_autodata.agents import ranking
    from prefect_autodata.agents.test import requested_names

    best = ranking.best_honest(ctx.tested, requested_names(ctx.parsed), expected_rows=_expected_rows(ctx))
    return best[0] if best else None


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
    from prefect_autodata.runtime.redact import scan_url

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
    token = _CTX.set(ctx)
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
        if stop == "no_progress" and not is_llm and (best := _soft_best(ctx)) is not None:
            # The closest spec beats no dataset when its only problems are soft (fields absent, short sample).
            ctx.spec, soft = best, True
            eid = rt.post(
                Role.ENGINEERING, _engineering_message(ctx, best, f"accepted with issues: {detail}", _tb(rt))
            )
            rt.step(Role.VALIDATION)
            stop, detail = "success", f"accepted with soft issues after repairs: {detail} (edge {eid.seq})"
    except BudgetExceeded as exc:
        stop, detail = "budget", str(exc)
    except AutoDataError as exc:
        stop, detail = "error", str(exc)
    finally:
        _CTX.reset(token)
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
        ctx.extra.get("reports", {}).get(_spec_key(ctx.spec)) if ctx.spec is not None else None
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
