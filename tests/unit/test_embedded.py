"""Records in a page's script JSON: reading it (runtime/scriptjson), inducing specs (induction/embedded),
and extracting them with the runtime (a jsonpath records selector on an HTML page)."""

from __future__ import annotations

import json
import random

from lxml import html as lhtml

from prefect_autodata.agents.induction import embedded
from prefect_autodata.runtime.extract import extract_page, parse_document, select_records
from prefect_autodata.runtime.scriptjson import LD_KEY, assignments, page_json
from prefect_autodata.runtime.spec import FieldRule, Selector


def _page(*scripts: str) -> str:
    return (
        "<html><head><title>x</title></head><body><div id='app'></div>" + "".join(scripts) + "</body></html>"
    )


def test_page_json_reads_every_script_shape() -> None:
    page = _page(
        '<script type="application/json" id="state">{"a": [1, 2]}</script>',
        '<script>window.__DATA__ = {"b": {"c": 3}};\nvar other = [1, {"d": 4}];</script>',
        '<script>self["app"] = JSON.parse(\'{\\"e\\": "\\u00e9"}\');</script>',
        '<script type="application/ld+json">{"@type": "Thing", "name": "N"}</script>',
        '<script type="application/json">[{"z": 1}]</script>',
        "<script>const notJson = {a: 1}; let s = 'x';</script>",
    )
    data = page_json(lhtml.document_fromstring(page))
    assert data["state"] == {"a": [1, 2]}
    assert data["__DATA__"] == {"b": {"c": 3}}
    assert data["other"] == [1, {"d": 4}]
    assert data["app"] == {"e": "é"}
    assert data[LD_KEY] == [{"@type": "Thing", "name": "N"}]
    assert any(k.startswith("#") and v == [{"z": 1}] for k, v in data.items())
    assert data["notJson"] == {"a": 1}  # a JS object literal is data too (test_scriptjson_literals.py)
    assert "s" not in data


def test_assignments_ignore_comparisons_and_keep_first() -> None:
    code = 'if (x == {"a": 1}) {}\nwindow.S = {"k": [1]};\nwindow.S = {"k": [2]};'
    assert assignments(code) == {"S": {"k": [1]}}


def _records(rng: random.Random, n: int) -> list[dict]:
    words = ["amber", "birch", "cedar", "delta", "ember", "fjord", "grove", "heath"]
    return [
        {
            "headline": f"{rng.choice(words).title()} {i}",
            "meta": {"cost": round(rng.uniform(1, 500), 2), "where": rng.choice(words)},
            "tags": rng.sample(words, 2),
        }
        for i in range(n)
    ]


def test_induced_spec_reads_the_state_object_with_the_runtime() -> None:
    rng = random.Random(4711)
    recs = _records(rng, rng.randint(8, 30))
    columns = [
        {"key": "headline", "header": "Product"},
        {"key": "meta.cost", "header": "Price"},
        {"key": "meta.where", "header": "Warehouse"},
        {"key": "tags", "header": "Labels"},
    ]
    state = json.dumps({"view": {"columns": columns}, "data": {"rows": recs}})
    page = _page(f"<script>window.__STORE__ = {state};</script>")
    root = lhtml.document_fromstring(page)
    built = embedded.induce_page(
        "https://shop.example/list", root, ["product", "price", "warehouse", "labels"], name="t"
    )
    assert built, "no spec from the script state"
    best = max(built, key=lambda b: len(b.matches))
    assert set(best.matches) == {"product", "price", "warehouse", "labels"}
    src = best.spec.sources[0]
    assert src.kind == "html" and src.records.jsonpath == "$['__STORE__']['data']['rows'][*]"
    doc = parse_document("html", page, "https://shop.example/list")
    rows = extract_page(doc, src.fields, src.records, {})
    assert len(rows) == len(recs)
    for row, rec in zip(rows, recs, strict=True):
        assert row["product"] == rec["headline"]
        assert float(row["price"]) == rec["meta"]["cost"]
        assert row["warehouse"] == rec["meta"]["where"]
        assert row["labels"] == ", ".join(rec["tags"])
    assert best.spec.primary_key == ["product"]


def test_keys_without_column_definitions_are_their_own_labels() -> None:
    rng = random.Random(99)
    recs = [{"title": f"T{i}", "year": 1990 + i, "studio": rng.choice(["A", "B"])} for i in range(6)]
    page = _page(f'<script type="application/json" id="__NEXT_DATA__">{json.dumps({"props": recs})}</script>')
    built = embedded.induce_page(
        "https://x.example/", lhtml.document_fromstring(page), ["title", "year"], name="t"
    )
    assert built and set(built[0].matches) == {"title", "year"}
    assert built[0].spec.sources[0].records.jsonpath == "$['__NEXT_DATA__']['props'][*]"


def test_jsonpath_fields_on_html_detail_pages_read_jsonld() -> None:
    page = _page(
        '<script type="application/ld+json">{"@type": "Book", "name": "Dune", "pages": 412}</script>'
    )
    doc = parse_document("html", page, "https://b.example/1")
    rec = select_records(doc, Selector())[0]
    rows = extract_page(
        doc, [FieldRule(name="pages", jsonpath="$['ld+json'][0].pages", type="integer")], Selector(), {}
    )
    assert rows == [{"pages": 412}]
    assert rec is doc.root


def test_paths_are_bracketed() -> None:
    assert embedded.bracketed("$.meta.where[*]") == "$['meta']['where'][*]"
    assert embedded.bracketed("$['a.b'].c[1:]") == "$['a.b']['c'][1:]"
    assert embedded.bracketed("$.items.*") == "$['items'].*"


def test_no_script_json_no_candidates() -> None:
    root = lhtml.document_fromstring(_page("<script>console.log('hi')</script>"))
    assert embedded.induce_page("https://x.example/", root, ["title"], name="t") == []


def test_script_records_with_a_list_of_named_objects() -> None:
    recs = [
        {
            "title": f"Film {i}",
            "cast": [{"name": f"Actor {i}a", "role": "x"}, {"name": f"Actor {i}b", "role": "y"}],
        }
        for i in range(5)
    ]
    page = _page(f"<script>var films = {json.dumps(recs)};</script>")
    built = embedded.induce_page(
        "https://x.example/", lhtml.document_fromstring(page), ["title", "cast"], name="t"
    )
    best = max(built, key=lambda b: len(b.matches))
    src = best.spec.sources[0]
    rows = extract_page(parse_document("html", page, "https://x.example/"), src.fields, src.records, {})
    assert [r["cast"] for r in rows[:2]] == ["Actor 0a, Actor 0b", "Actor 1a, Actor 1b"]
