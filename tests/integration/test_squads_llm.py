"""The whole squad through the LLM backend: the real ``openai`` client against the scripted
OpenAI-compatible server, one recorded conversation per domain (tests/data/openai_scripts/squads/),
ending in a valid spec that runs against the sandbox and lands rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from pydantic import SecretStr

from prefect_autodata.agents.llm import LLMBackend, LLMSettings, load_profile
from prefect_autodata.flows.collect import collect
from prefect_autodata.ohcache.messages import Role
from prefect_autodata.ohcache.trace import Trace
from prefect_autodata.runtime.spec import CollectorSpec
from prefect_autodata.sandbox.openai_server import ScriptedOpenAIServer
from prefect_autodata.sandbox.server import sandbox_secrets
from prefect_autodata.sandbox.sites.tiingo import DEMO_TOKEN

SCRIPTS = Path(__file__).resolve().parents[1] / "data" / "openai_scripts" / "squads"
KEY = "sk-scripted-0000"


def _script(data: dict) -> dict:
    """``answer:`` (a mapping) is sugar for ``content:`` holding that mapping as JSON."""
    turns = []
    for t in data["turns"]:
        t = dict(t)
        if "answer" in t:
            t["content"] = json.dumps(t.pop("answer"))
        turns.append(t)
    return {"name": data["name"], "turns": turns}


def load_conversation(domain: str, sandbox_url: str) -> tuple[str, list[dict]]:
    conv = yaml.safe_load((SCRIPTS / f"{domain}.yaml").read_text().replace("{{SANDBOX}}", sandbox_url))
    manager = yaml.safe_load((SCRIPTS / "manager.yaml").read_text())
    return conv["instruction"], [_script(s) for s in conv["scripts"]] + [_script(manager)]


def settings_for(domain: str, base_url: str) -> LLMSettings:
    roles = {r: f"{domain}-{r.value}" for r in Role if r is not Role.MANAGER}
    return LLMSettings(base_url=base_url, api_key=SecretStr(KEY), model="squad-manager", role_models=roles)


# the academic script's designed checks expect the real proceedings' size (at least 600 papers)
@pytest.mark.parametrize(
    "domain", ["finance", "sport", pytest.param("academic", marks=pytest.mark.requires_real_data)]
)
def test_llm_squad_end_to_end(domain, sandbox_url, workspace, monkeypatch):
    monkeypatch.setenv("AUTODATA_SECRET_TIINGO_TOKEN", DEMO_TOKEN)
    instruction, scripts = load_conversation(domain, sandbox_url)
    with ScriptedOpenAIServer(scripts, api_key=KEY) as llm:
        res = collect(
            instruction,
            workspace=workspace,
            backend=LLMBackend(settings_for(domain, llm.base_url)),
            mirror=sandbox_url,
            search_url=sandbox_url,
            prepare=sandbox_secrets,
        )
        requests = list(llm.requests)
    assert res.status == "succeeded", res.error
    assert res.backend == "llm" and res.stop_reason == "success"
    assert res.rows > 0 and res.tokens > 0
    spec = CollectorSpec.load(res.spec)  # valid, saved with the real host
    assert not spec.sources[0].request.url.startswith(sandbox_url)
    # every role spoke through the model, with its versioned profile as the system prompt
    systems = {m["content"].split("(profile ")[1].split(")")[0] for r in requests for m in r["messages"][:1]}
    assert {f"{r.value} v{load_profile(r).version}" for r in Role} <= systems
    # token use per agent is in the trace
    events = Trace.load(workspace.traces_dir / f"{res.trace_id}.jsonl")
    calls = [e for e in events if e["event"] == "llm_call"]
    assert {e["role"] for e in calls} == {r.value for r in Role}
    tools = [e for e in events if e["event"] == "tool_call"]
    assert tools and all(e["ok"] for e in tools), [e for e in tools if not e["ok"]]  # every tool call works
    (measured,) = [e for e in events if e["event"] == "test_measured"]  # the verdict is the dry run's
    assert measured["verdict"] == "pass"
    done = [e for e in events if e["event"] == "squads_done"][-1]
    assert sum(v["tokens"] for v in done["by_role"].values()) == res.tokens


def test_llm_check_proposals_that_fit_no_kind_are_skipped_and_named(sandbox_url, workspace, monkeypatch):
    monkeypatch.setenv("AUTODATA_SECRET_TIINGO_TOKEN", DEMO_TOKEN)
    instruction, scripts = load_conversation("finance", sandbox_url)
    with ScriptedOpenAIServer(scripts, api_key=KEY) as llm:
        res = collect(
            instruction,
            workspace=workspace,
            backend=LLMBackend(settings_for("finance", llm.base_url)),
            mirror=sandbox_url,
            prepare=sandbox_secrets,
        )
    assert res.status == "succeeded", res.error
    assert any("bogus" in w for w in res.warnings)
    checks = yaml.safe_load(Path(res.checks).read_text())["checks"]
    assert {c["kind"] for c in checks} == {"unique", "not_null", "row_count"}
