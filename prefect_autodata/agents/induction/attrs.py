"""Values a record shows only in an attribute: ``<i title="4.5 star rating">``, ``<img alt="...">``.

Star ratings, badges and icons print their value as a picture; the words are in the element's
``title`` or the image's ``alt`` and nowhere in the text. An element without visible text whose
``title``/``alt`` recurs across records and varies between them is a candidate value. An attribute
that repeats a text the record shows anyway (a photo's ``alt`` holding the record's name) is not: the
visible text is the field. "4.5 star rating" in every record reads as the number, named by the
words after it ("star rating"), as "212 reviews" is.
"""

from __future__ import annotations

import re
from typing import Any

from prefect_autodata.agents.induction.dom import SKIP_TAGS, clean, value_text
from prefect_autodata.agents.induction.matching import Candidate, is_template

ATTRS = ("title", "alt")
_NUM_WORDS = re.compile(r"^\s*([-+]?\d[\d.,]*)\s+([^\W\d_][^\d]{0,30}?)\s*$")


def _path(item: Any, node: Any) -> str:
    from prefect_autodata.agents.induction import regions

    return regions._class_path(item, node) or regions._rel_path(item, node)


def _whole_date(text: str) -> bool:
    """True when ``text`` is a date with its year ("2012-06-14", "Thursday, March 6, 2014")."""
    from prefect_autodata.agents.induction import values as vt

    return vt.kind_of(text) in ("date", "datetime") and bool(re.search(r"(?:1[5-9]|20)\d{2}", text))


def candidates(items: list[Any]) -> list[Candidate]:
    """Candidates for the textless elements of ``items`` (records) whose title or alt holds a value."""
    n = len(items)
    per: dict[tuple[str, str], dict[int, str]] = {}
    for idx, item in enumerate(items):
        shown = {clean(t) for t in item.xpath(".//text()") if clean(t)}
        for node in item.iter():
            if not isinstance(node.tag, str) or node.tag in SKIP_TAGS or node is item:
                continue
            if value_text(node):
                # the element shows text: that is read as a slot, unless it shows a date without its
                # year and the title holds the whole date ("Jun 14" titled "2012-06-14")
                v = clean(node.get("title"))
                if v and _whole_date(v) and not _whole_date(value_text(node)):
                    per.setdefault((_path(item, node), "title"), {}).setdefault(idx, v)
                continue
            for a in ATTRS:
                v = clean(node.get(a))
                if not v or v in shown:
                    continue
                per.setdefault((_path(item, node), a), {}).setdefault(idx, v)
    out: list[Candidate] = []
    seen: set[tuple] = set()
    for (path, attr), got in per.items():
        if len(got) < max(2, n // 2):
            continue
        values = [got.get(i) for i in range(n)]
        if is_template(values) or len({v for v in values if v}) < 2:
            continue
        key = tuple(values)
        if key in seen:
            continue  # <i title="4.5 star rating"><img alt="4.5 star rating"></i>: one value
        seen.add(key)
        rule: dict[str, Any] = {"xpath": path, "attr": attr, "transforms": [{"op": "strip"}]}
        label = None
        ms = [_NUM_WORDS.match(v) for v in values if v]
        words = {m.group(2).casefold() for m in ms if m}
        if ms and all(ms) and len(words) == 1:
            label = next(m.group(2) for m in ms if m)
            pat = r"^\s*([-+]?\d[\d.,]*)\s"
            rule["transforms"] = [*rule["transforms"], {"op": "regex", "pattern": pat}]
            values = [(_NUM_WORDS.match(v).group(1) if v else v) for v in values]
        out.append(
            Candidate(
                label=label,
                values=values,
                rule=rule,
                origin="slot",
                anchor=0.6 if "@class" in path else 0.4,
                notes=[f"the record shows it only in @{attr}"],
            )
        )
    return out
