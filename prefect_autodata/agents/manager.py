"""The manager: schedules the squads through OHCache and decides when to stop, and why.

It reads only what is addressed to it (every role reports to the manager in the routing table)
and answers with one ``ManagerMessage``: the next role and a one-line instruction, or ``finish``
with a reason. Stop reasons are a small closed set so a person (and the CLI's ``--json``) can tell
a success from a budget stop or a loop that stopped making progress.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from prefect_autodata.ohcache.hypergraph import Message
from prefect_autodata.ohcache.messages import (
    BlueprintMessage,
    EngineeringMessage,
    ManagerMessage,
    PlanMessage,
    Role,
    TestMessage,
    ToolMessage,
    ValidationMessage,
    WebMessage,
)

StopReason = Literal["success", "unresolvable", "no_sources", "no_progress", "budget", "error"]
STOP_REASONS: tuple[str, ...] = ("success", "unresolvable", "no_sources", "no_progress", "budget", "error")


@dataclass(frozen=True)
class ManagerPolicy:
    """How long the development loop may go on: repairs in total, and repairs without improvement."""

    max_repairs: int = 4
    patience: int = 2
    steps_left: int | None = None


def finish(reason: StopReason, detail: str = "") -> ManagerMessage:
    """A finish decision; the reason is machine-readable before the colon."""
    return ManagerMessage(next="finish", reason=f"{reason}: {detail}" if detail else reason)


def stop_reason_of(msg: ManagerMessage) -> StopReason:
    head = (msg.reason or "").split(":", 1)[0].strip()
    return head if head in STOP_REASONS else "success"  # type: ignore[return-value]


def _latest(inbox: list[Message], kind: type) -> tuple[int, object] | tuple[None, None]:
    for edge in reversed(inbox):
        if isinstance(edge.body, kind):
            return edge.seq, edge.body
    return None, None


def decide(inbox: list[Message], policy: ManagerPolicy) -> ManagerMessage:
    """The offline manager's rule: plan → web (search, visits) → tool (probes) → blueprint → engineering ⇄ test → validation."""
    _, plan = _latest(inbox, PlanMessage)
    if plan is None:
        return ManagerMessage(next=Role.PLAN, instruction="turn the request into a plan")
    if "missing:" in plan.notes:
        missing = [p.split("missing:", 1)[1].strip() for p in plan.notes.split(";") if "missing:" in p]
        return finish("unresolvable", "; ".join(missing))
    _, web = _latest(inbox, WebMessage)
    if web is None:
        return ManagerMessage(next=Role.WEB, instruction="visit the sources; capture pages, APIs, pagination")
    if not any(200 <= p.status < 300 for p in web.pages):
        return finish("no_sources", "no source answered with a usable page: " + web.notes[-300:])
    _, tool = _latest(inbox, ToolMessage)
    if tool is None:
        return ManagerMessage(
            next=Role.TOOL, instruction="report the searches and probes behind the evidence"
        )
    bp_seq, bp = _latest(inbox, BlueprintMessage)
    if bp is None:
        return ManagerMessage(
            next=Role.BLUEPRINT, instruction="choose the source and method; write the blueprint"
        )
    eng_seq, eng = _latest(inbox, EngineeringMessage)
    if eng is None:
        return ManagerMessage(next=Role.ENGINEERING, instruction="write the CollectorSpec from the blueprint")
    test_seq, test = _latest(inbox, TestMessage)
    if test is None or test_seq < eng_seq:
        return ManagerMessage(next=Role.TEST, instruction="dry-run the latest spec and report failures")
    if test.verdict == "fail":
        tests = [e.body for e in inbox if isinstance(e.body, TestMessage)]
        if len(tests) > policy.max_repairs:
            return finish(
                "no_progress", f"tests still fail after {policy.max_repairs} repairs: {test.repair_hint}"
            )
        best_at = max(range(len(tests)), key=lambda i: (tests[i].quality_score, -i))
        if len(tests) - 1 - best_at >= policy.patience:
            return finish(
                "no_progress",
                f"quality stuck at {tests[best_at].quality_score:.2f} for {policy.patience} repairs: {test.repair_hint}",
            )
        if policy.steps_left is not None and policy.steps_left < 4:
            return finish("budget", "not enough agent steps left for another repair")
        return ManagerMessage(next=Role.ENGINEERING, instruction=f"repair the spec: {test.repair_hint}"[:500])
    _, val = _latest(inbox, ValidationMessage)
    if val is None:
        return ManagerMessage(next=Role.VALIDATION, instruction="design the checks for the tested spec")
    return finish("success", f"spec passed its dry run (quality {test.quality_score:.2f}) and checks exist")
