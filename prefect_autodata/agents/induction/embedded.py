"""Records a page keeps in its scripts: state objects, JSON script elements, JSON-LD item lists.

A script-built page often ships its records as JSON beside the code that draws them
(``window.__STATE__ = {...}``, ``<script type="application/json">``); a plain HTTP fetch sees no
record markup, but the data is all there. ``runtime/scriptjson.page_json`` reads every such JSON
value into one object; the record arrays in it are found by the same JSON record finder the API
inducer uses (``json_record_sets``, which covers nested, header-row and keyed shapes), and each
array's keys become matching candidates (a flattened key ``stats.high`` is a JSONPath).

Labels: pages that draw records from JSON usually say how to label each key, in a column
definition list (``[{"field": "hp", "header": "Horsepower"}, ...]``, the shape data grids and
render configs share): a list of objects each naming one record key and a human text. Those
texts label the keys for the matcher (``column_labels``); the key stays an alias.

The spec is an ``html`` source whose ``records`` selector is a JSONPath into the page JSON; the
runtime evaluates it the same way (``runtime/extract``), and numbered ``?page=N`` links paginate.
"""

from __future__ import annotations

import re
from typing import Any

from prefect_autodata.agents.induction import pagination
from prefect_autodata.agents.induction.filters import row_filter
from prefect_autodata.agents.induction.jsonrec import list_projection, project
from prefect_autodata.agents.induction.matching import (
    IDENTITY,
    Candidate,
    aliases_of,
    assign,
    dominant_type,
    normalise,
)
from prefect_autodata.agents.induction.scoped import filter_matches
from prefect_autodata.runtime.policy import FetchPolicy
from prefect_autodata.runtime.scriptjson import page_json
from prefect_autodata.runtime.spec import (
    CollectorSpec,
    ColumnSpec,
    PythonStep,
    RequestTemplate,
    Selector,
    Source,
)

MIN_RECORDS = 2
_LABEL_KEYS = re.compile(
    r"^(?:label|title|header(?:name)?|heading|caption|display(?:name)?|text|name)$", re.I
)
_CODEISH = re.compile(r"[_\-#./\\{}<>=]|^\d|[a-z]\d|\d[a-z]", re.I)


def _key(k: Any) -> str:
    return str(k).replace("\\", "\\\\").replace("'", "\\'")


_STEP = re.compile(r"\.([A-Za-z_]\w*)|\['((?:[^'\\]|\\.)*)'\]|(\[[^\]']*\]|\.\*)")


def bracketed(path: str) -> str:
    """``$.meta.where[*]`` → ``$['meta']['where'][*]``: names in brackets are never JSONPath words."""
    out = "$"
    for name, quoted, other in _STEP.findall(path[1:]):
        out += f"['{_key(name)}']" if name else f"['{quoted}']" if quoted else other
    return out


def _full_path(top: str, path: str) -> str:
    """``$.items[*]`` inside the value under ``top`` → ``$['top']['items'][*]``."""
    return f"$['{_key(top)}']" + bracketed(path)[1:]


def _field_path(rs: Any, k: Any) -> str:
    if rs.positional:
        return f"$[{int(k)}]"
    return "$" + "".join(f"['{_key(part)}']" for part in str(k).split("."))


def _human(v: str) -> bool:
    s = v.strip().rstrip(".:")
    return (
        bool(s)
        and len(s) <= 60
        and bool(re.search(r"[^\W\d_]", s))
        and not _CODEISH.search(re.sub(r"[\s%()]|\.(?= )", "", s))
    )


