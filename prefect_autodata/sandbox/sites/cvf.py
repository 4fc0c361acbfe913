"""openaccess.thecvf.com imitation: CVPR/ICCV menu → day or all listings → paper pages.

URL shapes as on the real site (under ``/openaccess.thecvf.com``): ``/menu`` (every conference),
``/<CONF><YEAR>`` (2018+: day links; ``?day=<YYYY-MM-DD>`` or ``?day=all`` for a listing; older years
list everything; ``.py`` suffix accepted as the old site used it), paper pages at the ``html``
sibling of the stored PDF path (``/content/CVPR2021/html/<stem>.html``,
``/content_cvpr_2013/html/<stem>.html``), and the PDF/supplemental paths from the ground truth.
Listings carry each paper's BibTeX inline in a hidden ``div.bibref`` toggled by script.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from prefect_autodata.sandbox.sites._html import (
    LazyIndex,
    bib_value,
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

HOST = "openaccess.thecvf.com"
P = f"/{HOST}"
SITEMAP = [("CVF Open Access (openaccess.thecvf.com)", f"{P}/menu")]

# First day of the main conference (the real listings split papers by presentation day from 2018 on).
START_DAYS = {
    ("CVPR", 2018): "2018-06-19",
    ("CVPR", 2019): "2019-06-18",
    ("CVPR", 2020): "2020-06-16",
    ("CVPR", 2021): "2021-06-21",
    ("CVPR", 2022): "2022-06-21",
    ("ICCV", 2019): "2019-10-29",
    ("ICCV", 2021): "2021-10-11",
}
N_DAYS = 3


@dataclass
class _Conf:
    abbr: str
    year: int
    conference: str
    papers: list[dict] = field(default_factory=list)
    days: dict[str, list[dict]] = field(default_factory=dict)


@dataclass
class _Index:
    confs: dict[str, _Conf] = field(default_factory=dict)
    pages: dict[str, dict] = field(default_factory=dict)
    files: dict[str, tuple[str, dict]] = field(default_factory=dict)
    rendered: dict[str, str] = field(default_factory=dict)


def html_path(pdf_path: str) -> str:
    """``/content/CVPR2021/papers/X.pdf`` → ``/content/CVPR2021/html/X.html`` (the real site's layout)."""
    head, _, name = pdf_path.rpartition("/papers/")
    return f"{head}/html/{name[:-4] if name.endswith('.pdf') else name}.html"


def _day_split(conf: _Conf) -> None:
    start = START_DAYS.get((conf.abbr, conf.year))
    if not start:
        return
    first = dt.date.fromisoformat(start)
    n = len(conf.papers)
    size = -(-n // N_DAYS) or 1
    for i in range(N_DAYS):
        chunk = conf.papers[i * size : (i + 1) * size]
        if chunk:
            conf.days[(first + dt.timedelta(days=i)).isoformat()] = chunk


def _build() -> _Index:
    idx = _Index()
    for rec in papers_for("CVPR", "ICCV"):
        pdf = split_url(rec.get("paper_link") or "", HOST)
        if not pdf or "/papers/" not in pdf:
            continue
        rec = dict(rec)
        rec["_html"] = html_path(pdf)
        if rec["_html"] in idx.pages:
            continue
        name = f"{rec['abbr']}{rec['year']}"
        conf = idx.confs.get(name)
        if conf is None:
            conf = idx.confs[name] = _Conf(rec["abbr"], rec["year"], rec["conference"])
        conf.papers.append(rec)
        idx.pages[rec["_html"]] = rec
        register_files(idx.files, rec, HOST, ("paper_link", "supp_link"))
    for conf in idx.confs.values():
        _day_split(conf)
    return idx


INDEX: LazyIndex[_Index] = LazyIndex(_build)

_HEAD = (
    '<link rel="stylesheet" type="text/css" href="/openaccess.thecvf.com/static/css/openaccess.css">\n'
    '<script type="text/javascript" src="/openaccess.thecvf.com/static/jquery/jquery-3.1.1.min.js"></script>\n'
    "<script>function toggleBib(el){$(el).siblings('.bibref').slideToggle();}</script>"
)


def _chrome(content: str) -> str:
    header = (
        f'<div id="header"><div id="header_left"><a href="{P}/menu">'
        f'<img src="{P}/img/cvf-logo.png" width="175" border="0" alt="CVF"></a></div>'
        '<div id="header_right"><div id="header_title"><a href="{P}/menu">CVF Open Access</a></div>'
        '<div id="search"><form action="#" method="post"><input type="text" name="query" '
        'placeholder="Search"></form></div></div></div><div class="clear"></div>'
    ).replace("{P}", P)
    footer = (
        '<div id="footer"><p>These papers are the Open Access versions, provided by the Computer Vision '
        "Foundation. Except for the watermark, they are identical to the accepted versions; the final "
        "published version of the proceedings is available on IEEE Xplore.</p>"
        "<p>Copyright &copy; Computer Vision Foundation. All rights reserved.</p></div>"
    )
    return f'{header}\n<div id="content">\n{content}\n</div>\n{footer}'


def booktitle(conference: str) -> str:
    """``IEEE/CVF Conference on ... (CVPR), 2021`` → ``Proceedings of the IEEE/CVF ... (CVPR)``."""
    return "Proceedings of the " + re.sub(r",\s*\d{4}$", "", conference)


def _bib_authors(authors: str) -> str:
    names = comma_names(authors)
    out = []
    for n in names:
        parts = n.split()
        out.append(f"{parts[-1]}, {' '.join(parts[:-1])}" if len(parts) > 1 else n)
    return " and ".join(out)


def bibtex_text(rec: dict) -> str:
    names = comma_names(rec["authors"])
    surname = re.sub(r"[^A-Za-z]", "", names[0].split()[-1]) if names else "Anonymous"
    return (
        f"@InProceedings{{{surname}_{rec['year']}_{rec['abbr']},\n"
        f"    author    = {{{bib_value(_bib_authors(rec['authors']))}}},\n"
        f"    title     = {{{bib_value(rec['title'])}}},\n"
        f"    booktitle = {{{booktitle(rec['conference'])}}},\n"
        f"    month     = {{{'June' if rec['abbr'] == 'CVPR' else 'October'}}},\n"
        f"    year      = {{{rec['year']}}}\n}}"
    )


def _links(rec: dict) -> str:
    out = []
    pdf = split_url(rec.get("paper_link") or "", HOST)
    if pdf:
        out.append(f'[<a href="{P}{esc(pdf)}">pdf</a>]')
    supp = split_url(rec.get("supp_link") or "", HOST)
    if supp:
        out.append(f'[<a href="{P}{esc(supp)}">supp</a>]')
    return "\n".join(out)


def _entry(rec: dict, listing: str) -> str:
    names = comma_names(rec["authors"])
    forms = "\n".join(
        f'<form id="form-{esc(re.sub(r"[^A-Za-z0-9]+", "-", n))}" action="{P}/{listing}" method="post" '
        f'class="authsearch"><input type="hidden" name="query_author" value="{esc(n)}">'
        f'<a href="#" onclick="$(this).parent().submit(); return false;">{esc(n)}</a>{"," if i < len(names) - 1 else ""}'
        "</form>"
        for i, n in enumerate(names)
    )
    return (
        f'<dt class="ptitle"><br><a href="{P}{esc(rec["_html"])}">{esc(rec["title"])}</a></dt>\n'
        f"<dd>\n{forms}\n</dd>\n<dd>\n{_links(rec)}\n"
        '<div class="link2">[<a class="fakelink" onclick="toggleBib(this)">bibtex</a>]\n'
        f'<div class="bibref pre-white-space" style="display:none">{esc(bibtex_text(rec))}</div></div>\n</dd>'
    )


def _bad_param(name: str, message: str) -> JSONResponse:
    return JSONResponse({"error": "BadRequest", "param": name, "message": message}, status_code=400)


async def menu(request: Request) -> Response:
    idx = INDEX.get()
    rows = "\n".join(
        f"<dt>{esc(c.abbr)} {c.year}</dt><dd>"
        f'<a href="{P}/{name}{"?day=all" if c.days else ""}">Main Conference</a></dd>'
        for name, c in sorted(idx.confs.items(), key=lambda kv: (-kv[1].year, kv[1].abbr))
    )
    body = f'<h3>Open Access Menu</h3>\n<dl class="menu">\n{rows}\n</dl>'
    return html_response(page("CVF Open Access", _chrome(body), head=_HEAD))


async def listing(request: Request) -> Response:
    m = re.fullmatch(r"([A-Z]+\d{4})(\.py)?", request.path_params["name"])
    idx = INDEX.get()
    conf = idx.confs.get(m.group(1)) if m else None
    if conf is None:
        return not_found(request, HOST)
    name = m.group(1)
    unknown = set(request.query_params) - {"day"}
    if unknown:
        return _bad_param(sorted(unknown)[0], f"unknown query parameter {sorted(unknown)[0]!r}")
    day = request.query_params.get("day")
    if day is not None and day != "all" and day not in conf.days:
        allowed = ", ".join(["all", *conf.days]) if conf.days else "all"
        return _bad_param("day", f"day must be one of: {allowed}; got {day!r}")
    title = f"{conf.abbr} {conf.year} open access"
    intro = (
        f'<div id="content_title"><h3>{esc(title)}</h3></div>\n'
        f"<p>These {esc(conf.abbr)} {conf.year} papers are the Open Access versions, provided by the "
        f'<a href="https://www.thecvf.com/">Computer Vision Foundation.</a> Except for the watermark, they '
        "are identical to the accepted versions; the final published version of the proceedings is "
        "available on IEEE Xplore.</p>\n"
        f"<p>{esc(conf.conference)} &mdash; Main Conference Track</p>"
    )
    if conf.days and day is None:
        links = "\n".join(
            f'<dd><a href="{P}/{name}?day={d}">Day {i + 1}: {d}</a></dd>' for i, d in enumerate(conf.days)
        )
        body = f'{intro}\n<dl>\n{links}\n<dd><a href="{P}/{name}?day=all">All Papers</a></dd>\n</dl>'
        return html_response(
            page(f"{conf.abbr} {conf.year} Open Access Repository", _chrome(body), head=_HEAD)
        )
    key = f"{name}|{day or 'all'}"
    text = idx.rendered.get(key)
    if text is None:
        recs = conf.papers if day in (None, "all") else conf.days[day]
        entries = "\n".join(_entry(r, name) for r in recs)
        body = f"{intro}\n<dl>\n{entries}\n</dl>"
        text = idx.rendered[key] = page(
            f"{conf.abbr} {conf.year} Open Access Repository", _chrome(body), head=_HEAD
        )
    return html_response(text)


def _paper_page(rec: dict) -> str:
    body = (
        f'<dl><dd><div id="papertitle">{esc(rec["title"])}</div>'
        f'<div id="authors"><br><b><i>{esc(rec["authors"])}</i></b>; Proceedings of the {esc(rec["conference"])}</div>'
        f'<font size="5"><br><b>Abstract</b></font><br><br><div id="abstract">{esc(rec["abstract"])}</div>'
        f'<font size="5"><br><b>Related Material</b></font><br><br>\n{_links(rec)}\n'
        '<div class="link2">[<a class="fakelink" onclick="toggleBib(this)">bibtex</a>]'
        f'<div class="bibref pre-white-space">{esc(bibtex_text(rec))}</div></div></dd></dl>'
    )
    return page(f"{rec['abbr']} {rec['year']} Open Access Repository", _chrome(body), head=_HEAD)


catch_all = file_handler(HOST, INDEX, paper_page=_paper_page)


def routes(ctx) -> list[BaseRoute]:
    return mounted(
        P,
        Route("/", menu),
        Route("/menu", menu),
        Route("/{name:str}", listing),
        Route("/{path:path}", catch_all),
    )
