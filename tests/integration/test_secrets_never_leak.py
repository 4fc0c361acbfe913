"""Secrets never appear in deployment parameters, prefect.yaml, lineage, run errors or logs.

The flow-run side (parameters, logs and artifacts stored by a real Prefect server) is asserted in
``tests/e2e/test_prefect_ui.py`` on the run the UI starts.
"""

from __future__ import annotations

import json
import logging

import duckdb
import pytest

from prefect_autodata.deployments.deploy import deploy_collector
from prefect_autodata.deployments.examples import load_example
from prefect_autodata.errors import FetchError, TransientError, redact_secrets
from prefect_autodata.flows.run_collector import run_spec
from prefect_autodata.runtime.spec import mirrored
from prefect_autodata.sandbox.sites.tiingo import DEMO_TOKEN


@pytest.fixture()
def token(monkeypatch) -> str:
    monkeypatch.setenv("AUTODATA_SECRET_TIINGO_TOKEN", DEMO_TOKEN)
    return DEMO_TOKEN


def all_text(db: str) -> str:
    """Every value of every table in the database, as one string."""
    con = duckdb.connect(db, read_only=True)
    try:
        tables = [r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()]
        return "\n".join(
            json.dumps(con.execute(f'SELECT * FROM "{t}"').fetchall(), default=str) for t in tables
        )
    finally:
        con.close()


def test_prefect_yaml_and_parameters_hold_no_secret(token, workspace, sandbox_url):
    result = deploy_collector("tiingo-aapl-2024", workspace=workspace, mirror=sandbox_url, apply=False)
    text = workspace.prefect_yaml.read_text()
    # the deployment names the collector (its spec keeps ``{secret:TIINGO_TOKEN}``), never the value
    assert token not in text and "tiingo-aapl-2024" in text
    assert "{secret:TIINGO_TOKEN}" in load_example("tiingo-aapl-2024").to_yaml()
    assert token not in result.model_dump_json()


def test_lineage_and_logs_hold_no_secret(token, workspace, sandbox_url, caplog, capfd):
    caplog.set_level(logging.INFO)  # the level deployments run at (urllib3 DEBUG lines echo raw URLs)
    db = str(workspace.db_path)
    ok = run_spec(mirrored(load_example("tiingo-aapl-2024"), sandbox_url), db)
    assert ok.status == "succeeded" and ok.rows_landed > 0
    # a failing request: its URL (with the token) is named in the error, the token is not
    bad = load_example("tiingo-aapl-2024").model_dump(mode="json", exclude_none=True)
    bad["sources"][0]["params"]["ticker"] = {"values": ["NOSUCHTICKER"]}
    db2 = str(workspace.root / "failed.duckdb")  # a fresh database: no cursor skips the request
    failed = run_spec(mirrored(load_example("tiingo-aapl-2024").parse(bad), sandbox_url), db2)
    assert failed.status == "failed" and "NOSUCHTICKER" in failed.error
    assert "token=REDACTED" in failed.error
    stored = all_text(db) + all_text(db2)
    assert "/tiingo/daily/AAPL/prices" in stored and "REDACTED" in stored
    out, errout = capfd.readouterr()
    for blob in (stored, ok.model_dump_json(), failed.model_dump_json(), caplog.text, out, errout):
        assert token not in blob


def test_shipped_schedule_sends_its_token_in_a_header_only(token, workspace, sandbox_url, caplog):
    """sp500-daily: even DEBUG logs of the HTTP client never see the token (it is not in any URL)."""
    caplog.set_level(logging.DEBUG)
    spec = load_example("sp500-daily")
    assert all("secret" not in v for s in spec.sources for v in s.request.params.values())
    one = spec.model_dump(mode="json", exclude_none=True)
    one["sources"][0]["records"] = {"css": "table#constituents tbody tr:first-child"}  # one ticker
    one["politeness"] = {"rate_limit_per_host": 0}
    res = run_spec(mirrored(spec.parse(one), sandbox_url), str(workspace.db_path))
    assert res.status == "succeeded" and res.rows_landed == 1
    assert token not in caplog.text and token not in all_text(str(workspace.db_path))


def test_error_messages_redact_query_secrets():
    url = f"https://api.example.com/x?startDate=2024-01-01&token={DEMO_TOKEN}&format=json"
    for exc in (
        FetchError(f"{url} is disallowed by robots.txt"),
        TransientError(f"{url}: 503", retry_after=1),
    ):
        assert DEMO_TOKEN not in str(exc) and "token=REDACTED&format=json" in str(exc)
    assert redact_secrets("?api_key=abc: 401") == "?api_key=REDACTED: 401"
    assert redact_secrets("plain message, no url") == "plain message, no url"
