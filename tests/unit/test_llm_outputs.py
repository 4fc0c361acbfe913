"""The LLM roles' structured outputs: the plan's Request reply merged into the offline parse, the
engineering agent's CollectorSpec schema, compact schemas (no titles)."""

from __future__ import annotations

from datetime import date

import pytest
from pydantic import ValidationError

from prefect_autodata.agents.llm.outputs import (
    RequestReply,
    output_schema,
    request_from_reply,
    response_format,
)
from prefect_autodata.agents.plan import make_plan
from prefect_autodata.ohcache.messages import Role

SENTENCE = "every book with title, author and price since 2020, daily"


def test_the_models_reading_wins_over_the_offline_parse():
    offline = make_plan(SENTENCE, today=date(2026, 12, 1))
    reply = RequestReply.model_validate(
        {
            "entity": "Paperback",
            "fields": ["title", {"name": "Author Name", "type": "str"}, {"name": "price", "type": "money"}],
            "filters": [{"field": "price", "op": "le", "value": 20}],
            "time_scope": {"kind": "relative", "phrase": "since 2020", "years": [2021, 2020]},
            "cadence": "every day",
            "sources": ["https://books.example.org/all"],
        }
    )
    req = request_from_reply(reply, offline)
    assert req.entity.singular == "paperback" and req.entity.plural == "paperbacks"
    assert [(f.name, f.type, f.origin) for f in req.fields] == [
        ("title", "string", "sentence"),  # untyped by the model: the rules' type of the same field
        ("Author Name", "string", "sentence"),
        ("price", "decimal", "sentence"),
    ]
    assert [(f.field, f.op, f.value) for f in req.filters] == [("price", "le", 20)]
    assert req.years == [2020, 2021] and req.start_year == 2020 and req.time_scope.kind == "relative"
    assert req.cadence.phrase == "every day" and req.sources == ["https://books.example.org/all"]
    assert req.text == SENTENCE and "request read by the LLM plan agent" in req.assumptions
    assert req.to_json()["entity"] == "paperback"  # the fixed `plan --json` shape


def test_a_field_the_rules_also_read_keeps_their_normalised_name():
    offline = make_plan("the Seattle Mariners pitching with strikeouts and wins in 2019")
    norm = {f.name: f.normalized for f in offline.fields}
    req = request_from_reply(
        RequestReply.model_validate({"entity": "x", "fields": ["strikeouts", "era"]}), offline
    )
    assert [(f.name, f.normalized) for f in req.fields] == [
        ("strikeouts", norm["strikeouts"]),
        ("era", "era"),
    ]


def test_fields_and_schema_of_the_user_always_win():
    offline = make_plan(SENTENCE, fields=["Title", "Price"])
    req = request_from_reply(RequestReply.model_validate({"entity": "book", "fields": ["author"]}), offline)
    assert req.field_names == ["Title", "Price"] and req.fields[0].origin == "fields"


def test_what_the_reply_leaves_out_stays_the_offline_parse():
    offline = make_plan(SENTENCE, today=date(2026, 12, 1))
    req = request_from_reply(RequestReply.model_validate({"entity": "book"}), offline)
    assert req.field_names == offline.field_names and req.time_scope == offline.time_scope
    assert req.cadence == offline.cadence and req.unresolved == []


def test_a_reply_that_is_not_a_request_is_rejected_with_its_errors():
    with pytest.raises(ValidationError, match="op"):
        RequestReply.model_validate({"entity": "book", "filters": [{"field": "x", "op": "near", "value": 1}]})
    with pytest.raises(ValidationError, match="goals"):
        RequestReply.model_validate({"entity": "book", "goals": ["g"]})


def _titles(schema: object) -> bool:
    if isinstance(schema, dict):
        return "title" in schema or any(
            _titles(v) if k != "properties" else any(_titles(p) for p in v.values())
            for k, v in schema.items()
        )
    return isinstance(schema, list) and any(_titles(x) for x in schema)


def test_structured_outputs_are_json_schemas_without_titles():
    eng = output_schema(Role.ENGINEERING)
    assert {"sources", "primary_key"} <= set(eng["properties"]["spec"]["properties"])
    assert not _titles(eng) and "title" in eng["properties"]  # pydantic's titles dropped, the field kept
    fmt = response_format(Role.PLAN)
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["name"] == "plan_reply"
    assert "entity" in fmt["json_schema"]["schema"]["properties"]


@pytest.mark.parametrize(
    ("base_url", "hosted"),
    [(None, True), ("https://api.openai.com/v1", True), ("https://x.openai.azure.com/openai/v1", True),
     ("http://127.0.0.1:8000/v1", False), ("https://openai.com.evil.example/v1", False)],
)  # fmt: skip
def test_only_openais_own_api_gets_the_schema_beside_tools(base_url, hosted):
    from pydantic import SecretStr

    from prefect_autodata.agents.llm import LLMSettings

    assert LLMSettings(base_url=base_url, api_key=SecretStr("k"), model="m").openai_hosted is hosted
