"""Label/value pairs on a page, each with a selector anchored on the label (not on positions).

A detail page names its fields: ``<dt>Author</dt><dd>…</dd>``, a ``<th>``/``<td>`` row,
``<b>Price:</b> £12``, ``<p>Price: £12</p>``, ``<span>Author</span><span>…</span>``, a value split
over several elements. Each form yields ``(label, value, xpath, transforms)`` where the XPath finds
the value *through its label text*, so the same rule reads every page of the site whatever the
order of fields, and a page without the label gives an empty value rather than a wrong one.

The functions work on a whole page (``root``) or inside one record of a listing (``scope=".//"``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from prefect_autodata.agents.induction.dom import (
    SKIP_TAGS,
    clean,
    elements,
    is_element,
    is_furniture,
    value_text,
    xq,
)

text = value_text  # values read as the runtime reads them (text nodes joined as they stand)

MAX_NODES = 4000  # leaves/text nodes read per page: a page of thousands of records is a listing, not a detail
MAX_LABEL_WORDS = 5
MAX_LABEL_CHARS = 40
_INLINE_TAGS = {
    "span",
    "b",
    "i",
    "em",
    "strong",
    "small",
    "sup",
    "sub",
    "abbr",
    "time",
    "data",
    "mark",
    "u",
    "a",
}
_INLINE = re.compile(r"^\s*([^:：\n]{1,40}?)\s*[:：]\s*(\S.*?)\s*$", re.S)


@dataclass
class Pair:
    """One labelled value: the label as shown, the value's text, and how to read it again."""

    label: str
    value: str
    xpath: str
    transforms: list[dict[str, Any]] = field(default_factory=list)
    form: str = "dl"
    # Where the pair sits (for the region slots, which must not offer its parts as positional fields):
    # the label element, the element holding the value, or (element, "text"/"tail") for a value that
    # is a text node.
    label_node: Any = field(default=None, compare=False, repr=False)
    value_node: Any = field(default=None, compare=False, repr=False)
    text_ref: tuple[Any, str] | None = field(default=None, compare=False, repr=False)

    @property
    def key(self) -> str:
        return self.xpath + repr(self.transforms)


# A value written as a sentence after its label ("<em>Prerequisite:</em> HIST 101 or HIST 102.") ends with
# the sentence's full stop, which is no part of it; an abbreviation's stop stays ("Acme Inc.", "Jr.").
SENTENCE_STOP = r"^(.*?\S)(?:(?<=[^\W_]{2})(?<![A-Z][a-z]{2})(?<!\b[A-Z][a-z])\.)?\s*$"


def _sentence_value(value: str) -> str:
    m = re.search(SENTENCE_STOP, value, re.S)
    return m.group(1) if m else value


def _label_ok(s: str) -> bool:
    s = s.strip().rstrip(":：").strip()
    if not s or len(s) > MAX_LABEL_CHARS or len(s.split()) > MAX_LABEL_WORDS:
        return False
    if re.fullmatch(r"[\d\s.,:/%$€£-]+", s):
        return False  # a number or a date is a value, not a label
    return any(c.isalpha() for c in s)


def _norm_label(s: str) -> str:
    return clean(s).rstrip(":：").strip()


def label_text(el: Any) -> str:
    """The label an element's text would be as a pair's label ("Filed:" → "Filed")."""
    return _norm_label(el.text_content())


def _strip_label(label_text: str) -> list[dict[str, Any]]:
    """Transforms that drop a leading ``Label:`` from a value read with its label."""
    pat = r"^\s*" + re.escape(label_text) + r"\s*[:：]?\s*(.*?)\s*$"
    return [{"op": "regex", "pattern": pat}]


