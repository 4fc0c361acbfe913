"""How a script-driven page pages through its JSON endpoint: page, offset or cursor, and the size.

A "load more" button or an infinite scroll calls an endpoint the page's script names, with a page
number, an offset or a cursor the previous answer handed out, and often a page size. The first
answer (no parameters) is one slice; which parameter moves on is read from the script (the string
literals it uses as parameter names) and confirmed by probing: a parameter counts only when the
answer it gives holds records different from the first slice. Names are tried in the order the
script gives them, then the common ones; the probe budget is small and fixed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from prefect_autodata.runtime.scriptjson import page_json
from prefect_autodata.runtime.spec import Pagination, Selector

MAX_PROBES = 16
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]{0,24}$")
_STRING = re.compile(r"""(["'])([A-Za-z_][A-Za-z0-9_\-]{0,24})\1(?!\s*:)""")  # not an object key
_QUERY_NAME = re.compile(r"[?&]([A-Za-z_][A-Za-z0-9_\-]{0,24})=")
_ROLES = [
    ("cursor", re.compile(r"cursor|token|after|continuation|next", re.I)),
    ("offset", re.compile(r"^(?:offset|start|skip|from|begin)|offset", re.I)),
    ("size", re.compile(r"size|limit|per.?page|count|rows|num|take|max|length", re.I)),
    ("page", re.compile(r"^(?:p|pg|pn|page.*|.*page(?:no|num|number|index)?)$", re.I)),
]
_COMMON = {
    "page": ["page", "p", "pg"],
    "offset": ["offset", "start", "skip"],
    "cursor": ["cursor", "after", "next", "token"],
    "size": ["limit", "size", "per_page", "pageSize", "count"],
}
_TOTAL = re.compile(r"^(?:total|totalcount|count|totalresults|totalitems|numfound|hits)$", re.I)
_NEXT = re.compile(r"next|cursor|token|after|continuation", re.I)


_SIZEISH = re.compile(r"size|limit|per.?page|count|rows|take|max|length", re.I)
_NOT_PARAM = re.compile(r"^total|total$", re.I)  # a response's record count, never a request parameter
# ``pageParam: "PageNumber"``, ``size_param: "count"``: a config slot whose name says what the
# parameter it holds does (the role word, then param/arg/key/name/query/field/var)
_SLOT = re.compile(
    r"""["']?([A-Za-z_$][\w$]*?)[_\-]?(?:param(?:eter)?|arg|key|name|query|field|var)s?["']?\s*:\s*"""
    r"""(["'])([A-Za-z_][A-Za-z0-9_\-]{0,24})\2""",
    re.I,
)
# ``totalPath: "count"``: a slot naming a place in the answer (a JSON path), not a parameter
_PATH_SLOT = re.compile(
    r"""["']?[A-Za-z_$][\w$]*(?:path|selector|field)["']?\s*:\s*(["'])([^"'\\]{1,40})\1""", re.I
)


def role(name: str) -> str | None:
    """page / offset / cursor / size: what a query parameter's name says it does, else None.

    ``pageNumber`` pages (its ``num`` is no size) while ``pageSize`` sizes; ``totalCount`` is what
    an answer says, not a parameter."""
    if _NOT_PARAM.search(name):
        return None
    for r, rx in _ROLES:
        if r == "size" and _ROLES[-1][1].search(name) and not _SIZEISH.search(name):
            continue  # page + num/no/index: a page number
        if rx.search(name):
            return r
    return None


def param_names(scripts: list[str]) -> dict[str, list[str]]:
    """Parameter names a page's scripts use, by role, in order of appearance.

    A name held in a config slot that says its role (``pageParam: "PageNumber"``) comes first and
    takes the slot's role; names the script reads answers by (``totalPath: "count"``) are skipped."""
    out: dict[str, list[str]] = {r: [] for r in _COMMON}
    for code in scripts:
        paths = {m.group(2) for m in _PATH_SLOT.finditer(code)}
        slotted: list[tuple[str, str]] = []
        for m in _SLOT.finditer(code):
            r = role(m.group(1)) if m.group(1) else None
            if r:
                slotted.append((r, m.group(3)))
        for r, name in slotted:
            if name not in out[r]:
                out[r].append(name)
        taken = {name for _, name in slotted}
        for name in [m.group(2) for m in _STRING.finditer(code)] + _QUERY_NAME.findall(code):
            if name in taken or name in paths:
                continue
            r = role(name)
            if r and name not in out[r] and len(name) <= 20:
                out[r].append(name)
    return out


def _with(url: str, params: dict[str, str]) -> str:
    parts = urlsplit(url)
    q = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k not in params]
    return urlunsplit(parts._replace(query=urlencode(q + list(params.items()))))


def _records(obj: Any, path: str) -> list[Any]:
    from prefect_autodata.runtime.extract import compile_jsonpath

    found = compile_jsonpath(path)(obj)
    if len(found) == 1 and isinstance(found[0], list) and not path.endswith("[*]"):
        return found[0]
    return found


