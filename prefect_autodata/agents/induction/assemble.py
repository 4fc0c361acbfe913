"""Spec assembly: requested field names + the pages the web agent saw → ranked candidate CollectorSpecs.

For every HTML page of the evidence it tries the page's tables (one record per row) and its record
regions (one record per repeated item, list → detail when the items link to pages of their own).
The requested fields are matched against everything the listing and the sampled detail pages offer
(``matching.assign``); each candidate spec says which requested fields it covers, by which rule,
and why. Nothing here depends on a site, a record kind or a field vocabulary: fields are names.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from urllib.parse import urljoin

from prefect_autodata.agents.evidence import read_cached as _read
from prefect_autodata.agents.induction import (
    attrs,
    detaillinks,
    grid,
    hubs,
    pagination,
    regions,
    rowgroups,
    sections,
    tables,
    textlines,
    vertical,
)
from prefect_autodata.agents.induction import values as vt
from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.agents.induction.filters import row_filter
from prefect_autodata.agents.induction.matching import (
    Candidate,
    Match,
    aliases_of,
    assign,
    dominant_type,
    expected_type,
)
from prefect_autodata.agents.induction.rules import Built as _Built
from prefect_autodata.agents.induction.rules import field_units, no_value_marks, typed_rule
from prefect_autodata.agents.induction.scoped import filter_matches
from prefect_autodata.agents.induction.selectors import detail_candidates
from prefect_autodata.runtime.policy import FetchPolicy
from prefect_autodata.runtime.spec import (
    CollectorSpec,
    ColumnSpec,
    DetailSpec,
    FieldRule,
    PythonStep,
    RequestTemplate,
    Selector,
    Source,
    Transform,
)

DETAIL_SAMPLES = 4
MAX_DETAIL_BYTES = 400_000  # a "detail" page this large is another listing: not sampled
DETAIL_URL = "detail_url"


def _get(fetcher: Any, url: str) -> str | None:
    if fetcher is None:
        return None
    try:
        resp = fetcher.get(url)
    except Exception:  # a detail page that does not answer is simply not a sample
        return None
    return getattr(resp, "text", None)


def _spread(items: list[Any], k: int) -> list[Any]:
    if len(items) <= k:
        return list(items)
    step = (len(items) - 1) / (k - 1)
    return [items[round(i * step)] for i in range(k)]


def _table_candidates(t: tables.Table) -> list[Candidate]:
    out = []
    for i, (label, values) in enumerate(zip(t.labels, t.columns, strict=True)):
        distinct = len(set(values)) == len(values)
        kind, _ = dominant_type(values)
        out.append(
            regions.cell_candidate(
                label,
                values,
                t.cell_xpath(i),
                anchor=0.8 if label else 0.3,
                identity=(i == 0 and distinct and kind == "text"),
                aliases=list(t.aliases.get(i, [])),
            )
        )
        out[-1].position = i
    return out


def _listing_key(full: list[str], matches: dict[str, Match]) -> list[str]:
    """The never-empty listing columns of ``full`` when they tell every listed record apart; [] else.

    Why: a column read on a few sampled detail pages is "never empty" on four pages, not on the
    others (the one patent without an assignee); in the key, its null drops that record."""
    listed = [c for c in full if matches[c].candidate.where == "listing"]
    if not listed or len(listed) == len(full):
        return []
    values = [matches[c].candidate.values for c in listed]
    n = len(values[0])
    if n < 2 or any(len(v) != n for v in values):
        return []
    rows = {tuple(" ".join(str(v[i]).split()).casefold() for v in values) for i in range(n)}
    return listed if len(rows) == n else []


def _spec(
    *,
    name: str,
    description: str,
    url: str,
    records_xpath: str,
    requested: list[str],
    matches: dict[str, Match],
    detail_link: Candidate | None,
    pages: pagination.Pagination | None,
    plan: Any = None,
) -> tuple[CollectorSpec, list[str]]:
    """The spec and the row filter's notes (a filter on a column it does not produce is named)."""
    units = field_units(plan)
    rules = [
        typed_rule(r, matches[r].candidate, units.get(r))
        for r in requested
        if r in matches and matches[r].candidate.where == "listing"
    ]
    detail_rules = [
        typed_rule(r, matches[r].candidate, units.get(r))
        for r in requested
        if r in matches and matches[r].candidate.where == "detail"
    ]
    detail = None
    if detail_rules and detail_link is not None:
        rules.append(
            FieldRule(
                name=DETAIL_URL,
                xpath=detail_link.rule["xpath"],
                attr="href",
                internal=True,
                transforms=[Transform(op="strip"), Transform(op="absolute_url")],
            )
        )
        detail = DetailSpec(url_field=DETAIL_URL, kind="html", fields=detail_rules)
    if not [r for r in rules if not r.internal] and detail is None:
        raise ValueError("no field rules")
    if not rules:
        raise ValueError("no listing rules")
    produced = {r.name: r for r in [*rules, *(detail.fields if detail else [])]}
    cols = [ColumnSpec(name=r, type=produced[r].type) for r in requested if r in produced]
    # A key only when the listing itself shows it unique over a fair sample (ten records: one page of
    # six team seasons shows six distinct teams, the next page repeats them); detail-page values are
    # too few to tell (two books may share a title), and a wrong key quarantines good rows.
    key = next((r for r in requested if r in matches and matches[r].candidate.identity), None)
    key_cand = matches[key].candidate if key else None
    key_vals = [v for v in (key_cand.values if key_cand else []) if v]
    unique = key_cand is not None and key_cand.where == "listing" and len(key_vals) >= 10
    # One page of a paged listing shows 25 distinct teams; the next page repeats them (other seasons).
    unique = unique and pages is None
    pk = [key] if unique and len(set(key_vals)) == len(key_cand.values) else []
    # No verified key: a record is the requested tuple, over the columns the sample never leaves
    # empty (a null key column drops the rows that lack it: the story without a domain).
    full = [
        c.name
        for c in cols
        if c.name in matches
        and all(v not in (None, "") for v in matches[c.name].candidate.values)
        and not no_value_marks(matches[c.name].candidate.values)  # "N/A" lands null: no key
    ]
    pk = pk or _listing_key(full, matches) or full or [c.name for c in cols]
    source = Source(
        name="records",
        kind="html",
        request=RequestTemplate(url=url),
        records=Selector(xpath=records_xpath),
        fields=rules,
        detail=detail,
        pagination=pages,
    )
    # a time scope restricts dates: a column of counts ("weeks released" 1, 2, 8) is none, whatever
    # the plan typed it
    undated = frozenset(
        c.name
        for c in cols
        if c.name in matches
        and (p := vt.profile(matches[c.name].candidate.values)).kind in vt.NUMERIC - {"year"}
        and p.share >= 0.8
    )
    code, notes = row_filter(plan, [c.name for c in cols], undated) if plan is not None else (None, [])
    spec = CollectorSpec(
        name=name,
        description=description,
        primary_key=pk,
        columns=cols,
        sources=[source],
        python=PythonStep(code=code) if code else None,
        politeness=FetchPolicy(rate_limit_per_host=0, concurrency_per_host=8),
    )
    return spec, notes


