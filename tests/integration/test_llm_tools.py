"""The LLM backend on the offline machinery's tools: a scripted tool-using conversation (the real
``openai`` client against the scripted server) collects a small bookshop served on loopback.

The engineering agent fetches the listing, classifies it, induces candidate specs, dry-runs the first
and answers with it (each later call reads an earlier result through ``{{result:TOOL:path}}``); every
tool call must succeed, the final spec must validate, and the posted test verdict is the measured one.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import duckdb
import pytest
import yaml
from pydantic import SecretStr
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route

from prefect_autodata.agents.llm import LLMBackend, LLMSettings
from prefect_autodata.agents.squads import research_and_develop
from prefect_autodata.flows.collect import collect
from prefect_autodata.ohcache.messages import Role
from prefect_autodata.ohcache.trace import Trace
from prefect_autodata.runtime.spec import CollectorSpec
from prefect_autodata.sandbox.openai_server import ScriptedOpenAIServer
from prefect_autodata.sandbox.server import free_port, start_in_thread, stop_thread

KEY = "sk-scripted-0000"
MANAGER = Path(__file__).resolve().parents[1] / "data" / "openai_scripts" / "squads" / "manager.yaml"
INSTRUCTION = "Collect every book with its title, author and price"


def _books(seed: int) -> list[dict[str, str]]:
    rnd = random.Random(seed)
    first, last = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo"], ["Moss", "Reed", "Hart", "Lane", "Vale"]
    words = ["River", "Stone", "Glass", "Winter", "Lamp", "Orchard", "Harbor", "Ember"]
    return [
        {
            "title": f"The {rnd.choice(words)} of {rnd.choice(words)} {i}",
            "author": f"{rnd.choice(first)} {rnd.choice(last)}",
            "price": f"{rnd.randint(5, 60)}.{rnd.randint(0, 99):02d}",
        }
        for i in range(12)
    ]


BOOKS = _books(20261201)


def _listing(request) -> HTMLResponse:
    items = "".join(
        f"<li class='item'><dl><dt>Title</dt><dd>{b['title']}</dd><dt>Author</dt><dd>{b['author']}</dd>"
        f"<dt>Price</dt><dd>${b['price']}</dd></dl></li>"
        for b in BOOKS
    )
    return HTMLResponse(
        "<html><head><title>All books</title></head><body><nav><a href='/'>Home</a></nav>"
        f"<h1>All books</h1><ul>{items}</ul></body></html>"
    )


@pytest.fixture(scope="module")
def shop():
    port = free_port()
    server, thread = start_in_thread(
        Starlette(routes=[Route("/books", _listing)]), "127.0.0.1", port, name="shop"
    )
    yield f"http://127.0.0.1:{port}/books"
    stop_thread(server, thread)


def _answer(obj: dict) -> dict:
    return {"content": json.dumps(obj)}


def conversation(url: str, *, spec: object = "{{result:induce_listing:candidates.0.spec}}") -> list[dict]:
    """One script per role; the engineering agent's turns are a real tool loop over the listing."""
    fields = ["title", "author", "price"]
    manager = yaml.safe_load(MANAGER.read_text())
    manager["turns"] = [
        {**{k: v for k, v in t.items() if k != "answer"}, "content": json.dumps(t["answer"])}
        for t in manager["turns"]
    ]
    return [
        {"name": "shop-plan", "turns": [_answer({"entity": "book", "fields": fields, "sources": [url]})]},
        {
            "name": "shop-web",
            "turns": [
                {"tool_calls": [{"name": "fetch", "arguments": {"url": url}}]},
                _answer(
                    {
                        "pages": [
                            {
                                "url": url,
                                "status": "{{result:fetch:status}}",
                                "title": "{{result:fetch:title}}",
                                "cache_id": "{{result:fetch:cache_id}}",
                                "summary": "{{result:fetch:class}}",
                            }
                        ],
                        "candidate_sources": [url],
                    }
                ),
            ],
        },
        {
            "name": "shop-tool",
            "turns": [_answer({"observations": [{"tool": "fetch", "result": "an HTML listing, no API"}]})],
        },
        {
            "name": "shop-blueprint",
            "turns": [
                _answer(
                    {
                        "name": "books",
                        "sources": [{"url": url, "kind": "html", "why": "the listing shows every book"}],
                        "method": "GET the listing",
                        "extraction_logic": "one record per list item, labelled values",
                        "output": [{"name": f} for f in fields],
                    }
                )
            ],
        },
        {
            "name": "shop-engineering",
            "turns": [
                {"tool_calls": [{"name": "fetch", "arguments": {"url": url}}]},
                {"tool_calls": [{"name": "classify_page", "arguments": {"url": url}}]},
                {"tool_calls": [{"name": "induce_listing", "arguments": {"url": url}}]},
                {"tool_calls": [{"name": "dry_run", "arguments": {"spec": spec}}]},
                _answer({"title": "books (html)", "rationale": "{{result:dry_run:why}}", "spec": spec}),
            ],
        },
        {
            "name": "shop-test",
            # the model claims a pass whatever it saw: the posted verdict is the measured one
            "turns": [
                _answer(
                    {
                        "results": [{"name": "rows", "passed": True, "evidence": "looks fine"}],
                        "quality_score": 1.0,
                        "verdict": "pass",
                    }
                )
            ],
        },
        {
            "name": "shop-validation",
            "turns": [
                _answer(
                    {
                        "checks": [
                            {"name": "rows", "kind": "row_count", "params": {"min": 5}},
                            {"name": "not_null:title", "kind": "not_null", "column": "title"},
                        ]
                    }
                )
            ],
        },
        manager,
    ]


