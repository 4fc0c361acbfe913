"""Every record set a JSON body holds, largest first (``jsonrec.record_sets``, the one JSON record walker).

Kept as the name the inducers import: arrays of objects (nested objects flattened), ``headers``/``rowSet``
tables, header-row and header-beside arrays of arrays, and records keyed by a value.
"""

from __future__ import annotations

from typing import Any

from prefect_autodata.agents.induction.jsonrec import MAX_DEPTH, record_sets
from prefect_autodata.agents.induction.recordset import RecordSet


def json_record_sets(obj: Any, *, max_depth: int = MAX_DEPTH) -> list[RecordSet]:
    """Every record set in a JSON body, largest first."""
    return record_sets(obj, max_depth=max_depth)