def _cached_urls(evidence: Any) -> dict[str, str]:
    """The cache id of every HTML page the evidence holds, by its URL and its final URL (built once
    per induction: every region's detail samples look their pages up here)."""
    seen: dict[str, str] = {}
    for p in getattr(evidence, "candidates", []) or []:
        if p.kind == "html" and p.cache_id:
            seen[p.final_url] = p.cache_id
            seen[p.url] = p.cache_id
    return seen


def _detail_samples(
    region: regions.Region,
    page_url: str,
    cached: dict[str, str],
    reader: Any,
    fetcher: Any,
    bodies: dict[str, str | None] | None = None,
) -> list[tuple[str, Any, str]]:
    """Up to DETAIL_SAMPLES of the region's detail pages, spread over the list (cached bodies first)."""
    bodies = {} if bodies is None else bodies
    urls = [urljoin(page_url, v) for v in region.detail_link.values if v] if region.detail_link else []
    urls = list(dict.fromkeys(urls))
    out = []
    for u in _spread(urls, DETAIL_SAMPLES):
        if u not in bodies:
            html = _read(reader, cached.get(u)) if u in cached else None
            bodies[u] = html or _get(fetcher, u)
        html = bodies[u]
        if not html or len(html) > MAX_DETAIL_BYTES:
            continue
        root = parse(html)
        if root is not None:
            out.append((u, root, html))
    return out


