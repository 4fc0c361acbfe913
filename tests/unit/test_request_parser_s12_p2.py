"""S12 P2: parser cuts found on the wild sets (issue #12)."""

from __future__ import annotations

from datetime import date

from prefect_autodata.agents.offline.instruction import parse_request

TODAY = date(2026, 3, 15)


def _names(text: str) -> list[str]:
    return [f.normalized for f in parse_request(text, today=TODAY).fields]


def test_two_modifiers_joined_by_and_share_the_head_noun_after_them():
    names = _names(
        "For each departure give the flight number, airline, destination, scheduled and estimated time, "
        "gate and status."
    )
    assert "scheduled_time" in names and "estimated_time" in names and "scheduled" not in names
    assert _names("Collect every book with title and author names, price and isbn.")[0] == "title"
