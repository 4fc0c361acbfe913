"""The scripted OpenAI server's conversation logic without a socket: ``{{result:TOOL:path}}`` references
resolve against the request's tool results, and one model may serve several roles by system message."""

from __future__ import annotations

import json

import pytest

from prefect_autodata.sandbox.openai_server import Script, ScriptedOpenAI, Unresolved, resolve

MESSAGES = [
    {"role": "system", "content": "You are ... (profile engineering v2)"},
    {
        "role": "assistant",
        "tool_calls": [{"id": "c1", "function": {"name": "induce_listing", "arguments": "{}"}}],
    },
    {"role": "tool", "tool_call_id": "c1", "content": json.dumps({"candidates": [{"spec": {"name": "a"}}]})},
    {"role": "assistant", "tool_calls": [{"id": "c2", "function": {"name": "fetch", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "c2", "content": "ERROR: fetch failed"},
]


def test_references_resolve_to_the_latest_tool_result():
    text = '{"spec": "{{result:induce_listing:candidates.0.spec}}", "raw": "{{result:fetch:}}"}'
    assert json.loads(resolve(text, MESSAGES)) == {"spec": {"name": "a"}, "raw": "ERROR: fetch failed"}
    assert resolve('{"plain": 1}', MESSAGES) == '{"plain": 1}'


@pytest.mark.parametrize(
    ("ref", "why"),
    [
        ("{{result:dry_run:why}}", "no result of tool 'dry_run'"),
        ("{{result:induce_listing:candidates.3}}", "no 'candidates.3'"),
    ],
)
def test_an_unresolved_reference_is_named(ref, why):
    with pytest.raises(Unresolved, match=why):
        resolve(f'{{"x": "{ref}"}}', MESSAGES)


def test_one_model_serves_several_roles_by_system_message():
    scripts = [
        Script(name="eng", model="one", system_match="(profile engineering v", turns=[{"content": "{}"}]),
        Script(name="rest", model="one", turns=[{"content": "{}"}]),
    ]
    app = ScriptedOpenAI(scripts, api_key=None)
    assert app._script("one", MESSAGES).name == "eng"
    assert app._script("one", [{"role": "system", "content": "(profile plan v2)"}]).name == "rest"
    assert app._script("other", MESSAGES) is None
