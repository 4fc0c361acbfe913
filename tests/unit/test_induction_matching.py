"""Field matching: names (normalised, synonyms, abbreviations, fuzzy), value types, template text."""

from __future__ import annotations

import pytest

from prefect_autodata.agents.induction.matching import (
    Candidate,
    assign,
    dominant_type,
    expected_type,
    is_template,
    name_score,
    normalise,
    type_agreement,
    value_type,
)


@pytest.mark.parametrize(
    ("raw", "want"),
    [
        ("Our Price:", "our price"),
        ("datePosted", "date posted"),
        ("AUTHORS", "author"),
        ("first_name", "first name"),
    ],
)
def test_normalise(raw, want):
    assert normalise(raw) == want


@pytest.mark.parametrize(
    ("requested", "label"),
    [
        ("author", "Author"),
        ("writer", "Author"),
        ("author", "By"),
        ("author", "Auth."),
        ("cost", "Price"),
        ("price", "Our price"),
        ("author", "Autor"),
        ("population", "Pop."),
        ("title", "Book title"),
    ],
)
def test_name_score_accepts_variants(requested, label):
    assert name_score(requested, label) >= 0.7, (requested, label)


@pytest.mark.parametrize(
    ("requested", "label"), [("author", "Price"), ("price", "Publisher"), ("capital", "Country")]
)
def test_name_score_rejects_other_fields(requested, label):
    assert name_score(requested, label) < 0.45


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ("$23,495", "money"),
        ("£12.99", "money"),
        ("12,50 €", "money"),
        ("12.5%", "percent"),
        ("6-10", "height"),
        ("2019-03-04", "date"),
        ("March 4, 2019", "date"),
        ("04/03/2019", "date"),
        ("1,234,567", "integer"),
        ("3.75", "number"),
        ("1998", "year"),
        ("https://example.org/x", "url"),
        ("Jane Doe", "text"),
        ("", "empty"),
    ],
)
def test_value_type(value, kind):
    assert value_type(value) == kind


def test_expected_type_and_agreement():
    assert expected_type("price") == "money"
    assert expected_type("Cost") == "money"
    assert expected_type("release date") == "date"
    assert expected_type("population") == "integer"
    assert expected_type("colour") == "category"  # a short repeated value
    assert expected_type("widget") is None
    assert type_agreement("price", ["$3.10", "$14.00"]) == 1.0
    assert type_agreement("price", ["Jane Doe", "Li Wei"]) < 0
    assert type_agreement("author", ["$3.10", "$14.00"]) < 0
    assert dominant_type(["1", "2", "x"]) == ("integer", pytest.approx(2 / 3))


def test_is_template():
    assert is_template(["Add to basket"] * 5)
    assert not is_template(["a", "b", "a"])
    assert not is_template(["same", "same"])  # two records are too few to tell


def _cand(label, values, **kw):
    return Candidate(label=label, values=values, rule={"xpath": f"./x[@n={label!r}]"}, **kw)


def test_assign_by_labels_types_and_identity():
    cands = [
        _cand(None, ["In stock"] * 4),
        _cand("Preis", ["€3,10", "€14,00", "€9,99", "€1,00"]),
        _cand("Verfasser", ["A. Li", "B. Ode", "C. Ruiz", "D. Kim"]),
        _cand(None, ["Moon", "Sun", "Rain", "Snow"], identity=True, origin="heading"),
        _cand("Publisher", ["P1", "P2", "P3", "P4"]),
    ]
    got = assign(["title", "cost"], cands)
    assert got["title"].candidate is cands[3]
    assert got["cost"].candidate is cands[1]  # no name in common: the money values decide
    assert "Verfasser" not in {m.candidate.label for m in got.values()}


def test_assign_each_candidate_once_and_constant_columns_skipped():
    a = _cand("Author", ["x", "y", "z"])
    got = assign(["author", "writer"], [a])
    assert len(got) == 1  # one candidate serves one field
    assert assign(["price"], [_cand(None, ["$5.00"] * 4)]) == {}  # the same in every record: template
    assert assign(["price"], [_cand(None, ["$5.00", "$7.10", "$1.99", "$2.50"])])["price"]


def test_entity_noun_names_the_identity_column():
    country = _cand("Country", ["France", "Peru", "Chad"], identity=True, origin="table")
    capital = _cand("Capital", ["Paris", "Lima", "N'Djamena"], origin="table")
    got = assign(["name", "capital"], [country, capital], entity="country")
    assert got["name"].candidate is country and got["capital"].candidate is capital


def test_the_record_name_answers_a_field_named_otherwise():
    name = _cand(None, ["Red Hawks", "Blue Owls", "Gold Bees"], identity=True, origin="heading")
    wins = _cand("Wins", ["41", "33", "20"])
    got = assign(["club", "wins"], [name, wins])
    assert got["club"].candidate is name and got["wins"].candidate is wins
