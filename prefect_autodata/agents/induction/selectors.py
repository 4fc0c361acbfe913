"""Detail-page selectors induced on several sample pages and verified on the others.

One detail page cannot tell a field from boilerplate or a label-anchored rule from a lucky
position; several can. Every sample page contributes its labelled values (``labels``), its
heading and ``<title>`` (the record's own name, with the site's constant prefix/suffix cut off) and
its structured data; a rule is kept when it finds a value on most samples, and its values across
samples are what matching sees (so a value constant on every page is recognised as template).
Label-anchored rules rank above structural ones, which rank above positions.
"""

from __future__ import annotations

import os
import re
from typing import Any

from prefect_autodata.agents.induction import labels, structured
from prefect_autodata.agents.induction.dom import clean, text
from prefect_autodata.agents.induction.matching import Candidate


def _affix(titles: list[str]) -> tuple[str, str]:
    """The prefix and suffix every sample ``<title>`` shares (" | Bookshop"), cut back to a separator."""
    ts = [t for t in titles if t]
    if len(ts) < 2:
        return "", ""
    pre = os.path.commonprefix(ts)
    suf = os.path.commonprefix([t[::-1] for t in ts])[::-1]
    pre = pre[
        : max((pre.rfind(s) + len(s) for s in (" | ", " - ", " – ", " — ", ": ") if s in pre), default=0)
    ]
    cut = [suf.find(s) for s in (" | ", " - ", " – ", " — ", " :: ") if s in suf]
    suf = suf[min(cut) :] if cut else ""
    return pre, suf


_TEXT_FORMS = ("inline", "pieces")  # "Label: value" in the label's own text node, or in pieces after it


def _merge_forms(keyed: dict[str, tuple], pages: list[tuple[str, Any, str]]) -> None:
    """One rule for a label that pages show in two forms, replacing the rule of each form.

    ``<p>Fuel economy: 17</p>`` on one page, ``<p>Fuel economy: <span>21</span> <span>- 22</span></p>``
    on another: the first form's rule reads the label's text node (empty on the second page), the
    second's the element whose text is the label alone (nothing on the first). The element holding
    the label's text, read without the label, reads both; it replaces them only when it gives every
    value either form read, on each page, and reads more pages than any of them alone.
    """
    from prefect_autodata.agents.induction.dom import xq
    from prefect_autodata.runtime.extract import extract_field
    from prefect_autodata.runtime.spec import FieldRule

    by_label: dict[str, list[str]] = {}
    for key, (label, _rule, origin, *_rest) in keyed.items():
        if label and origin in _TEXT_FORMS:
            by_label.setdefault(label, []).append(key)
    for label, keys in by_label.items():
        if len(keys) < 2:
            continue
        known: dict[int, str] = {}
        for k in keys:
            for i, v in keyed[k][5].items():
                known.setdefault(i, v)
        pat = r"(?s)^\s*" + re.escape(label) + r"\s*:\s*(.*?)\s*$"
        xpath = f"//*[text()[starts-with(normalize-space(), {xq(label + ':')})]]"
        transforms = [{"op": "collapse_whitespace"}, {"op": "regex", "pattern": pat}]
        rule = FieldRule(name="v", xpath=xpath, transforms=transforms)
        got: dict[int, str] = {}
        for idx, (url, root, _html) in enumerate(pages):
            try:
                v = extract_field(root, rule, page_url=url, params={})
            except Exception:  # a value this rule cannot read: the forms stay as they are
                got = {}
                break
            if v not in (None, ""):
                got[idx] = clean(str(v))
        if any(got.get(i) != clean(v) for i, v in known.items()):
            continue  # the element holds more than the value on some page (lines split by <br>)
        if len(got) <= max(len(keyed[k][5]) for k in keys):
            continue
        for k in keys:
            del keyed[k]
        keyed["forms:" + label] = (
            label,
            {"xpath": xpath, "transforms": transforms},
            "pieces",
            0.9,
            False,
            got,
        )


_ROWS_AFTER = 2  # rows read after a labelled row before the next label


