"""Engineering agent: writes CollectorSpecs from the research squad's Evidence by wrapper induction.

Offline it never asks a model: for every observed data endpoint and every HTML table it builds a
candidate spec (record path, field mapping, URL template bound to the plan's scope, pagination,
headers the endpoint needs) and ranks the candidates — an API first, HTML second — by how many
target fields they cover and how well their row count fits the request. The test agent dry-runs the
best one; ``repair`` turns the test report into the next candidate (bounded, history-aware).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from prefect_autodata.agents.candidates import CandidateSpec
from prefect_autodata.agents.evidence import Endpoint, Evidence, Page
from prefect_autodata.agents.evidence import read_cached as _read
from prefect_autodata.agents.induction import jsonrec
from prefect_autodata.agents.induction import scripts as js
from prefect_autodata.agents.induction.jsonsets import json_record_sets
from prefect_autodata.agents.induction.recordset import RecordSet
from prefect_autodata.agents.induction.rules import field_units, loose_columns, retyped, unique_key
from prefect_autodata.agents.naming import default_name
from prefect_autodata.agents.offline import discovery as d
from prefect_autodata.agents.offline.induction import (
    FieldMatch,
    GeneralRequest,
    TableCandidate,
    choose_primary_key,
    generalise_url,
    html_tables,
    match_fields,
    next_link_selector,
    norm,
    value_kind,
    year_filter_code,
)
from prefect_autodata.agents.offline.instruction import ParsedInstruction
from prefect_autodata.runtime.policy import FetchPolicy
from prefect_autodata.runtime.spec import (
    CollectorSpec,
    ColumnSpec,
    DetailSpec,
    FieldRule,
    Pagination,
    ParamSpec,
    PythonStep,
    RequestTemplate,
    Selector,
    Source,
    Transform,
)

Reader = Callable[[str], bytes | str]
BROWSER_UA = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36"
)


# ------------------------------------------------------------------------------------------- helpers


def _fetch(fetcher: Any, url: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    """GET for probes: (status, body); network errors are status 0 (the caller tries something else)."""
    if fetcher is None:
        return 0, ""
    try:
        resp = fetcher.get(url, headers=headers or None)
    except Exception as exc:
        status = getattr(exc, "status", None) or 0
        return int(status), ""
    return getattr(resp, "status", 200) or 200, resp.text


def _columns(targets: list[str], rules: list[FieldRule]) -> list[ColumnSpec]:
    types = {r.name: r.type for r in rules}
    return [ColumnSpec(name=t, type=types.get(t, "string")) for t in targets if t in types]


def _expected_rows(plan: ParsedInstruction) -> int | None:
    return plan.expected_size.rows if plan.expected_size else None


def _size_fit(rows: int | None, plan: ParsedInstruction) -> float:
    """1 when a single request already returns about what the request needs; lower when far off."""
    exp = _expected_rows(plan)
    if not exp or not rows:
        return 0.5
    r = rows / exp
    return 1.0 if 0.5 <= r <= 2.0 else 0.6 if 0.1 <= r <= 10 else 0.3


# ------------------------------------------------------------------------------------------- JSON


def _pick_record_set(
    sets: list[RecordSet],
    targets: list[str],
    plan: ParsedInstruction,
    hint: str | None,
    names: dict[str, str] | None = None,
):
    best = None
    for rs in sets:
        m = match_records(targets, rs, plan, names)
        hinted = bool(hint) and _hint_matches(hint, rs.path)
        key = (len(m), sum(x.score for x in m.values()), hinted, rs.count)
        if best is None or key > best[0]:
            best = (key, rs, m)
    return (best[1], best[2]) if best else (None, {})


def _leaf(label: str) -> str:
    return re.split(r"[.\[\]]+", label.strip(".[]"))[-1] if label else label


def match_records(
    targets: list[str], rs: RecordSet, plan: ParsedInstruction | None, names: dict[str, str] | None = None
) -> dict[str, FieldMatch]:
    """Targets → record keys: by the key's own name first, then by its last path part and the meaning
    the documentation gives it (``vhc`` documented as "Make & model" answers ``model``).

    Why: APIs abbreviate and nest keys (``eng``, ``specs.engine``); their documentation says what each
    key means. A key serves one target; a meaning match whose values clearly contradict the
    target's type (text for a price) is not taken.
    """
    from prefect_autodata.agents.induction import matching as mt
    from prefect_autodata.agents.induction.requested import entity_noun

    m = match_fields(targets, rs.keys, rs.rows, plan, labels=rs.labels)
    names = names or {}
    ent = mt.normalise(entity_noun(plan) or "") if plan is not None else ""
    ent_labels = {ent, f"{ent} name", f"{ent} title"} if ent else set()
    used = {x.key for x in m.values()}
    scored: list[tuple[float, str, str | int, str]] = []
    weak: list[tuple[float, str, str | int, str]] = []
    for k in rs.keys:
        if k in used:
            continue
        label = str(rs.labels.get(k, k))
        variants = [label, _leaf(label), str(k), _leaf(str(k))]  # a display label hides the key's own name
        for n in (label, str(k), _leaf(label)):
            if n in names:
                variants.append(names[n])
        values = [r.get(k) for r in rs.rows[:50]]
        if not any(v not in (None, "") for v in values):
            continue
        for t in targets:
            if t in m:
                continue
            ns = max(mt.name_score(t, v) for v in variants if v)
            if (
                ent_labels
                and mt.normalise(t) in mt.IDENTITY
                and any(mt.normalise(v) in ent_labels for v in variants if v)
            ):
                ns = max(ns, 0.85)  # "Restaurant" documents the record's own name
            why = next((v for v in variants if v and mt.name_score(t, v) == ns), label)
            if ns < 0.75 or (ns < 0.85 and mt.type_agreement(t, values) <= -1.0):
                if ns >= 0.4 and mt.type_agreement(t, values) >= 0:
                    weak.append((ns, t, k, why))
                continue  # a strong name keeps values of another shape ("Date Posted: 05/20/2011")
            scored.append((ns, t, k, why))
    for ns, t, k, why in sorted(scored, key=lambda x: (-x[0], targets.index(x[1]))):
        if t in m or k in used:
            continue
        one = match_fields([t], [k], rs.rows, plan, labels={k: t}).get(t)
        if one is None:  # the simple value kinds miss the format ("04 January 2018"): read the values
            vals = [r.get(k) for r in rs.rows[:50]]
            kind, share = mt.dominant_type(vals)
            if kind == "date" and share >= 0.9:
                one = FieldMatch(
                    target=t, key=k, score=ns, type="date", transforms=[Transform(op="parse_date")]
                )
            elif ns >= 0.85 or mt.type_agreement(t, vals) >= 0:
                one = FieldMatch(target=t, key=k, score=ns)
            else:
                continue
        m[t] = one.model_copy(update={"score": round(0.9 * ns, 3), "why": f"{label!r} ({why})"})
        used.add(k)
    # weak name evidence, one to one: a target no key named strongly takes the free key whose name still
    # points at it (an abbreviation "rtn" -> rating, a broader word "location" -> city) when no other open
    # target points at that key as surely and the values do not contradict the target's type
    for ns, t, k, why in sorted(weak, key=lambda x: (-x[0], targets.index(x[1]))):
        if t in m or k in used:
            continue
        if any(t2 != t and t2 not in m and k2 == k and ns2 >= ns - 0.05 for ns2, t2, k2, _ in weak):
            continue  # a key two open targets claim alike answers neither
        one = match_fields([t], [k], rs.rows, plan, labels={k: t}).get(t) or FieldMatch(
            target=t, key=k, score=ns
        )
        m[t] = one.model_copy(update={"score": round(0.7 * ns, 3), "why": f"{str(k)!r} ({why}, weak)"})
        used.add(k)
    named = _record_name_key(targets, rs, m, used, names, ent)
    if named is not None:
        t, k, why = named
        m[t] = FieldMatch(target=t, key=k, score=0.5, why=f"{str(k)!r} ({why})")
    return m


def _record_name_key(
    targets: list[str],
    rs: RecordSet,
    m: dict[str, FieldMatch],
    used: set,
    names: dict[str, str],
    ent: str,
) -> tuple[str, str | int, str] | None:
    """The record's own name for a field no key answered: a name word ("title"), the entity's word
    ("movie" of movies) or a first field a list names its records by ("model, price, engine") takes the
    free key documented or labelled as the entity or a name ("vehicle" documented "Car", ``tl`` "Name"),
    else the first free key of short text different in every record (never numbers, money or prose).
    Only when no matched key already reads as the record's name."""
    from prefect_autodata.agents.induction import matching as mt
    from prefect_autodata.agents.induction import values as vt

    ents = {ent, ent.split()[-1], *mt.lx.synonyms(ent.split()[-1])} - {""} if ent else set()
    ident = mt.IDENTITY | ents | {f"{e} name" for e in ents} | {f"{e} title" for e in ents}

    def texts(k: str | int) -> list[str]:
        label = str(rs.labels.get(k, k))
        out = [label, _leaf(label), str(k), _leaf(str(k))]
        return out + [names[n] for n in (label, str(k), _leaf(label)) if n in names]

    if any(mt.normalise(x) in ident for f in m.values() if f.key is not None for x in texts(f.key)):
        return None
    wanted = next(
        (
            t
            for t in targets
            if t not in m
            and (
                mt.normalise(t) in ident
                or (t == targets[0] and mt.expected_type(t) == "title" and len(targets) > 1)
            )
        ),
        None,
    )
    if wanted is None:
        return None
    free = [k for k in rs.keys if k not in used]
    for k in free:
        if any(mt.normalise(x) in ident for x in texts(k) if x):
            return wanted, k, "labelled as the record's name"
    for k in free:
        vals = [r.get(k) for r in rs.rows[:50]]
        p = vt.profile(vals)
        if p.filled < 3 or p.filled < 0.9 * p.n or p.distinct < p.filled:
            continue
        # a product's or a car's name carries digits ("2011 Kia Sedona", "Coolpix P7000 10 MP ..."); a
        # name is a phrase, not prose: no sentences, no final full stop
        if p.share_of(("text", "name", "long")) < 0.9 or p.currency > 0 or p.avg_words > 24:
            continue
        if p.avg_words > 8 and _prose_share(vals) > 0.2:
            continue
        return wanted, k, "one different text per record, not prose: the record's name"
    return None


