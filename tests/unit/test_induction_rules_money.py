"""Amounts with a currency land as numbers: the sign or code and the thousands marks dropped, the
decimal mark (dot or comma) decided over the whole column; a range or a rate stays text."""

from __future__ import annotations

import pytest

from prefect_autodata.agents.induction.matching import Candidate
from prefect_autodata.agents.induction.rules import money_transforms, typed_rule
from prefect_autodata.runtime.extract import apply_transforms


def _read(values: list[str]) -> list[float | int]:
    tr = money_transforms(values)
    assert tr is not None
    return [apply_transforms(v, tr) for v in values]


@pytest.mark.parametrize(
    ("values", "numbers"),
    [
        (["$9,970", "$11,995", "$129.00"], [9970, 11995, 129.0]),
        (["£51.77", "£7.00"], [51.77, 7.0]),
        (["€14,95", "€9,99", "€1.299,00"], [14.95, 9.99, 1299.0]),
        (["14,95 €", "1.299 €"], [14.95, 1299]),
        (["12.99 EUR", "CHF 1'200.50", "USD 3"], [12.99, 1200.5, 3]),
        (["US$ 1,200", "US$ 80"], [1200, 80]),
        (["1 299,00 zł"], None),  # a currency the lexicon does not know: not read as an amount
    ],
)
def test_amounts_read_as_numbers(values, numbers):
    if numbers is None:
        assert money_transforms(values) is None
    else:
        assert _read(values) == pytest.approx(numbers)


@pytest.mark.parametrize(
    "values",
    [["$50k - $70k", "$60k"], ["$18/hr", "$20/hr"], ["$1,200", "call for price"], []],
)
def test_ranges_rates_and_words_stay_text(values):
    assert money_transforms(values) is None


def test_typed_rule_types_a_money_column_as_float():
    cand = Candidate(label="Price", values=["€14,95", "€9,99"], rule={"xpath": "//dd[1]"})
    rule = typed_rule("price", cand)
    assert rule.type == "float"
    assert [apply_transforms(v, rule.transforms) for v in cand.values] == [14.95, 9.99]
    ranged = typed_rule("salary", Candidate(label="Pay", values=["$50k - $70k"], rule={"xpath": "//p"}))
    assert ranged.type == "string"
