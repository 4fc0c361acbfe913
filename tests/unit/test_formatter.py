"""The formatter: per-role schemas, clear rejections, bounded retry, and rendering under ablations."""

from __future__ import annotations

import pytest

from prefect_autodata.agents.base import AgentRuntime
from prefect_autodata.ohcache.ablation import A4, A5, OHCACHE
from prefect_autodata.ohcache.formatter import FormatRejected, Formatter, render_edge
from prefect_autodata.ohcache.messages import (
    SCHEMAS,
    FreeText,
    ManagerMessage,
    PlanMessage,
    Role,
    TestMessage,
    WebMessage,
)

PLAN = {
    "goals": ["g"],
    "steps": [{"name": "s", "agent": "web", "description": "d"}],
    "target_schema": [{"name": "ticker"}],
    "scope": "all",
}


def test_every_role_has_a_schema():
    assert set(SCHEMAS) == set(Role)


def test_accepts_model_dict_and_fenced_json():
    f = Formatter()
    assert isinstance(f.parse(Role.PLAN, PLAN), PlanMessage)
    assert isinstance(
        f.parse(
            "plan",
            'Here you go:\n```json\n{"goals": ["g"], "steps": [{"name": "s", "agent": "web", "description": "d"}], "target_schema": [{"name": "t"}], "scope": "x"}\n```',
        ),
        PlanMessage,
    )
    msg = PlanMessage.model_validate(PLAN)
    assert f.parse(Role.PLAN, msg) is msg


@pytest.mark.parametrize(
    ("role", "output", "needle"),
    [
        (Role.PLAN, {"goals": ["g"]}, "steps: Field required"),
        (Role.PLAN, {**PLAN, "extra": 1}, "extra: Extra inputs are not permitted"),
        (
            Role.PLAN,
            {**PLAN, "steps": [{"name": "s", "agent": "janitor", "description": "d"}]},
            "steps.0.agent",
        ),
        (
            Role.TEST,
            {
                "results": [{"name": "n", "passed": True, "evidence": "e"}],
                "quality_score": 2,
                "verdict": "pass",
            },
            "quality_score",
        ),
        (Role.MANAGER, {"next": "nobody"}, "next"),
        (Role.WEB, "not json at all", "not valid JSON"),
        (Role.WEB, "[1, 2]", "expected a JSON object"),
    ],
)
def test_rejections_name_the_field(role, output, needle):
    with pytest.raises(FormatRejected) as info:
        Formatter().parse(role, output)
    assert needle in str(info.value) and f"{role.value} agent output" in str(info.value)


def test_wrong_role_schema_rejected():
    with pytest.raises(FormatRejected, match="got a PlanMessage, expected WebMessage"):
        Formatter().parse(Role.WEB, PlanMessage.model_validate(PLAN))


def test_disabled_formatter_passes_free_text():
    out = Formatter(enabled=False).parse(Role.WEB, "I looked at three pages and ...")
    assert isinstance(out, FreeText) and out.text.startswith("I looked")


class Flaky:
    """Fails the schema ``bad`` times, then answers; records the feedback it was given."""

    role = Role.PLAN

    def __init__(self, bad: int) -> None:
        self.bad = bad
        self.calls = 0
        self.feedback: list[list[str]] = []

    def run(self, inbox, tools):
        self.calls += 1
        self.feedback.append(list(tools.feedback))
        return {"goals": ["g"]} if self.calls <= self.bad else PLAN


def test_runtime_retries_with_feedback_then_succeeds(tmp_path):
    agent = Flaky(bad=2)
    rt = AgentRuntime(cache=tmp_path, max_format_retries=2).add(agent)
    edge = rt.step(Role.PLAN)
    assert isinstance(edge.body, PlanMessage) and agent.calls == 3
    assert (
        agent.feedback[0] == []
        and "steps: Field required" in agent.feedback[1][0]
        and len(agent.feedback[2]) == 2
    )
    assert len(rt.trace.of_event("format_rejected")) == 2


def test_runtime_retry_is_bounded(tmp_path):
    agent = Flaky(bad=10)
    rt = AgentRuntime(cache=tmp_path, max_format_retries=1).add(agent)
    with pytest.raises(FormatRejected, match="gave up after 2 attempts"):
        rt.step(Role.PLAN)
    assert agent.calls == 2 and len(rt.graph) == 0  # nothing invalid was posted


def test_rendering_compact_vs_inline(tmp_path):
    rt = AgentRuntime(cache=tmp_path / "c", ablation=A5)
    cid = rt.store(Role.WEB, "<html>" + "x" * 500 + "</html>", kind="html", summary="page")
    edge = rt.post(Role.WEB, WebMessage(pages=[{"url": "u", "status": 200, "cache_id": cid}]))
    inline = render_edge(edge, A5, fetch=rt.cache.get_text)
    routed = render_edge(edge, OHCACHE, fetch=rt.cache.get_text)
    assert "x" * 500 in inline and "x" * 500 not in routed and cid in routed
    assert rt.inbox(Role.BLUEPRINT)[0].kind == "role_message"  # A5: no cache notice was posted


def test_manager_message_schedules(tmp_path):
    rt = AgentRuntime(cache=tmp_path)
    edge = rt.post(Role.MANAGER, ManagerMessage(next=Role.TEST, instruction="dry-run the spec"))
    assert edge.targets == {Role.TEST}
    assert TestMessage.role == Role.TEST and A4.formatter is False
