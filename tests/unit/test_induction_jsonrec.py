"""JSON record sets: nested objects flattened, arrays of arrays with a header row, records keyed by id."""

from __future__ import annotations

from prefect_autodata.agents.induction.jsonrec import flatten, record_sets
from prefect_autodata.agents.induction.jsonsets import json_record_sets
from prefect_autodata.runtime.extract import compile_jsonpath


def _read(obj, rs, key):
    recs = compile_jsonpath(rs.path)(obj)
    return [compile_jsonpath(rs.jsonpath_for(key))(r)[0] for r in recs]


def test_flatten_nested_objects():
    assert flatten({"t": 1, "author": {"name": "Li", "born": {"year": 1970}}}) == {
        "t": 1,
        "author.name": "Li",
        "author.born.year": 1970,
    }


def test_nested_records_are_addressable_by_dotted_keys():
    obj = {
        "data": {
            "items": [
                {"title": f"B{i}", "author": {"name": f"A{i}"}, "price": {"amount": i}} for i in range(4)
            ]
        }
    }
    (rs,) = [r for r in json_record_sets(obj) if r.path == "$.data.items[*]"]
    assert "author.name" in rs.keys and "price.amount" in rs.keys
    assert _read(obj, rs, "author.name") == ["A0", "A1", "A2", "A3"]


def test_arrays_of_arrays_with_a_header_row():
    obj = {
        "rows": [
            ["name", "capital", "population"],
            ["Aland", "Ax", 10],
            ["Bora", "By", 20],
            ["Cim", "Cz", 30],
        ]
    }
    (rs,) = record_sets(obj)
    assert rs.path == "$.rows[1:]" and rs.count == 3 and rs.positional
    assert rs.labels == {0: "name", 1: "capital", 2: "population"}
    assert _read(obj, rs, 1) == ["Ax", "By", "Cz"]


def test_records_keyed_by_id():
    obj = {
        "books": {
            "17": {"title": "X", "by": "P"},
            "42": {"title": "Y", "by": "Q"},
            "56": {"title": "Z", "by": "R"},
        }
    }
    (rs,) = record_sets(obj)
    assert rs.path == "$.books.*" and rs.count == 3
    assert _read(obj, rs, "title") == ["X", "Y", "Z"]


def test_a_plain_object_is_not_a_record_set():
    assert record_sets({"name": "x", "meta": {"a": 1}}) == []


def test_a_flattened_key_goes_by_its_last_part_unless_another_key_ends_the_same():
    obj = {
        "data": [
            {"car": f"Car {i}", "meta": {"price": f"${i},000", "name": "m"}, "dealer": {"name": f"D{i}"}}
            for i in range(4)
        ]
    }
    (rs,) = [r for r in json_record_sets(obj) if r.path == "$.data[*]"]
    assert rs.labels["meta.price"] == "price"  # the field word a flat key would carry
    assert rs.labels["meta.name"] == "meta.name" and rs.labels["dealer.name"] == "dealer.name"
    assert rs.labels["car"] == "car"
    assert _read(obj, rs, "meta.price") == ["$0,000", "$1,000", "$2,000", "$3,000"]


def test_one_walker_finds_column_tables_with_their_name_beside_nested_records():
    obj = {
        "resultSets": [
            {"name": "Seasons", "headers": ["TEAM", "W", "W"], "rowSet": [["A", 1, 2], ["B", 3, 4]]},
        ],
        "clubs": {
            f"c{i}": {"club": f"C{i}", "info": {"city": f"X{i}"}, "tags": [{"t": i}]} for i in range(4)
        },
    }
    sets = {r.path: r for r in json_record_sets(obj)}
    table = sets["$.resultSets[0].rowSet[*]"]
    assert table.positional and table.name == "Seasons" and table.labels == {0: "TEAM", 1: "W", 2: "W"}
    clubs = sets["$.clubs.*"]
    assert clubs.count == 4 and clubs.labels["info.city"] == "city"
    assert "$.clubs.c0.tags[*]" in sets  # arrays inside the first keyed records are found as well
    assert record_sets(obj) == json_record_sets(obj)


def test_a_list_of_named_objects_lands_as_the_names_joined():
    import json

    from prefect_autodata.agents.engineering import induce_json
    from prefect_autodata.agents.evidence import Endpoint, Evidence
    from prefect_autodata.agents.induction.jsonrec import list_projection
    from prefect_autodata.agents.plan import make_plan
    from prefect_autodata.runtime.extract import extract_page, parse_document

    recs = [
        {
            "id": i,
            "title": f"A study of things number {i}",
            "authors": [
                {"name": f"Ann Lee {i}", "affil": "Uni X"},
                {"name": f"Bo Kim {i}", "affil": "Uni Y"},
            ],
            "keywords": ["ml", f"topic {i}"],
        }
        for i in range(6)
    ]
    assert list_projection([r["authors"] for r in recs]) == "[*].name"
    assert list_projection([r["keywords"] for r in recs]) == "[*]"
    assert list_projection([[{"a": 1}], [{"b": 2}]]) is None  # no name key they share
    body = json.dumps({"data": recs})
    url = "http://127.0.0.1:9/v1/papers"
    plan = make_plan("every paper with title, authors and keywords")
    ep = Endpoint(url_template=url, example_url=url, kind="json", sample_cache_id="s")
    cand = induce_json(ep, plan, evidence=Evidence(plan=plan), reader=lambda _id: body)
    assert cand is not None
    src = cand.spec.sources[0]
    rows = extract_page(parse_document("json", body, url), src.fields, src.records, {})
    assert rows[2]["authors"] == "Ann Lee 2, Bo Kim 2" and rows[2]["keywords"] == "ml, topic 2"