_SENTENCE = re.compile(r"[.!?]\s+[A-Z]|[a-z]{2}[.!?]\s*$")


def _prose_share(values: list[Any]) -> float:
    """Share of the filled values written as sentences (a description, a review), not as a name."""
    texts = [str(v) for v in values if v not in (None, "")]
    return sum(1 for t in texts if _SENTENCE.search(t)) / max(1, len(texts))


_TOTAL_NAME = re.compile(
    r"^(?:total|tot|tl|num|n)?(?:count|cnt|records|recs|results|items|rows|hits|entries)$|^total$|^total(?!.*page)",
    re.I,
)
_CURSOR_NAME = re.compile(r"ne?xt|cursor|token|tkn|after|continu", re.I)


def _body_values(obj: Any, skip: str, depth: int = 0, path: str = "$"):
    """(JSONPath, key, value) of the scalars of a body outside the record container ``skip``."""
    if depth > 3 or not isinstance(obj, dict):
        return
    for k, v in obj.items():
        kp = f"{path}.{k}" if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", str(k)) else f"{path}['{k}']"
        if skip and (skip == kp or skip.startswith(kp + "[") or skip.startswith(kp + ".*")):
            continue
        if isinstance(v, dict):
            yield from _body_values(v, skip, depth + 1, kp)
        elif not isinstance(v, list):
            yield kp, str(k), v


def _docs_pagination(
    names: dict[str, str], obj: Any, rs: RecordSet, example_url: str, gr: GeneralRequest
) -> Pagination | None:
    """Paging as the documentation describes it (parameter, first page, the largest page size it
    allows), with the next cursor and the total found in the sample body.

    Why: an API documentation says "page number (first page is 0)", "records per response, 1 to
    500" or "pass the previous response's cursor"; the example URL shows none of that, and guessing
    (page 1, size 1000) skips a page or gets the request refused.
    """
    from prefect_autodata.agents.induction import apidocs

    query = dict(_query(example_url))
    pg = apidocs.paging_from_docs(names, set(query))
    if pg.kind is None:
        return None
    container = rs.path.split("[")[0].removesuffix(".*")
    total = None
    cursor = None
    for path, key, v in _body_values(obj, container):
        # the body may hand the next cursor back under the parameter's own name ("next" in, "next" out)
        if key == pg.size_param or (key == pg.param and pg.kind != "cursor"):
            continue
        if (
            total is None
            and isinstance(v, int)
            and not isinstance(v, bool)
            and v >= rs.count
            and (_TOTAL_NAME.match(norm(key)) or re.search(r"\btotal\b", names.get(key, ""), re.I))
        ):
            total = path
        named = _CURSOR_NAME.search(key) or (key == pg.param and pg.kind == "cursor")
        if cursor is None and isinstance(v, str) and v.strip() and named:
            if not v.startswith(("http://", "https://", "/", "?")):
                cursor = path
    size = pg.max_size if pg.max_size and 1 <= pg.max_size <= 10000 else None
    if pg.size_param:
        if size is None and str(query.get(pg.size_param, "")).isdigit():
            size = int(query[pg.size_param])
        size = size or pg.default_size
        if size:
            for k in list(gr.query):
                if k == pg.size_param:
                    del gr.query[k]
            gr.query[pg.size_param] = str(size)
    tot = Selector(jsonpath=total) if total else None
    if pg.kind == "cursor":
        if cursor is None:
            return None
        gr.query.pop(pg.param, None)
        return Pagination(kind="cursor", param=pg.param, next=Selector(jsonpath=cursor), total=tot)
    gr.query.pop(pg.param, None)
    if pg.kind == "page":
        v = query.get(pg.param, "")
        start = pg.first if pg.first is not None else int(v) if v.isdigit() else 1
        return Pagination(kind="page", param=pg.param, start=start, total=tot, max_pages=1000)
    step = size or (rs.count if rs.count else 100)
    return Pagination(
        kind="offset", param=pg.param, start=0, size=step, size_param=pg.size_param, total=tot, max_pages=1000
    )