def pairs(root: Any, *, scope: str = "//") -> list[Pair]:
    """Every labelled value under ``root``; ``scope`` is ``//`` (page) or ``.//`` (inside a record).

    On a whole page, pairs in page furniture (navigation, sidebars, cookie banners, ads) are skipped:
    "Advertisement: ..." or a sidebar's "Featured" is not a field of the record the page shows.
    """
    out: list[Pair] = []
    seen: set[str] = set()

    def add(p: Pair) -> None:
        if scope == "//" and p.label_node is not None and is_furniture(p.label_node):
            return
        if p.value and p.key not in seen and _norm_label(p.value) != p.label:
            seen.add(p.key)
            out.append(p)

    for fn in (_dl, _rows, _label_elements, _inline_text, _icon_labels):
        for p in fn(root, scope):
            add(p)
    return out


def _dl(root: Any, scope: str) -> list[Pair]:
    out = []
    for dt in root.xpath(f"{scope}dt"):
        raw = clean(dt.text_content())
        if not _label_ok(raw):
            continue
        dd = dt.getnext()
        while dd is not None and not (is_element(dd) and dd.tag in ("dd", "dt")):
            dd = dd.getnext()
        if dd is None or dd.tag != "dd":
            continue
        out.append(
            Pair(
                label=_norm_label(raw),
                value=text(dd),
                xpath=f"{scope}dt[normalize-space()={xq(raw)}]/following-sibling::dd[1]",
                form="dl",
                label_node=dt,
                value_node=dd,
            )
        )
    return out


def _rows(root: Any, scope: str) -> list[Pair]:
    """``<tr><th>Label</th><td>value</td></tr>`` (or two ``td``s in a table of such rows)."""
    out = []
    two_td: dict[Any, int] = {}  # per table: rows of exactly two td cells (counted once)
    for tr in root.xpath(f"{scope}tr")[:MAX_NODES]:
        cells = [c for c in elements(tr) if c.tag in ("th", "td")]
        if len(cells) != 2:
            continue
        head, val = cells
        raw = clean(head.text_content())
        if not _label_ok(raw):
            continue
        if head.tag == "th":
            xp = f"{scope}tr[th[normalize-space()={xq(raw)}]]/td[1]"
        else:
            table = next(tr.iterancestors("table"), None)
            if table is None:
                continue
            if table not in two_td:
                two_td[table] = (
                    0
                    if table.xpath(".//th")
                    else sum(
                        1 for r in table.iter("tr") if len([c for c in elements(r) if c.tag == "td"]) == 2
                    )
                )
            if two_td[table] < 2:
                continue
            xp = f"{scope}tr[td[1][normalize-space()={xq(raw)}]]/td[2]"
        out.append(
            Pair(
                label=_norm_label(raw),
                value=text(val),
                xpath=xp,
                form="row",
                label_node=head,
                value_node=val,
            )
        )
    return out


def _label_elements(root: Any, scope: str) -> list[Pair]:
    """A short element that is a label (``<b>Price:</b>``, ``<span>Author</span>``) and its value.

    The value is the next sibling element, or the text right after the label when the label sits
    inline in a sentence-like container (``<li><b>By:</b> Jane Doe</li>``).
    """
    out = []
    for el in root.xpath(f"{scope}*[not(*)]")[:MAX_NODES]:
        if el.tag in SKIP_TAGS or el.tag in ("dt", "th", "td", "option", "a", "button", "title"):
            continue
        raw = clean(el.text_content())
        colon = raw.endswith((":", "："))
        if not _label_ok(raw):
            continue
        tail = clean(el.tail)
        nxt = el.getnext()
        while nxt is not None and not is_element(nxt):
            nxt = nxt.getnext()
        label = _norm_label(raw)
        anchor = f"{scope}{el.tag}[normalize-space()={xq(raw)}]"
        rest = _rest_of_parent(el, f"{el.tag}[normalize-space()={xq(raw)}]", raw, scope) if colon else None
        if rest is not None:  # "<b>By:</b> <span>Jane</span> <span>Doe</span>": the rest is the value
            rest.label = label
            out.append(rest)
            continue
        if tail and colon:
            out.append(
                Pair(
                    label=label,
                    value=_sentence_value(tail),
                    xpath=f"{anchor}/following-sibling::text()[normalize-space()][1]",
                    transforms=[{"op": "strip"}, {"op": "regex", "pattern": SENTENCE_STOP}],
                    form="inline-tail",
                    label_node=el,
                    text_ref=(el, "tail"),
                )
            )
        elif nxt is not None and not tail and (colon or _paired(el, nxt)):
            val = text(nxt)
            if not colon and _one_value(raw, val):
                continue  # "<span>January</span> <span>23, 2017</span>": one date in two pieces
            if val and not (_label_ok(val) and val.endswith(":")):
                out.append(
                    Pair(
                        label=label,
                        value=val,
                        xpath=f"{anchor}/following-sibling::*[1]",
                        form="sibling",
                        label_node=el,
                        value_node=nxt,
                    )
                )
    return out


