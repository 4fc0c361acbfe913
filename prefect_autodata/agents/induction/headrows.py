"""A header row written with ``<td>``s: the first row of labels over columns of typed values.

vBulletin, phpBB and many CMS tables print their column labels as ordinary cells
(``<td class="thead"><a href="?sort=joindate">Join Date</a></td>``), neither ``<th>`` nor bold.
Read as a record, that row puts "Join Date" among the dates and the columns lose their names. Told
by types, not by classes: every cell of the row is a short label without digits, the labels differ,
and at least one column below it holds numbers or dates in most rows while its label is text.
"""

from __future__ import annotations

import re
from typing import Any

from prefect_autodata.agents.induction.dom import clean, elements
from prefect_autodata.agents.induction.matching import dominant_type

_TYPED = {"text", "name", "empty"}
MAX_LABEL = 30


def _dated(text: str) -> bool:
    return dominant_type([text])[0] in ("year", "date", "datetime", "time", "money", "percent")


def _cells(tr: Any) -> list[Any]:
    return [c for c in elements(tr) if c.tag in ("td", "th")]


def label_row(body: list[Any]) -> bool:
    """``body[0]`` names the columns of the rows below it (see the module doc)."""
    if len(body) < 3:
        return False
    first = [clean(c.text_content()) for c in _cells(body[0])]
    width = len(first)
    # the rows below keep the labels' width; a few of another shape (a total across two cells, a
    # note across the table) are no records and say nothing about the labels
    same = [tr for tr in body[1:] if len(_cells(tr)) == width]
    if width < 2 or len(same) < 2 or len(same) < 0.5 * (len(body) - 1):
        return False
    body = [body[0], *same]
    texts = [t for t in first if t]
    if len(texts) < max(2, width // 2) or len(set(texts)) != len(texts):
        return False
    # labels are words; a few hold a digit ("2B", "3B" over doubles and triples) but none is a number
    # or a date, and most have no digit at all
    if any(len(t) > MAX_LABEL or not re.search(r"[^\W\d_]", t) or _dated(t) for t in texts):
        return False
    if sum(1 for t in texts if re.search(r"\d", t)) * 4 > len(texts):
        return False
    typed = 0
    for i, lab in enumerate(first):
        if not lab:
            continue
        below = [clean(_cells(tr)[i].text_content()) for tr in body[1:]]
        kind, share = dominant_type(below)
        if kind not in _TYPED and share >= 0.6:
            typed += 1
    return typed >= 1
