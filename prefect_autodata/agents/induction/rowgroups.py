"""Records spread over two or more sibling table rows (a title row, then a subtext row, repeated).

Older listings print one record as a short run of ``<tr>``s: a story's title row and its
"N points by USER | N comments" row, a product row and its description row, a spacer between
them. Read row by row such a table offers half-records. The run is found by structure alone: the
rows' cell shapes (tags and spans per cell; a row without text is blank) repeat with a period of
two to four rows, the period holds at least two rows with text that differ in shape, and it repeats
at least three times. Each period is one record: its first row with text is selected by the
records XPath and the other rows are read as its following siblings.

Fields come from :func:`regions.slots` run over a copy of the page where each group of rows is
wrapped in one element, so a group offers what a record card offers (labelled pieces, units,
links); each field XPath is then rewritten from the wrapper to the group's first row, and kept only
when it reads the same values from the real page.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any

from prefect_autodata.agents.induction import attrs, regions
from prefect_autodata.agents.induction.dom import abs_path, clean, elements, parse
from prefect_autodata.agents.induction.matching import Candidate

MIN_REPEATS = 3
MAX_PERIOD = 4


def _cells(tr: Any) -> list[Any]:
    return [c for c in elements(tr) if c.tag in ("td", "th")]


def _sig(tr: Any) -> tuple:
    """The row's shape: per cell its tag and column span; a row without any text is blank."""
    if not clean(tr.text_content()):
        return ("blank",)
    return tuple((c.tag, c.get("colspan") or "1") for c in _cells(tr))


@dataclass
class Pattern:
    """Where the repeating run of ``period`` rows sits among ``rows`` (siblings of one table body)."""

    rows: list[Any]
    period: int
    start: int
    repeats: int

    @property
    def groups(self) -> list[list[Any]]:
        p, s = self.period, self.start
        return [self.rows[s + k * p : s + (k + 1) * p] for k in range(self.repeats)]


def find_pattern(rows: list[Any]) -> Pattern | None:
    """The periodic run covering most rows (ties: the shorter period), or None when rows are plain."""
    sigs = [_sig(tr) for tr in rows]
    best: tuple[int, int] | None = None
    found: Pattern | None = None
    for p in range(2, MAX_PERIOD + 1):
        for s in range(p):
            pat = sigs[s : s + p]
            if len(pat) < p or pat[0] == ("blank",):
                continue  # the record starts with a row that has text
            texty = [x for x in pat if x != ("blank",)]
            if len(texty) < 2 or len(set(texty)) < len(texty):
                continue  # a shape twice in a period: a plain table (a group heading over its rows)
            if all(c[0] == "th" for c in pat[0]):
                continue  # a header row is not the first row of a record
            k = 0
            while sigs[s + k * p : s + (k + 1) * p] == pat:
                k += 1
            if k < MIN_REPEATS:
                continue
            score = (k * p, -p)
            if best is None or score > best:
                best, found = score, Pattern(rows=rows, period=p, start=s, repeats=k)
    if found is None:
        return None
    # every text row of the period has a shape of its own (a record's title row, its subtext row);
    # the run must cover most of the table
    if found.period * found.repeats < 0.6 * len([r for r in rows if _sig(r) != ("blank",)]):
        return None
    return found


@dataclass
class RowGroups:
    """Records of a table whose every record is a run of sibling rows."""

    table: Any
    records_xpath: str
    period: int
    leads: list[Any]
    candidates: list[Candidate]
    detail_link: Candidate | None = None

    @property
    def count(self) -> int:
        return len(self.leads)

    @property
    def why(self) -> str:
        return f"records of {self.period} sibling rows"