def _kind_named(plan: Any, cands: list[Candidate]) -> list[Candidate]:
    """The candidates, their unlabelled columns named by the plan's record kind where it can tell
    them apart by their values alone (wins and losses add up to the games: ``name_columns`` of the
    kind). A kind with no such knowledge, or no kind, leaves them as they are."""
    from prefect_autodata.agents import kinds

    kind = kinds.get(getattr(plan, "kind", None) if isinstance(getattr(plan, "kind", None), str) else None)
    namer = getattr(kind, "name_columns", None)
    bare = [i for i, c in enumerate(cands) if c.label is None and not c.texts()]
    if namer is None or len(bare) < 2:
        return cands
    got = namer([cands[i].values for i in bare])
    out = list(cands)
    for k, name in got.items():
        c = cands[bare[k]]
        out[bare[k]] = replace(
            c, label=name, told=True, notes=[*c.notes, f"named {name} by the {kind.name} kind's consistency"]
        )
    return out


def _last_left(requested: list[str], cands: list[Candidate], m: dict[str, Match]) -> dict[str, Match]:
    """Text lines label nothing, so their pieces are told apart by type alone. When every requested
    field but one found its piece and exactly one filled piece is left, that piece is the field's,
    unless its values contradict what the field's name implies (a price among words): the one
    field and the one column left over ("motor" beside the model, price and mileage). So too in a
    table whose every column serves a field: the one value it shows only in an attribute (a logo's
    alt, an icon's title) is the one field no header named ("airline" beside the flight number)."""
    missing = [r for r in requested if r not in m]
    if len(missing) != 1 or not m:
        return m
    used = {id(x.candidate) for x in m.values()}
    used_rules = {repr(x.candidate.rule) for x in m.values()}
    # the pieces of a cell read whole, and the cell of a piece read, are that cell's
    wholes = {id(x.candidate.whole) for x in m.values() if x.candidate.whole is not None}
    left = [
        c
        for c in cands
        if id(c) not in used
        and id(c) not in wholes
        and not (c.whole is not None and (id(c.whole) in used or id(c.whole) in wholes))
        and repr(c.rule) not in used_rules
        and sum(1 for v in c.values if v is not None and str(v).strip()) >= 0.5 * max(len(c.values), 1)
        and len({str(v).strip() for v in c.values if v is not None and str(v).strip()}) > 1
    ]
    if len(left) != 1 or left[0].label:
        return m
    r, c = missing[0], left[0]
    fam = expected_type(r)
    if fam is not None and vt.fit(fam, vt.profile(c.values)) < 0:
        return m
    why = "the one requested field and the one value (a piece of the lines, an attribute) no other field took"
    return {
        q: (m[q] if q in m else Match(q, c, 0.45, why, "elimination")) for q in requested if q in m or q == r
    }


