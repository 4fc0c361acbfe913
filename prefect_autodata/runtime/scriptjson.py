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

So ``$['__NEXT_DATA__'].props.items[*]`` or ``$['ld+json'][0].name`` are plain JSONPaths. A script
assignment may also hold a JavaScript object literal, which is read as the data it spells out
(``js_literal``): unquoted and single-quoted keys, single-quoted and plain template strings, trailing
commas, comments, ``undefined``/``NaN``/``Infinity`` (null), ``new Date("...")`` (its argument, as
written) and the minified ``!0``/``!1`` (true/false). A literal holding anything else (a function, a
variable, an expression) is skipped whole: what the page holds, never a guess.
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


class _NotLiteral(ValueError):
    """The code at this place is no data literal (a function, a variable, an expression)."""


_JS_IDENT = re.compile(r"[A-Za-z_$][\w$]*")
_JS_NUMBER = re.compile(r"[+-]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)")
_JS_WORDS = {"true": True, "false": False, "null": None, "undefined": None, "NaN": None, "Infinity": None}
_JS_DATE = re.compile(r"new\s+Date\s*\(")
MAX_LITERAL_DEPTH = 200


def _skip(code: str, i: int) -> int:
    """The position after white space and comments from ``i``."""
    n = len(code)
    while i < n:
        c = code[i]
        if c.isspace():
            i += 1
        elif code.startswith("//", i):
            j = code.find("\n", i)
            i = n if j < 0 else j + 1
        elif code.startswith("/*", i):
            j = code.find("*/", i + 2)
            if j < 0:
                raise _NotLiteral("unterminated comment")
            i = j + 2
        else:
            break
    return i


def _js_str_end(code: str, i: int) -> tuple[str, int]:
    """The string literal opening at ``i`` (its quote) and the position after it."""
    quote = code[i]
    raw = _js_string(code, i + 1, quote)
    if raw is None:
        raise _NotLiteral("unterminated string")
    if quote == "`" and "${" in raw:
        raise _NotLiteral("a template with substitutions")
    # the literal's length in the code: walk it again, honouring escapes
    j = i + 1
    while code[j] != quote:
        j += 2 if code[j] == "\\" else 1
    return raw, j + 1


def _js_value(code: str, i: int, depth: int = 0) -> tuple[Any, int]:
    """The JS data literal starting at ``i`` (white space skipped) and the position after it."""
    if depth > MAX_LITERAL_DEPTH:
        raise _NotLiteral("nested too deep")
    i = _skip(code, i)
    if i >= len(code):
        raise _NotLiteral("end of code")
    c = code[i]
    if c == "{":
        out: dict[str, Any] = {}
        i = _skip(code, i + 1)
        while code[i : i + 1] != "}":
            if i >= len(code):
                raise _NotLiteral("unterminated object")
            if code[i] in "\"'`":
                key, i = _js_str_end(code, i)
            elif m := (_JS_IDENT.match(code, i) or _JS_NUMBER.match(code, i)):
                key, i = m.group(0), m.end()
            else:
                raise _NotLiteral("no key")
            i = _skip(code, i)
            if code[i : i + 1] != ":":
                raise _NotLiteral("a shorthand property or a method")
            out[key], i = _js_value(code, i + 1, depth + 1)
            i = _skip(code, i)
            if code[i : i + 1] == ",":
                i = _skip(code, i + 1)
            elif code[i : i + 1] != "}":
                raise _NotLiteral("no comma between properties")
        return out, i + 1
    if c == "[":
        arr: list[Any] = []
        i = _skip(code, i + 1)
        while code[i : i + 1] != "]":
            if i >= len(code):
                raise _NotLiteral("unterminated array")
            v, i = _js_value(code, i, depth + 1)
            arr.append(v)
            i = _skip(code, i)
            if code[i : i + 1] == ",":
                i = _skip(code, i + 1)
            elif code[i : i + 1] != "]":
                raise _NotLiteral("no comma between items")
        return arr, i + 1
    if c in "\"'`":
        return _js_str_end(code, i)
    if code.startswith(("!0", "!1"), i):
        return code[i + 1] == "0", i + 2
    if m := _JS_DATE.match(code, i):
        arg, j = _js_value(code, m.end(), depth + 1)
        j = _skip(code, j)
        if code[j : j + 1] != ")" or isinstance(arg, dict | list):
            raise _NotLiteral("a date built from an expression")
        return arg, j + 1
    if m := _JS_NUMBER.match(code, i):
        t = m.group(0)
        nxt = code[m.end() : m.end() + 1]
        if nxt and (nxt.isalnum() or nxt in "_$."):
            raise _NotLiteral("an expression")
        body = t.lstrip("+-")
        if body[:2].lower() == "0x":
            num: Any = int(body, 16) * (-1 if t.startswith("-") else 1)
        elif re.fullmatch(r"\d+", body):
            num = int(t)
        else:
            num = float(t)
        return num, m.end()
    if m := _JS_IDENT.match(code, i):
        if m.group(0) in _JS_WORDS:
            return _JS_WORDS[m.group(0)], m.end()
    raise _NotLiteral("a variable, a call or an expression")


def js_literal(code: str, pos: int = 0) -> tuple[Any, int]:
    """The JavaScript data literal (object, array, string, number, true/false/null) at ``pos`` and the
    position after it. JSON is a JS literal too. Raises ValueError when the code there is not data."""
    return _js_value(code, pos)


def _literal_at(code: str, pos: int) -> Any:
    """The JSON, else JS data, literal at ``pos``; None when the code there is neither."""
    try:
        return _DECODER.raw_decode(code, pos)[0]
    except ValueError:
        pass
    try:
        value, end = js_literal(code, pos)
    except (ValueError, IndexError, RecursionError):
        return None
    end = _skip(code, end)
    if end < len(code) and code[end] in ".[(?+-*/%&|^<>=":
        return None  # the literal is the first operand of an expression ({...}.items, [...].map(...))
    return value


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
            value = _literal_at(code, pos)
            if value is None:
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
