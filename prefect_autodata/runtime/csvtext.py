"""A delimited text file as the comma-separated CSV every reader here parses.

Data downloads are not all comma-separated: much of Europe writes ``;`` (the comma is its decimal
sign: ``12,5``, ``1.234,50``), others a tab or ``|``. ``comma_separated`` finds the delimiter from the
file's own lines (the one that splits the header and most of the first rows into the same number of
cells, more than one) and, when it is not a comma, writes the file again with commas; in a file whose
delimiter is not a comma, a column of numbers (some with a decimal comma, the rest whole) is written
with a decimal point (``1.234,50`` -> ``1234.50``), the way the number readers expect it. A comma file
is returned as it is. The inducer and the runtime both read a file through here, so they see the same
columns and values.
"""

from __future__ import annotations

import csv
import io
import re

DELIMITERS = (",", ";", "\t", "|")
SAMPLE_LINES = 20
_DECIMAL_COMMA = re.compile(r"^[+-]?(?:\d{1,3}(?:\.\d{3})+|\d+),\d+$")
_INTEGER = re.compile(r"^[+-]?\d+$")


def delimiter(text: str) -> str:
    """The delimiter of a delimited text: among ``DELIMITERS``, one that cuts the header line and most
    (80%) of the first lines after it into the same number (two or more) of cells, the most cells
    first (a tie keeps the order of ``DELIMITERS``); a comma when none does."""
    lines = [ln for ln in (text or "").splitlines()[: SAMPLE_LINES + 1] if ln.strip()]
    if not lines:
        return ","
    best, width = ",", 1
    for d in DELIMITERS:
        try:
            rows = list(csv.reader(io.StringIO("\n".join(lines)), delimiter=d))
        except csv.Error:
            continue
        w = len(rows[0])
        same = sum(1 for r in rows if len(r) == w)
        if w > width and same >= 0.8 * len(rows):
            best, width = d, w
    return best


def _decimal_point(cell: str) -> str:
    return cell.replace(".", "").replace(",", ".")


def comma_separated(text: str) -> str:
    """``text`` as a comma-separated CSV (see the module docstring); unchanged when it already is one."""
    d = delimiter(text)
    if d == ",":
        return text
    rows = list(csv.reader(io.StringIO(text), delimiter=d))
    if not rows:
        return text
    body = rows[1:]
    width = max(len(r) for r in rows)
    decimal = []
    for j in range(width):
        cells = [r[j].strip() for r in body if j < len(r) and r[j].strip()]
        comma = [c for c in cells if _DECIMAL_COMMA.match(c)]
        decimal.append(bool(comma) and all(_DECIMAL_COMMA.match(c) or _INTEGER.match(c) for c in cells))
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(rows[0])
    for r in body:
        w.writerow(
            [
                _decimal_point(c.strip())
                if j < width and decimal[j] and _DECIMAL_COMMA.match(c.strip())
                else c
                for j, c in enumerate(r)
            ]
        )
    return out.getvalue()
