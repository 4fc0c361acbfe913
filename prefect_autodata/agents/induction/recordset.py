"""A record array found in a JSON body (``RecordSet``): what the JSON inducers find and match.

The shapes are found by ``jsonsets.json_record_sets`` (flat arrays of objects, ``headers``/``rowSet``
tables) and ``jsonrec.record_sets`` (nested, header-row and keyed shapes); the JSON inducer
(``offline/induction.py``, ``engineering``) and the script-JSON inducer (``embedded``) match them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any


@dataclass
class RecordSet:
    """A record array found in a JSON body: its JSONPath, how records are keyed, and sample rows."""

    path: str
    keys: list[str | int]
    labels: dict[str | int, str]
    rows: list[dict[Any, Any]]
    count: int
    name: str = ""
    positional: bool = False

    def jsonpath_for(self, key: str | int) -> str:
        if self.positional:
            return f"$[{int(key)}]"
        k = str(key)
        if all(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", part) for part in k.split(".")):
            return f"$.{k}"  # a flattened nested key (``author.name``) is a path
        return f"$['{k}']"
