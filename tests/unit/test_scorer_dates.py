"""The scorer reads numeric dates written with dashes or dots as well as slashes (month-first when
either way could be meant, day-first with dots, the European way)."""

from __future__ import annotations

import pandas as pd

from prefect_autodata.sandbox.scorer import normalise, score


def test_dates_with_dashes_and_dots():
    assert normalise("02-11-2006") == "2006-02-11"  # US m-d-Y, as vBulletin writes a join date
    assert normalise("12-13-2011") == "2011-12-13"
    assert normalise("29.03.2024") == "2024-03-29"
    assert normalise("03.04.2024") == "2024-04-03"  # dots: day first
    assert normalise("555-12-1234") == "555-12-1234"  # no date
    got = pd.DataFrame({"join date": ["02-11-2006", "11-30-2011"]})
    assert score(got, pd.DataFrame({"join date": ["2006-02-11", "2011-11-30"]})).f1 == 1.0
