"""S12 z2: daily prices' field words ("opening"), NDJSON read whole, flex rows' pieces."""

from __future__ import annotations

from prefect_autodata.agents.induction.matching import name_evidence


def test_opening_names_the_open_column() -> None:
    """A user asking for the "opening" (price) means the page's "Open" column: "opening" also names a
    job vacancy, which must not keep it from the price it names in a day's prices."""
    score, _how = name_evidence("opening", "Open")
    assert score >= 0.7
    assert name_evidence("opening", "Open") > name_evidence("opening", "Lo")
    assert name_evidence("opening", "Open") > name_evidence("opening", "High")