def _rest_of_parent(el: Any, step: str, shown: str, scope: str) -> Pair | None:
    """The value as the rest of the label's parent, when it is split over several pieces.

    ``<p><span aria-label="Dir.">⚑</span> <span>Jason</span> <span>Christensen</span></p>`` or
    ``<p><b>By:</b> <span>Jane</span> <span>Doe</span></p>``: the label is the parent's first piece and
    everything after it (inline elements and text) is one value. The rule reads the parent (found
    through its label child) and drops the label's own text.
    """
    parent = el.getparent()
    if parent is None or clean(parent.text) or parent.tag in SKIP_TAGS or parent.tag in ("a", "option"):
        return None
    kids = [c for c in parent if is_element(c)]
    if not kids or kids[0] is not el:
        return None
    after = kids[1:]
    pieces = len(after) + (1 if clean(el.tail) else 0)
    if pieces < 2 or any(len(c) or c.tag not in _INLINE_TAGS for c in after):
        return None
    whole = text(parent)
    pat = r"(?s)^\s*" + re.escape(clean(shown)) + r"\s*[:：]?\s*(.*?)\s*$"
    m = re.match(pat, whole)
    if not m or not m.group(1):
        return None
    return Pair(
        label="",
        value=m.group(1),
        xpath=f"{scope}*[{step}]",
        transforms=[{"op": "collapse_whitespace"}, {"op": "regex", "pattern": pat}],
        form="pieces",
        label_node=el,
        value_node=parent,
    )


def _pieces_after(parent: Any, shown: str, scope: str) -> Pair | None:
    """``<p>CLOSE: <span>285</span><span>.68</span></p>``: the parent's own text is the label and the
    leaf inline pieces after it are one value, read as the parent's text without the label."""
    kids = [c for c in parent if is_element(c)]
    if len(kids) < 2 or any(len(c) or c.tag not in _INLINE_TAGS for c in kids):
        return None
    if parent.tag in SKIP_TAGS or parent.tag in ("a", "option"):
        return None
    pat = r"(?s)^\s*" + re.escape(clean(shown)) + r"\s*(.*?)\s*$"
    m = re.match(pat, text(parent))
    if not m or not m.group(1):
        return None
    return Pair(
        label=_norm_label(shown),
        value=m.group(1),
        xpath=f"{scope}*[text()[normalize-space()={xq(clean(shown))}]]",
        transforms=[{"op": "collapse_whitespace"}, {"op": "regex", "pattern": pat}],
        form="pieces",
        value_node=parent,
    )


def _one_value(left: str, right: str) -> bool:
    """Two texts that read as one typed value when joined (a date, an amount): not label and value."""
    from prefect_autodata.agents.induction.matching import value_type

    return value_type(f"{left} {right}") not in ("text", "empty") or value_type(left + right) not in (
        "text",
        "empty",
    )


def _paired(label_el: Any, value_el: Any) -> bool:
    """Two adjacent elements form a label/value pair when their parent holds just those two."""
    parent = label_el.getparent()
    if parent is None:
        return False
    kids = elements(parent)
    return len(kids) == 2 and kids[0] is label_el and kids[1] is value_el


