"""The record's name found by its values when no label names it ("Venue" over restaurant names)."""

from prefect_autodata.agents.induction.matching import Candidate, assign

NAMES = ["The Marine Room", "Corton", "Saddle Peak Lodge", "Choptank", "Urban Solace", "MetroVino"]
FOOD = ["Seafood", "French", "American", "Seafood", "American", "Italian"]
STREETS = [
    "2000 Spindrift Drive",
    "239 West Broadway",
    "419 Cold Canyon Rd.",
    "308 Bleecker Street",
    "3823 30th Street",
    "1139 NW 11th Avenue",
]
PHONES = [
    "(858) 459-7222",
    "(212) 219-2777",
    "(818) 222-3888",
    "(212) 675-2009",
    "(619) 295-6464",
    "(503) 517-7778",
]


def _cands() -> list[Candidate]:
    return [
        Candidate("Type of food", FOOD, {"piece": 0}, position=0),
        Candidate("Venue", NAMES, {"piece": 1}, position=1),
        Candidate("Address", STREETS, {"piece": 2}, position=2),
        Candidate("Call", PHONES, {"piece": 3}, position=3),
    ]


def test_a_name_field_takes_the_column_of_distinct_short_words():
    out = assign(["name", "location", "cuisine", "telephone"], _cands(), entity="restaurant")
    assert out["name"].candidate.label == "Venue"
    assert out["name"].evidence == "identity"


def test_the_entity_word_is_a_name_field():
    out = assign(["restaurant", "address", "cuisine"], _cands(), entity="restaurant")
    assert out["restaurant"].candidate.label == "Venue"


def test_a_field_that_is_not_a_name_takes_no_column_by_values():
    out = assign(["cuisine", "rating"], _cands(), entity="restaurant")
    assert "rating" not in out


def test_repeating_or_numeric_values_are_no_name():
    cands = [Candidate("Kind", FOOD, {"piece": 0}), Candidate("Call", PHONES, {"piece": 1})]
    assert "name" not in assign(["name"], cands, entity="restaurant")
