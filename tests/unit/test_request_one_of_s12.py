"""An equality whose value joins named values with "or" is a membership: "status Issued or Final" asks
for records whose status is either, not for the status "Issued or Final"."""

from __future__ import annotations

from datetime import date

from prefect_autodata.agents.offline.instruction import parse_request

TODAY = date(2026, 12, 4)


def _filters(text: str) -> list[tuple]:
    return [(f.field, f.op, f.value) for f in parse_request(text, today=TODAY).filters]


def test_named_values_joined_by_or_are_one_of_several() -> None:
    got = _filters("grants on grants.example.org with status Open or Forecasted: title, agency, deadline")
    assert ("status", "in", ["Open", "Forecasted"]) in got
    got = _filters("trials on trials.example.org with status Recruiting or Not yet recruiting: id, sponsor")
    assert ("status", "in", ["Recruiting", "Not yet recruiting"]) in got


def test_a_label_with_commas_stays_whole() -> None:
    got = _filters("List every college with institution type Private, 2-Year or Below, giving name and city")
    assert all(op != "in" for _, op, _ in got), got
