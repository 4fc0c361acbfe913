"""A worded label of another value family than the field, over values of the field's shape, is loose:
the values say what the column is ("Where" over street addresses). A label naming a requested field,
a sibling meaning of the same family, or a word the lexicon does not know is trusted."""

from __future__ import annotations

from prefect_autodata.agents.induction.matching import Candidate, assign

_ADDR = ["2001 W Oregon Avenue", "406 Old Santa Fe Trail", "544 Main Avenue", "20 Battery Place"]
_PHONES = ["(215) 271-0801", "(505) 983-7712", "(203) 846-4600", "(212) 528-2228"]
_NAMES = ["La Stanza", "The Pink Adobe", "Tuscan Oven", "Gigino"]


def _c(label, values, **kw):
    return Candidate(label=label, values=values, rule={"xpath": f"./td[{label!r}]"}, **kw)


def test_a_place_label_over_street_addresses_answers_address():
    for label in ("Location", "Where"):
        cands = [_c("Venue", _NAMES), _c("Tel.", _PHONES), _c(label, _ADDR)]
        got = assign(["venue", "address", "phone"], cands)
        assert got["address"].candidate.label == label
        assert got["address"].evidence in ("elimination", "synonym")  # by its values, or weakly by name
        assert got["phone"].candidate.label == "Tel."


def test_a_loose_label_is_not_taken_when_it_names_another_requested_field():
    cands = [_c("Name", _NAMES), _c("Location", _ADDR)]
    got = assign(["name", "address", "location"], cands)
    assert got["location"].candidate.label == "Location"
    assert "address" not in got


def test_a_sibling_meaning_of_the_same_family_is_trusted():
    dates = ["2010-12-06", "2010-12-03", "2010-11-30", "2010-11-28"]
    got = assign(["title", "date_posted"], [_c("Title", _NAMES), _c("Deadline", dates)])
    assert "date_posted" not in got  # a deadline is a date, but not the posting date


def test_an_unlabelled_column_of_the_type_goes_before_a_loose_one():
    cands = [_c("Name", _NAMES), _c("Region", _ADDR), _c(None, list(reversed(_ADDR)))]
    got = assign(["name", "address"], cands)
    assert got["address"].candidate.label is None


def test_a_narrower_label_answers_a_general_field_not_the_reverse():
    from prefect_autodata.agents.induction.matching import name_evidence

    towns = ["Boston, Massachusetts", "Jersey City, New Jersey", "Malvern, Pennsylvania", "Austin, Texas"]
    got = assign(["title", "location"], [_c("Title", _NAMES), _c("City", towns)])
    assert got["location"].candidate.label == "City"
    # the reverse only weakly: a page's "Location" may be the city asked, or a street address
    assert name_evidence("city", "Location")[0] < name_evidence("location", "City")[0]
    assert name_evidence("date_posted", "Listed on")[0] >= 0.8