def induce_page(
    url: str,
    html: str,
    requested: list[str],
    *,
    name: str,
    description: str = "",
    entity: str | None = None,
    evidence: Any = None,
    reader: Any = None,
    fetcher: Any = None,
    max_regions: int = 3,
    bodies: dict[str, str | None] | None = None,
    plan: Any = None,
    nested: bool = False,
    cached: dict[str, str] | None = None,
) -> list[_Built]:
    """Every spec one page supports (its tables, its best regions, its index bars), unranked."""
    root = parse(html)
    if root is None or not requested:
        return []
    bodies = {} if bodies is None else bodies
    cached = _cached_urls(evidence) if cached is None else cached
    built: list[_Built] = []
    pages = pagination.detect(root, url)

    def add(
        records_xpath: str,
        m: dict[str, Match],
        rows: int,
        why: str,
        detail_link: Any = None,
        cands: list[Candidate] | None = None,
    ) -> None:
        """One spec from a record rule and its matches (none when nothing matched or it does not build)."""
        if not m:
            return
        # A field the request filters on but does not land (the year of "seasons for 1996 to 1997")
        # is read too when a listing column no requested field took is labelled as it: the row
        # filter compares on it (the candidate's coverage still counts the requested fields only).
        # Read from a detail page too when the records link one (a filter on the year only detail
        # pages show): the row filter then runs on the joined rows, so only the rows asked for land.
        extra = filter_matches(plan, requested, m, cands or [], detail=detail_link is not None)
        try:
            spec, notes = _spec(
                name=name,
                description=description,
                url=url,
                records_xpath=records_xpath,
                requested=[*requested, *extra],
                matches={**extra, **m},
                detail_link=detail_link,
                pages=pages,
                plan=plan,
            )
        except ValueError:
            return
        built.append(_Built(spec, m, rows, url, "; ".join([why, *notes])))

    grouped = rowgroups.find(root, url)  # records over two or more sibling rows (title row + subtext row)
    for t in tables.tables(root):
        if t.header_column or t.rows < 2 or any(t.element is g.table for g in grouped):
            continue
        cands = tables.with_parts(t, _table_candidates(t))  # + the pieces of compound cells
        if not t.transposed:
            cands += attrs.candidates(t.body)  # values a row shows only in title/alt (a logo's airline)
        m = _last_left(
            requested,
            cands,
            assign(requested, cands, entity=entity, aliases=aliases_of(plan), units=field_units(plan)),
        )
        detail_link = dl = None
        if t.links and len(m) < len(requested):
            # the first link column whose targets answer (an image's file page 404s, the name's article)
            options = [
                Candidate(
                    label=None, values=t.links[i], rule={"xpath": t.cell_xpath(i) + "//a"}, origin="link"
                )
                for i in sorted(t.links, key=lambda i: i != 0)
            ]

            def sample_of(dl: Candidate, xp: str = t.records_xpath) -> list[tuple[str, Any, str]]:
                fake = regions.Region(parent=None, items=[], records_xpath=xp, score=0, detail_link=dl)
                return _detail_samples(fake, url, cached, reader, fetcher, bodies)

            dl, samples = detaillinks.first_answering(options, sample_of, url, DETAIL_SAMPLES)
        if dl is not None:
            extra = detail_candidates(samples)
            m = assign(
                requested, cands + extra, entity=entity, aliases=aliases_of(plan), units=field_units(plan)
            )
            detail_link = dl
        add(
            t.records_xpath,
            m,
            t.rows,
            f"table {t.records_xpath} ({t.rows} rows)",
            detail_link,
            cands + (extra if detail_link is not None else []),
        )
    # records over sibling rows (title row + subtext row), records that are each a vertical table,
    # records that are the cells of a grid (a talk per time slot x room)
    for rg in [*grouped, *vertical.find(root, url), *grid.find(root, url)]:
        fake = regions.Region(
            parent=None, items=[], records_xpath=rg.records_xpath, score=0, detail_link=rg.detail_link
        )
        extra = (
            detail_candidates(_detail_samples(fake, url, cached, reader, fetcher, bodies))
            if rg.detail_link
            else []
        )
        m = assign(
            requested, rg.candidates + extra, entity=entity, aliases=aliases_of(plan), units=field_units(plan)
        )
        add(
            rg.records_xpath,
            m,
            rg.count,
            f"{rg.why} {rg.records_xpath} ({rg.count})",
            rg.detail_link,
            rg.candidates + extra,
        )
    for g in sections.groups(root, url):  # records grouped under headings: the heading is a field
        m = assign(requested, g.candidates, entity=entity, aliases=aliases_of(plan), units=field_units(plan))
        add(g.records_xpath, m, g.rows, f"sections {g.records_xpath} under <{g.heading}>", None, g.candidates)
    for lb in textlines.blocks(root):  # records as separator-delimited text lines
        lc = _kind_named(plan, textlines.candidates(lb))
        m = _last_left(
            requested,
            lc,
            assign(requested, lc, entity=entity, aliases=aliases_of(plan), units=field_units(plan)),
        )
        add(lb.records_xpath, m, lb.rows, f"text lines {lb.records_xpath} split by {lb.sep!r}", None, lc)
    table_rows = {tr for t in root.xpath("//table") for tr in t.iter("tr")}
    # On a sub-page of an index (one letter, one year) two records already show the repeated shape.
    for region in regions.find_regions(root, min_items=2 if nested else 3)[:max_regions]:
        if any(i in table_rows for i in region.items):
            continue
        cands = regions.slots(region, url)
        cands += attrs.candidates(regions.sample_items(region.items))  # values only in title/alt
        extra: list[Candidate] = []
        if region.detail_link is not None:
            got = _detail_samples(region, url, cached, reader, fetcher, bodies)

            def sample(r: Any) -> list[tuple[str, Any, str]]:
                return _detail_samples(r, url, cached, reader, fetcher, bodies)

            # an action link (vote?id=, sendmessage.php) whose targets fail or are one page: another link
            region.detail_link, got = detaillinks.verified(region, cands, got, sample, url, DETAIL_SAMPLES)
            extra = detail_candidates(got)
        m = assign(requested, cands + extra, entity=entity, aliases=aliases_of(plan), units=field_units(plan))
        via = " (+ detail pages)" if any(x.candidate.where == "detail" for x in m.values()) else ""
        why = f"records {region.records_xpath} ({region.count}){via}"
        add(region.records_xpath, m, region.count, why, region.detail_link, cands + extra)
    from prefect_autodata.agents.induction import embedded  # records in the page's script JSON

    built += embedded.induce_page(
        url, root, requested, name=name, description=description, entity=entity, plan=plan
    )
    if not nested:  # records on sub-pages an index bar links to ("Browse by letter: A B C")
        built += _via_index(
            url,
            root,
            requested,
            name=name,
            description=description,
            entity=entity,
            evidence=evidence,
            reader=reader,
            fetcher=fetcher,
            bodies=bodies,
            plan=plan,
            cached=cached,
        )
    return built


