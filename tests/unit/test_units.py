"""A number shown with its unit, decided once (issue 13): the product lands the number and records the
unit in the spec (``FieldRule.unit`` -> ``ColumnSpec.unit`` -> ``CollectorSpec.units()``); the scorer
takes a number with its unit and the bare number as one fact when the unit is the same, in both
directions, and keeps them apart when the units differ."""

from __future__ import annotations

import pandas as pd
import pytest

from prefect_autodata.agents.induction.matching import Candidate
from prefect_autodata.agents.induction.rules import typed_rule
from prefect_autodata.runtime.extract import apply_transforms
from prefect_autodata.runtime.spec import CollectorSpec
from prefect_autodata.sandbox.scorer import score, spec_units


def _rule(name: str, values: list[str]):
    return typed_rule(name, Candidate(label="x", values=values, rule={"xpath": "./td[2]"}))


@pytest.mark.parametrize(
    ("name", "values", "unit", "want"),
    [
        ("fuel_economy", ["20 mpg", "16 mpg", "31 MPG"], "mpg", [20, 16, 31]),
        ("number_of_comments", ["3 comments", "1 comment", "12 comments"], "comments", [3, 1, 12]),
        ("replies", ["3 replies", "1 reply", "12 replies"], "replies", [3, 1, 12]),
        ("screen_size", ["15.6 in", "13.3 in", "14 in"], "in", [15.6, 13.3, 14]),
        ("range", ["17 nmi", "8 nmi"], "nmi", [17, 8]),
    ],
)
def test_a_number_with_its_unit_lands_as_the_number_and_the_unit_is_recorded(name, values, unit, want):
    rule = _rule(name, values)
    assert rule.type == "float" and rule.unit == unit
    assert [apply_transforms(v, rule.transforms) for v in values] == want
    assert apply_transforms("40 km/l", rule.transforms) is None  # another unit: null, never converted


def test_an_amount_records_its_currency():
    assert _rule("price", ["$25,855", "$9,990"]).unit == "$"
    assert _rule("price", ["€14,95", "€9,00"]).unit == "€"
    assert _rule("price", ["$12", "€14"]).unit is None  # two currencies: no one unit


def test_words_and_plain_numbers_record_no_unit():
    assert _rule("title", ["3 Doors", "5 Seats"]).unit is None
    assert _rule("weight", ["3.5", "12.25"]).unit is None
    assert _rule("engine", ["3.5L V6", "2.0L I4"]).unit is None


def _spec(unit: str | None) -> CollectorSpec:
    field = {"name": "fuel_economy", "xpath": "./td[4]", "type": "float"}
    if unit:
        field["unit"] = unit
    return CollectorSpec.parse(
        {
            "name": "cars",
            "primary_key": ["model"],
            "columns": [{"name": "model"}, {"name": "fuel_economy", "type": "float"}],
            "sources": [
                {
                    "kind": "html",
                    "request": {"url": "https://example.org/cars"},
                    "records": {"xpath": "//tr"},
                    "fields": [{"name": "model", "xpath": "./td[1]"}, field],
                }
            ],
        }
    )


def test_the_spec_carries_the_unit_to_its_columns(tmp_path):
    spec = _spec("mpg")
    assert spec.units() == {"fuel_economy": "mpg"}
    assert {c.name: c.unit for c in spec.output_columns()} == {"model": None, "fuel_economy": "mpg"}
    path = tmp_path / "spec.yaml"
    path.write_text(spec.to_yaml(), encoding="utf-8")
    assert spec_units(str(path)) == {"fuel_economy": "mpg"}
    assert _spec(None).units() == {} and spec_units(None) == {}


_TRUTH = pd.DataFrame({"fuel_economy": ["20 mpg", "16 mpg", "31 mpg"]})


def test_the_scorer_takes_the_number_in_the_truths_unit_as_the_fact():
    got = pd.DataFrame({"fuel_economy": [20.0, 16.0, 31.0]})
    assert score(got, _TRUTH, units={"fuel_economy": "mpg"}).f1 == 1.0
    assert score(got, _TRUTH, units={"Fuel_Economy": "MPG"}).f1 == 1.0  # case-insensitive
    assert score(got, _TRUTH).f1 == 1.0  # no unit declared: the truth's
    assert score(got, _TRUTH, units={"fuel_economy": "km/l"}).f1 == 0.0  # another unit: another fact


def test_the_scorer_takes_a_value_with_its_unit_as_a_bare_truth():
    truth = pd.DataFrame({"fuel_economy": [20, 16, 31]})
    assert score(pd.DataFrame({"fuel_economy": ["20 mpg", "16 mpg", "31 mpg"]}), truth).f1 == 1.0
    mixed = score(pd.DataFrame({"fuel_economy": ["20 mpg", "16 mpg", "31 km/l"]}), truth)
    assert mixed.per_attribute["fuel_economy"].true_positives == 2  # the row in another unit is not 31
    assert mixed.row_recall == pytest.approx(2 / 3)


def test_the_scorer_keeps_other_values_apart():
    assert score(pd.DataFrame({"fuel_economy": [21.0, 16.0, 31.0]}), _TRUTH).f1 < 1.0
    words = pd.DataFrame({"name": ["3 Doors Down", "Blink 182"]})
    assert score(pd.DataFrame({"name": ["3", "182"]}), words).f1 == 0.0
