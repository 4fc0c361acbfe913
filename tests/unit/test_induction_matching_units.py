"""Field matching from what the values carry: their units, a label inside the value, an abbreviated
head word, the record's own word ("film" of movies)."""

from __future__ import annotations

import pytest

from prefect_autodata.agents.induction import lexicon as lx
from prefect_autodata.agents.induction import values as vt
from prefect_autodata.agents.induction.matching import Candidate, assign, name_score, normalise

MPG = ["17 mpg City, 23 mpg Hwy", "21 mpg City, 31 mpg Hwy", "20 mpg City, 28 mpg Hwy"]
ODO = ["45,000 mi", "12,300 mi", "3,000 mi"]


def _c(label, values, key):
    return Candidate(label, values, {"xpath": key})


@pytest.mark.parametrize(
    ("values", "want"),
    [
        (MPG, {"mpg"}),
        (["1 Comment", "3 Comments", "0 comments"], {"comment"}),
        (["3.8L Gas V6, 385 HP", "2.0L Gas I4, 211 HP"], {"l", "hp"}),
        (["2010 Porsche 911", "2011 Audi A5"], set()),  # a year before a name is no unit
        (["$95,100", "$12"], set()),
    ],
)
def test_units_are_words_after_a_number_in_most_values(values, want):
    assert vt.profile(values).units == want


def test_a_unit_naming_the_field_places_a_column_its_label_does_not_name():
    got = assign(["fuel_economy"], [_c("details", MPG, "a")])
    assert got["fuel_economy"].candidate.label == "details"
    assert "mpg" in got["fuel_economy"].why


def test_a_unit_naming_another_requested_field_decides_between_two_labels():
    cands = [_c("Mileage", MPG, "a"), _c("Mileage", ODO, "b")]
    got = assign(["mileage", "fuel_economy"], cands)
    assert got["fuel_economy"].candidate.rule == {"xpath": "a"}
    assert got["mileage"].candidate.rule == {"xpath": "b"}


def test_no_unit_no_unit_evidence():
    assert "fuel_economy" not in assign(["fuel_economy"], [_c("notes", ["nice", "clean", "red"], "a")])


def test_a_value_with_a_label_of_its_own_is_read_whole():
    whole = _c("asking", ["MSRP: $95,100", "MSRP: $31,615", "MSRP: $36,500"], "dd")
    piece = _c("MSRP", ["$95,100", "$31,615", "$36,500"], "inline")
    got = assign(["price"], [piece, whole])
    assert got["price"].candidate is whole
    # alone, the inner piece still serves
    assert assign(["price"], [piece])["price"].candidate is piece


@pytest.mark.parametrize(
    ("requested", "label"),
    [("organization", "Hiring org."), ("company", "Hiring org."), ("year", "Pub. yr")],
)
def test_a_qualifier_before_an_abbreviated_head_word(requested, label):
    assert name_score(requested, label) >= 0.6


def test_a_qualifier_before_an_unrelated_word_names_nothing():
    assert name_score("organization", "Hiring date") < 0.45


def test_the_record_word_of_the_entity_is_the_name_field():
    names = ["Heat", "Ran", "Alien", "Brazil"]
    cands = [_c(None, names, "n"), _c("Directed by", ["A B", "C D", "E F", "G H"], "d")]
    got = assign(["film", "director"], cands, entity="movies")
    assert got["film"].candidate.rule == {"xpath": "n"}
    assert lx.concept_keys("used cars") & lx.concept_keys("vehicle")


def test_full_text_is_a_link_word():
    assert name_score("paper_link", "Full text") >= 0.6
    assert normalise("Full text") == "full text"