def _rows_after(p: labels.Pair, recurring: set[str]) -> list[tuple[str, str, str]]:
    """(key, xpath, value) of each cell of the rows after a labelled row whose first cell is no label
    any sample repeats: "United States Patent | 8,042,117" over "Halvorsen, et al. | October 25,
    2011", where the second row's "label" differs on every page because it is data. The cells are
    read by their place after the labelled row, the only thing the pages share."""
    from prefect_autodata.agents.induction.dom import elements, xq

    head = p.label_node
    tr = head.getparent() if head is not None else None
    if tr is None or tr.tag != "tr":
        return []
    anchor = (
        f"//tr[{'th' if head.tag == 'th' else 'td[1]'}[normalize-space()={xq(clean(head.text_content()))}]]"
    )
    out = []
    for k, row in enumerate(tr.itersiblings("tr"), start=1):
        cells = [c for c in elements(row) if c.tag in ("td", "th")]
        if k > _ROWS_AFTER or not cells or labels.label_text(cells[0]) in recurring:
            break
        for ci, cell in enumerate(cells, start=1):
            xp = f"{anchor}/following-sibling::tr[{k}]/*[self::td or self::th][{ci}]"
            out.append((f"after:{xp}", xp, text(cell)))
    return out


def detail_candidates(pages: list[tuple[str, Any, str]]) -> list[Candidate]:
    """Candidates from sample detail pages ``(url, root, html)``; values are listed per page."""
    n = len(pages)
    if not n:
        return []
    keyed: dict[str, tuple[str, dict[str, Any], str, float, bool, dict[int, str]]] = {}

    def add(
        key: str,
        label: str | None,
        rule: dict[str, Any],
        origin: str,
        anchor: float,
        idx: int,
        v: str,
        ident=False,
    ):
        slot = keyed.setdefault(key, (label, rule, origin, anchor, ident, {}))
        if v:
            slot[5].setdefault(idx, v)

    titles = [clean(r.findtext(".//title") or "") for _, r, _ in pages]
    pre, suf = _affix(titles)
    found = [labels.pairs(root) for _, root, _ in pages]
    seen: dict[str, int] = {}
    for ps in found:
        for lab in {p.label for p in ps}:
            seen[lab] = seen.get(lab, 0) + 1
    recurring = {lab for lab, c in seen.items() if c >= max(2, (n + 1) // 2)}
    for idx, (url, root, html) in enumerate(pages):
        for p in found[idx]:
            rule = {"xpath": p.xpath, "transforms": [*p.transforms, {"op": "collapse_whitespace"}]}
            add(p.key, p.label, rule, p.form, 0.9, idx, p.value)
            if p.form == "row" and p.label in recurring:
                for key, xp, v in _rows_after(p, recurring):
                    add(
                        key,
                        None,
                        {"xpath": xp, "transforms": [{"op": "collapse_whitespace"}]},
                        "row",
                        0.5,
                        idx,
                        v,
                    )
        h1 = root.xpath("//h1")
        if h1:
            add(
                "h1",
                None,
                {"xpath": "//h1", "transforms": [{"op": "collapse_whitespace"}]},
                "heading",
                0.7,
                idx,
                text(h1[0]),
                True,
            )
        if titles[idx]:
            tr: list[dict[str, Any]] = [{"op": "collapse_whitespace"}]
            v = titles[idx]
            if pre or suf:
                pat = "^" + re.escape(pre) + r"(.*?)" + re.escape(suf) + "$"
                tr.append({"op": "regex", "pattern": pat})
                m = re.match(pat, v)
                v = m.group(1) if m else v
            add("title", None, {"xpath": "//title", "transforms": tr}, "title", 0.6, idx, v, True)
        for label, value, rule in structured.properties(html, url, root):
            add("sd:" + repr(rule), label, rule, "structured", 0.8, idx, value)
    _merge_forms(keyed, pages)
    out = []
    for label, rule, origin, anchor, ident, vals in keyed.values():
        if len(vals) < max(1, (n + 1) // 2):
            continue  # found on a minority of the samples: not a field of this kind of page
        values = [vals.get(i) for i in range(n)]
        out.append(
            Candidate(
                label=label,
                values=values,
                rule=rule,
                origin=origin,
                identity=ident,
                anchor=anchor,
                where="detail",
            )
        )
    return out
