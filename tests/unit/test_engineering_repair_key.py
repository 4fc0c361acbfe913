"""The engineering agent's local repairs: a primary key that repeats over rows that differ is widened."""

from __future__ import annotations

from prefect_autodata.agents.engineering import repair_spec
from prefect_autodata.runtime.issues import Issue
from prefect_autodata.runtime.spec import CollectorSpec


def _spec() -> CollectorSpec:
    return CollectorSpec.model_validate(
        {
            "name": "seasons",
            "base_url": "http://127.0.0.1:1",
            "primary_key": ["team"],
            "columns": [{"name": "team"}, {"name": "hr", "type": "integer"}],
            "sources": [
                {
                    "name": "records",
                    "kind": "json",
                    "request": {"url": "http://127.0.0.1:1/x.json"},
                    "records": {"jsonpath": "$.rows[*]"},
                    "fields": [{"name": "team", "jsonpath": "$.team"}, {"name": "hr", "jsonpath": "$.hr"}],
                }
            ],
        }
    )


def test_a_repeating_key_is_widened_to_the_whole_landed_row():
    issue = Issue(kind="duplicate_key", source="*", field="team", message="primary key ['team'] repeats")
    fixed = repair_spec(_spec(), [issue])
    assert fixed is not None
    spec, why = fixed
    assert spec.primary_key == ["team", "hr"] and "widened" in why
    assert repair_spec(spec, [issue]) is None  # already the whole row: nothing left to widen


def test_other_issues_leave_the_key_alone():
    issue = Issue(kind="no_records", source="records", message="no records")
    assert repair_spec(_spec(), [issue]) is None


def test_a_page_number_zero_in_the_example_call_starts_the_walk_at_zero():
    from prefect_autodata.agents.offline.induction import generalise_url
    from prefect_autodata.agents.offline.instruction import parse_instruction

    plan = parse_instruction("Collect all the restaurants listed on the site.")
    zero = generalise_url(["http://h/ajax/list?count=10&page=0"], plan).pagination
    assert zero is not None and zero.kind == "page" and zero.start == 0
    one = generalise_url(["http://h/ajax/list?count=10&page=3"], plan).pagination
    assert one is not None and one.start == 1  # a deep link's number is no first page
