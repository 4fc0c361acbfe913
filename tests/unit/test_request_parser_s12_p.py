"""Parser causes found on unseen phrasings (session S12 P): each test's sentences are its own."""

from __future__ import annotations

from datetime import date

from prefect_autodata.agents.offline.instruction import parse_request

TODAY = date(2025, 6, 1)


def _p(text: str):
    return parse_request(text, today=TODAY)


def _names(r):
    return [f.normalized for f in r.fields]


def _filters(r):
    return [(f.field, f.op, f.value) for f in r.filters]


def test_and_their_opens_the_field_list_its_first_item_included():
    r = _p("cat breeds and their coat length, origin country and typical weight")
    assert r.entity.singular == "cat breed"
    assert _names(r) == ["coat_length", "origin_country", "typical_weight"]
    r = _p("wind farms in Scotland built between 2010 and 2015 and their owner, turbine count and capacity")
    assert _names(r) == ["owner", "turbine_count", "capacity"]
    assert ("location", "eq", "Scotland") in _filters(r)
    r = _p("museums with at most 20 rooms and their name, curator and ticket price")
    assert _names(r) == ["name", "curator", "ticket_price"]


def test_a_volume_unit_after_in_is_the_fields_unit_not_a_clause():
    r = _p("oil wells in Texas and their daily output in barrels, depth and operator")
    assert _names(r) == ["daily_output", "depth", "operator"]
    r = _p("Collect every water tank with name, volume in litres and owner")
    assert _names(r) == ["name", "volume", "owner"]