def _docs_filters(
    names: dict[str, str],
    plan: ParsedInstruction,
    rs: RecordSet,
    example_url: str,
    gr: GeneralRequest,
    fetcher: Any,
    headers: dict[str, str],
) -> None:
    """The request's filters sent as the parameters the documentation names for them (``?team=STL``).

    A value is kept only when the server answers it with records (the site may spell the value
    another way); the row filter stays in the spec either way, so a parameter never widens the rows.
    """
    from urllib.parse import urlencode

    from prefect_autodata.agents.induction.filters import param_filters
    from prefect_autodata.runtime.extract import Document, select_records

    pg = gr.pagination
    taken = {k for k in (getattr(pg, "param", None), getattr(pg, "size_param", None)) if k}
    taken |= {k for k, v in gr.query.items() if "{secret" in str(v)} | set(gr.params)
    for param, values in param_filters(plan, names, taken):
        for v in values:
            q = [(k, val) for k, val in _query(example_url) if k != param] + [(param, v)]
            status, body = _fetch(fetcher, example_url.split("?")[0] + "?" + urlencode(q), headers)
            try:
                doc = Document("json", jsonrec.loads(body), example_url) if 200 <= status < 300 else None
                found = select_records(doc, Selector(jsonpath=rs.path)) if doc is not None else []
            except Exception:  # an error body or another shape: this value is not the site's spelling
                found = []
            if any(isinstance(r, dict | list) and r for r in found):
                gr.query[param] = v
                break


def _docs_names(
    endpoint: Endpoint, evidence: Evidence, reader: Any, prefer: str = "definition"
) -> dict[str, str]:
    """What the documentation page an endpoint was found on says its names mean (``apidocs``);
    ``prefer="sentence"``: a parameter's own sentence over the key table's row of the same name."""
    from prefect_autodata.agents.induction import apidocs

    src = endpoint.source_page
    path = urlsplit(endpoint.example_url).path.rstrip("/")
    out: dict[str, str] = {}
    # the page the endpoint was found on first, then any documentation of the site that names its path
    # (an OpenAPI document found later, the HTML reference beside it)
    pages = sorted(evidence.candidates, key=lambda p: not (src and src in (p.url, p.final_url)))
    for p in pages:
        own = bool(src) and src in (p.url, p.final_url)
        if p.kind not in ("html", "json") or (not own and not _same_host(p.final_url or p.url, endpoint)):
            continue
        body = _read(reader, p.cache_id)
        if not body:
            continue
        if p.kind == "html":
            if not own and (not path or path not in body):
                continue
            names = apidocs.documented_names(body, prefer=prefer)  # type: ignore[arg-type]
        else:
            try:
                obj = json.loads(body)
            except ValueError:
                continue
            paths = {urlsplit(u).path.rstrip("/") for u in apidocs.read_openapi(obj, p.final_url).endpoints}
            if not own and path not in paths:
                continue
            names = apidocs.openapi_names(obj)
        for k, v in names.items():
            out.setdefault(k, v)
    return out


def _same_host(url: str, endpoint: Endpoint) -> bool:
    return urlsplit(url).netloc == urlsplit(endpoint.example_url).netloc


def _hint_matches(hint: str, path: str) -> bool:
    parts = [p for p in re.split(r"[.\[\]*$']+", hint) if p]
    return parts == [p for p in re.split(r"[.\[\]*$']+", path) if p]


def _param_fields(
    missing: list[str], gr: GeneralRequest, matches: dict[str, FieldMatch]
) -> dict[str, FieldMatch]:
    """Targets no record key carries but a request parameter does (the ticker asked for, the season)."""
    out = {}
    for t in missing:
        nt = norm(t)
        for p, role in gr.roles.items():
            if any(m.from_param == p for m in [*matches.values(), *out.values()]):
                continue
            if role == "ticker" and nt in ("ticker", "symbol"):
                out[t] = FieldMatch(target=t, from_param=p, score=0.8, why=f"request parameter {p!r}")
            elif role in ("season", "year") and nt in ("year", "season"):
                tr = [Transform(op="regex", pattern=r"^(\d{4})"), Transform(op="integer")]
                out[t] = FieldMatch(
                    target=t, from_param=p, score=0.7, type="integer", transforms=tr, why=f"parameter {p!r}"
                )
    return out


def _link_header_pages(fetcher: Any, endpoint: Endpoint, headers: dict[str, str]) -> bool:
    """Whether the endpoint's response names a next page in its ``Link`` header (the body says nothing)."""
    from prefect_autodata.agents.induction.pagination import link_header_next

    try:
        resp = fetcher.get(endpoint.example_url, headers=headers or None)
    except Exception:  # a probe: an endpoint that fails here is judged by the dry run
        return False
    return link_header_next(getattr(resp, "headers", None)) is not None


def _needs_browser_headers(fetcher: Any, url: str, referer: str | None) -> dict[str, str] | None:
    """Probe an endpoint: {} when a plain request works, browser-like headers when only those work."""
    status, body = _fetch(fetcher, url)
    if 200 <= status < 300 and body:
        return {}
    if status in (401, 403) and referer:
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(referer))
        hdrs = {"Referer": referer, "Origin": origin, "User-Agent": BROWSER_UA}
        status2, body2 = _fetch(fetcher, url, hdrs)
        if 200 <= status2 < 300 and body2:
            return {"Referer": referer, "Origin": origin}
    return None


