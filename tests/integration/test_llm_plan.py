"""``autodata plan --backend llm``: the LLM plan agent alone produces the same Request as the offline
parser (its reading merged into the offline parse), through the real ``openai`` client against the
scripted server; nothing is fetched."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from prefect_autodata.cli import app
from prefect_autodata.sandbox.openai_server import ScriptedOpenAIServer

KEY = "sk-scripted-0000"
SENTENCE = "I need all job postings on jobs.example.org with title, company and salary over 50000"
REPLY = {
    "entity": "job posting",
    "fields": ["title", "company", {"name": "salary", "type": "decimal"}],
    "filters": [{"field": "salary", "op": "ge", "value": 50000}],
    "sources": ["jobs.example.org"],
}
SCRIPTS = [
    {"name": "reads", "turns": [{"content": json.dumps(REPLY)}]},
    {
        "name": "never-valid",
        "turns": [{"content": '{"entity": "job", "filters": [{"op": "near"}]}', "repeat": True}],
    },
    # one model for every role (AUTODATA_LLM_MODEL): the role's profile line picks the script
    {
        "name": "one-plan",
        "model": "one",
        "system_match": "(profile plan v",
        "turns": [{"content": json.dumps(REPLY)}],
    },
    {"name": "one-other", "model": "one", "turns": [{"content": "{}"}]},
]


@pytest.fixture(scope="module")
def llm():
    with ScriptedOpenAIServer(SCRIPTS, api_key=KEY) as srv:
        yield srv


def plan(llm, monkeypatch, model: str, *args: str):
    monkeypatch.setenv("AUTODATA_LLM_BASE_URL", llm.base_url)
    monkeypatch.setenv("AUTODATA_LLM_API_KEY", KEY)
    monkeypatch.setenv("AUTODATA_LLM_MODEL", model)
    return CliRunner().invoke(app, ["plan", SENTENCE, "--backend", "llm", "--json", *args])


def test_plan_backend_llm_prints_the_models_request(llm, monkeypatch):
    llm.reset()
    res = plan(llm, monkeypatch, "reads")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["entity"] == "job posting"
    assert [(f["name"], f["type"]) for f in out["fields"]] == [
        ("title", "string"),
        ("company", None),
        ("salary", "decimal"),
    ]
    assert out["filters"] == [{"field": "salary", "op": "ge", "value": 50000}]
    assert set(out) == {
        "entity",
        "fields",
        "filters",
        "time_scope",
        "coverage",
        "cadence",
        "sources",
        "kind",
        "unresolved",
    }
    (req,) = llm.requests
    # a tool-carrying request to an endpoint other than OpenAI's is not constrained to the schema
    # (servers such as vLLM would then never call a tool): the reply is validated JSON instead
    assert "response_format" not in req and req["tools"]
    assert SENTENCE in req["messages"][1]["content"]


def test_one_model_serves_the_plan_role_by_its_profile(llm, monkeypatch):
    llm.reset()
    res = plan(llm, monkeypatch, "one")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["entity"] == "job posting" and "read by: llm" in res.stderr


def test_fields_flag_wins_over_the_models_fields(llm, monkeypatch):
    llm.reset()
    res = plan(llm, monkeypatch, "reads", "--fields", "Title,Salary")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert [f["name"] for f in out["fields"]] == ["Title", "Salary"] and out["entity"] == "job posting"


def test_a_reply_that_never_validates_gives_the_offline_parse(llm, monkeypatch):
    llm.reset()
    res = plan(llm, monkeypatch, "never-valid")
    assert res.exit_code == 0, res.output
    offline = CliRunner().invoke(app, ["plan", SENTENCE, "--json"])
    assert json.loads(res.stdout) == json.loads(offline.stdout)
    assert len(llm.requests) == 2  # the reply and one repair turn


def test_plan_backend_llm_without_a_key_is_one_line_exit_2(monkeypatch):
    monkeypatch.delenv("AUTODATA_LLM_API_KEY", raising=False)
    res = CliRunner().invoke(app, ["plan", SENTENCE, "--backend", "llm"])
    assert res.exit_code == 2 and "AUTODATA_LLM_API_KEY" in res.output