def _sig(recs: list[Any]) -> str:
    return json.dumps(recs[:3], sort_keys=True, default=str)


def _total_key(obj: Any) -> str | None:
    if not isinstance(obj, dict):
        return None
    return next(
        (k for k, v in obj.items() if _TOTAL.match(re.sub(r"[_\-]", "", k)) and isinstance(v, int)), None
    )


def _cursor_key(obj: Any) -> str | None:
    if not isinstance(obj, dict):
        return None
    for k, v in obj.items():
        if _NEXT.search(k) and isinstance(v, str) and v and not v.startswith(("http", "/", "?")):
            return k
    return None


def probe(
    url: str,
    first: Any,
    records_path: str,
    get: Callable[[str], Any],
    scripts: list[str] | None = None,
) -> tuple[Pagination | None, dict[str, str], list[str]]:
    """``(pagination, extra request params, notes)`` for an endpoint whose first answer is ``first``.

    ``get(url)`` returns the parsed JSON of a URL or raises; probes stop at ``MAX_PROBES``."""
    recs0 = _records(first, records_path)
    n0 = len(recs0)
    notes: list[str] = []
    if not n0:
        return None, {}, notes
    names = param_names(scripts or [])
    for r, common in _COMMON.items():
        names[r] += [c for c in common if c not in names[r]]
    here = [k for k, _ in parse_qsl(urlsplit(url).query)]
    for k in reversed(here):  # parameters the call already carries come first
        r = role(k)
        if r:
            names[r] = [k] + [n for n in names[r] if n != k]
    budget = [MAX_PROBES]
    total_key = _total_key(first)
    total = first.get(total_key) if total_key else None
    if total is not None and total <= n0:
        return None, {}, notes  # the first answer already holds every record

    def ask(params: dict[str, str]) -> list[Any] | None:
        if budget[0] <= 0:
            return None
        budget[0] -= 1
        try:
            obj = get(_with(url, params))
        except Exception:  # a refused probe: that parameter (or value) is not the one
            return None
        try:
            return _records(obj, records_path)
        except Exception:  # an answer of another shape
            return None

    extra: dict[str, str] = {}
    # A page size the endpoint accepts: fewer, larger pages (the biggest accepted of a few).
    # (the largest of two round sizes: a size equal to today's total would miss tomorrow's records)
    for name in names["size"][:2]:
        got_size = None
        for size in (1000, 100):
            got = ask({name: str(size)})
            if got is not None and len(got) > n0:
                got_size = (size, got)
                break
        if got_size:
            extra[name] = str(got_size[0])
            recs0, n0 = got_size[1], len(got_size[1])
            notes.append(f"page size {name}={got_size[0]} accepted ({n0} records)")
            break
    if total is not None and n0 >= total:
        return None, extra, notes
    sig0 = _sig(recs0)
    tot_sel = Selector(jsonpath=f"$['{total_key}']") if total_key else None
    ck = _cursor_key(first)
    if ck:
        for name in names["cursor"][:4]:
            got = ask({**extra, name: str(first[ck])})
            if got and _sig(got) != sig0:
                notes.append(f"cursor {name} from $.{ck}")
                pag = Pagination(
                    kind="cursor", param=name, next=Selector(jsonpath=f"$['{ck}']"), total=tot_sel
                )
                return pag, extra, notes
    for name in names["page"][:4]:
        one = ask({**extra, name: "1"})
        if one is None:
            continue
        if one and _sig(one) == sig0:
            two = ask({**extra, name: "2"})
            if two and _sig(two) != sig0:
                notes.append(f"page {name} from 1")
                return Pagination(kind="page", param=name, start=1, total=tot_sel), extra, notes
            continue
        if one and _sig(one) != sig0:
            zero = ask({**extra, name: "0"})
            if zero and _sig(zero) == sig0:
                notes.append(f"page {name} from 0")
                return Pagination(kind="page", param=name, start=0, total=tot_sel), extra, notes
    for name in names["offset"][:3]:
        got = ask({**extra, name: str(n0)})
        if got and _sig(got) != sig0:
            size_param = next(iter(extra), None)
            notes.append(f"offset {name} step {n0}")
            pag = Pagination(
                kind="offset", param=name, start=0, size=n0, size_param=size_param, total=tot_sel
            )
            return pag, ({} if size_param else extra), notes
    return None, extra, notes


# ------------------------------------------------------------------------------------------ the page


def source_html(page_url: str | None, evidence: Any, reader: Any) -> str | None:
    """The cached HTML of the page an endpoint was found on (its script names the endpoint)."""
    if not page_url or reader is None:
        return None
    for p in getattr(evidence, "candidates", []) or []:
        if p.kind != "html" or not p.cache_id or page_url not in (p.url, p.final_url):
            continue
        try:
            data = reader(p.cache_id) if callable(reader) else reader.get(p.cache_id)
        except Exception:  # a missing artifact: no labels from that page
            continue
        return data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    return None


