"""S12 w1: a time scope restricts dates, never a column of counts; a compound word cut to its first
part's initial and its head names the field ("T-Meter"); percents read as their number."""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace as NS

from prefect_autodata.agents.induction.filters import row_filter
from prefect_autodata.agents.induction.matching import Candidate, name_evidence
from prefect_autodata.agents.induction.rules import typed_rule
from prefect_autodata.runtime.extract import apply_transforms


def _scope():
    return NS(
        start_date=date(2026, 11, 28), end_date=date(2026, 12, 4), start_year=None, end_year=None, years=[]
    )


def test_a_time_scope_is_not_put_on_a_column_of_counts():
    # the plan typed "weeks released" a date; its values are 1, 2, 8: counts, no time to restrict
    plan = NS(
        filters=[], time_scope=_scope(), fields=[NS(name="weeks_released", normalized="weeks", type="date")]
    )
    code, notes = row_filter(plan, ["title", "weeks_released"], frozenset({"weeks_released"}))
    assert code is None and notes == ["time scope not applied: no date or year column"]
    code, _ = row_filter(plan, ["title", "weeks_released"])  # without the values, the plan's typing holds
    assert code is not None and "weeks_released" in code


def test_an_initial_and_the_head_word_abbreviate_one_compound_word():
    assert name_evidence("tomatometer", "T-Meter") == (0.8, "abbrev")
    assert name_evidence("tomatometer", "Meter")[0] < 0.8
    assert name_evidence("tomatometer", "X-Meter")[0] == 0.0


def test_percents_read_as_their_number_with_the_unit():
    rule = typed_rule("score", Candidate(label="Score", values=["93%", "71 %", "8%"], rule={"xpath": "."}))
    assert rule.type == "float" and rule.unit == "%"
    assert [apply_transforms(v, rule.transforms) for v in ["93%", "71 %", "-0.5%"]] == [93, 71, -0.5]
    mixed = typed_rule("score", Candidate(label="Score", values=["93%", "n/a", "8%"], rule={"xpath": "."}))
    assert mixed.type == "string"
