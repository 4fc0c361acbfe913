"""Small HTML helpers shared by the induction modules: parsing, visible text, XPath literals.

Kept apart so that every inducer reads a page the same way (same whitespace rules, same
treatment of scripts and comments) and writes XPath the runtime evaluates identically.
"""

from __future__ import annotations

import re
from typing import Any

_WS = re.compile(r"\s+")
SKIP_TAGS = {"script", "style", "noscript", "template", "svg", "head"}


def parse(text: str | bytes | None) -> Any:
    """An lxml HTML root, or None for an empty or unparsable body.

    The runtime's own parse (:func:`~prefect_autodata.runtime.extract.html_root`): tables are laid out
    as the browser's table model (a ``rowspan`` cell copied into the rows it covers), so an XPath
    induced here reads the same cell when the spec runs. Every reader of a page's records in the
    agents (the generic inducers, the legacy listing and table inducers, the engineering agent) parses
    through here; none lays tables out on its own."""
    if not text:
        return None
    from prefect_autodata.runtime.extract import html_root

    try:
        return html_root(text)
    except Exception:  # lxml raises several types on odd bodies; no root means: nothing to induce
        return None


def clean(s: Any) -> str:
    """Visible text with whitespace collapsed ("" for None)."""
    return _WS.sub(" ", str(s or "")).strip()


def text(node: Any) -> str:
    """The element's visible text (scripts and styles excluded), whitespace collapsed."""
    if node is None:
        return ""
    if isinstance(node, str):
        return clean(node)
    parts: list[str] = []
    for t in node.xpath(".//text()[not(ancestor::script or ancestor::style or ancestor::noscript)]"):
        parts.append(str(t))
    return clean(" ".join(parts))


def value_text(node: Any) -> str:
    """The text the runtime reads for ``node`` (``text_content``, scripts excluded), whitespace collapsed.

    Unlike :func:`text` the text nodes are joined as they stand, so ``<span>57</span><span>.01</span>``
    reads ``57.01`` here as it does when the spec runs.
    """
    if node is None:
        return ""
    if isinstance(node, str):
        return clean(node)
    parts = node.xpath(".//text()[not(ancestor::script or ancestor::style or ancestor::noscript)]")
    return clean("".join(str(t) for t in parts))


# Page furniture that never holds the records or a record's fields: site navigation, sidebars,
# dialogs (cookie consent), advertising. Told by element kind and ARIA role, and by a few words
# sites use in ids and classes for such blocks (general web vocabulary, no site's names).
_FURNITURE_TAGS = {"nav", "aside", "menu", "dialog"}
_FURNITURE_ROLES = {
    "navigation",
    "banner",
    "contentinfo",
    "complementary",
    "dialog",
    "alertdialog",
    "menu",
    "menubar",
    "search",
}
_FURNITURE_WORDS = re.compile(
    r"(?:^|[\s_-])(?:cookies?|consent|gdpr|advert\w*|ad-?(?:slot|unit|banner|container)|sponsor\w*|promo\w*|newsletter"
    r"|breadcrumbs?|sidebar|popup|modal|banner)(?:$|[\s_-])",
    re.I,
)
_SECTIONING = {"article", "section", "main", "aside", "nav"}


def is_furniture(node: Any) -> bool:
    """True for ``node`` itself or an ancestor being page furniture (nav, sidebar, cookie banner, ad).

    ``<header>``/``<footer>`` count only as the page's own (not inside an article or a section),
    where HTML puts site banners; an article's header holds its byline.
    """
    cur = node
    while cur is not None and is_element(cur):
        tag = cur.tag
        if tag in _FURNITURE_TAGS:
            return True
        if tag in ("header", "footer") and not any(a.tag in _SECTIONING for a in cur.iterancestors()):
            return True
        if (cur.get("role") or "").lower() in _FURNITURE_ROLES:
            return True
        if (
            tag not in ("html", "body", "main")
            and _FURNITURE_WORDS.search(f" {cur.get('id') or ''} {cur.get('class') or ''} ")
            and not cur.xpath(".//main | .//*[@role='main']")  # "content-sidebar-wrap" holds the content
        ):
            return True
        cur = cur.getparent()
    return False


def is_element(node: Any) -> bool:
    return isinstance(getattr(node, "tag", None), str)


def xq(s: str) -> str:
    """``s`` as an XPath 1.0 string literal (``concat`` when it holds both quote kinds)."""
    if "'" not in s:
        return f"'{s}'"
    if '"' not in s:
        return f'"{s}"'
    parts = s.split("'")
    return "concat(" + ', "\'", '.join(f"'{p}'" for p in parts) + ")"


def classes(node: Any) -> list[str]:
    return [c for c in (node.get("class") or "").split() if c]


def elements(node: Any) -> list[Any]:
    """Element children (comments and processing instructions skipped)."""
    return [c for c in node if is_element(c) and c.tag not in SKIP_TAGS]


def abs_path(node: Any) -> str:
    """An absolute positional XPath of ``node`` (``/html/body/div[2]/ul``), positions only where needed."""
    steps: list[str] = []
    cur = node
    while cur is not None and is_element(cur):
        parent = cur.getparent()
        if parent is None:
            steps.append(cur.tag)
            break
        same = [c for c in parent if is_element(c) and c.tag == cur.tag]
        steps.append(cur.tag if len(same) == 1 else f"{cur.tag}[{same.index(cur) + 1}]")
        cur = parent
    return "/" + "/".join(reversed(steps))
