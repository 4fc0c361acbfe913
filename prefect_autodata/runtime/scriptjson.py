"""The JSON an HTML page carries in its scripts, as one object a JSONPath can address.

Script-built pages keep their records in a state object (``window.__STATE__ = {...}``, ``<script
type="application/json" id="__NEXT_DATA__">``) and structured-data pages in JSON-LD blocks. A spec
reads them with an ordinary ``jsonpath`` selector on an ``html`` (or ``browser``) source: on an
HTML document the JSONPath runs over ``page_json(root)``, a dict with

- ``<id>``: a ``<script>`` whose text is JSON, by its ``id`` (else its ``name`` / ``data-name``);
- ``<name>``: a JSON literal assigned in a script (``window.NAME = {...}``, ``var NAME = [...]``,
  ``self["NAME"] = {...}``, ``NAME = JSON.parse('...')``), by the assigned name's last part;
- ``ld+json``: the list of the page's JSON-LD blocks, in page order (``@graph`` kept as it is);
- ``#N``: any other JSON script without a name, by its position among the page's scripts.

So ``$['__NEXT_DATA__'].props.items[*]`` or ``$['ld+json'][0].name`` are plain JSONPaths. Only
literal JSON is read (a JS object with unquoted keys is not JSON and is skipped): what the page
holds, never a guess.
"""

from __future__ import annotations

import json
import re
import weakref
from typing import Any

LD_KEY = "ld+json"
MAX_SCRIPT_CHARS = 5_000_000
_ASSIGN = re.compile(
    r"""(?:\b(?:window|self|globalThis|document)\s*(?:\.\s*([A-Za-z_$][\w$]*)|\[\s*["']([^"'\]]+)["']\s*\])"""
    r"""|\b(?:var|let|const)\s+([A-Za-z_$][\w$]*)"""
    r"""|^\s*([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*))"""
    r"""\s*=(?!=)\s*""",
    re.M,
)
_PARSE = re.compile(r"""JSON\.parse\(\s*(["'`])""")
_DECODER = json.JSONDecoder()
_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _js_string(code: str, pos: int, quote: str) -> str | None:
    """The JS string literal starting after ``quote`` at ``pos``, unescaped (None if unterminated)."""
    out: list[str] = []
    i = pos
    while i < len(code):
        c = code[i]
        if c == "\\" and i + 1 < len(code):
            nxt = code[i + 1]
            if nxt == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", code[i + 2 : i + 6]):
                out.append(chr(int(code[i + 2 : i + 6], 16)))
                i += 6
                continue
            if nxt == "x" and re.fullmatch(r"[0-9a-fA-F]{2}", code[i + 2 : i + 4]):
                out.append(chr(int(code[i + 2 : i + 4], 16)))
                i += 4
                continue
            out.append({"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}.get(nxt, nxt))
            i += 2
            continue
        if c == quote:
            return "".join(out)
        out.append(c)
        i += 1
    return None


def assignments(code: str) -> dict[str, Any]:
    """JSON literals assigned to names in one script: ``{name: value}`` (first assignment wins)."""
    out: dict[str, Any] = {}
    if len(code) > MAX_SCRIPT_CHARS:
        return out
    for m in _ASSIGN.finditer(code):
        name = m.group(1) or m.group(2) or m.group(3) or m.group(4)
        if not name:
            continue
        name = name.split(".")[-1]
        pos = m.end()
        value: Any = None
        if pos < len(code) and code[pos] in "[{":
            try:
                value, _ = _DECODER.raw_decode(code, pos)
            except ValueError:
                continue
        else:
            p = _PARSE.match(code, pos)
            if not p:
                continue
            raw = _js_string(code, p.end(), p.group(1))
            try:
                value = json.loads(raw) if raw is not None else None
            except ValueError:
                continue
        if isinstance(value, dict | list) and value and name not in out:
            out[name] = value
    return out


def _script_json(text: str) -> Any:
    s = text.strip()
    if s.startswith("<!--"):
        s = s[4:]
    if s.endswith("-->"):
        s = s[:-3]
    s = s.strip().rstrip(";")
    if not s or s[0] not in "[{":
        return None
    try:
        return json.loads(s)
    except ValueError:
        return None


def page_json(root: Any) -> dict[str, Any]:
    """Every JSON value the page's scripts hold, keyed as the module docstring says (cached per tree)."""
    try:
        top = root.getroottree().getroot()
    except AttributeError:
        return {}
    try:
        return _CACHE[top]
    except (KeyError, TypeError):
        pass
    out: dict[str, Any] = {}
    ld: list[Any] = []
    for i, s in enumerate(top.iter("script")):
        if s.get("src"):
            continue
        text = s.text or ""
        if not text.strip() or len(text) > MAX_SCRIPT_CHARS:
            continue
        typ = (s.get("type") or "").lower().strip()
        if "ld+json" in typ:
            v = _script_json(text)
            if v is not None:
                ld.append(v)
            continue
        if "json" in typ:
            v = _script_json(text)
            if v is None:
                continue
            key = s.get("id") or s.get("name") or s.get("data-name") or f"#{i}"
            out.setdefault(key, v)
            continue
        if typ and "javascript" not in typ and "module" not in typ:
            continue  # templates (text/x-template), shaders: not code
        for name, v in assignments(text).items():
            out.setdefault(name, v)
    if ld:
        out[LD_KEY] = ld
    try:
        _CACHE[top] = out
    except TypeError:
        pass
    return out
