"""The offline backend's roles: plan, web, tool, blueprint, engineering, test, validation and manager,
registered in the offline backend (``offline/backend.py``) when this module is imported.

Each role reads its resources from the running collection's squad context (``context.current()``)
and answers with a routed, schema-checked message, exactly as an LLM agent would; the engineering and
test roles share one dry run per distinct spec and run, and choose among the induced candidates by
what was measured (``agents.ranking``). ``squads.research_and_develop`` wires and runs them.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter, ValidationError

from prefect_autodata.agents.base import Toolbox
from prefect_autodata.agents.context import SquadContext, current
from prefect_autodata.agents.manager import ManagerPolicy, decide
from prefect_autodata.agents.mirror import runnable
from prefect_autodata.agents.offline.backend import register_offline_role
from prefect_autodata.agents.plan import make_plan, plan_message
from prefect_autodata.errors import ConfigError
from prefect_autodata.expectations.spec import Check, CheckSpec
from prefect_autodata.ohcache.hypergraph import Message
from prefect_autodata.ohcache.messages import (
    CheckProposal,
    EngineeringMessage,
    Role,
    TestMessage,
    ValidationMessage,
)
from prefect_autodata.runtime.spec import CollectorSpec

# ------------------------------------------------------------------------------------------ specs and checks


def spec_to_message_dict(spec: CollectorSpec) -> dict[str, Any]:
    return spec.model_dump(mode="json", exclude_none=True)


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


# ------------------------------------------------------------------------------------------ roles


def _latest(inbox: list[Message], kind: type) -> Any:
    for edge in reversed(inbox):
        if isinstance(edge.body, kind):
            return edge.body
    return None


@register_offline_role(Role.PLAN)
def plan_role(inbox: list[Message], tools: Toolbox):
    ctx = current()
    if ctx.parsed is None:  # research_and_develop parsed the instruction already: the plan is parsed once
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


def engineering_message(
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
    return engineering_message(ctx, ctx.spec, why, tools)


def spec_key(spec: CollectorSpec) -> str:
    return spec.model_dump_json(exclude_none=True)


def _test(ctx: SquadContext, spec: CollectorSpec) -> Any:
    """The test agent's report on ``spec`` as it runs now (one dry run per distinct spec and run)."""
    from prefect_autodata.agents.test import test_spec

    cache = ctx.extra.setdefault("reports", {})
    key = spec_key(spec)
    if key not in cache:
        cache[key] = test_spec(runnable(spec, ctx.mirror), ctx.parsed, fetcher=ctx.fetcher, today=ctx.today)
        ctx.tested.append((spec, cache[key]))
    return cache[key]


def _honest_now(ctx: SquadContext) -> bool:
    """Whether the spec under test measured honest and was the top of the measured ranking."""
    from prefect_autodata.agents import ranking
    from prefect_autodata.agents.test import requested_names

    rep = ctx.extra.get("reports", {}).get(spec_key(ctx.spec)) if ctx.spec is not None else None
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
        agreement=ranking.site_agreement(ctx.evidence.search, ctx.parsed) if ctx.evidence else None,
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


def soft_best(ctx: SquadContext) -> CollectorSpec | None:
    """The best measured spec among those tested that reaches the honest bar (``ranking.honest``:
    rows, no hard issue, at least two thirds of the requested fields produced, filled and well typed, no
    table-level finding), or None: then the run ends as a ``no_spec`` naming what was tried."""
    from prefect_autodata.agents import ranking
    from prefect_autodata.agents.test import requested_names

    best = ranking.best_honest(ctx.tested, requested_names(ctx.parsed), expected_rows=_expected_rows(ctx))
    return best[0] if best else None
