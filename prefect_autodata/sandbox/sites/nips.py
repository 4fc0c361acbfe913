"""papers.nips.cc imitation: year index → abstract pages with Bibtex/Paper/Supplemental links.

URL shapes as on the real site (under ``/papers.nips.cc``): ``/`` (all years),
``/paper_files/paper/<year>`` (one ``<li>`` per paper: title link + authors in ``<i>``),
``/paper_files/paper/<year>/hash/<hash>-Abstract.html`` (title, "Part of <conference> <track>",
buttons, authors, abstract), and the file URLs stored in the ground truth (``-Paper.pdf``,
``-Bibtex.bib``, ``-Supplemental.zip|pdf``, and the 2020 quirk ``/paper_files/paper/<n>-/bibtex``).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from prefect_autodata.sandbox.sites._html import (
    FILE_KINDS,
    LazyIndex,
    bib_value,
    cite_key,
    comma_names,
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

HOST = "papers.nips.cc"
P = f"/{HOST}"
SITEMAP = [("NeurIPS Proceedings (papers.nips.cc)", f"{P}/")]

_HASH = re.compile(r"/file/([0-9a-f]{32})-")


@dataclass
class _Index:
    years: dict[int, list[dict]] = field(default_factory=dict)
    by_hash: dict[tuple[int, str], dict] = field(default_factory=dict)
    files: dict[str, tuple[str, dict]] = field(default_factory=dict)
    conference: dict[int, str] = field(default_factory=dict)


def paper_hash(rec: dict) -> str:
    """The 32-hex id the real site uses in every URL of a paper (from its file links)."""
    for col in ("paper_link", "bibtex_link", "supp_link"):
        m = _HASH.search(rec.get(col) or "")
        if m:
            return m.group(1)
    return hashlib.md5(f"{rec['year']}|{rec['title']}".encode()).hexdigest()


def abstract_path(rec: dict) -> str:
    return f"{P}/paper_files/paper/{rec['year']}/hash/{rec['_hash']}-Abstract.html"


def _build() -> _Index:
    idx = _Index()
    for rec in papers_for("NeurIPS"):
        rec = dict(rec)
        rec["_hash"] = paper_hash(rec)
        key = (rec["year"], rec["_hash"])
        if key in idx.by_hash:  # the real site has one page per hash; keep the first record
            continue
        idx.by_hash[key] = rec
        idx.years.setdefault(rec["year"], []).append(rec)
        idx.conference.setdefault(rec["year"], rec["conference"])
        register_files(idx.files, rec, HOST, FILE_KINDS)
    return idx


INDEX: LazyIndex[_Index] = LazyIndex(_build)

_HEAD = (
    '<link rel="stylesheet" href="/papers.nips.cc/static/css/bootstrap.min.css">\n'
    '<link rel="stylesheet" href="/papers.nips.cc/static/css/nips.css">\n'
    '<script src="/papers.nips.cc/static/js/jquery.min.js"></script>\n'
    "<script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);}</script>"
)


def _chrome(content: str) -> str:
    nav = (
        '<nav class="navbar navbar-expand-md navbar-dark bg-dark fixed-top">'
        f'<a class="navbar-brand" href="{P}/">NeurIPS Proceedings</a>'
        '<div class="collapse navbar-collapse"><ul class="navbar-nav mr-auto">'
        f'<li class="nav-item"><a class="nav-link" href="{P}/">Books</a></li>'
        f'<li class="nav-item"><a class="nav-link" href="{P}/admin/login">Login</a></li>'
        '</ul><form class="form-inline" action="/papers.nips.cc/papers/search" method="get">'
        '<input class="form-control" type="search" name="q" placeholder="Search"></form></div></nav>'
    )
    footer = (
        '<footer class="footer"><div class="container"><p class="text-muted">'
        "Do not remove: This comment is monitored to verify that the site is working properly</p>"
        "<p>&copy; NeurIPS Foundation</p></div></footer>"
    )
    return f'{nav}\n<main class="container-fluid">\n<div class="container">\n{content}\n</div>\n</main>\n{footer}'


async def home(request: Request) -> Response:
    idx = INDEX.get()
    items = "\n".join(
        f'<li><a href="{P}/paper_files/paper/{y}">{esc(idx.conference[y])}</a></li>'
        for y in sorted(idx.years, reverse=True)
    )
    body = f'<h3>Proceedings of the Neural Information Processing Systems Conference</h3>\n<ul class="paper-list">\n{items}\n</ul>'
    return html_response(page("NeurIPS Proceedings", _chrome(body), head=_HEAD))


async def year_index(request: Request) -> Response:
    year = request.path_params["year"]
    recs = INDEX.get().years.get(year)
    if not recs:
        return not_found(request, HOST)
    conf = recs[0]["conference"]
    items = "\n".join(
        f'<li class="conference"><div class="paper-content">'
        f'<a title="paper title" href="{abstract_path(r)}">{esc(r["title"])}</a>'
        f'<span class="paper-authors"><i>{esc(r["authors"])}</i></span></div></li>'
        for r in recs
    )
    body = (
        f"<h4>{esc(conf)}</h4>\n"
        '<div class="btn-group" role="group">'
        f'<a class="btn btn-light btn-spacer" href="{P}/paper_files/paper/{year}">Main Conference Track</a></div>\n'
        f'<ul class="paper-list">\n{items}\n</ul>'
    )
    return html_response(page(f"NeurIPS {year}", _chrome(body), head=_HEAD))


def _buttons(rec: dict) -> str:
    out = []
    for col, label in (("bibtex_link", "Bibtex"), ("paper_link", "Paper"), ("supp_link", "Supplemental")):
        path = split_url(rec.get(col) or "", HOST)
        if path:
            out.append(f'<a class="btn btn-light btn-spacer" role="button" href="{P}{esc(path)}">{label}</a>')
    return "\n".join(out)


async def abstract_page(request: Request) -> Response:
    year = request.path_params["year"]
    rec = INDEX.get().by_hash.get((year, request.path_params["hash"]))
    if rec is None:
        return not_found(request, HOST)
    abstract = rec["abstract"]
    body = (
        '<div class="col p-3">\n'
        f'<h4 class="paper-title">{esc(rec["title"])}</h4>\n'
        f'<p class="paper-part">Part of <a href="{P}/paper_files/paper/{year}">{esc(rec["conference"])}</a> '
        f'<span class="paper-track">{esc(rec["track"])}</span></p>\n'
        f'<div class="paper-buttons">\n{_buttons(rec)}\n</div>\n'
        f'<h4>Authors</h4>\n<p class="paper-authors"><i>{esc(rec["authors"])}</i></p>\n'
        f'<h4>Abstract</h4>\n<p class="paper-abstract">{esc(abstract)}</p>\n'
        "</div>"
    )
    return html_response(page(rec["title"], _chrome(body), head=_HEAD))


def bibtex_text(rec: dict) -> str:
    authors = " and ".join(comma_names(rec["authors"]))
    return (
        f"@inproceedings{{{cite_key(authors, rec['year'], rec['title'])},\n"
        f" author = {{{bib_value(authors)}}},\n"
        f" booktitle = {{Advances in Neural Information Processing Systems}},\n"
        f" publisher = {{Curran Associates, Inc.}},\n"
        f" title = {{{bib_value(rec['title'])}}},\n"
        f" url = {{https://{HOST}/paper_files/paper/{rec['year']}/hash/{rec['_hash']}-Abstract.html}},\n"
        f" year = {{{rec['year']}}}\n}}\n"
    )


files = file_handler(HOST, INDEX, bibtex=bibtex_text)


def routes(ctx) -> list[BaseRoute]:
    return mounted(
        P,
        Route("/", home),
        Route("/paper_files/paper/{year:int}", year_index),
        Route("/paper_files/paper/{year:int}/hash/{hash}-Abstract.html", abstract_page),
        Route("/{path:path}", files),
    )
