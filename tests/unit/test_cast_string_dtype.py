"""``cast_column`` types a pandas ``str`` column (vectorized) exactly as the same values in an object column."""

from __future__ import annotations

import pandas as pd
import pytest

from prefect_autodata.runtime.normalize import cast_column
from prefect_autodata.runtime.spec import ColumnSpec

VALUES = [
    "2015-01-02T00:00:00.000Z",
    " 2016-03-04 ",
    "",
    "   ",
    None,
    "12",
    " 1,234 ",
    "3.5",
    "yes",
    "March 5, 2019",
    "not a value",
]


@pytest.mark.parametrize("kind", ["string", "date", "timestamp", "integer", "float", "boolean"])
def test_str_dtype_casts_as_object_dtype(kind):
    col = ColumnSpec(name="c", type=kind)
    as_str = pd.Series(VALUES, dtype="str")
    as_obj = pd.Series(VALUES, dtype=object)
    assert isinstance(as_str.dtype, pd.StringDtype)
    typed_s, bad_s = cast_column(as_str, col)
    typed_o, bad_o = cast_column(as_obj, col)
    assert bad_s.tolist() == bad_o.tolist()
    pd.testing.assert_series_equal(typed_s, typed_o)
    if kind == "string":
        assert typed_s.tolist()[:5] == ["2015-01-02T00:00:00.000Z", " 2016-03-04 ", "", "   ", None]
    if kind == "date":
        assert bad_s.tolist()[-1] and not bad_s.tolist()[2]  # uncastable text is bad, blank is absent
