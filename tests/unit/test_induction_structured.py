"""Structured data (JSON-LD, microdata, OpenGraph, meta) → rules the runtime evaluates to the same values."""

from __future__ import annotations

from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.agents.induction.structured import properties
from prefect_autodata.runtime.extract import extract_field
from prefect_autodata.runtime.spec import FieldRule

PAGE = """<html><head><title>x</title>
<meta property="og:title" content="Stone Garden">
<meta name="author" content="Ivy Chen">
<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Thing",
 "name": "Stone Garden", "creator": {"@type": "Person", "name": "Ivy Chen"}, "size": 12.5}</script>
</head><body><div itemscope itemtype="https://schema.org/Thing"><span itemprop="name">Stone Garden</span>
<meta itemprop="sku" content="A-77"><span itemprop="color">teal</span></div></body></html>"""


def test_every_syntax_yields_rules_that_read_back():
    root = parse(PAGE)
    got = properties(PAGE, "http://127.0.0.1/p/1")
    labels = {label for label, _, _ in got}
    assert {"title", "author", "creator", "size", "sku", "color"} <= labels
    for label, value, rule in got:
        v = extract_field(
            root, FieldRule.model_validate({"name": "v", **rule}), page_url="http://127.0.0.1/", params={}
        )
        assert str(v).strip() == value, (label, rule)


def test_no_structured_data_is_no_candidates():
    assert properties("<html><body><p>plain</p></body></html>") == []


def test_jsonld_pairs_graph_and_lists_read_back_through_the_page_json():
    import json
    import random

    rng = random.Random(2027)
    labels = rng.sample(["Cuisine", "Opening hours", "Seats", "Dress code", "Parking"], 3)
    vals = {lab: rng.choice(["a b", "c", 12, 3.5]) for lab in labels}
    item = {
        "@type": "Place",
        "name": "Blue Door",
        "keywords": ["x", "y"],
        "address": {"@type": "PostalAddress", "streetAddress": "1 Main St", "postalCode": "0042"},
        "additionalProperty": [{"@type": "PropertyValue", "name": k, "value": v} for k, v in vals.items()],
    }
    crumbs = {"@type": "BreadcrumbList", "itemListElement": []}
    page = (
        "<html><head><script type='application/ld+json'>"
        + json.dumps({"@graph": [crumbs, item]})
        + "</script></head><body><h1>Blue Door</h1></body></html>"
    )
    root = parse(page)
    got = {label: (value, rule) for label, value, rule in properties(page, "http://127.0.0.1/p", root)}
    for k, v in vals.items():
        assert got[k][0] == str(v)
    assert got["streetAddress"][0] == "1 Main St" and got["keywords"][0] == "x, y"
    for label, (value, rule) in got.items():
        v = extract_field(
            root, FieldRule.model_validate({"name": "v", **rule}), page_url="http://127.0.0.1/", params={}
        )
        assert str(v).strip() == value, (label, rule)
