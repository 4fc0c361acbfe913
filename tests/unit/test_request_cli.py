"""``autodata plan``: prints the Request (the fixed JSON shape) without fetching anything; bad input
is one line on stderr and exit 2."""

from __future__ import annotations

import json
import socket

import pytest
from typer.testing import CliRunner

from prefect_autodata.cli import app


@pytest.fixture
def no_network(monkeypatch):
    """Any connection attempt fails the test: the plan agent alone must not fetch."""

    def refuse(*a, **k):
        raise AssertionError("autodata plan opened a connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def run(*args):
    return CliRunner().invoke(app, ["plan", *args])


def test_plan_json_prints_the_request(no_network):
    res = run("Collect every book listed on http://127.0.0.1:9/shop with title, author and price", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["entity"] == "book" and out["kind"] is None and out["unresolved"] == []
    assert [f["normalized"] for f in out["fields"]] == ["title", "author", "price"]
    assert out["sources"] == ["http://127.0.0.1:9/shop"]
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


def test_plan_json_says_all_columns(no_network):
    out = json.loads(run("All columns of every country on http://127.0.0.1:9/countries", "--json").stdout)
    assert out["entity"] == "country" and out["unresolved"] == []
    assert out["fields"][0] == {"name": "*", "normalized": "*", "type": None}
    out = json.loads(run("every book on http://127.0.0.1:9/shop with title", "--json").stdout)
    assert [f["name"] for f in out["fields"]] == ["title"]


def test_plan_of_a_known_kind_and_of_an_unresolvable_sentence(no_network):
    out = json.loads(run("Collect all accepted papers of NeurIPS 2017.", "--json").stdout)
    assert out["kind"] == "paper" and out["time_scope"]["years"] == [2017]
    assert {"field": "conference", "op": "eq", "value": "NeurIPS"} in out["filters"]
    res = run("Collect stats", "--json")
    assert res.exit_code == 0 and json.loads(res.stdout)["unresolved"]


def test_fields_and_schema_flags(tmp_path, no_network):
    out = json.loads(run("every book with title and price", "--fields", "isbn,title", "--json").stdout)
    assert [f["name"] for f in out["fields"]] == ["isbn", "title"]
    schema = tmp_path / "s.yaml"
    schema.write_text("fields:\n  - {name: price, type: decimal}\n  - {name: date_posted, type: date}\n")
    out = json.loads(run("every book with title and price", "--schema", str(schema), "--json").stdout)
    assert [(f["name"], f["type"]) for f in out["fields"]] == [("price", "decimal"), ("date_posted", "date")]
    res = run("every book", "--fields", "a", "--schema", str(schema), "--json")
    assert res.exit_code == 2


@pytest.mark.parametrize(
    "text",
    [
        "",
        "x" * 10_000,
        "books\x07 with price",
        "Sammle alle Bücher mit Titel und Preis von der Seite",
    ],
)
def test_bad_input_is_one_line_and_exit_2(text, no_network):
    res = CliRunner().invoke(app, ["plan", text, "--json"])
    assert res.exit_code == 2
    assert res.stdout == ""
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert "Traceback" not in res.output