def induce_json(
    endpoint: Endpoint,
    plan: ParsedInstruction,
    *,
    evidence: Evidence,
    reader: Reader | Any | None = None,
    fetcher: Any = None,
    siblings: list[Endpoint] | None = None,
    ticker_param: ParamSpec | None = None,
    known_entities: set[str] | None = None,
    prefix_sources: list[Source] | None = None,
) -> CandidateSpec | None:
    """A candidate spec reading one JSON endpoint (several example URLs of the same shape: ``siblings``)."""
    targets = list(plan.field_names)
    body = _read(reader, endpoint.sample_cache_id)
    headers = dict(endpoint.headers)
    if body is None and fetcher is not None:
        hdrs = _needs_browser_headers(fetcher, endpoint.example_url, endpoint.source_page)
        if hdrs is None:
            return None
        headers.update(hdrs)
        _, body = _fetch(
            fetcher, endpoint.example_url, {**hdrs, **({"User-Agent": BROWSER_UA} if hdrs else {})}
        )
    if not body:
        return None
    try:
        obj = jsonrec.loads(body)
    except ValueError:
        return None
    sets = json_record_sets(obj)
    page_html = js.source_html(endpoint.source_page, evidence, reader)
    js.label_sets(sets, page_html)  # display labels the page's column definitions give the keys
    names = _docs_names(endpoint, evidence, reader)
    rs, matches = _pick_record_set(sets, targets, plan, endpoint.record_path_hint, names)
    if rs is None:
        return None
    if (tm := js.title_match(targets, rs, matches, page_html)) is not None:  # the page's title column
        matches[tm[0]] = FieldMatch(target=tm[0], key=tm[1], score=0.6, why=tm[2])
    total_key = None
    if isinstance(obj, dict):
        total_key = next(
            (k for k, v in obj.items() if norm(k) in ("total", "totalcount") and isinstance(v, int)), None
        )
    examples = [endpoint.example_url, *[s.example_url for s in siblings or []]]
    gr = generalise_url(
        examples,
        plan,
        page_size=1000 if total_key else None,
        total_key=total_key,
        ticker_param=ticker_param,
        known_entities=known_entities or set(),
    )
    documented = _docs_pagination(names, obj, rs, endpoint.example_url, gr)
    if documented is not None:
        gr.pagination = documented
    if names and fetcher is not None:
        said = _docs_names(endpoint, evidence, reader, prefer="sentence")  # "Only seasons of this team"
        _docs_filters(said, plan, rs, endpoint.example_url, gr, fetcher, headers)
    if gr.pagination is None:
        nxt = d.json_next_link(obj, endpoint.example_url)
        if nxt:  # the body hands out the next page's URL: follow it
            gr.pagination = Pagination(kind="next_link", next=Selector(jsonpath=nxt), max_pages=1000)
    if gr.pagination is None and fetcher is not None and _link_header_pages(fetcher, endpoint, headers):
        gr.pagination = Pagination(kind="link_header", max_pages=1000)  # Link: <...>; rel="next"
    if endpoint.found_via in ("script", "xhr"):  # a raised page size the endpoint refuses: the call's own
        gr.query.update(js.refused_sizes(endpoint, gr.query, fetcher, headers))
    if gr.pagination is None and endpoint.found_via in ("script", "xhr") and not gr.params:
        # an endpoint a page's script pages through (load more, infinite scroll): probe how
        pag, extra, notes = js.paginate(endpoint, obj, rs.path, fetcher, headers, page_html)
        gr.pagination = pag
        gr.query.update(extra)
        gr.notes += notes
    missing = [t for t in targets if t not in matches]
    matches.update(_param_fields(missing, gr, matches))
    ordered = {t: matches[t] for t in targets if t in matches}
    units = field_units(plan)
    rules = []
    for m in ordered.values():
        if m.from_param is not None:
            rules.append(
                FieldRule(name=m.target, from_param=m.from_param, type=m.type, transforms=m.transforms)
            )
        elif (proj := jsonrec.list_projection([r.get(m.key) for r in rs.rows[:50]])) is not None:
            # an array of names or of objects with a name ("authors": [{"name": ...}]): the names, joined
            rules.append(FieldRule(name=m.target, jsonpath=rs.jsonpath_for(m.key) + proj, join=", "))
        else:
            rule = FieldRule(
                name=m.target, jsonpath=rs.jsonpath_for(m.key), type=m.type, transforms=m.transforms
            )  # "15 mpg", "PT1H20M" read as the HTML rules read them
            rules.append(retyped(rule, [r.get(m.key) for r in rs.rows[:50]], units.get(m.target)))
    scope = _scope_keys(plan, targets, {k: rs.labels.get(k, k) for k in rs.keys}, ordered)
    rules += [FieldRule(name=f, jsonpath=rs.jsonpath_for(k)) for f, k in scope.items()]  # filtered on
    missing = [t for t in targets if t not in ordered]
    detail = None
    if missing:
        detail, detail_rules, detail_url_rule = _detail_join(
            endpoint, missing, plan, evidence=evidence, reader=reader, fetcher=fetcher, gr=gr, headers=headers
        )
        if detail is not None:
            rules.append(detail_url_rule)
            missing = [t for t in missing if t not in {r.name for r in detail_rules}]
    if not rules:
        return None
    sample_rows = [{t: _sample_value(r, m, rs) for t, m in ordered.items()} for r in rs.rows]
    detail_names = [r.name for r in (detail.fields if detail else [])]
    pk = choose_primary_key(
        [t for t in targets if t in ordered and ordered[t].from_param is None],
        sample_rows,
        extra=detail_names,
    )
    own = [t for t in targets if t in ordered and ordered[t].from_param is None]
    if _unlanded_id(rs, {ordered[t].key for t in own}) and not detail_names:
        # The source names each record by an id the request does not land: no landed field is known
        # to be unique (a director makes several films), so the key is every field always present.
        pk = [t for t in own if all(r.get(t) not in (None, "") for r in sample_rows)] or pk
    if not detail_names:  # never a key one answer repeats (a team over its seasons)
        pk = unique_key(pk, own, sample_rows, loose_columns(rules))
    tick = [t for t, m in ordered.items() if m.from_param and gr.roles.get(m.from_param) == "ticker"]
    pk = tick[:1] + pk
    pk = list(dict.fromkeys(pk))
    python = None
    year_col = next((t for t in ordered if norm(t) in ("year", "season")), None)
    if gr.notes and year_col and plan.kind != "stock":
        code = year_filter_code(year_col, plan)
        python = PythonStep(code=code) if code else None
    if python is None and not gr.server_filters:
        python = _row_filter(plan, [t for t in targets if t in ordered] + list(scope))
    source = Source(
        name="records",
        kind="json",
        request=RequestTemplate(url=gr.url, params=gr.query, headers=headers),
        params=gr.params,
        pagination=gr.pagination,
        records=Selector(jsonpath=rs.path),
        fields=rules,
        detail=detail,
    )
    politeness = FetchPolicy(rate_limit_per_host=0, concurrency_per_host=8)
    if headers:
        politeness = politeness.model_copy(update={"user_agent": BROWSER_UA})
    sources = [*(prefix_sources or []), source]
    spec = CollectorSpec(
        name=default_name(plan),
        description=plan.text,
        base_url=gr.base_url,
        primary_key=pk,
        columns=_columns(targets, rules + (detail.fields if detail else [])),
        sources=sources,
        python=python,
        politeness=politeness,
    )
    covered = [t for t in targets if t not in missing]
    requests = 1
    for p in gr.params.values():
        requests *= len(p.values) if p.values is not None else 1
    per_request = rs.count
    if python is not None and year_col and ordered[year_col].key is not None:
        years = set(plan.years)
        ys = [_year_of(r.get(ordered[year_col].key)) for r in rs.rows]
        per_request = round(rs.count * sum(y in years for y in ys) / max(1, len(ys))) if years else rs.count
    rows_estimate = per_request * requests
    own = len([t for t in covered if t in ordered])
    joined = len(covered) - own
    score = 2.0 + (own + 0.5 * joined) / max(1, len(targets)) + 0.3 * _size_fit(rows_estimate, plan)
    why = (
        f"JSON records at {rs.path} ({rs.count} in the sample) of {endpoint.example_url}; "
        f"{len(covered)}/{len(targets)} fields mapped"
        + (f"; missing {', '.join(missing)}" if missing else "")
        + ("; " + "; ".join(gr.notes) if gr.notes else "")
    )
    return CandidateSpec(
        spec=spec,
        method="api",
        source_url=endpoint.example_url,
        score=round(score, 4),
        covered=covered,
        missing=missing,
        rationale=why,
        sample_rows=rs.count,
    )


def _scope_keys(
    plan: Any, targets: list[str], labels: dict[Any, Any], ordered: dict[str, Any]
) -> dict[str, Any]:
    """Source keys of the fields the request filters on but does not land (``filters.scope_keys``)."""
    from prefect_autodata.agents.induction.filters import scope_keys

    taken = {m.key for m in ordered.values() if getattr(m, "key", None) is not None}
    return scope_keys(plan, targets, {k: str(v) for k, v in labels.items()}, taken)


def _row_filter(plan: ParsedInstruction, columns: list[str]) -> PythonStep | None:
    """The request's filters and time scope as a row filter, when the request URL takes none of them."""
    from prefect_autodata.agents.induction.filters import row_filter

    if not columns or not (getattr(plan, "filters", None) or getattr(plan, "time_scope", None)):
        return None
    code, _notes = row_filter(plan, columns)
    return PythonStep(code=code) if code else None


