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
    for idx, (url, root, html) in enumerate(pages):
        for p in labels.pairs(root):
            rule = {"xpath": p.xpath, "transforms": [*p.transforms, {"op": "collapse_whitespace"}]}
            add(p.key, p.label, rule, p.form, 0.9, idx, p.value)
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
