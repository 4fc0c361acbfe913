"""www.ecva.net imitation: one ``papers.php`` listing every ECCV year → paper pages (ECCV).

URL shapes as on the real site (under ``/www.ecva.net``): ``/papers.php`` (an accordion per year,
``dt.ptitle`` + authors ``dd`` + links ``dd``, with *relative* links like the real page),
``/papers/eccv_<year>/papers_ECCV/html/<name>.php`` (title, authors, abstract, links; relative
``../papers/`` links), and the stored PDF/supplement paths under ``papers/eccv_<year>/papers_ECCV/papers/``.
A 2018 paper page is named after its PDF (``<stem>.php``); later years use ``<n>_ECCV_<year>_paper.php``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from prefect_autodata.sandbox.sites._html import (
    LazyIndex,
    esc,
    file_handler,
    html_response,
    mounted,
    page,
    papers_for,
    register_files,
    split_url,
)

HOST = "www.ecva.net"
P = f"/{HOST}"
SITEMAP = [("ECVA: ECCV papers (www.ecva.net)", f"{P}/papers.php")]


def html_name(rec: dict, pdf_path: str) -> str:
    """The paper page's path for a stored PDF path (see module docstring)."""
    folder, _, name = pdf_path.rpartition("/papers/")
    stem = name[:-4] if name.endswith(".pdf") else name
    page_name = (
        f"{stem}.php" if stem.endswith("_paper") else f"{int(rec['idx']) + 1}_ECCV_{rec['year']}_paper.php"
    )
    return f"{folder}/html/{page_name}"


@dataclass
class _Index:
    years: dict[int, list[dict]] = field(default_factory=dict)
    pages: dict[str, dict] = field(default_factory=dict)
    files: dict[str, tuple[str, dict]] = field(default_factory=dict)
    rendered: dict[str, str] = field(default_factory=dict)


def _build() -> _Index:
    idx = _Index()
    for rec in papers_for("ECCV"):
        pdf = split_url(rec.get("paper_link") or "", HOST)
        if not pdf or "/papers/" not in pdf:
            continue
        rec = dict(rec)
        rec["_html"] = html_name(rec, pdf)
        if rec["_html"] in idx.pages:
            continue
        idx.pages[rec["_html"]] = rec
        idx.years.setdefault(rec["year"], []).append(rec)
        register_files(idx.files, rec, HOST, ("paper_link", "supp_link", "bibtex_link"))
    return idx


INDEX: LazyIndex[_Index] = LazyIndex(_build)

_HEAD = (
    '<link rel="stylesheet" href="/www.ecva.net/css/bootstrap.min.css">\n'
    '<link rel="stylesheet" href="/www.ecva.net/css/style.css">\n'
    '<script src="/www.ecva.net/js/jquery.min.js"></script>\n'
    "<script>document.addEventListener('DOMContentLoaded',function(){document.querySelectorAll('.accordion')"
    ".forEach(function(b){b.addEventListener('click',function(){this.classList.toggle('active');"
    "var p=this.nextElementSibling;p.style.display=p.style.display==='block'?'none':'block';});});});</script>"
)


def _chrome(content: str) -> str:
    header = (
        '<header id="header"><div class="container"><div id="logo" class="pull-left">'
        f'<a href="{P}/index.php"><img src="{P}/img/ecva_logo.png" alt="ECVA"></a></div>'
        '<nav id="nav-menu-container"><ul class="nav-menu">'
        f'<li><a href="{P}/index.php">Home</a></li><li><a href="{P}/papers.php">Papers</a></li>'
        f'<li><a href="{P}/conferences.php">Conferences</a></li><li><a href="{P}/about.php">About</a></li>'
        "</ul></nav></div></header>"
    )
    footer = (
        '<footer id="footer"><div class="container"><div class="copyright">&copy; Copyright '
        "<strong>European Computer Vision Association (ECVA)</strong>. All Rights Reserved</div></div></footer>"
    )
    return f'{header}\n<section id="main"><div class="container">\n{content}\n</div></section>\n{footer}'


def _rel(path: str, base_dir: str) -> str:
    """A link relative to ``base_dir`` (both real-site paths), as the real pages write them."""
    if path.startswith(base_dir):
        return path[len(base_dir) :]
    return P + path


def _links(rec: dict, base_dir: str, up: bool) -> str:
    out = []
    for col, label in (("paper_link", "pdf"), ("supp_link", "supplementary material")):
        path = split_url(rec.get(col) or "", HOST)
        if not path:
            continue
        href = "../papers/" + path.rpartition("/papers/")[2] if up else _rel(path, base_dir)
        out.append(f"[<a href='{esc(href)}'>{label}</a>]")
    return "\n".join(out)


async def papers_php(request: Request) -> Response:
    idx = INDEX.get()
    text = idx.rendered.get("papers.php")
    if text is None:
        sections = []
        for year in sorted(idx.years, reverse=True):
            recs = idx.years[year]
            entries = "\n".join(
                f'<dt class="ptitle"><br><a href="{esc(r["_html"][1:])}">{esc(r["title"])}</a></dt>\n'
                f"<dd>\n{esc(r['authors'])}\n</dd>\n<dd>\n{_links(r, '/', False)}\n</dd>"
                for r in recs
            )
            sections.append(
                f'<button class="accordion">ECCV {year} Papers</button>\n<div class="accordion-content" '
                f'id="eccv-{year}"><p class="conference">{esc(recs[0]["conference"])} &mdash; Main Conference '
                f'Track</p>\n<div id="content"><dl>\n{entries}\n</dl></div></div>'
            )
        body = '<h2 class="section-title">ECCV Papers</h2>\n' + "\n".join(sections)
        text = idx.rendered["papers.php"] = page(
            "ECVA | European Computer Vision Association", _chrome(body), head=_HEAD
        )
    return html_response(text)


async def home(request: Request) -> Response:
    idx = INDEX.get()
    years = "".join(f"<li>ECCV {y}: {len(idx.years[y])} papers</li>" for y in sorted(idx.years, reverse=True))
    body = (
        '<h2 class="section-title">European Computer Vision Association</h2>'
        "<p>ECVA organises the European Conference on Computer Vision (ECCV) and hosts its open-access "
        f'proceedings.</p><p><a class="btn-get-started" href="{P}/papers.php">Browse the ECCV papers</a></p>'
        f"<ul>{years}</ul>"
    )
    return html_response(page("ECVA | European Computer Vision Association", _chrome(body), head=_HEAD))


def _paper_page(rec: dict) -> str:
    body = (
        '<div id="content"><dl><dd>'
        f'<div id="papertitle">{esc(rec["title"])}</div>'
        f'<div id="authors"><br><b><i>{esc(rec["authors"])}</i></b>; {esc(rec["conference"])}</div>'
        f'<font size="5"><br><b>Abstract</b></font><br><br><div id="abstract">{esc(rec["abstract"])}</div>'
        f'<font size="5"><br><b>Related Material</b></font><br><br>\n{_links(rec, "", True)}\n'
        "</dd></dl></div>"
    )
    return page("ECVA | European Computer Vision Association", _chrome(body), head=_HEAD)


catch_all = file_handler(HOST, INDEX, paper_page=_paper_page)


def routes(ctx) -> list[BaseRoute]:
    return mounted(
        P,
        Route("/", home),
        Route("/index.php", home),
        Route("/papers.php", papers_php),
        Route("/{path:path}", catch_all),
    )