def _unlanded_id(rs: RecordSet, landed: set[Any]) -> bool:
    """True when the records carry an id key (``id``, ``uid``, ``movieId``) unique in the sample that no
    landed field reads."""
    for k in rs.keys:
        if k in landed:
            continue
        label = str(rs.labels.get(k, k))
        if not re.search(r"(?:^|[^a-z])(?:u?id|key)$|(?<=[a-z])(?:Id|ID)$", label) and label.lower() != "id":
            continue
        vals = [r.get(k) for r in rs.rows]
        if (
            len(vals) >= 2
            and all(v not in (None, "") for v in vals)
            and len(set(map(str, vals))) == len(vals)
        ):
            return True
    return False


def induce_csv(
    endpoint: Endpoint, plan: ParsedInstruction, *, evidence: Evidence, reader: Reader | Any | None = None
) -> CandidateSpec | None:
    """A candidate spec reading a CSV file (a download page's link): columns by their header.

    The header names the columns; the page the file was linked from often says what each means
    (a "Columns" table), which the matcher reads as the column's documented meaning.
    """
    import csv
    import io

    from prefect_autodata.runtime.csvtext import comma_separated

    targets = list(plan.field_names)
    body = _read(reader, endpoint.sample_cache_id)
    if not body or not targets:
        return None
    rows = list(csv.DictReader(io.StringIO(comma_separated(body))))  # read as the runtime reads it
    if not rows:
        return None
    headers = [h for h in rows[0] if h is not None and "'" not in h]
    rs = RecordSet(
        path="$", keys=list(headers), labels={h: h for h in headers}, rows=rows[:200], count=len(rows)
    )
    names = _docs_names(endpoint, evidence, reader)
    matches = match_records(targets, rs, plan, names)
    ordered = {t: matches[t] for t in targets if t in matches}
    if not ordered:
        return None
    units = field_units(plan)
    rules = [
        retyped(
            FieldRule(
                name=t,
                jsonpath=f"$['{m.key}']",
                type=m.type,
                transforms=[Transform(op="strip"), *m.transforms],
            ),
            [r.get(m.key) for r in rs.rows[:50]],
            units.get(t),
        )
        for t, m in ordered.items()
    ]
    scope = _scope_keys(plan, targets, rs.labels, ordered)
    rules += [
        FieldRule(name=f, jsonpath=f"$['{k}']", transforms=[Transform(op="strip")]) for f, k in scope.items()
    ]
    covered = list(ordered)
    missing = [t for t in targets if t not in ordered]
    sample = [{t: r.get(m.key) for t, m in ordered.items()} for r in rs.rows]
    pk = choose_primary_key(covered, sample)
    if _unlanded_id(rs, {m.key for m in ordered.values()}):
        pk = [t for t in covered if all(r.get(t) not in (None, "") for r in sample)] or pk
    pk = unique_key(pk, covered, sample, loose_columns(rules))  # never a key the file repeats
    parts = urlsplit(endpoint.example_url)
    base = f"{parts.scheme}://{parts.netloc}"
    path = endpoint.example_url[len(base) :]
    source = Source(
        name="records",
        kind="csv",
        request=RequestTemplate(url="{base_url}" + path.replace("{", "%7B").replace("}", "%7D")),
        fields=rules,
    )
    spec = CollectorSpec(
        name=default_name(plan),
        description=plan.text,
        base_url=base,
        primary_key=pk,
        columns=_columns(targets, rules),
        sources=[source],
        python=_row_filter(plan, covered + list(scope)),
        politeness=FetchPolicy(rate_limit_per_host=0, concurrency_per_host=4),
    )
    score = 2.0 + len(covered) / max(1, len(targets)) + 0.3 * _size_fit(rs.count, plan)
    return CandidateSpec(
        spec=spec,
        method="bulk",
        source_url=endpoint.example_url,
        score=round(score, 4),
        covered=covered,
        missing=missing,
        rationale=(
            f"CSV file {endpoint.example_url} ({rs.count} rows); {len(covered)}/{len(targets)} fields by header"
            + (f"; missing {', '.join(missing)}" if missing else "")
        ),
        sample_rows=rs.count,
    )


def _year_of(v: Any) -> int | None:
    m = re.match(r"\s*(\d{4})", str(v)) if v is not None else None
    return int(m.group(1)) if m else None


def _sample_value(row: dict, m: FieldMatch, rs: RecordSet) -> Any:
    if m.key is None:
        return None
    return row.get(m.key)


def _detail_join(
    endpoint: Endpoint,
    missing: list[str],
    plan: ParsedInstruction,
    *,
    evidence: Evidence,
    reader: Any,
    fetcher: Any,
    gr: GeneralRequest,
    headers: dict[str, str],
) -> tuple[DetailSpec | None, list[FieldRule], FieldRule | None]:
    """Missing fields from a one-record endpoint keyed by the same entity parameter (list → detail)."""
    entity = {p: s for p, s in gr.params.items() if gr.roles.get(p) == "entity"}
    ex_q = dict(_query(endpoint.example_url))
    for other in evidence.endpoints:
        if (
            other.example_url == endpoint.example_url
            or urlsplit(other.url_template).path == urlsplit(endpoint.url_template).path
        ):
            continue
        oq = dict(_query(other.example_url))
        shared = [k for k, v in oq.items() if ex_q.get(k) == v and re.fullmatch(r"\d{3,}", v or "")]
        if not shared:
            continue
        key = shared[0]
        body = _read(reader, other.sample_cache_id)
        if body is None and fetcher is not None:
            hdrs = {**headers, **({"User-Agent": BROWSER_UA} if headers else {})}
            _, body = _fetch(fetcher, other.example_url, hdrs)
        try:
            obj = json.loads(body or "")
        except ValueError:
            continue
        sets = [s for s in json_record_sets(obj) if s.count == 1]
        best = None
        for s in sets:
            m = match_fields(missing, s.keys, s.rows, plan, labels=s.labels)
            if m and (best is None or len(m) > len(best[1])):
                best = (s, m)
        if best is None:
            continue
        s, m = best
        base_path = s.path[: -len("[*]")] + "[0]"
        rules = []
        for t in missing:
            if t in m:
                fm = m[t]
                sub = f"[{int(fm.key)}]" if s.positional else f".{fm.key}"
                rules.append(
                    FieldRule(name=t, jsonpath=base_path + sub, type=fm.type, transforms=fm.transforms)
                )
        param_name = next((p for p, spec in entity.items() if key.lower() in p), None)
        param_name = param_name or next(
            (p for p, spec in gr.params.items() if gr.query.get(key) == "{" + p + "}"), None
        )
        other_url = other.example_url.split("?")[0]
        other_q = "&".join(f"{k}={'{ID}' if k == key else v}" for k, v in _query(other.example_url))
        if param_name is None:
            # The entity id is a constant in the list request: the detail URL is constant too.
            url_rule = FieldRule(name="detail_url", const=other.example_url, internal=True)
        else:
            prefix, suffix = (other_url + "?" + other_q).split("{ID}", 1)
            url_rule = FieldRule(
                name="detail_url",
                internal=True,
                from_param=param_name,
                transforms=[Transform(op="prefix", value=prefix), Transform(op="suffix", value=suffix)]
                if suffix
                else [Transform(op="prefix", value=prefix)],
            )
        return DetailSpec(url_field="detail_url", kind="json", fields=rules), rules, url_rule
    return None, [], None


def _query(url: str) -> list[tuple[str, str]]:
    from urllib.parse import parse_qsl

    return parse_qsl(urlsplit(url).query, keep_blank_values=True)


# ------------------------------------------------------------------------------------------- HTML


