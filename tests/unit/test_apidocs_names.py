"""What a documentation page says its names mean, and how it says to page (``apidocs``)."""

from __future__ import annotations

import random

import pytest

from prefect_autodata.agents.induction.apidocs import documented_names, paging_from_docs, stated_total
from prefect_autodata.agents.induction.jsonrec import loads
from prefect_autodata.runtime.extract import parse_document


def _page(body: str) -> str:
    return f"<html><body><main>{body}</main></body></html>"


def test_key_table_list_items_prose_and_definition_lists():
    html = _page(
        "<table><tr><th>Key</th><th>Type</th><th>Meaning</th></tr>"
        "<tr><td><code>vhc</code></td><td>text</td><td>Make &amp; model</td></tr>"
        "<tr><td><code>spec.eng</code></td><td>string</td><td>Engine</td></tr></table>"
        "<ul><li><code>nxt</code> — Token from the previous response's cursor value.</li></ul>"
        "<p>Parameters: <code>sz</code> (integer): Records per page, 1 to 250. <code>q</code>: a search.</p>"
        "<dl><dt><code>prc</code></dt><dd>Price in dollars</dd></dl>"
    )
    names = documented_names(html)
    assert names["vhc"] == "Make & model"  # the type cell is not the meaning
    assert names["spec.eng"] == "Engine"
    assert names["nxt"].startswith("Token from the previous")
    assert names["sz"].startswith("Records per page")
    assert names["prc"] == "Price in dollars"


@pytest.mark.parametrize(
    ("desc", "kind", "first"),
    [
        ("Page number (first page is 0).", "page", 0),
        ("Page number, 1-based.", "page", 1),
        ("Number of records to skip (default 0).", "offset", None),
        ("Opaque cursor from the previous response; omit it for the first page.", "cursor", None),
    ],
)
def test_paging_kind_first_page_and_largest_size(desc, kind, first):
    top = random.randint(50, 900)
    names = {"p_x": desc, "n_y": f"Records per response, 1 to {top} (default 10).", "tok": "Your API key."}
    pg = paging_from_docs(names)
    assert (pg.kind, pg.param, pg.first) == (kind, "p_x", first)
    assert (pg.size_param, pg.max_size, pg.default_size) == ("n_y", top, 10)


def test_no_paging_documented():
    assert paging_from_docs({"genre": "Only movies of this genre.", "key": "Your key."}).kind is None


def test_stated_total():
    n = random.randint(1000, 99999)
    assert stated_total(f"The complete list as CSV; {n:,} records in all.") == n
    assert stated_total("Download the file.") is None


def test_json_lines_read_as_an_array_of_records():
    n = random.randint(2, 30)
    text = "\n".join(f'{{"id": {i}, "name": "r{i}"}}' for i in range(n)) + "\n"
    assert loads(text) == [{"id": i, "name": f"r{i}"} for i in range(n)]
    doc = parse_document("json", text, "http://127.0.0.1/x.ndjson")
    assert doc.root == [{"id": i, "name": f"r{i}"} for i in range(n)]
    with pytest.raises(ValueError):
        loads("not json\nat all")


def test_openapi_parameter_and_property_descriptions():
    from prefect_autodata.agents.induction.apidocs import openapi_names

    doc = {
        "openapi": "3.0.3",
        "paths": {
            "/v1/things": {
                "get": {
                    "parameters": [
                        {"name": "lim", "in": "query", "description": "Records per response, 1 to 90."},
                        {"name": "id", "in": "path", "description": "The id."},
                    ]
                }
            }
        },
        "components": {
            "schemas": {
                "Thing": {
                    "properties": {
                        "vhc": {"type": "string", "description": "Make & model"},
                        "n": {"type": "integer", "description": "integer"},
                    }
                }
            }
        },
    }
    names = openapi_names(doc)
    assert names == {"lim": "Records per response, 1 to 90.", "vhc": "Make & model"}
    assert paging_from_docs(names).max_size == 90
    assert openapi_names({"paths": {}}) == {}  # not an OpenAPI document


def test_key_table_row_wins_over_a_parameter_sentence_before_it():
    html = _page(
        "<p>Parameters. <code>trc</code> (string): Only papers with this track.</p>"
        "<table><tr><th>Key</th><th>Meaning</th></tr>"
        "<tr><td><code>trc</code></td><td>Session type</td></tr></table>"
        "<p>Later prose: <code>trc</code> — something else.</p>"
    )
    assert documented_names(html)["trc"] == "Session type"


def test_a_parameter_table_of_plain_text_names():
    html = _page(
        "<table><tr><th>Parameter</th><th>Type</th><th>Description</th></tr>"
        "<tr><td>pg</td><td>integer</td><td>Page number (first page is 1).</td></tr>"
        "<tr><td>per_page</td><td>integer</td><td>Results per page, 1 to 200.</td></tr>"
        "<tr><td>club</td><td>string</td><td>Only seasons of this team.</td></tr></table>"
        "<table><tr><th>Team</th><th>Wins</th></tr><tr><td>Otters</td><td>40</td></tr></table>"
    )
    names = documented_names(html)
    assert names == {
        "pg": "Page number (first page is 1).",
        "per_page": "Results per page, 1 to 200.",
        "club": "Only seasons of this team.",
    }  # a data table (no name and description columns) documents nothing
    pg = paging_from_docs(names)
    assert (pg.kind, pg.param, pg.first, pg.size_param, pg.max_size) == ("page", "pg", 1, "per_page", 200)
