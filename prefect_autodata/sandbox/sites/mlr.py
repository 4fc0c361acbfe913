"""proceedings.mlr.press imitation: volume index → volume pages → abstract pages (ICML).

URL shapes as on the real site (under ``/proceedings.mlr.press``): ``/`` (all volumes),
``/v<N>/`` (one ``div.paper`` per paper: title, authors, info line, abs/PDF/supplementary links),
``/v<N>/<id>.html`` (title, authors, abstract, info line, BibTeX in ``code.bibtex``), and the stored
PDF/supplement paths (``/v139/<id>/<id>.pdf`` since 2017, ``/v28/<id>.pdf`` before).
The info line is ``<conference full name>, PMLR <N>, <year>.``; BibTeX keeps the author list verbatim.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from prefect_autodata.sandbox.sites._html import (
    LazyIndex,
    bib_value,
    display_names,
    esc,
    file_handler,
    html_response,
    mounted,
    not_found,
    page,
    papers_for,
    register_files,
    split_url,
)

HOST = "proceedings.mlr.press"
P = f"/{HOST}"
SITEMAP = [("Proceedings of Machine Learning Research (proceedings.mlr.press)", f"{P}/")]

_PDF = re.compile(r"^/v(\d+)/(?:([^/]+)/)?([^/]+)\.pdf$")


def paper_key(pdf_path: str) -> tuple[int, str] | None:
    """``/v139/x21a/x21a.pdf`` or ``/v28/x13.pdf`` → ``(139, "x21a")``."""
    m = _PDF.match(pdf_path)
    if not m:
        return None
    return int(m.group(1)), m.group(2) or m.group(3)


def display_authors(authors: str) -> str:
    """BibTeX ``Last, First and ...`` → ``First Last, ...`` as PMLR shows them."""
    return ", ".join(name for name in display_names(authors) if name)


@dataclass
class _Volume:
    number: int
    year: int
    conference: str
    papers: list[dict] = field(default_factory=list)


@dataclass
class _Index:
    volumes: dict[int, _Volume] = field(default_factory=dict)
    pages: dict[tuple[int, str], dict] = field(default_factory=dict)
    files: dict[str, tuple[str, dict]] = field(default_factory=dict)
    rendered: dict[int, str] = field(default_factory=dict)


def _build() -> _Index:
    idx = _Index()
    for rec in papers_for("ICML"):
        pdf = split_url(rec.get("paper_link") or "", HOST)
        key = paper_key(pdf or "")
        if key is None or key in idx.pages:
            continue
        rec = dict(rec)
        rec["_vol"], rec["_id"] = key
        vol = idx.volumes.get(key[0])
        if vol is None:
            vol = idx.volumes[key[0]] = _Volume(key[0], rec["year"], rec["conference"])
        vol.papers.append(rec)
        idx.pages[key] = rec
        register_files(idx.files, rec, HOST, ("paper_link", "supp_link", "bibtex_link"))
    return idx


INDEX: LazyIndex[_Index] = LazyIndex(_build)

_HEAD = (
    '<link rel="stylesheet" type="text/css" href="/proceedings.mlr.press/assets/css/pmlr.css">\n'
    '<script src="https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-mml-chtml.js" async></script>\n'
    "<script>function copyBib(){navigator.clipboard.writeText(document.querySelector('code.bibtex').innerText);}</script>"
)


def _chrome(content: str) -> str:
    header = (
        f'<header class="site-header"><div class="wrapper"><a class="site-title" href="{P}/">'
        'Proceedings of Machine Learning Research</a><nav class="site-nav">'
        f'<a class="page-link" href="{P}/">All Volumes</a>'
        f'<a class="page-link" href="{P}/faq.html">FAQ</a>'
        f'<a class="page-link" href="{P}/spec.html">Submission Format</a></nav></div></header>'
    )
    footer = (
        '<footer class="site-footer"><div class="wrapper"><p>Proceedings of Machine Learning Research '
        "is a series that aims to publish machine learning research papers.</p>"
        "<p>This site last compiled on the day it was built by Jekyll.</p></div></footer>"
    )
    return f'{header}\n<main class="page-content" aria-label="Content"><div class="wrapper">\n{content}\n</div></main>\n{footer}'


def _info(rec: dict) -> str:
    return f'<span class="info">{esc(rec["conference"])}, PMLR {rec["_vol"]}, {rec["year"]}.</span>'


def _links(rec: dict) -> str:
    out = [f'[<a href="{P}/v{rec["_vol"]}/{esc(rec["_id"])}.html">abs</a>]']
    pdf = split_url(rec.get("paper_link") or "", HOST)
    if pdf:
        out.append(f'[<a href="{P}{esc(pdf)}" target="_blank">Download PDF</a>]')
    supp = split_url(rec.get("supp_link") or "", HOST)
    if supp:
        out.append(f'[<a href="{P}{esc(supp)}" target="_blank">Supplementary PDF</a>]')
    return "".join(out)


async def home(request: Request) -> Response:
    idx = INDEX.get()
    items = "\n".join(
        f'<li><a href="{P}/v{n}/">Volume {n}</a> {esc(v.conference)}</li>'
        for n, v in sorted(idx.volumes.items(), reverse=True)
    )
    body = f'<h2>Proceedings of Machine Learning Research</h2>\n<ul class="proceedings-list">\n{items}\n</ul>'
    return html_response(page("Proceedings of Machine Learning Research", _chrome(body), head=_HEAD))


async def volume_page(request: Request) -> Response:
    m = re.fullmatch(r"v(\d+)", request.path_params["vol"])
    idx = INDEX.get()
    vol = idx.volumes.get(int(m.group(1))) if m else None
    if vol is None:
        return not_found(request, HOST)
    text = idx.rendered.get(vol.number)
    if text is None:
        papers = "\n".join(
            f'<div class="paper"><p class="title">{esc(r["title"])}</p><p class="details">'
            f'<span class="authors">{esc(display_authors(r["authors"]))}</span>; {_info(r)}</p>'
            f'<p class="links">{_links(r)}</p></div>'
            for r in vol.papers
        )
        body = (
            f"<h1>Volume {vol.number}: International Conference on Machine Learning, {vol.year}</h1>\n"
            f'<h2 class="booktitle">{esc(vol.conference)}</h2>\n'
            f'<p class="track">Main Conference Track</p>\n{papers}'
        )
        text = idx.rendered[vol.number] = page(
            f"Proceedings of Machine Learning Research | PMLR {vol.number}", _chrome(body), head=_HEAD
        )
    return html_response(text)


def bibtex_text(rec: dict) -> str:
    return (
        f"@InProceedings{{pmlr-v{rec['_vol']}-{rec['_id']},\n"
        f"  title = \t {{{bib_value(rec['title'])}}},\n"
        f"  author =       {{{bib_value(rec['authors'])}}},\n"
        f"  booktitle = \t {{{rec['conference']}}},\n"
        f"  year = \t {{{rec['year']}}},\n"
        f"  series = \t {{Proceedings of Machine Learning Research}},\n"
        f"  volume = \t {{{rec['_vol']}}},\n"
        f"  publisher =    {{PMLR}},\n"
        f"  pdf = \t {{{rec['paper_link']}}},\n"
        f"  url = \t {{https://{HOST}/v{rec['_vol']}/{rec['_id']}.html}}\n}}"
    )


def _paper_page(rec: dict) -> str:
    body = (
        '<article class="post-content">'
        f"<h1>{esc(rec['title'])}</h1>\n"
        f'<span class="authors">{esc(display_authors(rec["authors"]))}</span>\n'
        f'<div class="abstract">{esc(rec["abstract"])}</div>\n'
        f'<div id="extras"><h4>Cite this Paper</h4><div id="info">{_info(rec)}</div>'
        f'<p class="links">{_links(rec)}</p>'
        f'<h4>BibTeX</h4><pre><code class="bibtex">{esc(bibtex_text(rec))}</code></pre>'
        '<button onclick="copyBib()">Copy to Clipboard</button></div></article>'
    )
    return page(rec["title"], _chrome(body), head=_HEAD)


async def paper_page(request: Request) -> Response:
    m = re.fullmatch(r"v(\d+)", request.path_params["vol"])
    idx = INDEX.get()
    rec = idx.pages.get((int(m.group(1)), request.path_params["pid"])) if m else None
    if rec is None:
        return not_found(request, HOST)
    return html_response(_paper_page(rec))


files = file_handler(HOST, INDEX)


def routes(ctx) -> list[BaseRoute]:
    return mounted(
        P,
        Route("/", home),
        Route("/{vol}/", volume_page),
        Route("/{vol}/{pid}.html", paper_page),
        Route("/{path:path}", files),
    )
