"""Legacy listing inducer, part 3: spec assembly.

One listing page → a ``ListingInduction`` (region, fields, detail rules, year scope) → a CollectorSpec
(records XPath, field rules, ``detail`` rules, a ``{year}`` parameter over the requested years when the
listing URL carries a year, a row filter when a listing mixes years).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from prefect_autodata.agents.evidence import Evidence, Page
from prefect_autodata.agents.evidence import read_cached as _read
from prefect_autodata.agents.offline.listings.fields import (
    Found,
    _abstract_field,
    _authors_field,
    _detail_fields,
    _detail_link,
    _fill,
    _link_fields,
    _rule_value,
    _section_field,
    _title_field,
)
from prefect_autodata.agents.offline.listings.regions import (
    _YEAR,
    Region,
    _eval,
    _get,
    _parse,
    find_regions,
    record_years,
)
from prefect_autodata.agents.request import Request as ParsedInstruction
from prefect_autodata.runtime.policy import FetchPolicy
from prefect_autodata.runtime.spec import (
    CollectorSpec,
    ColumnSpec,
    DetailSpec,
    FieldRule,
    ParamSpec,
    RequestTemplate,
    Selector,
    Source,
    Transform,
)


@dataclass
class ListingInduction:
    """What induction learnt from one listing page (kept for tests and the rationale)."""

    page_url: str
    region: Region
    listing: dict[str, Found]
    detail: dict[str, FieldRule]
    year_values: list[int] | None
    url_template: str
    records_xpath: str
    notes: list[str] = field(default_factory=list)
    rendered: bool = False
    track_values: list[Any] = field(default_factory=list)


def _year_scope(region: Region, conf: Found | None, plan: ParsedInstruction) -> tuple[str, list[str]]:
    """Records xpath limited to the requested years when one listing shows several years."""
    if conf is None or not plan.years:
        return region.xpath, []
    years = [int(m.group(1)) if (m := _YEAR.search(v or "")) else None for v in conf.values]
    seen = {y for y in years if y is not None}
    if len(seen) <= 1 or not (seen - set(plan.years)):
        return region.xpath, []
    keep = sorted(seen & set(plan.years))
    if not keep:
        return region.xpath, ["no records of the requested years on the listing"]
    cond = " or ".join(f"contains(., '{y}')" for y in keep)
    xp = f"{region.xpath}[{conf.rule.xpath}[{cond}]]"
    return xp, [f"listing mixes years {sorted(seen)}: records limited to {keep}"]


def _year_template(
    url: str,
    page_years: set[int],
    plan: ParsedInstruction,
    fetcher: Any,
    records_xpath: str,
    *,
    rendered: bool = False,
) -> tuple[str, list[int] | None, list[str]]:
    """``.../2017`` → ``.../{year}`` over the requested years that answer with records."""
    found = [m for m in _YEAR.finditer(url)]
    if not found or not plan.years:
        return url, None, []
    ys = {int(m.group(1)) for m in found}
    if len(ys) != 1:
        return url, None, []
    y0 = ys.pop()
    tmpl = _YEAR.sub("{year}", url.replace("{", "%7B").replace("}", "%7D"))
    ok, notes = [], []
    for y in plan.years:
        if y == y0 and y0 in page_years | {y0}:
            ok.append(y)
            continue
        body = _get(fetcher, tmpl.replace("{year}", str(y)))
        root = _parse(body)
        if root is not None and (rendered or _eval(records_xpath.split("[preceding::")[0], root)):
            ok.append(y)
        else:
            notes.append(f"no listing for {y} at {tmpl.replace('{year}', str(y))}")
    return tmpl, ok, notes


def induce_listing(
    page: Page,
    plan: ParsedInstruction,
    *,
    body: str,
    evidence: Evidence | None = None,
    reader: Any = None,
    fetcher: Any = None,
    max_detail_samples: int = 2,
) -> ListingInduction | None:
    """Record region + listing fields + detail rules for one listing page (None: no records here)."""
    root = _parse(body)
    if root is None:
        return None
    url = page.final_url or page.url
    targets = list(plan.field_names)
    best: tuple[tuple, ListingInduction] | None = None
    for region in find_regions(root, url):
        _detail_link(region, url)
        listing: dict[str, Found] = {}
        title = _title_field(region, url) if "TITLE" in targets else None
        if title:
            listing["TITLE"] = title
        if "AUTHORS" in targets:
            au = _authors_field(region, title.rule.xpath if title else None)
            if au:
                listing["AUTHORS"] = au
        listing.update(_link_fields(region, targets, url))
        if "ABSTRACT" in targets and (ab := _abstract_field(region)):
            listing["ABSTRACT"] = ab
        for t in ("CONFERENCE", "TRACK"):
            if t in targets and (sf := _section_field(region, root, t, plan)):
                listing[t] = sf
        ind = ListingInduction(url, region, listing, {}, None, url, region.xpath, rendered=page.rendered)
        key = (len(listing), region.count)
        if best is None or key > best[0]:
            best = (key, ind)
    if best is None or "TITLE" not in best[1].listing and not best[1].region.detail_rule:
        return None
    ind = best[1]
    region = ind.region
    missing = [
        t
        for t in targets
        if t not in ind.listing and t != "ABSTRACT" or (t == "ABSTRACT" and t not in ind.listing)
    ]
    missing = [t for t in missing if t != "ABBR"]
    if missing and region.detail_rule:
        docs = []
        urls = [u for u in region.detail if u][: max_detail_samples * 3]
        cached = {p.final_url: p for p in (evidence.ok_pages() if evidence else [])} | {
            p.url: p for p in (evidence.ok_pages() if evidence else [])
        }
        ordered = [u for u in urls if u in cached] + [u for u in urls if u not in cached]
        for u in ordered:
            text = _read(reader, cached[u].cache_id) if u in cached else _get(fetcher, u)
            d = _parse(text)
            if d is not None:
                docs.append(d)
            if len(docs) >= max_detail_samples:
                break
        if docs:
            idx = next((i for i, u in enumerate(region.detail) if u), 0)
            known = {k: (f.values[idx] or "") for k, f in ind.listing.items()}
            ind.detail = _detail_fields(docs, missing, plan, known)
            ind.notes.append(f"{len(docs)} detail page(s) sampled")
            if "TRACK" in ind.detail:
                ind.track_values = [_rule_value(d, ind.detail["TRACK"]) for d in docs]
    if "TRACK" in ind.listing:
        ind.track_values = list(ind.listing["TRACK"].values)
    conf = ind.listing.get("CONFERENCE")
    ind.records_xpath, notes = _year_scope(region, conf, plan)
    ind.notes += notes
    page_years = {int(m.group(1)) for v in (conf.values if conf else []) if v for m in [_YEAR.search(v)] if m}
    page_years |= record_years(region)
    ind.url_template, ind.year_values, notes = _year_template(
        url, page_years, plan, fetcher, ind.records_xpath, rendered=page.rendered
    )
    ind.notes += notes
    if ind.year_values is None and page_years and plan.years and not page_years & set(plan.years):
        return None  # a listing of other years, and no year in its URL to move to the requested ones
    return ind


def listing_spec(ind: ListingInduction, plan: ParsedInstruction, *, name: str) -> CollectorSpec:
    """The CollectorSpec for an induced listing (+ detail) wrapper."""
    targets = list(plan.field_names)
    rules: list[FieldRule] = []
    for t in targets:
        if t in ind.listing:
            rules.append(ind.listing[t].rule)
        elif t == "ABBR" and plan.venue:
            rules.append(FieldRule(name="ABBR", const=plan.venue.abbr))
    for t in targets:  # the track asked for, when no page states one
        if t == "TRACK" and t not in ind.listing and t not in ind.detail and plan.track:
            rules.append(FieldRule(name="TRACK", const=plan.track))
    detail = None
    detail_rules = [ind.detail[t] for t in targets if t in ind.detail and t not in ind.listing]
    if detail_rules and ind.region.detail_rule:
        rules.append(
            FieldRule(
                name="detail_url",
                xpath=ind.region.detail_rule,
                attr="href",
                transforms=[Transform(op="strip"), Transform(op="absolute_url")],
            )
        )
        detail = DetailSpec(url_field="detail_url", kind="html", fields=detail_rules)
    if "TITLE" in ind.listing:
        ind.listing["TITLE"].rule = ind.listing["TITLE"].rule.model_copy(update={"required": True})
        rules = [ind.listing["TITLE"].rule if r.name == "TITLE" else r for r in rules]
    params = {}
    if ind.year_values is not None:
        params["year"] = ParamSpec(values=list(ind.year_values))
    pk = [t for t in ("PAPER_LINK", "TITLE") if t in ind.listing][:1] or ["TITLE"]
    if pk == ["PAPER_LINK"] and _fill(ind.listing["PAPER_LINK"].values) < 1.0:
        pk = ["TITLE"] if "TITLE" in ind.listing else ["detail_url"]
    if "TITLE" in ind.listing and len(set(ind.listing["TITLE"].values)) < len(ind.listing["TITLE"].values):
        pk = ["detail_url"] if detail is not None else pk
    # Every requested field is a column; one no page showed (no supplementary links anywhere) is
    # declared without a rule and lands empty rather than being invented.
    cols = [ColumnSpec(name=t, type="string") for t in targets]
    source = Source(
        name="listing",
        kind="browser" if ind.rendered else "html",
        request=RequestTemplate(url=ind.url_template),
        params=params,
        records=Selector(xpath=ind.records_xpath),
        fields=rules,
        detail=detail,
        allow_empty=ind.year_values is not None and len(ind.year_values) > 1,
    )
    return CollectorSpec(
        name=name,
        description=plan.text,
        primary_key=pk,
        columns=cols,
        sources=[source],
        politeness=FetchPolicy(rate_limit_per_host=0, concurrency_per_host=8),
    )
