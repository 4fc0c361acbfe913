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


def test_opengraph_page_metadata_is_no_record_field():
    # og:type / og:url / og:site_name describe the page ("article", its own address): a "type" or
    # "website" field must never read them; og:title and og:description stay
    page = """<html><head><meta property="og:title" content="Alma College">
<meta property="og:type" content="article"><meta property="og:url" content="https://x.test/a.html">
<meta property="og:site_name" content="Campus List"><meta property="og:description" content="ok">
</head><body></body></html>"""
    labels = {label for label, _, _ in properties(page)}
    assert {"title", "description"} <= labels
    assert not labels & {"type", "url", "site_name"}


def test_a_dotted_decimal_that_reads_as_grouped_integer_is_typed_as_a_number():
    # "4.170" (an ERA) looks like 4,170 in dotted grouping; the integer transform would refuse it on
    # every page, so the rule is a float and reads back 4.17
    from prefect_autodata.agents.induction.matching import Candidate
    from prefect_autodata.agents.induction.rules import typed_rule

    html = '<html><head><script type="application/ld+json">{"era": "4.170"}</script></head></html>'
    cand = Candidate(
        label="era", values=["4.170", "3.200", "4.020"], rule={"jsonpath": "$['ld+json'][0]['era']"}
    )
    rule = typed_rule("era", cand)
    assert rule.type == "float"
    assert extract_field(parse(html), rule, page_url="http://127.0.0.1/", params={}) == 4.17
    grouped = typed_rule("n", Candidate(label="n", values=["1.234.567", "2.345.678"], rule={"xpath": "//p"}))
    assert grouped.type == "string"


def _ld_page(data: object) -> str:
    import json

    return (
        "<html><head><script type='application/ld+json'>"
        + json.dumps(data)
        + "</script></head><body><h1>x</h1></body></html>"
    )


def test_one_jsonld_rule_holds_on_a_plain_object_a_graph_and_a_nested_item():
    # the same site writes its Recipe as one object on some pages, inside a @graph (after WebSite
    # and Person items) on others, or as a page's mainEntity: the rule must read all three
    def recipe(name: str, kcal: str) -> dict:
        return {"@type": "Recipe", "name": name, "recipeYield": "4", "nutrition": {"calories": kcal}}

    pages = [
        _ld_page({"@context": "https://schema.org", **recipe("Soup", "310 kcal")}),
        _ld_page(
            {
                "@context": "https://schema.org",
                "@graph": [
                    {"@type": "WebSite", "name": "Pantry", "url": "/"},
                    {"@type": "Person", "name": "Dana"},
                    recipe("Tacos", "415 kcal"),
                ],
            }
        ),
        _ld_page({"@type": "WebPage", "name": "p", "mainEntity": recipe("Chili", "290 kcal")}),
    ]
    rules = []
    for page, (name, kcal) in zip(pages, [("Soup", "310"), ("Tacos", "415"), ("Chili", "290")], strict=True):
        root = parse(page)
        got = {label: (value, rule) for label, value, rule in properties(page, "http://127.0.0.1/r", root)}
        assert got["calories"][0] == kcal and got["name"][0] == name
        rules.append((got["calories"][1], got["name"][1]))
        for value, rule in got.values():
            v = extract_field(
                root, FieldRule.model_validate({"name": "v", **rule}), page_url="http://127.0.0.1/", params={}
            )
            assert str(v).strip() == value, rule
    assert rules[0] == rules[1] == rules[2]  # one rule per property over the three shapes


def test_a_quantity_with_its_unit_reads_as_its_number_and_a_type_prefix_is_no_name():
    page = _ld_page(
        {
            "@type": "Recipe",
            "name": "Soup",
            "recipeYield": "6 servings",
            "nutrition": {"calories": "310 kcal"},
        }
    )
    root = parse(page)
    got = {label: (value, rule) for label, value, rule in properties(page, "http://127.0.0.1/r", root)}
    assert got["calories"][0] == "310" and got["Yield"][0] == "6"  # recipeYield of a Recipe: its yield
    assert "recipeYield" not in got
    rule = FieldRule.model_validate({"name": "v", **got["calories"][1]})
    assert extract_field(root, rule, page_url="http://127.0.0.1/", params={}) == "310"
