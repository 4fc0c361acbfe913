"""CollectorSpec: YAML round-trip, content-hash versions, one clear error naming the field, templates."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from prefect_autodata.errors import ConfigError
from prefect_autodata.runtime import templates
from prefect_autodata.runtime.spec import CollectorSpec, json_schema, mirrored, secret_names

BASE = """
name: demo-prices
base_url: https://api.example.org/
primary_key: [ticker, date]
sources:
  - name: prices
    kind: json
    request:
      url: "{base_url}/daily/{ticker}/prices"
      params: {startDate: "{start}", token: "{secret:DEMO_TOKEN}"}
    params:
      ticker: {values: [AAPL, MSFT]}
      start: {date: "2024-01-01"}
    records: {jsonpath: "$[*]"}
    fields:
      - {name: ticker, from_param: ticker}
      - {name: date, type: date, jsonpath: "$.date", transforms: [parse_date]}
      - {name: close, type: float, jsonpath: "$.close"}
incremental: {cursor: date, param: start}
"""


def test_yaml_round_trip_keeps_the_version():
    spec = CollectorSpec.from_yaml(BASE)
    again = CollectorSpec.from_yaml(spec.to_yaml())
    assert again == spec
    assert again.version == spec.version
    assert spec.table_name == "demo_prices"
    assert spec.base_url == "https://api.example.org"  # trailing slash normalised


def test_version_changes_with_content_only():
    a = CollectorSpec.from_yaml(BASE)
    reformatted = CollectorSpec.from_yaml(
        BASE.replace("[AAPL, MSFT]", "[ AAPL ,   MSFT ]").replace("name: prices\n", "name:   prices\n")
    )
    changed = CollectorSpec.from_yaml(BASE.replace("MSFT", "GOOGL"))
    assert reformatted.version == a.version
    assert changed.version != a.version


@pytest.mark.parametrize(
    ("mutation", "needle"),
    [
        (("kind: json", "kind: jsn"), "sources['prices'].kind"),
        (('jsonpath: "$.close"', "css: 'div[['"), "sources['prices'].fields['close']"),
        (("primary_key: [ticker, date]", "primary_key: [tick]"), "primary_key column 'tick'"),
        (("name: demo-prices", "name: Demo Prices"), "name"),
        (('start: {date: "2024-01-01"}', 'start: {date: "next tuesday"}'), "sources['prices'].params.start"),
        (("param: start}", "param: nope}"), "incremental.param 'nope'"),
        (("[parse_date]", "[{op: regex}]"), "needs 'pattern'"),
    ],
)
def test_invalid_spec_names_the_field(mutation, needle):
    with pytest.raises(ConfigError) as info:
        CollectorSpec.from_yaml(BASE.replace(*mutation))
    assert needle in str(info.value)
    assert "\n" not in str(info.value)


def test_not_yaml_and_not_mapping():
    with pytest.raises(ConfigError, match="not valid YAML"):
        CollectorSpec.from_yaml("name: [unclosed")
    with pytest.raises(ConfigError, match="must be a mapping"):
        CollectorSpec.from_yaml("- a\n- b\n")


def test_secrets_are_named_not_stored():
    spec = CollectorSpec.from_yaml(BASE)
    assert secret_names(spec) == {"DEMO_TOKEN"}
    assert "{secret:DEMO_TOKEN}" in spec.to_yaml()


def test_mirrored_moves_every_host_under_the_mirror():
    spec = mirrored(CollectorSpec.from_yaml(BASE), "http://127.0.0.1:9999/")
    assert spec.base_url == "http://127.0.0.1:9999/api.example.org"


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("2024-03-05", date(2024, 3, 5)),
        ("today", date(2024, 6, 10)),
        ("today-1", date(2024, 6, 9)),
        ("yesterday", date(2024, 6, 9)),
        ("last_trading_day", date(2024, 6, 7)),  # Monday -> previous Friday
        ("start_of_year", date(2024, 1, 1)),
        ("end_of_year+1", date(2025, 1, 1)),
    ],
)
def test_relative_dates(expr, expected):
    assert templates.resolve_date(expr, today=date(2024, 6, 10)) == expected


def test_render_placeholders_and_secrets(monkeypatch):
    monkeypatch.setenv("AUTODATA_SECRET_DEMO_TOKEN", "s3cret")
    vals = {"ticker": "AAPL", "day": date(2024, 1, 2)}
    assert (
        templates.render("/x/{ticker}/{day:%Y%m%d}?t={secret:DEMO_TOKEN}", vals)
        == "/x/AAPL/20240102?t=s3cret"
    )
    assert templates.render("{secret:DEMO_TOKEN}", vals, redact=True) == templates.REDACTED
    with pytest.raises(ConfigError, match="unknown placeholder"):
        templates.render("{tickr}", vals)
    monkeypatch.delenv("AUTODATA_SECRET_DEMO_TOKEN")
    from prefect.settings import PREFECT_API_URL, temporary_settings

    # no server: one clear error. A setting, not the env var: once Prefect is imported (any earlier test) it
    # no longer reads PREFECT_API_URL from the environment, and the lookup started an ephemeral server
    with temporary_settings(updates={PREFECT_API_URL: "http://127.0.0.1:9/api"}):
        with pytest.raises(ConfigError, match="AUTODATA_SECRET_DEMO_TOKEN") as exc:
            templates.render("{secret:DEMO_TOKEN}", vals)
    assert "ConnectError" in type(exc.value.__cause__).__name__  # refused by the missing server, none started


def test_published_json_schema_is_current():
    """docs/collector-spec.md embeds the schema; regenerate with scripts/gen_spec_schema.py."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "collector-spec.md").read_text()
    block = doc.split("```json\n", 1)[1].split("\n```", 1)[0]
    assert json.loads(block) == json_schema()