def _lead_xpath(parent: Any, leads: list[Any], pat: Pattern) -> str | None:
    """An XPath selecting the groups' first rows: a shared anchor (id, class), else their position."""
    xp = regions.records_xpath(parent, leads)
    doc = parent.getroottree()
    want = set(leads)
    if xp is not None and set(doc.xpath(xp)) == want:
        return xp
    siblings = [c for c in elements(parent) if c.tag == "tr"]
    at = siblings.index(leads[0]) + 1
    r = at % pat.period
    last = siblings.index(leads[-1]) + 1
    pos = f"{abs_path(parent)}/tr[position() mod {pat.period} = {r} and position() <= {last}]"
    try:
        got = doc.xpath(pos)
    except Exception:  # noqa: BLE001 - an XPath lxml refuses: no rule
        return xp
    if set(got) == want:
        return pos
    return xp


def rewrite(xpath: str, period: int) -> str | None:
    """``xpath`` relative to a wrapper of one group's rows, rewritten relative to the group's first row."""
    group = f"(. | following-sibling::tr[position() < {period}])"
    if xpath.startswith(".//"):
        return group + xpath[1:]
    m = re.match(r"^\./tr(?:\[(\d+)\])?(/.*)?$", xpath)
    if m:
        k = int(m.group(1) or 1)
        rest = m.group(2) or ""
        if k > period:
            return None
        return ("self::tr" if k == 1 else f"following-sibling::tr[{k - 1}]") + rest
    return None


def _read(nodes: list[Any], rule: dict[str, Any]) -> list[str]:
    from prefect_autodata.runtime.extract import extract_field
    from prefect_autodata.runtime.spec import FieldRule

    fr = FieldRule(name="v", **rule)
    out = []
    for n in nodes:
        try:
            v = extract_field(n, fr, page_url="", params={})
        except Exception:  # noqa: BLE001 - a rule the runtime cannot read here is not kept
            return []
        out.append("" if v is None else clean(v))
    return out


def _wrapped(groups: list[list[Any]]) -> tuple[Any, list[Any]]:
    """A copy of the groups, each group's rows inside one ``<tbody>`` of a table of their own."""
    from lxml import html as lhtml

    doc = parse("<html><body><table></table></body></html>")
    table = doc.find(".//table")
    out = []
    for g in groups:
        body = lhtml.Element("tbody")
        for tr in g:
            c = copy.deepcopy(tr)
            c.tail = None
            body.append(c)
        table.append(body)
        out.append(body)
    return table, out


def find(root: Any, page_url: str = "") -> list[RowGroups]:
    """Every table of ``root`` whose records are runs of sibling rows, with their candidate fields."""
    out: list[RowGroups] = []
    seen: set[Any] = set()
    for parent in root.xpath("//table | //tbody"):
        if parent in seen:
            continue
        rows = [c for c in elements(parent) if c.tag == "tr"]
        if len(rows) < 2 * MIN_REPEATS:
            continue
        pat = find_pattern(rows)
        if pat is None:
            continue
        groups = pat.groups
        leads = [g[0] for g in groups]
        xp = _lead_xpath(parent, leads, pat)
        if xp is None:
            continue
        table = parent if parent.tag == "table" else next(parent.iterancestors("table"), None)
        seen.add(parent)
        wrap_parent, wrappers = _wrapped(groups)
        region = regions.Region(parent=wrap_parent, items=wrappers, records_xpath="", score=0.0)
        cands = regions.slots(region, page_url) + attrs.candidates(regions.sample_items(wrappers))
        sample = regions.sample_items(leads)
        kept: list[Candidate] = []
        detail = None
        for c in cands:
            new = rewrite(c.rule.get("xpath") or "", pat.period)
            if new is None:
                continue
            rule = {**c.rule, "xpath": new}
            before = _read(regions.sample_items(wrappers), c.rule)
            if not before or _read(sample, rule) != before:
                continue  # the rewritten rule does not read what the group showed: left out
            c.rule = rule
            c.notes = [*c.notes, f"a record over {pat.period} sibling rows"]
            kept.append(c)
            if c is region.detail_link:
                detail = c
        if not kept:
            continue
        out.append(
            RowGroups(
                table=table,
                records_xpath=xp,
                period=pat.period,
                leads=leads,
                candidates=kept,
                detail_link=detail,
            )
        )
    return out
