"""End-to-end example for role authors: two roles exchange messages through the hypergraph, with an artifact."""

from __future__ import annotations

from prefect_autodata.agents.base import AgentRuntime, Toolbox
from prefect_autodata.ohcache.cache import ArtifactCache
from prefect_autodata.ohcache.hypergraph import Message
from prefect_autodata.ohcache.messages import CacheNotice, PlanMessage, Role, WebMessage
from prefect_autodata.ohcache.trace import Trace

PLAN = {
    "goals": ["daily stock prices for 2024"],
    "steps": [{"name": "find source", "agent": "web", "description": "locate a price listing"}],
    "target_schema": [{"name": "ticker"}, {"name": "close", "type": "number"}],
    "scope": "all listed tickers, 2024",
}
PAGE = "<html><body><table><tr><td>ACME</td><td>12.5</td></tr></table></body></html>"


class PlanAgent:
    role = Role.PLAN

    def run(self, inbox: list[Message], tools: Toolbox) -> dict:
        return PLAN  # the formatter validates dicts into PlanMessage


class WebAgent:
    role = Role.WEB

    def __init__(self) -> None:
        self.seen: list[Message] = []

    def run(self, inbox: list[Message], tools: Toolbox) -> WebMessage:
        self.seen = inbox
        plan = next(m.body for m in inbox if isinstance(m.body, PlanMessage))
        cid = tools.store(PAGE, kind="html", summary="price table page, 1 row")
        return WebMessage(
            pages=[
                {"url": "http://example.test/prices", "status": 200, "cache_id": cid, "summary": plan.scope}
            ],
            artifacts=[cid],
        )


def test_two_roles_exchange_messages_and_an_artifact(tmp_path):
    trace = Trace.for_run(tmp_path / "traces", "run1")
    rt = AgentRuntime(cache=ArtifactCache(tmp_path / "cache"), trace=trace)
    web = WebAgent()
    rt.add(PlanAgent(), web)

    plan_edge = rt.step(Role.PLAN)
    assert plan_edge.targets == {Role.WEB, Role.TOOL, Role.BLUEPRINT, Role.MANAGER}
    web_edge = rt.step(Role.WEB)

    # the web agent read the plan; its page went to the cache, and everyone else got a notice
    assert [m.seq for m in web.seen] == [plan_edge.seq]
    cid = web_edge.body.pages[0].cache_id
    assert rt.cache.get_text(cid) == PAGE
    notices = [m for m in rt.inbox(Role.BLUEPRINT) if isinstance(m.body, CacheNotice)]
    assert [n.body.cache_id for n in notices] == [cid]
    assert PAGE not in rt.context_text(Role.BLUEPRINT)  # content travels by ID only
    kinds = [e["event"] for e in Trace.load(tmp_path / "traces" / "run1.jsonl")]
    assert kinds.count("edge") == 3 and "cache_put" in kinds and "context" in kinds