def induce_html_table(
    page: Page,
    plan: ParsedInstruction,
    *,
    reader: Reader | Any | None = None,
) -> CandidateSpec | None:
    """A candidate spec reading the best-matching table of an HTML page (following 'next' links)."""
    body = _read(reader, page.cache_id)
    if not body:
        return None
    targets = list(plan.field_names)
    best = None
    for tc in html_tables(body):
        m = match_fields(targets, list(tc.labels), tc.rows, plan, labels=tc.labels)
        if m and (best is None or (len(m), tc.count) > (len(best[1]), best[0].count)):
            best = (tc, m)
    if best is None:
        return None
    tc, matches = best
    rules = [_table_rule(tc, matches[t]) for t in targets if t in matches]
    covered = [r.name for r in rules]
    scope = _scope_keys(plan, targets, dict(tc.labels), matches)
    rules += [_table_rule(tc, FieldMatch(target=f, key=k, score=1.0)) for f, k in scope.items()]
    missing = [t for t in targets if t not in covered]
    sample = [{t: r.get(matches[t].key) for t in covered} for r in tc.rows]
    url = page.final_url or page.url
    parts = urlsplit(url)
    base = f"{parts.scheme}://{parts.netloc}"
    path = url[len(base) :]
    nxt = next_link_selector(body)
    more = None
    if not nxt:  # numbered pages, offsets, a pager showing the current page as text: what the page shows
        from prefect_autodata.agents.induction import pagination as pages_of
        from prefect_autodata.agents.induction.dom import parse as parse_html

        root = parse_html(body)
        more = pages_of.detect(root, url) if root is not None else None
    spec = CollectorSpec(
        name=default_name(plan),
        description=plan.text,
        base_url=base,
        primary_key=choose_primary_key(covered, sample),
        columns=_columns(targets, rules),
        sources=[
            Source(
                name="table",
                kind="browser" if page.rendered else "html",
                request=RequestTemplate(url="{base_url}" + path.replace("{", "%7B").replace("}", "%7D")),
                records=Selector(xpath=tc.records_xpath),
                fields=rules,
                pagination=Pagination(kind="next_link", next=Selector(css=nxt)) if nxt else more,
            )
        ],
        python=_row_filter(plan, covered + list(scope)),  # a table shows all; the user asked for some
        politeness=FetchPolicy(rate_limit_per_host=0, concurrency_per_host=4),
    )
    score = 1.0 + len(covered) / max(1, len(targets)) + 0.3 * _size_fit(tc.count, plan)
    return CandidateSpec(
        spec=spec,
        method="browser" if page.rendered else "html",
        source_url=url,
        score=round(score, 4),
        covered=covered,
        missing=missing,
        rationale=f"HTML table {tc.records_xpath} ({tc.count} rows) on {url}; {len(covered)}/{len(targets)} fields",
        sample_rows=tc.count,
    )


def _table_rule(tc: TableCandidate, m: FieldMatch) -> FieldRule:
    tr = [Transform(op="strip"), *m.transforms]
    kind = value_kind([r.get(m.key) for r in tc.rows])
    if kind in ("integer", "year", "float") and not any(t.op in ("number", "integer") for t in tr):
        tr.append(Transform(op="number" if kind == "float" else "integer"))
    return FieldRule(name=m.target, xpath=tc.field_xpath(int(m.key)), type=m.type, transforms=tr)


def constituents_source(page: Page, reader: Any, *, min_rows: int = 50) -> tuple[Source, set[str]] | None:
    """A list page's table of ticker symbols as a non-emitting source (its rows feed the price requests)."""
    body = _read(reader, page.cache_id)
    if not body:
        return None
    for tc in html_tables(body, min_rows=min_rows, max_rows=5000):
        for col, label in tc.labels.items():
            vals = [r.get(col, "") for r in tc.rows]
            if norm(label) in ("symbol", "ticker", "tickersymbol") or (
                vals and all(re.fullmatch(r"[A-Z]{1,5}([.-][A-Z]{1,2})?", v) for v in vals)
            ):
                url = page.final_url or page.url
                parts = urlsplit(url)
                dotted = any("." in v for v in vals)
                tr = [Transform(op="strip")]
                if dotted:
                    tr.append(Transform(op="replace", pattern=r"\.", value="-"))
                src = Source(
                    name="constituents",
                    kind="html",
                    request=RequestTemplate(url=url),
                    records=Selector(xpath=tc.records_xpath),
                    fields=[FieldRule(name="symbol", xpath=tc.field_xpath(col), transforms=tr)],
                    emit=False,
                )
                _ = parts
                return src, {v.lower() for v in vals}
    return None


# ------------------------------------------------------------------------------------------- induce


def induce(
    evidence: Evidence,
    plan: ParsedInstruction | None = None,
    *,
    reader: Reader | Any | None = None,
    fetcher: Any = None,
    name: str | None = None,
) -> list[CandidateSpec]:
    """Every candidate spec the evidence supports, best first (API > HTML at equal coverage).

    ``reader`` returns a cached body by ID (an ``ArtifactCache`` or a function); ``fetcher`` is used
    only for small probes (headers an endpoint needs, a detail record) when a body is not cached.
    """
    plan = plan or evidence.plan
    out: list[CandidateSpec] = []
    ticker_param = None
    known: set[str] = set()
    prefix: list[Source] = []
    if plan.kind == "stock" and plan.all_sp500:
        for page in evidence.ok_pages():
            if page.kind == "html":
                got = constituents_source(page, reader)
                if got:
                    src, known = got
                    prefix = [src]
                    ticker_param = ParamSpec(from_source="constituents", field="symbol")
                    break
    usable = [e for e in evidence.endpoints if e.kind == "json" and e.status in (None, 200)]
    usable = _retarget_entities(usable, evidence, plan, reader)
    usable = [_retarget_params(e, evidence, plan) for e in usable]
    seen_ev = evidence.model_copy(update={"endpoints": usable})  # detail joins look at retargeted URLs
    groups = _group_endpoints(_about_plan(usable, plan, reader, evidence.candidates))
    for eps in groups:
        if plan.kind == "stock" and plan.tickers and not plan.all_sp500:
            eps = [_retarget_ticker(e, plan, fetcher) for e in eps]
        try:
            cand = induce_json(
                eps[0],
                plan,
                evidence=seen_ev,
                reader=reader,
                fetcher=fetcher,
                siblings=eps[1:] if len(plan.teams) + len(plan.players) > 1 else [],
                ticker_param=ticker_param,
                known_entities=known,
                prefix_sources=prefix,
            )
        except ValueError:
            cand = None
        if cand is not None:
            out.append(cand)
    files = [e for e in evidence.endpoints if e.kind == "csv" and e.status in (None, 200)]
    for e in sorted(files, key=lambda e: -(e.record_count or 0)):
        cand = induce_csv(e, plan, evidence=evidence, reader=reader)
        if cand is not None:
            out.append(cand)
    for page in evidence.ok_pages():
        if page.kind != "html":
            continue
        try:
            cand = induce_html_table(page, plan, reader=reader)
        except ValueError:
            cand = None
        if cand is not None:
            out.append(cand)
    from prefect_autodata.agents.offline.listings import induce_listings  # list -> detail pages
    from prefect_autodata.agents.ranking import covered_by_site

    # a search finds several sites: each site's own best gates its further candidates (one site that
    # covers everything leaves the other sites to be induced and measured against it)
    best_of = covered_by_site(out, evidence)
    out += [
        c
        for c in induce_listings(evidence, plan, reader=reader, fetcher=fetcher)
        if len(c.covered) > best_of(c)
    ]
    best_of = covered_by_site(out, evidence)
    if best_of(None) < len(plan.field_names):  # only where the specialised inducers left fields uncovered
        out += [c for c in _generic(evidence, plan, reader, fetcher, name) if len(c.covered) > best_of(c)]
    if name:
        out = [c.model_copy(update={"spec": c.spec.model_copy(update={"name": name})}) for c in out]
    out.sort(key=lambda c: -c.score)
    return out