def settings(base_url: str, **kw) -> LLMSettings:
    roles = {r: f"shop-{r.value}" for r in Role if r is not Role.MANAGER}
    return LLMSettings(
        base_url=base_url, api_key=SecretStr(KEY), model="squad-manager", role_models=roles, **kw
    )


def _events(workspace, trace_id: str, name: str) -> list[dict]:
    return [e for e in Trace.load(workspace.traces_dir / f"{trace_id}.jsonl") if e["event"] == name]


def test_a_tool_using_conversation_lands_the_table(shop, workspace):
    with ScriptedOpenAIServer(conversation(shop), api_key=KEY) as llm:
        backend = LLMBackend(settings(llm.base_url, structured_output="json_schema"))
        res = collect(INSTRUCTION, sources=[shop], workspace=workspace, backend=backend)
        requests = list(llm.requests)
    assert res.status == "succeeded", res.error
    assert res.backend == "llm" and res.tokens > 0 and res.rows == len(BOOKS)
    calls = _events(workspace, res.trace_id, "tool_call")
    assert [c["tool"] for c in calls if c["role"] == "engineering"] == [
        "fetch",
        "classify_page",
        "induce_listing",
        "dry_run",
    ]
    assert calls and all(c["ok"] for c in calls), [c for c in calls if not c["ok"]]
    spec = CollectorSpec.load(res.spec)  # the saved spec validates and reads the requested columns
    assert [c.name for c in spec.output_columns()] == ["title", "author", "price"]
    con = duckdb.connect(res.db, read_only=True)
    try:
        titles = {r[0] for r in con.execute(f'SELECT title FROM "{res.table}"').fetchall()}
    finally:
        con.close()
    assert titles == {b["title"] for b in BOOKS}
    # the engineering agent asked for its CollectorSpec as a JSON-Schema structured output
    eng = [r for r in requests if r["model"] == "shop-engineering"]
    schema = eng[0]["response_format"]["json_schema"]["schema"]
    assert "sources" in schema["properties"]["spec"]["properties"]
    # the plan is the model's Request; the test verdict was measured (the model's "pass" agreed)
    (req,) = _events(workspace, res.trace_id, "plan_request")
    assert req["source"] == "llm" and req["request"]["entity"] == "book"
    (measured,) = _events(workspace, res.trace_id, "test_measured")
    assert measured["verdict"] == "pass" and measured["rows"] == len(BOOKS)


def test_a_claimed_pass_on_a_spec_that_fills_nothing_is_measured_as_a_fail(shop, workspace):
    broken = {
        "name": "books",
        "primary_key": ["title"],
        "sources": [
            {
                "name": "listing",
                "kind": "html",
                "request": {"url": shop},
                "records": {"xpath": "//li"},
                "fields": [
                    {"name": "title", "xpath": ".//dd[1]"},
                    {"name": "author", "xpath": ".//dd[2]"},
                    {"name": "price", "xpath": ".//span[@class='nowhere']"},
                ],
            }
        ],
    }
    with ScriptedOpenAIServer(conversation(shop, spec=broken), api_key=KEY) as llm:
        res = research_and_develop(
            INSTRUCTION, sources=[shop], workspace=workspace, backend=LLMBackend(settings(llm.base_url))
        )
    assert res.stop_reason != "success" and res.test is not None and res.test.verdict == "fail"
    (measured,) = _events(workspace, res.trace_id, "test_measured")
    assert measured["claimed"] == "pass" and measured["verdict"] == "fail"
    assert "price" in measured["why"]
    assert res.fields["price"]["fill_rate"] == 0.0 and res.fields["title"]["fill_rate"] == 1.0


def test_an_endpoint_without_structured_output_gets_validated_json(shop, workspace):
    scripts = conversation(shop)
    for s in scripts:
        s["structured_output"] = False  # every model refuses response_format (400)
    with ScriptedOpenAIServer(scripts, api_key=KEY) as llm:
        backend = LLMBackend(settings(llm.base_url, structured_output="json_schema"))
        res = research_and_develop(INSTRUCTION, sources=[shop], workspace=workspace, backend=backend)
        requests = list(llm.requests)
    assert res.stop_reason == "success", res.detail
    refused = _events(workspace, res.trace_id, "structured_output_unsupported")
    assert {e["model"] for e in refused} == {f"shop-{r.value}" for r in Role if r is not Role.MANAGER} | {
        "squad-manager"
    }
    # asked once per model with response_format, then without
    assert sum("response_format" in r for r in requests) == len(refused)
