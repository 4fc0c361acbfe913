"""A web search engine over the sandbox: ``/search?q=`` (HTML results page) and ``&format=json``.

It stands in for a real search API during research. The index holds every site module's ``SEARCH_DOCS``
list or ``search_docs()`` function (dicts ``{title, url, snippet}``), every site-map entry, and, for the
academic sites that publish no documents, one document per venue-year index page derived from the
papers table. Ranking is BM25 over title (weighted twice) + snippet: deterministic and fast.
"""

from __future__ import annotations

import html
import logging
import math
import re
import threading
from collections import Counter, defaultdict
from dataclasses import dataclass
from urllib.parse import quote_plus

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

log = logging.getLogger(__name__)

SITEMAP = [("Web search (sandbox index)", "/search?q=NeurIPS+2017+accepted+papers")]
DEFAULT_NUM = 10
MAX_NUM = 50
K1, B = 1.2, 0.75
_TOKEN = re.compile(r"[a-z0-9]+")
_STOP = frozenset("a an and of the for in on to with by at from is are all".split())

# Venue -> (site module that serves it, index-page path template, full name). Used only when that module is
# loaded but publishes no search documents of its own.
_VENUE_PAGES = {
    "NeurIPS": ("nips", "/papers.nips.cc/paper_files/paper/{year}", "Neural Information Processing Systems"),
    "ACL": (
        "acl",
        "/aclanthology.org/events/acl-{year}/",
        "Annual Meeting of the Association for Computational Linguistics",
    ),
    "EMNLP": (
        "acl",
        "/aclanthology.org/events/emnlp-{year}/",
        "Empirical Methods in Natural Language Processing",
    ),
    "NAACL": ("acl", "/aclanthology.org/events/naacl-{year}/", "North American Chapter of the ACL"),
    "CVPR": ("cvf", "/openaccess.thecvf.com/CVPR{year}", "Computer Vision and Pattern Recognition"),
    "ICCV": ("cvf", "/openaccess.thecvf.com/ICCV{year}", "International Conference on Computer Vision"),
    "ICML": ("mlr", "/proceedings.mlr.press/v{volume}/", "International Conference on Machine Learning"),
    "ICLR": (
        "openreview",
        "/openreview.net/group?id=ICLR.cc/{year}/Conference",
        "International Conference on Learning Representations",
    ),
    "ECCV": ("ecva", "/www.ecva.net/papers.php", "European Conference on Computer Vision"),
}
_ICML_VOLUMES = {
    2013: 28,
    2014: 32,
    2015: 37,
    2016: 48,
    2017: 70,
    2018: 80,
    2019: 97,
    2020: 119,
    2021: 139,
    2022: 162,
    2023: 202,
}


def tokenize(text: str) -> list[str]:
    """Lower-case alphanumeric tokens without stop words ('S&P 500' -> ['s', 'p', '500'])."""
    return [t for t in _TOKEN.findall(text.lower()) if t not in _STOP]


@dataclass(frozen=True)
class Doc:
    title: str
    url: str
    snippet: str


class Index:
    """BM25 over title (twice) + snippet. Ties break on document order, so results are deterministic."""

    def __init__(self, docs: list[Doc]) -> None:
        seen: set[str] = set()
        self.docs: list[Doc] = []
        for d in docs:
            if d.url not in seen:  # first document for a URL wins (site-provided before derived)
                seen.add(d.url)
                self.docs.append(d)
        self.postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        self.lengths: list[int] = []
        for i, d in enumerate(self.docs):
            toks = tokenize(d.title) * 2 + tokenize(d.snippet) + tokenize(d.url.replace("/", " "))
            self.lengths.append(len(toks))
            for term, tf in Counter(toks).items():
                self.postings[term].append((i, tf))
        self.avg = (sum(self.lengths) / len(self.lengths)) if self.lengths else 1.0

    def search(self, query: str, num: int = DEFAULT_NUM) -> list[tuple[Doc, float]]:
        scores: dict[int, float] = defaultdict(float)
        n = len(self.docs)
        for term in dict.fromkeys(tokenize(query)):
            plist = self.postings.get(term)
            if not plist:
                continue
            idf = math.log(1 + (n - len(plist) + 0.5) / (len(plist) + 0.5))
            for i, tf in plist:
                norm = tf + K1 * (1 - B + B * self.lengths[i] / self.avg)
                scores[i] += idf * tf * (K1 + 1) / norm
        ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))[:num]
        return [(self.docs[i], s) for i, s in ranked]


def _module_docs(mod) -> list[dict]:
    fn = getattr(mod, "search_docs", None)
    if callable(fn):
        return list(fn())
    return list(getattr(mod, "SEARCH_DOCS", []))


def _venue_year_counts():
    """Papers per (abbr, year), reading only those two columns (the full table takes seconds to load)."""
    from prefect_autodata.sandbox.data import load_columns

    return load_columns("papers", ["abbr", "year"]).groupby(["abbr", "year"]).size()


