"""A value shown with its unit and an aside ("18 m (59 ft)"), a mark before an id ("#412") and a duration
("PT1H20M", "1 hour 20 minutes") read as the number a field asking one wants; the unit stays in the
rule's pattern (a row in another unit reads null), and values of another shape are read as shown."""

from __future__ import annotations

import pytest

from prefect_autodata.agents.induction.matching import Candidate
from prefect_autodata.agents.induction.rules import typed_rule
from prefect_autodata.runtime.extract import apply_transforms
from prefect_autodata.runtime.spec import Transform


def _rule(name: str, values: list[str]):
    return typed_rule(name, Candidate(label="x", values=values, rule={"xpath": "./td[2]"}))


def _read(name: str, values: list[str]) -> list:
    rule = _rule(name, values)
    return [apply_transforms(v, rule.transforms) for v in values]


@pytest.mark.parametrize(
    ("name", "values", "want"),
    [
        ("tower_height", ["18 m (59 ft)", "9 m (30 ft)", "24 m (79 ft)"], [18, 9, 24]),
        ("elevation", ["7,128 m (23,386 ft)", "8,848 m (29,029 ft)"], [7128, 8848]),
        ("range_in_nautical_miles", ["17 nmi (31 km)", "15 nmi (28 km)"], [17, 15]),
        ("weight", ["2,450 kg", "1,980 kg"], [2450, 1980]),
        ("height", ["1.85 m", "1.92 m"], [1.85, 1.92]),
        ("range", ["17 nmi (31 km)", "8 nmi (15 km)"], [17, 8]),  # a unit with its conversion
        ("range", ["17 nmi", "8 nmi"], [17, 8]),  # a name saying nothing: every value shows its unit
    ],
)
def test_a_measure_reads_its_number(name, values, want):
    rule = _rule(name, values)
    assert rule.type == "float"
    assert _read(name, values) == want


def test_the_unit_stays_in_the_rule():
    rule = _rule("tower_height", ["18 m (59 ft)", "9 m (30 ft)"])
    assert rule.unit == "m"  # the column's numbers are metres: the spec says so
    assert any(t.op == "regex" and "m)(?!" in t.pattern for t in rule.transforms)
    assert apply_transforms("59 ft (18 m)", rule.transforms) is None  # another unit: null, never 59


@pytest.mark.parametrize(
    ("name", "values"),
    [
        ("tower_height", ["18 m (59 ft)", "30 ft"]),  # two units in one column
        ("height", ["6 ft 2 in (1.88 m)", "5 ft 11 in (1.80 m)"]),  # a compound, not one number
        ("summary", ["18 m (59 ft)", "9 m (30 ft)"]),  # no measure asked
        ("height", ["6-10", "6-2"]),
        ("room", ["12 (east wing)", "14 (west wing)"]),
    ],
)
def test_values_read_as_shown(name, values):
    assert _read(name, values) == values


def test_a_year_before_an_aside():
    assert _read("year_first_lit", ["1857 (current tower 1911)", "1874", "1899"]) == ["1857", "1874", "1899"]


@pytest.mark.parametrize(
    ("name", "values", "want"),
    [
        ("ticket_number", ["#412", "#398", "#377"], [412, 398, 377]),
        ("ticket", ["No. 7", "№ 3", "Nº 12"], [7, 3, 12]),
    ],
)
def test_a_marked_id_reads_its_number(name, values, want):
    assert _rule(name, values).type == "integer"
    assert _read(name, values) == want


def test_marked_values_read_as_shown():
    assert _read("summary", ["#412", "#398"]) == ["#412", "#398"]  # a text field
    assert _read("ticket", ["#412", "#A98"]) == ["#412", "#A98"]  # not all one number


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("PT40M", 40),
        ("PT1H20M", 80),
        ("P1DT2H", 1560),
        ("PT90S", 1.5),
        ("1 hour 20 minutes", 80),
        ("1h 20m", 80),
        ("80 min", 80),
        ("1 hr, 5 mins", 65),
    ],
)
def test_duration_minutes(text, want):
    from prefect_autodata.runtime.normalize import duration_minutes

    assert duration_minutes(text) == want
    assert apply_transforms(text, [Transform(op="duration_minutes")]) == want


@pytest.mark.parametrize("text", ["80", "1:20", "PT", "about 1 hour", ""])
def test_no_duration(text):
    from prefect_autodata.runtime.normalize import duration_minutes

    with pytest.raises(ValueError):
        duration_minutes(text)


def test_a_field_asking_minutes_reads_durations():
    for name in ("total_time_in_minutes", "duration_min", "cook time mins"):
        rule = _rule(name, ["PT40M", "PT1H20M", "1 hour 5 minutes"])
        assert rule.type == "integer"
        assert [apply_transforms(v, rule.transforms) for v in ["PT40M", "PT1H20M"]] == [40, 80]
    assert _read("total_time", ["PT40M", "PT1H20M"]) == ["PT40M", "PT1H20M"]  # minutes not asked
    assert _read("minutes", ["14.2", "24.8"]) == [14.2, 24.8]  # already numbers