def column_labels(obj: Any, keys: set[str], *, depth: int = 0) -> dict[str, str]:
    """Record key → display label, from lists of objects that each pair one key with a human text."""
    out: dict[str, str] = {}
    if depth > 6:
        return out
    if isinstance(obj, list):
        dicts = [x for x in obj[:200] if isinstance(x, dict)]
        pairs: dict[str, str] = {}
        if len(dicts) >= 2:
            for d in dicts:
                named = [v for v in d.values() if isinstance(v, str) and v in keys]
                if len(named) != 1:
                    continue
                texts = [
                    (not _LABEL_KEYS.match(str(k)), v)
                    for k, v in d.items()
                    if isinstance(v, str) and v not in keys and _human(v)
                ]
                if texts:
                    pairs.setdefault(named[0], min(texts, key=lambda t: t[0])[1].strip().rstrip(":"))
        if len(pairs) >= 2:
            out.update(pairs)
        for x in obj[:50]:
            if isinstance(x, dict | list):
                for k, v in column_labels(x, keys, depth=depth + 1).items():
                    out.setdefault(k, v)
    elif isinstance(obj, dict):
        for v in obj.values():
            if isinstance(v, dict | list):
                for k, lab in column_labels(v, keys, depth=depth + 1).items():
                    out.setdefault(k, lab)
    return out


_KEY_SLOTS = re.compile(
    r"^(?:field|key|path|accessor(?:key)?|data(?:index|field|key)?|prop(?:erty)?|column|attr(?:ibute)?|value)$",
    re.I,
)
_PATHLIKE = re.compile(r"^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$")


def definition_labels(obj: Any) -> dict[str, str]:
    """Record key → display label from column definitions alone (no record keys known yet).

    A definition names its key in a slot called like one (``field``, ``key``, ``dataIndex``,
    ``accessor``, ``path``...) and its text in a label slot (``label``, ``header``, ``title``...).
    """
    out: dict[str, str] = {}

    def visit(node: Any, depth: int) -> None:
        if depth > 6:
            return
        if isinstance(node, list):
            dicts = [x for x in node[:200] if isinstance(x, dict)]
            pairs: dict[str, str] = {}
            for d in dicts:
                keys = [
                    v
                    for k, v in d.items()
                    if _KEY_SLOTS.match(str(k)) and isinstance(v, str) and _PATHLIKE.match(v)
                ]
                texts = [
                    v for k, v in d.items() if _LABEL_KEYS.match(str(k)) and isinstance(v, str) and _human(v)
                ]
                if len(keys) == 1 and texts and texts[0] != keys[0]:
                    pairs.setdefault(keys[0], texts[0].strip().rstrip(":"))
            if len(pairs) >= 2:
                for k, v in pairs.items():
                    out.setdefault(k, v)
            for x in node[:50]:
                if isinstance(x, dict | list):
                    visit(x, depth + 1)
        elif isinstance(node, dict):
            for v in node.values():
                if isinstance(v, dict | list):
                    visit(v, depth + 1)

    visit(obj, 0)
    return out


def script_labels(html: str) -> dict[str, str]:
    """``definition_labels`` of every JSON value a page's scripts hold (``{}`` when none)."""
    from prefect_autodata.agents.induction.dom import parse

    root = parse(html)
    return definition_labels(page_json(root)) if root is not None else {}


def _show(v: Any) -> Any:
    if isinstance(v, list):
        return ", ".join(str(x) for x in v if x is not None and not isinstance(x, dict | list))
    if isinstance(v, dict) or isinstance(v, bool):
        return None
    return v


def record_sets(data: dict[str, Any]) -> list[tuple[str, Any]]:
    """``(full JSONPath, RecordSet)`` of every record array in the page JSON, largest first."""
    from prefect_autodata.agents.induction.jsonsets import json_record_sets

    out: list[tuple[str, Any]] = []
    for top, value in data.items():
        if not isinstance(value, dict | list):
            continue
        try:
            sets = json_record_sets(value)
        except (ValueError, TypeError, RecursionError):
            continue
        for rs in sets:
            if rs.count >= MIN_RECORDS and rs.rows:
                out.append((_full_path(top, rs.path), rs))
    out.sort(key=lambda x: -x[1].count)
    return out


