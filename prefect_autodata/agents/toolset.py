"""The tool surface the LLM agents call: the offline discovery, induction and test machinery as tools.

Both backends work from the same machinery: where the offline roles call the web agent, the inducers
and the test agent directly, an LLM agent reaches them through these tools (OpenAI function calling):

- ``fetch(url)``: one page through the run's fetcher (the same address policy as any discovered link),
  its body cached under its real kind, what it shows (title, excerpt, record count, links ranked by
  relevance to the request, data and documentation links, API URLs its scripts name) and its class;
- ``classify_page(url)``: listing, detail, api_docs, data_file, index, search_results or error, with why;
- ``induce_listing(url)``: the candidate specs the inducers build from one page (tables, repeated record
  regions, list → detail), each with the fields it covers and misses;
- ``induce_detail(url)``: the labelled values of one record's page (``dt/dd``, ``th/td``, "Label: value",
  structured data) matched to the requested fields, as field rules;
- ``induce_json(url)``: the endpoint probed like a discovered one (where the records sit, their keys,
  its pagination) and the candidate spec that reads it;
- ``dry_run(spec)``: the test agent's measured findings on a spec (per field: produced, fill rate, type;
  rows against the stated total; the measured verdict) — never a self-reported one.

Plus the tool agent's ``web_search``/``clean_html``/``convert_file`` (``agents/tool.py``). Every tool
returns plain JSON; a failure is an ``AutoDataError`` naming the URL, which the runtime turns into a
``ToolError`` the model reads and may recover from.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from prefect_autodata.agents.base import Tool, ToolError
from prefect_autodata.agents.evidence import Endpoint, Evidence, Page
from prefect_autodata.errors import AutoDataError, ConfigError
from prefect_autodata.runtime.spec import CollectorSpec

PAGE_CLASSES = ("listing", "detail", "api_docs", "data_file", "index", "search_results", "error")
MAX_LINKS = 15
MAX_CANDIDATES = 3
EXCERPT_CHARS = 1200
_BOT_WORDS = ("captcha", "are you a robot", "access denied", "verify you are human", "too many requests")


def _spec_dict(spec: CollectorSpec) -> dict[str, Any]:
    return spec.model_dump(mode="json", exclude_none=True)


def _spec_key(spec: CollectorSpec) -> str:
    return spec.model_dump_json(exclude_none=True)


@dataclass
class Measured:
    """One measured dry run: the test report, its ranking measure, and the JSON the model reads."""

    report: Any
    measure: Any
    result: dict[str, Any] = field(default_factory=dict)


class ToolSurface:
    """The tools of one collection run, bound to its squad context (fetcher, request, mirror) and cache."""

    def __init__(self, ctx: Any, cache: Any) -> None:
        self.ctx = ctx
        self.cache = cache
        self.evidence: Evidence | None = None
        self._web: Any = None

    # ------------------------------------------------------------------------------------------ plumbing

    @property
    def plan(self) -> Any:
        """The run's Request (the plan agent's; the offline parse of the sentence until it has spoken)."""
        if self.ctx.parsed is None:
            from prefect_autodata.agents.plan import make_plan

            self.ctx.parsed = make_plan(
                self.ctx.instruction, fields=self.ctx.fields, today=self.ctx.today, sources=self.ctx.sources
            )
        return self.ctx.parsed

    def _ev(self) -> Evidence:
        if self.evidence is None or self.evidence.plan is not self.plan:
            old = self.evidence
            self.evidence = Evidence(plan=self.plan)
            if old is not None:
                self.evidence.candidates, self.evidence.endpoints = old.candidates, old.endpoints
        return self.evidence

    def web(self) -> Any:
        """The web agent whose page visits and endpoint probes the tools reuse (closed with the run)."""
        if self._web is None:
            from prefect_autodata.agents.web import WebAgent

            self._web = WebAgent(fetcher=self.ctx.fetcher, cache=self.cache, search=self.ctx.search)
            if getattr(self.ctx, "web_agent", None) is None:
                self.ctx.web_agent = self._web  # research_and_develop closes it (and its browser)
        return self._web

    def _known(self, url: str) -> Page | None:
        return self._ev().page(url)

    def page(self, url: str) -> Page:
        """The visited page for ``url``, fetching it on first use."""
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise ToolError(f"not an http(s) URL: {url!r}")
        url = self._through_mirror(url)
        got = self._known(url)
        if got is not None:
            return got
        ev = self._ev()
        page, _links, _scripts = self.web()._visit(url, "link", 0, ev)
        if page is None:
            raise ToolError(f"fetch {url}: nothing came back")
        if page.error and not page.status:  # refused or unreachable: no page to read (an HTTP error is one)
            raise ToolError(f"fetch {url}: {page.error}")
        ev.candidates.append(page)
        return page

    def _through_mirror(self, url: str) -> str:
        """A real host's URL as this run reaches it: under the mirror when one is active (``--sandbox``)."""
        mirror = (getattr(self.ctx, "mirror", None) or "").rstrip("/")
        if not mirror or url.startswith(mirror + "/"):
            return url
        return re.sub(r"^https?://([^/{}\s]+)", lambda m: f"{mirror}/{m.group(1)}", url)

    def _body(self, page: Page) -> str | None:
        if not page.cache_id:
            return None
        try:
            return self.cache.get_text(page.cache_id)
        except AutoDataError:
            return None

    def _data_excerpt(self, page: Page) -> str:
        """The start of a JSON/CSV body (data pages carry no cleaned text)."""
        return (self._body(page) or "")[:EXCERPT_CHARS] if page.kind in ("json", "csv") else ""

    def _name(self) -> str:
        if getattr(self.ctx, "name", None):
            return self.ctx.name
        from prefect_autodata.agents.naming import default_name

        return default_name(self.plan)

    def _candidates(self, cands: list[Any]) -> list[dict[str, Any]]:
        out = []
        for c in cands[:MAX_CANDIDATES]:
            spec = c.spec if self.ctx.name is None else c.spec.model_copy(update={"name": self.ctx.name})
            cid = self.cache.put(
                spec.to_yaml(),
                kind="spec",
                summary=f"candidate {spec.name} ({c.method})",
                owner="engineering",
            ).cache_id
            out.append(
                {
                    "method": c.method,
                    "source_url": c.source_url,
                    "score": c.score,
                    "covered": list(c.covered),
                    "missing": list(c.missing),
                    "sample_rows": c.sample_rows,
                    "rationale": (c.rationale or "")[:400],
                    "spec_cache_id": cid,
                    "spec": _spec_dict(spec),
                }
            )
        return out

    # ------------------------------------------------------------------------------------------ tools

    def fetch(self, url: str) -> dict[str, Any]:
        """Fetch one URL; returns what the page shows and how it ranks its links for the request."""
        from prefect_autodata.agents.offline import discovery as d

        page = self.page(url)
        terms = d.plan_terms(self.plan) if self.plan is not None else {}
        links = sorted(page.links, key=lambda lk: -d.link_score(lk, terms))
        cls = self._classify(page)
        return {
            "url": page.url,
            "final_url": page.final_url,
            "status": page.status,
            "content_type": page.content_type,
            "kind": page.kind,
            "cache_id": page.cache_id,
            "title": page.title,
            "class": cls["class"],
            "record_count": page.record_count,
            "error": page.error,
            "excerpt": (page.text_excerpt or self._data_excerpt(page))[:EXCERPT_CHARS],
            "links": [
                {"url": lk.url, "text": lk.text[:80], "score": round(d.link_score(lk, terms), 2)}
                for lk in links[:MAX_LINKS]
            ],
            "data_links": [lk.url for lk in page.links if d.is_data_link(lk)][:10],
            "docs_links": [lk.url for lk in page.links if d.is_docs_link(lk)][:5],
            "script_endpoints": page.scripts_endpoints[:10],
        }

    def classify_page(self, url: str) -> dict[str, Any]:
        """What kind of page ``url`` is, from what it shows (records, labels, docs, data)."""
        return self._classify(self.page(url))

    def _classify(self, page: Page) -> dict[str, Any]:
        from prefect_autodata.agents.offline import discovery as d

        text = f"{page.title} {page.text_excerpt}".lower()
        base = {"url": page.final_url, "record_count": page.record_count}
        if page.error or page.status >= 400:
            return {**base, "class": "error", "why": page.error or f"status {page.status}"}
        if page.kind in ("json", "csv"):
            web = self.web()
            if page.final_url in web._api_docs:
                return {**base, "class": "api_docs", "why": "an OpenAPI/Swagger description"}
            return {
                **base,
                "class": "data_file",
                "why": f"a {page.kind} body with {page.record_count or 0} records",
            }
        if page.kind != "html":
            return {**base, "class": "data_file", "why": f"a {page.kind} document"}
        rows = page.record_count or 0
        if any(w in text for w in _BOT_WORDS) and rows < 3:
            return {
                **base,
                "class": "error",
                "why": "a bot wall or error page (no records, a challenge text)",
            }
        if page.final_url in self.web()._api_docs or (
            d.is_docs_text(page.title + " " + page.text_excerpt) and (page.scripts_endpoints or rows < 5)
        ):
            return {**base, "class": "api_docs", "why": "the page speaks of an API (endpoints, parameters)"}
        html = self._body(page) or ""
        from prefect_autodata.agents.induction import hubs, labels
        from prefect_autodata.agents.induction.dom import parse
        from prefect_autodata.agents.induction.regions import find_regions

        root = parse(html)
        regions = find_regions(root) if root is not None else []
        pairs = labels.pairs(root) if root is not None else []
        biggest = max((r.count for r in regions), default=0)
        from urllib.parse import parse_qsl, urlsplit

        query = dict(parse_qsl(urlsplit(page.final_url).query))
        if any(k in query for k in ("q", "query", "search")) and biggest >= 3:
            return {**base, "class": "search_results", "why": f"a search query with {biggest} results"}
        if biggest >= 5 or rows >= 5:
            return {
                **base,
                "class": "listing",
                "why": f"{max(biggest, rows)} repeated records ({len(regions)} record regions)",
            }
        if len(pairs) >= 3:
            return {**base, "class": "detail", "why": f"{len(pairs)} labelled values, no repeated records"}
        found = hubs.find(root, page.final_url) if root is not None else []
        if found:
            return {**base, "class": "index", "why": f"links to {len(found[0].urls)} sub-pages of one kind"}
        if page.scripts_endpoints:
            return {**base, "class": "listing", "why": "its scripts load records from an API"}
        return {**base, "class": "detail", "why": "one document without repeated records"}

    def induce_listing(self, url: str) -> dict[str, Any]:
        """Candidate specs for the records one page lists (tables, record regions, list → detail)."""
        from prefect_autodata.agents.engineering import induce

        page = self.page(url)
        if page.kind != "html" or not page.cache_id:
            raise ToolError(f"induce_listing {url}: not an HTML page ({page.kind}); use induce_json for data")
        ev = Evidence(plan=self.plan, candidates=[page])
        cands = [
            c
            for c in induce(ev, self.plan, reader=self.cache, fetcher=self.ctx.fetcher, name=self._name())
            if c.method in ("html", "browser")
        ]
        return {
            "url": page.final_url,
            "requested": list(self.plan.field_names),
            "candidates": self._candidates(cands),
            "note": "" if cands else "no record region, table or detail pattern matched the requested fields",
        }

    def induce_detail(self, url: str) -> dict[str, Any]:
        """One record's page: its labelled values, and the best one per requested field as a rule."""
        from prefect_autodata.agents.induction import labels, matching, structured
        from prefect_autodata.agents.induction.dom import parse

        page = self.page(url)
        html = self._body(page) if page.kind == "html" else None
        root = parse(html) if html else None
        if root is None:
            raise ToolError(f"induce_detail {url}: not an HTML page ({page.kind})")
        pairs = labels.pairs(root)
        props = structured.properties(html, page.final_url, root=root)
        fields: dict[str, Any] = {}
        for want in self.plan.field_names:
            best = None
            for p in pairs:
                s = matching.name_score(want, p.label)
                if s > 0.5 and (best is None or s > best[0]):
                    best = (
                        s,
                        {
                            "label": p.label,
                            "value": p.value[:120],
                            "xpath": p.xpath,
                            "transforms": p.transforms,
                        },
                    )
            for key, value, rule in props:
                s = matching.name_score(want, key)
                if s > 0.5 and (best is None or s > best[0]):
                    best = (s, {"label": key, "value": str(value)[:120], **rule})
            fields[want] = None if best is None else {"score": round(best[0], 2), **best[1]}
        return {
            "url": page.final_url,
            "fields": fields,
            "missing": [f for f, v in fields.items() if v is None],
            "pairs": [{"label": p.label, "value": p.value[:80], "xpath": p.xpath} for p in pairs[:30]],
        }

    def induce_json(self, url: str) -> dict[str, Any]:
        """Probe a JSON/CSV endpoint like a discovered one and induce the spec that reads it."""
        from prefect_autodata.agents.engineering import induce

        url = self._through_mirror(url)
        ev = self._ev()
        web = self.web()
        ep: Endpoint | None = next((e for e in ev.endpoints if url in (e.example_url, e.url_template)), None)
        if ep is None:
            ep = web._endpoint(url, "link", None, {}, ev, self.plan)
            if ep is None:
                raise ToolError(f"induce_json {url}: not a JSON or CSV endpoint (or it could not be read)")
            ev.endpoints.append(ep)
        one = Evidence(plan=self.plan, candidates=list(ev.candidates), endpoints=[ep])
        cands = [
            c
            for c in induce(one, self.plan, reader=self.cache, fetcher=self.ctx.fetcher, name=self._name())
            if c.method in ("api", "bulk")
        ]
        return {
            "url": ep.example_url,
            "records_at": ep.record_path_hint,
            "record_count": ep.record_count,
            "keys": ep.fields[:60],
            "pagination": ep.pagination.model_dump(exclude_none=True) if ep.pagination else None,
            "requested": list(self.plan.field_names),
            "candidates": self._candidates(cands),
        }

    def dry_run(self, spec: dict[str, Any] | str) -> dict[str, Any]:
        """The test agent's measured findings on ``spec`` (a CollectorSpec as a JSON object, or its
        YAML/JSON text)."""
        if isinstance(spec, str):
            spec = CollectorSpec.from_yaml(spec, origin="dry_run spec")
        return measure_spec(self.ctx, spec).result

    # ------------------------------------------------------------------------------------------ wiring

    def tools(self) -> list[Tool]:
        from prefect_autodata.agents.tool import agent_tools

        url = {"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"]}
        return [
            *agent_tools(self.ctx.search, self.cache),
            Tool(
                "fetch",
                "Fetch a URL (HTTP GET): status, kind, title, an excerpt, the record count, its links ranked "
                "by relevance to the request, data/docs links and API URLs its scripts name; the body is cached.",
                self.fetch,
                url,
            ),
            Tool(
                "classify_page",
                "Classify a page: listing, detail, api_docs, data_file, index, search_results or error.",
                self.classify_page,
                url,
            ),
            Tool(
                "induce_listing",
                "Induce candidate CollectorSpecs from a listing page (tables, repeated records, list -> "
                "detail); each says which requested fields it covers and misses.",
                self.induce_listing,
                url,
            ),
            Tool(
                "induce_detail",
                "Read one record's page: labelled values (dt/dd, th/td, 'Label: value', structured data) "
                "matched to the requested fields, each with the xpath that reads it.",
                self.induce_detail,
                url,
            ),
            Tool(
                "induce_json",
                "Probe a JSON/CSV endpoint (where the records are, their keys, pagination) and induce the "
                "CollectorSpec that reads it.",
                self.induce_json,
                url,
            ),
            Tool(
                "dry_run",
                "Dry-run a CollectorSpec on a small sample: rows, per-field fill rate and findings, and the "
                "measured verdict (pass/fail) with what to repair.",
                self.dry_run,
                {
                    "type": "object",
                    "properties": {
                        "spec": {"type": ["object", "string"], "description": "a CollectorSpec (or its YAML)"}
                    },
                    "required": ["spec"],
                },
            ),
        ]