def derived_paper_docs(venues: set[str]) -> list[Doc]:
    """One document per venue-year index page, from the papers table (for sites without their own docs)."""
    if not venues:
        return []
    counts = _venue_year_counts()
    out: list[Doc] = []
    ecva_years: list[int] = []
    for (abbr, year), n in counts.items():
        if abbr not in venues or abbr not in _VENUE_PAGES:
            continue
        _, template, full = _VENUE_PAGES[abbr]
        year = int(year)
        if abbr == "ECCV":
            ecva_years.append(year)
            continue
        if abbr == "ICML" and year not in _ICML_VOLUMES:
            continue
        url = template.format(year=year, volume=_ICML_VOLUMES.get(year, 0))
        alias = " (NIPS)" if abbr == "NeurIPS" else ""
        out.append(
            Doc(
                f"{abbr} {year} proceedings{alias} — accepted papers",
                url,
                f"All {n} accepted papers of {abbr} {year}, {full}: titles, authors, abstracts, PDFs.",
            )
        )
    if ecva_years:
        years = ", ".join(str(y) for y in sorted(ecva_years))
        out.append(
            Doc(
                "ECCV papers — European Conference on Computer Vision proceedings",
                _VENUE_PAGES["ECCV"][1],
                f"Accepted papers of ECCV {years}: titles, authors, abstracts, PDFs, supplementary material.",
            )
        )
    return out


def build_index(extra_sites: list | tuple = ()) -> Index:
    """Collect documents from every loaded site module (and derive the missing academic ones).

    ``extra_sites``: site-module-like objects added to the app at build time (the zoo's sites).
    """
    from prefect_autodata.sandbox.app import load_sites

    docs: list[Doc] = []
    sitemap_docs: list[Doc] = []
    silent_modules: set[str] = set()
    for mod in [*load_sites(), *extra_sites]:
        name = mod.__name__.rsplit(".", 1)[-1]
        if name == "search":
            continue
        try:
            provided = _module_docs(mod)
        except Exception:  # one broken site must not take search down with it
            log.exception("search: %s.search_docs() failed; indexing its site map only", name)
            provided = []
        if not provided:
            silent_modules.add(name)
        for d in provided:
            docs.append(Doc(str(d["title"]), str(d["url"]), str(d.get("snippet", ""))))
        for title, path in getattr(mod, "SITEMAP", []):
            sitemap_docs.append(Doc(title, path, title))
    venues = {v for v, (module, _, _) in _VENUE_PAGES.items() if module in silent_modules}
    return Index(docs + derived_paper_docs(venues) + sitemap_docs)


_index: Index | None = None
_index_lock = threading.Lock()


def get_index() -> Index:
    """The process-wide index, built on first use (site modules are fixed once the app is built)."""
    global _index
    with _index_lock:
        if _index is None:
            _index = build_index()
        return _index


def _bad(param: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": 400, "param": param, "message": message}}, status_code=400)


def _results_page(q: str, hits: list[tuple[Doc, float]], total: int) -> str:
    items = "".join(
        '<div class="result"><h3><a class="result-link" href="{u}">{t}</a></h3><cite>{u}</cite>'
        '<p class="snippet">{s}</p></div>'.format(
            u=html.escape(d.url, quote=True), t=html.escape(d.title), s=html.escape(d.snippet)
        )
        for d, _ in hits
    )
    if not hits:
        items = f"<p>Your search - <b>{html.escape(q)}</b> - did not match any documents.</p>"
    return (
        f'<!doctype html><html><head><meta charset="utf-8"><title>{html.escape(q)} - Sandbox Search</title></head>'
        '<body><form action="/search" method="get">'
        f'<input name="q" value="{html.escape(q, quote=True)}"><button>Search</button></form>'
        f'<p id="stats">About {total} results</p><div id="results">{items}</div></body></html>'
    )


def routes(ctx) -> list[BaseRoute]:
    extra = list(getattr(ctx, "extra", {}).get("extra_sites") or [])
    own: list[Index] = []

    def index() -> Index:
        if not extra:
            return get_index()
        with _index_lock:
            if not own:
                own.append(build_index(extra))
            return own[0]

    async def search(request: Request) -> Response:
        params = request.query_params
        q = params.get("q", "").strip()
        fmt = params.get("format", "html")
        if fmt not in ("html", "json"):
            return _bad("format", f"format must be 'html' or 'json', not {fmt!r}")
        if not q:
            return _bad("q", "the query parameter 'q' is required")
        if len(q) > 500:
            return _bad("q", "the query is longer than 500 characters")
        try:
            num = int(params.get("num", str(DEFAULT_NUM)))
        except ValueError:
            return _bad("num", "num must be an integer")
        if not 1 <= num <= MAX_NUM:
            return _bad("num", f"num must be between 1 and {MAX_NUM}")
        hits = index().search(q, num)
        if fmt == "json":
            return JSONResponse(
                {
                    "query": q,
                    "results": [{"title": d.title, "url": d.url, "snippet": d.snippet} for d, _ in hits],
                }
            )
        return HTMLResponse(_results_page(q, hits, len(hits)))

    return [Route("/search", search)]


def search_url(query: str, fmt: str = "json") -> str:
    """The sandbox path for a query (handy for callers building requests)."""
    return f"/search?q={quote_plus(query)}&format={fmt}"