def _inline_text(root: Any, scope: str) -> list[Pair]:
    """``Label: value`` inside one text node (``<p>Price: £12</p>``, lines split by ``<br>``)."""
    out = []
    for t in root.xpath(f"{scope}text()[contains(., ':') or contains(., '：')]")[:MAX_NODES]:
        parent = t.getparent()
        if parent is None or parent.tag in SKIP_TAGS or parent.tag in ("a", "title", "option"):
            continue
        bare = clean(str(t))
        if bare.endswith((":", "：")) and _label_ok(bare):  # "Author: <a>Jane</a>": the value follows
            nxt = parent.getnext() if t.is_tail else (parent[0] if len(parent) else None)
            while nxt is not None and not is_element(nxt):
                nxt = nxt.getnext()
            whole = None if t.is_tail else _pieces_after(parent, bare, scope)
            if whole is not None:  # "Yr: <span>20</span><span>07</span>": the pieces are one value
                whole.label_node, whole.text_ref = parent, (parent, "text")
                out.append(whole)
                continue
            if nxt is not None and text(nxt):
                lit = xq(bare)
                out.append(
                    Pair(
                        label=_norm_label(bare),
                        value=text(nxt),
                        xpath=f"{scope}text()[normalize-space()={lit}]/following-sibling::*[1]",
                        form="inline-next",
                        label_node=parent,
                        value_node=nxt,
                        text_ref=(parent, "tail" if t.is_tail else "text"),
                    )
                )
            continue
        m = _INLINE.match(str(t))
        if not m or not _label_ok(m.group(1)) or m.group(2).startswith("//"):
            continue
        raw = clean(m.group(1))
        value = clean(m.group(2))
        if len(value) > 300:
            continue
        lit = xq(raw)
        xp = f"{scope}text()[starts-with(normalize-space(), concat({lit}, ':'))]"
        if "：" in str(t) and ":" not in str(t):
            xp = f"{scope}text()[starts-with(normalize-space(), concat({lit}, '：'))]"
        out.append(
            Pair(
                label=raw,
                value=value,
                xpath=xp,
                transforms=_strip_label(raw),
                form="inline",
                label_node=parent,
                text_ref=(parent, "tail" if t.is_tail else "text"),
            )
        )
    return out


def _icon_labels(root: Any, scope: str) -> list[Pair]:
    """An icon standing for the label (``<span aria-label="Price">★</span> £12``, ``<i title="Author">``)."""
    out = []
    for attr in ("aria-label", "title"):
        for el in root.xpath(f"{scope}*[@{attr}][not(*)]")[:MAX_NODES]:
            if el.tag in ("a", "abbr", "button", "input", "img") and attr == "title":
                continue
            raw = clean(el.get(attr))
            shown = clean(el.text_content())
            if not _label_ok(raw) or (shown and any(c.isalnum() for c in shown)):
                continue  # the element's own text is a word: not an icon
            tail = clean(el.tail)
            anchor = f"{scope}{el.tag}[@{attr}={xq(el.get(attr))}]"
            rest = _rest_of_parent(el, f"{el.tag}[@{attr}={xq(el.get(attr))}]", shown, scope)
            if rest is not None:  # "⚑ <span>Jason</span> <span>Christensen</span>": one value in pieces
                rest.label, rest.form = _norm_label(raw), "icon"
                out.append(rest)
                continue
            if tail:
                xp = f"{anchor}/following-sibling::text()[normalize-space()][1]"
                out.append(
                    Pair(
                        label=_norm_label(raw),
                        value=tail,
                        xpath=xp,
                        transforms=[{"op": "strip"}],
                        form="icon",
                        label_node=el,
                        text_ref=(el, "tail"),
                    )
                )
                continue
            nxt = el.getnext()
            if nxt is not None and text(nxt):
                out.append(
                    Pair(
                        label=_norm_label(raw),
                        value=text(nxt),
                        xpath=f"{anchor}/following-sibling::*[1]",
                        form="icon",
                        label_node=el,
                        value_node=nxt,
                    )
                )
    return out