def _via_index(url: str, root: Any, requested: list[str], *, bodies: dict, **kw: Any) -> list[_Built]:
    """Specs for a listing split over the sub-pages of an index bar: induced on one, checked on another."""
    out: list[_Built] = []
    for hub in hubs.find(root, url)[:2]:
        picks = hubs.sample_urls(hub)
        pages: list[tuple[str, str]] = []
        for u in picks:
            if u not in bodies:
                html = None
                for p in getattr(kw.get("evidence"), "candidates", []) or []:
                    if p.kind == "html" and p.cache_id and u in (p.url, p.final_url):
                        html = _read(kw.get("reader"), p.cache_id)
                        break
                bodies[u] = html or _get(kw.get("fetcher"), u)
            if bodies[u] and len(bodies[u]) <= hubs.MAX_PART_BYTES:
                pages.append((u, bodies[u]))
        if not pages:
            continue
        pages.sort(key=lambda p: -len(p[1]))  # induce on the fullest part, check on the others
        first_url, first_html = pages[0]
        others = [parse(h) for _, h in pages[1:]]
        got = induce_page(first_url, first_html, requested, bodies=bodies, nested=True, **kw)
        pooled = None if got else hubs.pool_singletons([h for _, h in pages])
        if pooled is not None:  # every part read shows one record: pooled, they show the repetition
            got = induce_page(first_url, pooled, requested, bodies=bodies, nested=True, **kw)
        merged = _pooled(first_html, others, [b.spec.sources[0].records.xpath for b in got])
        if merged is not None:  # one letter's records share a name or a count: pool the parts
            got = induce_page(first_url, merged, requested, bodies=bodies, nested=True, **kw) or got
        for b in got:
            xp = b.spec.sources[0].records.xpath
            if xp and any(o is not None and not o.xpath(xp) for o in others):
                continue  # the record rule does not hold on another sub-page
            spec = hubs.wrap(b.spec, hub, url)
            if spec is b.spec:
                continue
            out.append(
                _Built(
                    spec,
                    b.matches,
                    max(1, round(b.rows / len(pages) * len(hub.urls))),
                    url,
                    f"index of {len(hub.urls)} sub-pages ({', '.join(hub.texts[:4])}...) -> {b.why}",
                )
            )
    return out


