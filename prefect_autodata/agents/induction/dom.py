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
    """An lxml HTML root, or None for an empty or unparsable body."""
    if not text:
        return None
    from lxml import html as lhtml

    try:
        return lhtml.document_fromstring(text)
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