def candidates(rs: Any, labels: dict[str, str]) -> list[Candidate]:
    """One candidate per key of a record set: the display label when the page gives one, else the key."""
    out = []
    for k in rs.keys:
        key_label = str(rs.labels.get(k, k))
        shown = labels.get(str(k))
        raw = [r.get(k) for r in rs.rows]
        if any(isinstance(v, dict) for v in raw if v is not None):
            continue
        values = [_show(v) for v in raw]
        rule: dict[str, Any] = {"jsonpath": _field_path(rs, k), "transforms": []}
        proj = list_projection(raw)
        if proj is not None and proj != "[*]":  # objects with a name each: the names, joined
            rule["jsonpath"] += proj.replace("[*].", "[*]['", 1) + "']"
            rule["join"] = ", "
            values = [project(v, proj) for v in raw]
        elif any(isinstance(v, list) for v in raw):
            rule["transforms"].append({"op": "join", "sep": ", "})
        if all(isinstance(v, str) for v in raw if v is not None):
            rule["transforms"].append({"op": "collapse_whitespace"})
        names = {normalise(key_label.split(".")[-1]), normalise(shown or "")}
        distinct = _distinct_text(values)
        out.append(
            Candidate(
                label=shown or key_label,
                values=values,
                rule=rule,
                origin="embedded",
                identity=bool(names & IDENTITY) and distinct,
                anchor=0.9,
                aliases=[key_label] if shown else [],
            )
        )
    if out and not any(c.identity for c in out):
        # No key names the record: its first distinct text key is its name (JSON records lead with it).
        first = next((c for c in out if _distinct_text(c.values)), None)
        if first is not None:
            first.identity = True
    return out


def _distinct_text(values: list[Any]) -> bool:
    vals = [str(v) for v in values if v not in (None, "")]
    return (
        len(vals) == len(values) >= MIN_RECORDS
        and len(set(vals)) == len(vals)
        and dominant_type(vals)[0] == "text"
    )


def _key_columns(requested: list[str], m: dict[str, Any]) -> list[str]:
    """The record's name when its values are distinct and never empty, else every always-filled column."""
    ident = [
        r for r in requested if r in m and m[r].candidate.identity and _distinct_text(m[r].candidate.values)
    ]
    if ident:
        return ident[:1]
    full = [r for r in requested if r in m and m[r].candidate.fill == 1.0]
    return full or [r for r in requested if r in m]


def induce_page(
    url: str,
    root: Any,
    requested: list[str],
    *,
    name: str,
    description: str = "",
    entity: str | None = None,
    plan: Any = None,
    max_sets: int = 4,
) -> list[Any]:
    """Specs reading the record arrays a page's scripts hold (``rules.Built``, unranked)."""
    from prefect_autodata.agents.induction.rules import Built, typed_rule

    data = page_json(root)
    if not data or not requested:
        return []
    sets = record_sets(data)
    if not sets:
        return []
    built = []
    pages = pagination.detect(root, url)
    for path, rs in sets[:max_sets]:
        keys = {str(k) for k in rs.keys}
        labels = column_labels(data, keys)
        cands = candidates(rs, labels)
        m = assign(requested, cands, entity=entity, aliases=aliases_of(plan))
        if not m:
            continue
        # a field the request filters on but does not land (the cuisine of "where the food is
        # Steak, Seafood") is read too, so the row filter compares on it
        extra = filter_matches(plan, requested, m, cands)
        both = {**extra, **m}
        rules = [typed_rule(r, both[r].candidate) for r in [*requested, *extra] if r in both]
        cols = [ColumnSpec(name=r.name, type=r.type) for r in rules]
        code, _notes = row_filter(plan, [c.name for c in cols]) if plan is not None else (None, [])
        try:
            spec = CollectorSpec(
                name=name,
                description=description,
                primary_key=_key_columns(requested, m),
                columns=cols,
                sources=[
                    Source(
                        name="records",
                        kind="html",
                        request=RequestTemplate(url=url),
                        records=Selector(jsonpath=path),
                        fields=rules,
                        pagination=pages,
                    )
                ],
                python=PythonStep(code=code) if code else None,
                politeness=FetchPolicy(rate_limit_per_host=0, concurrency_per_host=8),
            )
        except ValueError:
            continue
        built.append(Built(spec, m, rs.count, url, f"script JSON {path} ({rs.count} records)"))
    return built