def _pooled(html: str, others: list[Any], xpaths: list[str | None]) -> str | None:
    """``html`` with the records of the other sampled sub-pages appended after its own.

    A letter's page may hold two seasons of one team: its heading and its games count look like
    template text there. Read over the records of several parts they vary as fields do.
    """
    from copy import deepcopy

    from lxml import html as lhtml

    root = parse(html)
    for xp in dict.fromkeys(x for x in xpaths if x):
        try:
            mine = root.xpath(xp)
        except Exception:  # an XPath this page cannot evaluate: try the next rule
            continue
        if (
            not isinstance(mine, list)
            or not mine
            or not all(isinstance(getattr(m, "tag", None), str) for m in mine)
        ):
            continue  # text records (lines of a <pre>, text nodes between <br>s): nothing to append
        parent, at = mine[-1].getparent(), mine[-1]
        added = 0
        for o in others:
            for node in o.xpath(xp) if o is not None else []:
                if not isinstance(getattr(node, "tag", None), str):
                    continue
                copy = deepcopy(node)
                copy.tail = None
                at.addnext(copy)
                at = copy
                added += 1
        if added and parent is not None:
            return lhtml.tostring(root, encoding="unicode")
    return None


def induce(
    evidence: Any,
    requested: list[str],
    *,
    name: str,
    description: str = "",
    entity: str | None = None,
    reader: Any = None,
    fetcher: Any = None,
    max_pages: int = 6,
    plan: Any = None,
) -> list[Any]:
    """Candidate specs (``engineering.CandidateSpec``) from every HTML page of ``evidence``, best first."""
    from prefect_autodata.agents.candidates import CandidateSpec

    out: list[Any] = []
    bodies: dict[str, str | None] = {}  # detail pages fetched once for all regions and pages
    cached = _cached_urls(evidence)
    pages = [p for p in evidence.ok_pages() if p.kind == "html"][:max_pages]
    for page in pages:
        html = _read(reader, page.cache_id)
        if not html:
            continue
        for b in induce_page(
            page.final_url or page.url,
            html,
            requested,
            name=name,
            description=description,
            entity=entity,
            evidence=evidence,
            reader=reader,
            fetcher=fetcher,
            bodies=bodies,
            plan=plan,
            cached=cached,
        ):
            covered = [r for r in requested if r in b.matches]
            missing = [r for r in requested if r not in b.matches]
            quality = sum(b.matches[r].score for r in covered) / max(1, len(requested))
            depth_penalty = 0.05 * getattr(page, "depth", 0)
            score = (
                1.0
                + len(covered) / max(1, len(requested))
                + 0.2 * min(quality, 1.5)
                + 0.02 * min(b.rows, 50) / 50
                - depth_penalty
            )
            why = (
                f"generic induction: {b.why} on {b.url}; {len(covered)}/{len(requested)} fields: "
                + ", ".join(f"{r} <- {b.matches[r].why}" for r in covered)
                + (f"; missing {', '.join(missing)}" if missing else "")
            )
            out.append(
                CandidateSpec(
                    spec=b.spec,
                    method="html",
                    source_url=b.url,
                    score=round(score, 4),
                    covered=covered,
                    missing=missing,
                    rationale=why[:1900],
                    sample_rows=b.rows,
                )
            )
    out.sort(key=lambda c: -c.score)
    return out
