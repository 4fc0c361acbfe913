"""The LLM backend end to end: the real ``openai`` client against the scripted server on 127.0.0.1."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from pydantic import SecretStr

from prefect_autodata.agents.base import AgentRuntime, Tool, ToolError
from prefect_autodata.agents.budget import Budget, ModelPrice, PriceTable
from prefect_autodata.agents.llm import LLMBackend, LLMClient, LLMSettings, LoopDetected
from prefect_autodata.errors import BudgetExceeded, ConfigError, TransientError
from prefect_autodata.ohcache.cache import ArtifactCache
from prefect_autodata.ohcache.formatter import FormatRejected
from prefect_autodata.ohcache.messages import ManagerMessage, PlanMessage, Role
from prefect_autodata.ohcache.trace import Trace
from prefect_autodata.sandbox.openai_server import Script, ScriptedOpenAIServer
from prefect_autodata.sandbox.server import free_port

KEY = "sk-autodata-SECRET-7f3a9c2e41"
DATA = Path(__file__).resolve().parents[1] / "data" / "openai_scripts"
PLAN = json.dumps(
    {
        "goals": ["g"],
        "steps": [{"name": "s", "agent": "web", "description": "d"}],
        "target_schema": [{"name": "ticker"}],
        "scope": "all",
    }
)
FETCH = {"name": "fetch_page", "arguments": {"url": "http://127.0.0.1/listing"}}
SCRIPTS = [
    Script.load(DATA / "plan-research.yaml"),
    {
        "name": "rate-limited",
        "turns": [{"fault": "rate_limit", "retry_after": 0.25, "times": 1, "content": PLAN}],
    },
    {"name": "always-500", "turns": [{"fault": "server_error", "times": 1000, "content": PLAN}]},
    {"name": "bad-json-once", "turns": [{"fault": "invalid_json", "content": PLAN}, {"content": PLAN}]},
    {"name": "bad-json-forever", "turns": [{"content": 'Sure! {"goals": [', "repeat": True}]},
    {"name": "schema-miss", "turns": [{"content": '{"goals": ["g"]}'}, {"content": PLAN}]},
    {
        "name": "unknown-tool",
        "turns": [{"tool_calls": [{"name": "delete_everything", "arguments": {}}]}, {"content": PLAN}],
    },
    {"name": "loop", "turns": [{"tool_calls": [FETCH], "repeat": True}]},
    {
        "name": "malformed-args",
        "turns": [{"tool_calls": [{"name": "fetch_page", "arguments_raw": '{"url": '}], "repeat": True}],
    },
]


@pytest.fixture(scope="module")
def server():
    with ScriptedOpenAIServer(SCRIPTS, api_key=KEY) as srv:
        yield srv


def settings(server, model="plan-research", **kw) -> LLMSettings:
    kw.setdefault("max_retries", 2)
    return LLMSettings(base_url=server.base_url, api_key=SecretStr(KEY), model=model, **kw)


def runtime(tmp_path, **kw) -> AgentRuntime:
    trace = Trace.for_run(tmp_path / "traces", "run-llm")

    def fetch_page(url: str) -> str:
        cid = rt.store(
            Role.PLAN, f"<html><body><h1>Listing</h1><p>{url}</p></body></html>", kind="html", summary=url
        )
        return f"stored page as {cid}"

    rt = AgentRuntime(cache=ArtifactCache(tmp_path / "cache"), trace=trace, **kw)
    rt.add_tool(
        Tool(
            "fetch_page",
            "Fetch a URL and cache it.",
            fetch_page,
            {"type": "object", "properties": {"url": {"type": "string"}}},
        )
    )
    return rt


def run_plan(server, tmp_path, sleep=lambda s: None, runtime_kw=None, **kw):
    rt = runtime(tmp_path, **(runtime_kw or {}))
    rt.add(
        LLMBackend(settings(server, **kw), client=LLMClient(settings(server, **kw), sleep=sleep)).agent(
            Role.PLAN
        )
    )
    return rt, rt.step(Role.PLAN)


def events(tmp_path, name):
    return [e for e in Trace.load(tmp_path / "traces" / "run-llm.jsonl") if e["event"] == name]


@pytest.mark.parametrize("stream", [False, True])
def test_multi_turn_tool_calling_conversation(server, tmp_path, stream):
    server.reset()
    prices = PriceTable(prices={"plan-research": ModelPrice(input_per_mtok=100.0, output_per_mtok=200.0)})
    rt, edge = run_plan(server, tmp_path, stream=stream, prices=prices)
    assert isinstance(edge.body, PlanMessage)
    assert [f.name for f in edge.body.target_schema] == ["ticker", "date", "close"]
    # the model's tool call ran for real: the page went to the cache and the model got the ID back
    second = server.requests[-1]["messages"]
    tool_msg = next(m for m in second if m["role"] == "tool")
    cid = tool_msg["content"].split()[-1]
    assert "Listing" in rt.cache.get_text(cid)
    calls = events(tmp_path, "llm_call")
    assert len(calls) == 2 and all(c["prompt_tokens"] > 0 for c in calls)
    expected = sum(c["prompt_tokens"] * 100 + c["completion_tokens"] * 200 for c in calls) / 1e6
    assert rt.meter.cost_usd == pytest.approx(expected)
    assert rt.meter.tokens == sum(c["prompt_tokens"] + c["completion_tokens"] for c in calls)


def test_rate_limit_is_retried_after_retry_after(server, tmp_path):
    slept: list[float] = []
    rt, edge = run_plan(server, tmp_path, model="rate-limited", sleep=slept.append)
    assert isinstance(edge.body, PlanMessage)
    assert slept == [0.25]
    assert [e["status"] for e in events(tmp_path, "llm_retry")] == [429]


def test_persistent_5xx_gives_one_clear_error_and_keeps_the_trace(server, tmp_path):
    with pytest.raises(TransientError, match="server errors after 3 attempts"):
        run_plan(server, tmp_path, model="always-500")
    assert len(events(tmp_path, "llm_retry")) == 3 and events(tmp_path, "llm_error")


def test_invalid_json_is_explained_and_retried(server, tmp_path):
    server.reset()
    rt, edge = run_plan(server, tmp_path, model="bad-json-once")
    assert isinstance(edge.body, PlanMessage)
    last_user = server.requests[-1]["messages"][-1]
    assert last_user["role"] == "user" and "not valid JSON" in last_user["content"]
    assert events(tmp_path, "format_rejected")


def test_schema_violation_names_the_missing_fields(server, tmp_path):
    server.reset()
    run_plan(server, tmp_path, model="schema-miss")
    feedback = server.requests[-1]["messages"][-1]["content"]
    assert "steps: Field required" in feedback and "scope: Field required" in feedback


def test_invalid_json_forever_stops_bounded(server, tmp_path):
    server.reset()
    rt = runtime(tmp_path)
    s = settings(server, model="bad-json-forever", max_format_retries=2)
    rt.add(LLMBackend(s).agent(Role.BLUEPRINT))
    with pytest.raises(FormatRejected, match="blueprint agent output does not match BlueprintMessage"):
        rt.step(Role.BLUEPRINT)
    assert len(server.requests) == 3
    assert len(events(tmp_path, "format_rejected")) == 3


def test_a_plan_reply_that_never_validates_falls_back_to_the_offline_parse(server, tmp_path):
    server.reset()
    rt = runtime(tmp_path)
    rt.add(LLMBackend(settings(server, model="bad-json-forever", max_format_retries=2)).agent(Role.PLAN))
    rt.post(
        Role.MANAGER, ManagerMessage(next=Role.PLAN, instruction="Request: every book with title and price")
    )
    edge = rt.step(Role.PLAN)
    assert len(server.requests) == 2  # the reply and one repair turn, then the offline parse
    assert [f.name for f in edge.body.target_schema] == ["title", "price"]
    (fallback,) = events(tmp_path, "plan_fallback")
    assert "not valid JSON" in fallback["detail"]
    (req,) = events(tmp_path, "plan_request")
    assert req["source"].startswith("offline") and req["request"]["entity"] == "book"


def test_unknown_tool_is_reported_to_the_model(server, tmp_path):
    server.reset()
    rt, edge = run_plan(server, tmp_path, model="unknown-tool")
    tool_msg = next(m for m in server.requests[-1]["messages"] if m["role"] == "tool")
    assert "unknown tool 'delete_everything'" in tool_msg["content"] and "fetch_page" in tool_msg["content"]
    assert isinstance(edge.body, PlanMessage)


def test_endless_tool_loop_is_detected(server, tmp_path):
    with pytest.raises(LoopDetected, match=r"called fetch_page\(.*\) 3 times with the same arguments"):
        run_plan(server, tmp_path, model="loop")
    assert events(tmp_path, "loop_detected")


def test_malformed_tool_arguments(server, tmp_path):
    with pytest.raises(ToolError, match="malformed JSON arguments for tool 'fetch_page'"):
        run_plan(server, tmp_path, model="malformed-args")


def test_unknown_model_is_a_config_error(server, tmp_path):
    with pytest.raises(ConfigError, match="model 'gpt-9' is not available .*AUTODATA_LLM_MODEL"):
        run_plan(server, tmp_path, model="gpt-9")


def test_wrong_key_is_a_config_error(server, tmp_path):
    s = LLMSettings(base_url=server.base_url, api_key=SecretStr("sk-wrong-key-000000"), model="plan-research")
    rt = runtime(tmp_path)
    rt.add(LLMBackend(s).agent(Role.PLAN))
    with pytest.raises(ConfigError, match="rejected the API key \\(401\\).*AUTODATA_LLM_API_KEY") as info:
        rt.step(Role.PLAN)
    assert "sk-wrong" not in str(info.value)


def test_missing_key_and_model_from_env():
    with pytest.raises(ConfigError, match="AUTODATA_LLM_API_KEY"):
        LLMSettings.from_env({"AUTODATA_LLM_MODEL": "m"})
    with pytest.raises(ConfigError, match="AUTODATA_LLM_MODEL"):
        LLMSettings.from_env({"AUTODATA_LLM_API_KEY": "x"})
    s = LLMSettings.from_env(
        {
            "AUTODATA_LLM_API_KEY": "k",
            "AUTODATA_LLM_MODEL": "m",
            "AUTODATA_LLM_BASE_URL": "http://127.0.0.1:1/v1",
        }
    )
    assert s.base_url == "http://127.0.0.1:1/v1" and s.model_for(Role.WEB) == "m"


def test_endpoint_down(tmp_path):
    s = LLMSettings(
        base_url=f"http://127.0.0.1:{free_port()}/v1", api_key=SecretStr(KEY), model="m", max_retries=1
    )
    rt = runtime(tmp_path)
    rt.add(LLMBackend(s, client=LLMClient(s, sleep=lambda _: None)).agent(Role.PLAN))
    with pytest.raises(
        TransientError, match="cannot reach the LLM endpoint http://127.0.0.1:.*is the server running"
    ):
        rt.step(Role.PLAN)
    assert [e["reason"] for e in events(tmp_path, "llm_retry")] == ["unreachable", "unreachable"]


def test_token_budget_stops_the_run(server, tmp_path):
    with pytest.raises(
        BudgetExceeded, match="token budget exceeded: .* limit 50 \\(raise budget.max_tokens\\)"
    ):
        run_plan(server, tmp_path, runtime_kw={"budget": Budget(max_tokens=50)})
    assert events(tmp_path, "llm_call")  # the call that crossed the limit is in the trace


def test_secret_never_written_anywhere(server, tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    server.reset()
    run_plan(server, tmp_path)
    with pytest.raises(LoopDetected):
        run_plan(server, tmp_path, model="loop")
    with pytest.raises(ConfigError):
        run_plan(server, tmp_path, model="gpt-9")
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.suffix == ".jsonl" for p in files) and any(p.name.startswith("c_") for p in files)
    for p in files:
        assert KEY not in p.read_text(errors="replace"), p
    assert KEY not in caplog.text
    assert KEY not in repr(settings(server)) and KEY not in settings(server).model_dump_json()


def test_models_endpoint_and_auth_like_openai(server):
    import httpx

    r = httpx.get(f"{server.base_url}/models", headers={"Authorization": f"Bearer {KEY}"})
    assert r.status_code == 200 and "plan-research" in [m["id"] for m in r.json()["data"]]
    r = httpx.get(f"{server.base_url}/models")
    assert r.status_code == 401 and "didn't provide an API key" in r.json()["error"]["message"]
    r = httpx.post(
        f"{server.base_url}/chat/completions",
        headers={"Authorization": f"Bearer {KEY}"},
        json={"model": "nope", "messages": [{"role": "user", "content": "hi"}]},
    )
    assert r.status_code == 404 and r.json()["error"]["code"] == "model_not_found"