def page_scripts(html: str | None) -> list[str]:
    from prefect_autodata.agents.induction.dom import parse

    root = parse(html) if html else None
    if root is None:
        return []
    return [s.text or "" for s in root.iter("script") if not s.get("src") and (s.text or "").strip()]


def label_sets(sets: list[Any], html: str | None) -> None:
    """Record keys get the display labels the page's column definitions give them (in place)."""
    if not html or not sets:
        return
    from prefect_autodata.agents.induction.embedded import script_labels

    labels = script_labels(html)
    if not labels:
        return
    for rs in sets:
        if rs.positional:
            continue
        for k in rs.keys:
            shown = labels.get(str(k))
            if shown and str(rs.labels.get(k, k)) in (str(k), str(k).rsplit(".", 1)[-1]):
                rs.labels[k] = shown


_TITLE_FLAG = re.compile(r"^(?:is_?)?(?:title|heading|headline|primary|main)$", re.I)
_KEY_SLOT = re.compile(r"^(?:field|key|path|accessor(?:key)?|data(?:index|field|key)?|prop(?:erty)?)$", re.I)


def title_keys(obj: Any, depth: int = 0) -> list[str]:
    """Record keys a page's column definitions flag as each record's own name (``title: true``).

    A definition list (two or more objects, each naming one record key in a key slot) where exactly
    one definition sets a title-like flag to ``true``: that key is what the page shows as each
    record's heading (the "model" of a camera, the "club" of a season)."""
    out: list[str] = []
    if depth > 6:
        return out
    if isinstance(obj, list):
        defs = []
        for d in obj[:200]:
            if not isinstance(d, dict):
                continue
            keys = [v for k, v in d.items() if _KEY_SLOT.match(str(k)) and isinstance(v, str) and v]
            if len(keys) == 1:
                defs.append((keys[0], any(v is True for k, v in d.items() if _TITLE_FLAG.match(str(k)))))
        flagged = [k for k, f in defs if f]
        if len(defs) >= 2 and len(flagged) == 1:
            out.append(flagged[0])
        for x in obj[:50]:
            if isinstance(x, dict | list):
                out += [k for k in title_keys(x, depth + 1) if k not in out]
    elif isinstance(obj, dict):
        for v in obj.values():
            if isinstance(v, dict | list):
                out += [k for k in title_keys(v, depth + 1) if k not in out]
    return out


def title_key(rs: Any, html: str | None) -> str | None:
    """The key of ``rs`` the page's column definitions flag as the record's name, else None."""
    if not html or rs is None or rs.positional:
        return None
    from prefect_autodata.agents.induction.dom import parse

    root = parse(html)
    if root is None:
        return None
    have = {str(k): k for k in rs.keys}
    return next((have[k] for k in title_keys(page_json(root)) if k in have), None)


def title_match(
    targets: list[str], rs: Any, matches: dict[str, Any], html: str | None
) -> tuple[str, Any, str] | None:
    """``(target, key, why)``: the first unmatched text field takes the flagged title key (else None).

    Why: a request names the record's heading in its own word ("item", "vehicle", "club"); the
    page says which key is that heading, which the key's name alone ("model", "MakeModel") may not."""
    key = title_key(rs, html)
    if key is None or any(m.key == key for m in matches.values()):
        return None
    from prefect_autodata.agents.induction.matching import _TEXTISH, dominant_type, expected_type

    vals = [r.get(key) for r in rs.rows]
    if dominant_type([v for v in vals if v not in (None, "")])[0] != "text":
        return None
    for t in targets:
        if t not in matches and expected_type(t) in _TEXTISH:
            return t, key, f"{key!r} (the page's column definitions flag it as the record's name)"
    return None


def paginate(
    endpoint: Any, obj: Any, records_path: str, fetcher: Any, headers: dict[str, str], html: str | None
) -> tuple[Pagination | None, dict[str, str], list[str]]:
    """``probe`` for an endpoint a page's script calls, GETting with the endpoint's headers."""
    if fetcher is None:
        return None, {}, []

    def get(url: str) -> Any:
        resp = fetcher.get(url, headers=headers or None)
        return json.loads(resp.text)

    return probe(endpoint.example_url, obj, records_path, get, page_scripts(html))


def refused_sizes(
    endpoint: Any, query: dict[str, Any], fetcher: Any, headers: dict[str, str]
) -> dict[str, str]:
    """Numbers raised above the captured call's (a page size) that the server refuses: the call's own.

    Why: a raised page size saves requests only when the endpoint accepts it; one that answers
    HTTP 400 to ``count=1000`` would fail every run of the collector.
    """
    ex = dict(parse_qsl(urlsplit(endpoint.example_url).query))
    raised = {
        k: str(v)
        for k, v in query.items()
        if k in ex and str(v).isdigit() and ex[k].isdigit() and int(v) > int(ex[k])
    }
    if not raised or fetcher is None:
        return {}
    try:
        resp = fetcher.get(_with(endpoint.example_url, raised), headers=headers or None)
        json.loads(resp.text)
    except Exception:  # refused (or not JSON any more): keep what the page's own call sends
        return {k: ex[k] for k in raised}
    return {}