def _generic(evidence: Evidence, plan: ParsedInstruction, reader: Any, fetcher: Any, name: str | None):
    """Kind-agnostic candidates (``agents/induction``): tables and record regions for any field names."""
    from prefect_autodata.agents.induction import induce as induce_generic
    from prefect_autodata.agents.induction.requested import entity_noun

    if not plan.field_names:
        return []
    return induce_generic(
        evidence,
        list(plan.field_names),
        name=name or default_name(plan),
        description=plan.text,
        entity=entity_noun(plan),
        plan=plan,
        reader=reader,
        fetcher=fetcher,
    )


def _retarget_entities(
    endpoints: list[Endpoint], evidence: Evidence, plan: ParsedInstruction, reader: Any
) -> list[Endpoint]:
    """Endpoints seen for a neighbour (the first team of a list) rewritten for the requested ones.

    The id that tells the neighbour's page URL apart from the requested entity's link (same URL
    family, anchor text = the requested name) is swapped in the endpoint URL. Endpoints whose
    sample already names a requested entity are kept as they are.
    """
    names = [t.name for t in plan.teams] + list(plan.players)
    if not names:
        return endpoints
    wanted: dict[str, str] = {}
    for page in evidence.candidates:
        for link in page.links:
            text = " ".join(link.text.split()).lower()
            for n in names:
                if text == n.lower() and n not in wanted:
                    wanted[n] = link.url
    if len(wanted) < len(names):  # link lists in Page are capped: read the cached bodies too
        for page in evidence.candidates:
            body = _read(reader, page.cache_id) if page.kind == "html" else None
            if not body or not any(n.lower() in body.lower() for n in names if n not in wanted):
                continue
            from prefect_autodata.agents.induction.dom import parse

            root = parse(body)
            if root is None:  # an unparsable page has no links to offer
                continue
            root.make_links_absolute(page.final_url or page.url)
            for a in root.iter("a"):
                text = " ".join(a.text_content().split()).lower()
                for n in names:
                    if text == n.lower() and n not in wanted and a.get("href"):
                        wanted[n] = a.get("href")
    if not wanted:
        return endpoints
    own_pages = {
        p.final_url for p in evidence.candidates if any(n.lower() in (p.title or "").lower() for n in names)
    }
    out: list[Endpoint] = []
    for e in endpoints:
        body = _read(reader, e.sample_cache_id)
        own = body is not None and any(n.lower() in body.lower() for n in names)
        if own or e.source_page in own_pages:
            out.append(e)
            if len(names) == 1:
                continue  # one of several requested entities: the others get copies below
        src = e.source_page or ""
        old_ids = re.findall(r"\d{3,}", urlsplit(src).path)
        made = False
        for url in wanted.values():
            new_ids = re.findall(r"\d{3,}", urlsplit(url).path)
            same_shape = re.sub(r"\d{3,}", "N", urlsplit(url).path) == re.sub(
                r"\d{3,}", "N", urlsplit(src).path
            )
            if not (old_ids and same_shape and len(new_ids) == len(old_ids)):
                continue
            ex = e.example_url
            for a, b in zip(old_ids, new_ids, strict=True):
                ex = re.sub(rf"(?<!\d){a}(?!\d)", b, ex)
            if ex != e.example_url:
                out.append(
                    e.model_copy(update={"example_url": ex, "url_template": ex, "sample_cache_id": None})
                )
                made = True
        if not made and e not in out:
            out.append(e)
    return out


def _retarget_params(e: Endpoint, evidence: Evidence, plan: ParsedInstruction) -> Endpoint:
    """Query values the requested team's own page uses (``team=21,ts``) replace a league-wide example's.

    The team page is the visited page whose title or heading names the team; a parameter counts only
    when every data link on that page agrees on its value and the endpoint has the same parameter.
    """
    if len(plan.teams) != 1:
        return e
    team = plan.teams[0].name.lower()
    words = team.split()
    keys = [" ".join(words[i:]) for i in range(len(words))]  # "houston astros", "astros"
    pages = [
        p
        for p in evidence.candidates
        if any(k in f"{p.title} {p.text_excerpt[:200]}".lower() for k in keys) and p.links
    ]
    if not pages:
        return e
    ex = dict(_query(e.example_url))
    seen: dict[str, set[str]] = {}
    for p in pages:
        for link in p.links:
            for k, v in _query(link.url):
                if k in ex:
                    seen.setdefault(k, set()).add(v)
    swap = {k: next(iter(v)) for k, v in seen.items() if len(v) == 1 and next(iter(v)) != ex[k]}
    swap = {k: v for k, v in swap.items() if not re.fullmatch(r"(18|19|20)\d{2}", v)}
    if not swap:
        return e
    from urllib.parse import urlencode

    parts = urlsplit(e.example_url)
    q = urlencode([(k, swap.get(k, v)) for k, v in _query(e.example_url)], safe=",")
    url = parts._replace(query=q).geturl()
    return e.model_copy(update={"example_url": url, "url_template": url, "sample_cache_id": None})


def _about_plan(
    endpoints: list[Endpoint], plan: ParsedInstruction, reader: Any, evidence_pages: list[Page] = ()
) -> list[Endpoint]:
    """Drop endpoints whose sample names none of the requested teams/players when others do.

    A team or player page often links its neighbours' data too; the sample body says whose rows
    an endpoint returns, so the one for the Bulls is kept and the Hawks' is not.
    """
    names = [t.name.lower() for t in plan.teams] + [p.lower() for p in plan.players]
    if not names:
        return endpoints
    # The entity's own page (its title names it) calls endpoints keyed by id only (career rows): theirs.
    own_pages = {p.final_url for p in evidence_pages if any(n in (p.title or "").lower() for n in names)}
    verdict: dict[str, bool | None] = {}
    for e in endpoints:
        body = _read(reader, e.sample_cache_id)
        verdict[e.example_url] = (
            True
            if e.source_page in own_pages
            else None
            if body is None
            else any(n in body.lower() for n in names)
        )
    if not any(v for v in verdict.values()):
        return endpoints
    return [e for e in endpoints if verdict[e.example_url] is not False]


_TICKERISH = re.compile(r"^[A-Za-z]{1,5}(?:[.-][A-Za-z]{1,2})?$")