def measure_spec(ctx: Any, spec: dict[str, Any] | CollectorSpec) -> Measured:
    """Dry-run ``spec`` as it runs now (through the mirror) and measure it for the request.

    One dry run per distinct spec and run (reports are kept in the squad context, where the final
    ``fields`` report and an honest ``no_spec`` read them)."""
    from prefect_autodata.agents import ranking
    from prefect_autodata.agents.mirror import runnable, unmirrored
    from prefect_autodata.agents.test import requested_names, test_spec

    try:
        parsed = spec if isinstance(spec, CollectorSpec) else CollectorSpec.parse(spec)
    except (AutoDataError, ValueError) as exc:
        raise ConfigError(f"the spec is not a valid CollectorSpec: {exc}") from exc
    parsed = unmirrored(parsed, ctx.mirror)
    reports = ctx.extra.setdefault("reports", {})
    key = _spec_key(parsed)
    if key not in reports:
        reports[key] = test_spec(
            runnable(parsed, ctx.mirror), ctx.parsed, fetcher=ctx.fetcher, today=ctx.today
        )
        ctx.tested.append((parsed, reports[key]))
    rep = reports[key]
    wanted = requested_names(ctx.parsed)
    size = getattr(ctx.parsed, "expected_size", None)
    m = ranking.measure(
        rep, wanted, expected_rows=getattr(size, "rows", None), whole=ranking.read_whole(parsed)
    )
    result = {
        "verdict": "pass" if rep.ok else "fail",
        "honest": m.honest,
        "score": m.score,
        "why": m.why,
        "rows": rep.rows,
        "requests": rep.requests,
        "fields": {
            f: {"fill_rate": round(rep.fill_rates.get(f, 0.0), 3), "finding": m.bad.get(f)} for f in wanted
        },
        "issues": [i.message for i in rep.issues][:12],
        "sample": json.loads(json.dumps(rep.sample[:3], default=str)),
    }
    return Measured(report=rep, measure=m, result=result)


def llm_tools(ctx: Any, cache: Any) -> list[Tool]:
    """The tools the LLM agents may call in one collection run (see the module docstring)."""
    return ToolSurface(ctx, cache).tools()


__all__ = ["PAGE_CLASSES", "Measured", "ToolSurface", "llm_tools", "measure_spec"]
