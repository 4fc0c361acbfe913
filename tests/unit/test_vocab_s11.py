"""A real English word is what the user typed, never a keyboard slip for a field word."""

from __future__ import annotations

from prefect_autodata.agents.offline.instruction import parse_request
from prefect_autodata.agents.vocab import is_english_word, spelled


def test_a_dictionary_word_is_no_slip_of_a_field_word() -> None:
    vocab = frozenset({"founded", "address", "cuisine"})
    assert is_english_word("funded") and not is_english_word("cusine")
    assert spelled("funded", vocab) is None  # one vowel from "founded", but a word of its own
    assert spelled("cusine", vocab) == "cuisine" and spelled("adress", vocab) == "address"


def test_percent_funded_stays_funded_in_the_field_list() -> None:
    r = parse_request("Get every project on this page with title, percent funded and backers")
    names = [f.normalized for f in r.fields]
    assert "percent_funded" in names and not any("founded" in n for n in names)