def _retarget_ticker(e: Endpoint, plan: ParsedInstruction, fetcher: Any) -> Endpoint:
    """An example URL for another ticker than the requested one: find the ticker segment by probing.

    The segment is the one whose replacement by a requested ticker still answers 2xx with a body,
    and whose replacement by a nonsense symbol does not (so a constant path word is never taken).
    """
    segs = urlsplit(e.example_url).path.split("/")
    wanted = {t.lower() for t in plan.tickers}
    if any(s.lower() in wanted for s in segs) or fetcher is None:
        return e
    for i, seg in enumerate(segs):
        if not _TICKERISH.match(seg):
            continue
        tk = plan.tickers[0]
        tk = tk.lower() if seg.islower() else tk
        swap = list(segs)
        swap[i] = tk
        url = e.example_url.replace("/".join(segs), "/".join(swap), 1)
        bogus = e.example_url.replace("/".join(segs), "/".join([*segs[:i], "zzzzq", *segs[i + 1 :]]), 1)
        ok, _ = _fetch(fetcher, url, e.headers)
        bad, _ = _fetch(fetcher, bogus, e.headers)
        if 200 <= ok < 300 and not 200 <= bad < 300:
            return e.model_copy(update={"example_url": url, "sample_cache_id": None})
    return e


def _group_endpoints(endpoints: list[Endpoint]) -> list[list[Endpoint]]:
    """Endpoints of the same shape (path with digits collapsed + parameter names) form one candidate."""
    groups: dict[str, list[Endpoint]] = {}
    seen: set[str] = set()
    for e in endpoints:
        if e.example_url in seen:
            continue
        seen.add(e.example_url)
        p = urlsplit(e.example_url)
        shape = (
            re.sub(r"\d+", "N", p.path) + "?" + ",".join(sorted(k.lower() for k, _ in _query(e.example_url)))
        )
        groups.setdefault(shape, []).append(e)
    return list(groups.values())


# ------------------------------------------------------------------------------------------- repair


def repair_spec(spec: CollectorSpec, issues: list[Any]) -> tuple[CollectorSpec, str] | None:
    """One local repair a dry run's issues call for, or None (the next candidate should be tried).

    A column whose values do not cast to the induced type is kept as text (its transforms that
    assumed the type are dropped) rather than losing the rows; other failures (no records, fetch
    errors) are not local and are answered by another candidate.
    """
    for issue in issues:
        # A key that repeats over rows that differ (a team's several seasons, the season unrequested):
        # the whole landed row is the key, so no record is merged away.
        wide = [c.name for c in spec.columns]
        if getattr(issue, "kind", "") == "duplicate_key" and wide and wide != list(spec.primary_key):
            data = {**spec.model_dump(mode="json", exclude_none=True), "primary_key": wide}
            return CollectorSpec.model_validate(data), f"primary key widened to {wide}"
    dropped = drop_wrong_rules(spec, issues)
    if dropped is not None:
        return dropped
    for issue in issues:
        fld = getattr(issue, "field", None)
        if getattr(issue, "kind", "") != "type_mismatch" or not fld:
            continue
        data = spec.model_dump(mode="json", exclude_none=True)
        changed = False
        for s in data["sources"]:
            for f in [*s["fields"], *((s.get("detail") or {}).get("fields") or [])]:
                if f["name"] == fld and f.get("type", "string") != "string":
                    f["type"] = "string"
                    f["transforms"] = [
                        t for t in f.get("transforms", []) if t["op"] in ("strip", "regex", "replace")
                    ]
                    changed = True
        for c in data.get("columns", []):
            if c["name"] == fld:
                c["type"] = "string"
        if changed:
            return (
                CollectorSpec.model_validate(data),
                f"column {fld!r} kept as text (values are not all {issue.message.split(' are not ')[-1].split(' ')[0]})",
            )
    return None


#: test findings that say a rule reads another slot than its field's (``agents.test``): no local edit
#: makes such a rule right, so it is dropped and the field is reported ``not produced``
WRONG_RULE_KINDS = ("wrong_values", "same_values", "header_mismatch")


def drop_wrong_rules(spec: CollectorSpec, issues: list[Any]) -> tuple[CollectorSpec, str] | None:
    """``spec`` without the rules the test found reading another slot than their field's (values that
    contradict the name, the same values as another field, a cell under another field's header), the
    fields kept as declared columns (``not produced``) and out of the primary key; None when none."""
    wrong = list(
        dict.fromkeys(getattr(i, "field", None) for i in issues if getattr(i, "kind", "") in WRONG_RULE_KINDS)
    )
    wrong = [f for f in wrong if f]
    if not wrong:
        return None
    data = spec.model_dump(mode="json", exclude_none=True)
    gone: list[str] = []
    for s in data["sources"]:
        for holder in (s, s.get("detail") or {}):
            if "fields" in holder:
                keep = [f for f in holder["fields"] if f["name"] not in wrong or f.get("internal")]
                gone += [f["name"] for f in holder["fields"] if f not in keep]
                holder["fields"] = keep
    if not gone:
        return None
    if data.get("columns"):
        have = {c["name"] for c in data["columns"]}
        data["columns"] += [{"name": f} for f in dict.fromkeys(gone) if f not in have]
    pk = [k for k in data.get("primary_key", []) if k not in gone]
    if pk or not data.get("primary_key"):
        data["primary_key"] = pk
    try:
        out = CollectorSpec.model_validate(data)
    except Exception:  # a spec the runtime would not take (a source left without fields)
        return None
    return out, "rules reading another slot dropped: " + ", ".join(dict.fromkeys(gone))


#: test findings whose derived spec (``agents.test.derive``) is the repair: cells read under other fields'
#: headers recounted, summary and header rows left out of the records, numbers read out of their text,
#: reference marks removed, dates written as text parsed
DERIVED_REPAIR_KINDS = (
    "header_mismatch",
    "summary_rows",
    "header_rows",
    "number_in_text",
    "footnote_marks",
    "date_text",
)


def _derived(current: CollectorSpec, last: Any, issues: list[Any]) -> tuple[CollectorSpec, str] | None:
    """The spec the test derived from its findings (in ``last.derived``) for ``DERIVED_REPAIR_KINDS``:
    the rules moved to the columns their headers name, or rows that are no records left out; tried
    before dropping rules."""
    if not any(getattr(i, "kind", "") in DERIVED_REPAIR_KINDS for i in issues):
        return None
    for why, spec in getattr(last, "derived", None) or []:
        if spec.model_dump(exclude_none=True) != current.model_dump(exclude_none=True):
            return spec, why
    return None


def repair(
    current: CollectorSpec,
    last: Any,
    *,
    history: list[Any] | None = None,
    candidates: list[CandidateSpec] | None = None,
) -> CandidateSpec | None:
    """The engineering agent's answer to a failed test: a repaired candidate, or None for 'next candidate'.

    ``last`` is the latest test report (anything with ``issues``); ``history`` the earlier ones — a
    failure signature seen twice means the local repair did not help, so no further local repair.
    """
    issues = list(getattr(last, "issues", []) or [])
    sig = tuple(sorted(f"{getattr(i, 'kind', '')}:{getattr(i, 'field', '')}" for i in issues))
    earlier = [
        tuple(
            sorted(
                f"{getattr(i, 'kind', '')}:{getattr(i, 'field', '')}" for i in getattr(h, "issues", []) or []
            )
        )
        for h in (history or [])[:-1]
    ]
    if sig in earlier:
        return None
    fixed = _derived(current, last, issues) or repair_spec(current, issues)
    if fixed is None:
        return None
    spec, why = fixed
    base = next((c for c in candidates or [] if c.spec.name == current.name), None)
    return CandidateSpec(
        spec=spec,
        method=base.method if base else "api",
        source_url=base.source_url if base else "",
        score=base.score if base else 0.0,
        covered=base.covered if base else [],
        missing=base.missing if base else [],
        rationale=f"repaired: {why}",
    )
