"""aclanthology.org imitation: venue → event → volume → paper pages (ACL, EMNLP, NAACL).

URL shapes as on the real site (under ``/aclanthology.org``): ``/venues/<venue>/``,
``/events/<venue>-<year>/`` (every volume of the event with its papers), ``/volumes/<volume id>/``,
``/<anthology id>/`` (paper page: title, authors, abstract, metadata list, inline BibTeX),
``/<anthology id>.pdf`` and ``/<anthology id>.bib``. The volume title is the conference full name
(it encodes the track, e.g. "(Volume 1: Long Papers)" or "Findings of ..."); the paper page's
metadata list also states the track explicitly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from prefect_autodata.sandbox.sites._html import (
    FILE_KINDS,
    LazyIndex,
    display_names,
    esc,
    file_hit,
    html_response,
    mounted,
    not_found,
    page,
    papers_for,
    register_files,
    split_url,
)

HOST = "aclanthology.org"
P = f"/{HOST}"
VENUES = {"acl": "ACL", "emnlp": "EMNLP", "naacl": "NAACL"}
VENUE_NAMES = {
    "acl": "Annual Meeting of the Association for Computational Linguistics",
    "emnlp": "Conference on Empirical Methods in Natural Language Processing",
    "naacl": "North American Chapter of the Association for Computational Linguistics",
}
SITEMAP = [("ACL Anthology (aclanthology.org)", f"{P}/")]

_OLD_ID = re.compile(r"^([A-Z])(\d\d)-(\d{4})$")
_NEW_ID = re.compile(r"^(\d{4}\.[a-z0-9-]+)\.(\d+)$")


def anthology_id(rec: dict) -> str | None:
    for col, ext in (("paper_link", ".pdf"), ("bibtex_link", ".bib")):
        path = split_url(rec.get(col) or "", HOST)
        if path and path.endswith(ext):
            return path[1 : -len(ext)]
    return None


def volume_id(anth_id: str) -> str:
    """``2023.acl-long.1`` → ``2023.acl-long``; ``P79-1001`` → ``P79-1``; ``W96-0201`` → ``W96-02``."""
    m = _NEW_ID.match(anth_id)
    if m:
        return m.group(1)
    m = _OLD_ID.match(anth_id)
    if m:
        width = 2 if m.group(1) == "W" else 1
        return f"{m.group(1)}{m.group(2)}-{m.group(3)[:width]}"
    return anth_id.rsplit("-", 1)[0] if "-" in anth_id else anth_id


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "anonymous"


@dataclass
class _Volume:
    vid: str
    title: str
    venue: str
    year: int
    track: str
    papers: list[dict] = field(default_factory=list)


@dataclass
class _Index:
    papers: dict[str, dict] = field(default_factory=dict)
    volumes: dict[str, _Volume] = field(default_factory=dict)
    events: dict[tuple[str, int], list[str]] = field(default_factory=dict)
    files: dict[str, tuple[str, dict]] = field(default_factory=dict)
    rendered: dict[str, str] = field(default_factory=dict)


def _build() -> _Index:
    idx = _Index()
    for rec in papers_for(*VENUES.values()):
        aid = anthology_id(rec)
        if aid is None or aid in idx.papers:
            continue
        rec = dict(rec)
        rec["_id"] = aid
        venue = rec["abbr"].lower()
        vid = volume_id(aid)
        # one anthology volume per (id prefix, venue, title): old shared ids (e.g. H05-1) may serve two venues
        key = vid if vid not in idx.volumes or idx.volumes[vid].venue == venue else f"{vid}.{venue}"
        vol = idx.volumes.get(key)
        if vol is None:
            vol = idx.volumes[key] = _Volume(key, rec["conference"], venue, rec["year"], rec["track"])
            idx.events.setdefault((venue, rec["year"]), []).append(key)
        rec["_volume"] = key
        vol.papers.append(rec)
        idx.papers[aid] = rec
        register_files(idx.files, rec, HOST, FILE_KINDS)
    return idx


INDEX: LazyIndex[_Index] = LazyIndex(_build)

_HEAD = (
    '<link rel="stylesheet" href="/aclanthology.org/css/main.min.css">\n'
    '<link rel="icon" href="/aclanthology.org/aclicon.ico">\n'
    '<script src="/aclanthology.org/js/jquery-3.3.1.slim.min.js"></script>\n'
    '<script src="/aclanthology.org/js/bootstrap.min.js"></script>'
)


def _chrome(content: str) -> str:
    nav = (
        '<nav class="navbar navbar-expand-sm navbar-light bg-light bg-gradient-light shadow-sm py-0 mb-3 '
        'mb-md-4 mb-xl-5"><div id="navbar-container" class="container">'
        f'<a class="navbar-brand" href="{P}/"><img src="{P}/images/acl-logo.svg" width="56" alt="ACL Logo">'
        '<span class="d-none d-md-inline pl-md-2">ACL Anthology</span></a>'
        '<div class="collapse navbar-collapse" id="navbarSupportedContent"><ul class="navbar-nav mr-auto">'
        f'<li class="nav-item"><a class="nav-link" href="{P}/faq/">FAQ</a></li>'
        f'<li class="nav-item"><a class="nav-link" href="{P}/info/corrections/">Corrections</a></li>'
        f'<li class="nav-item"><a class="nav-link" href="{P}/info/contrib/">Submissions</a></li></ul>'
        f'<form class="form-inline my-2 my-lg-0" action="{P}/search/" method="get">'
        '<input id="acl-search-box" class="form-control mr-sm-2" name="q" type="search" '
        'placeholder="Search..."></form></div></div></nav>'
    )
    footer = (
        '<footer class="bg-gradient-light py-2 py-xl-3 mt-3 mt-md-4 mt-xl-5"><div class="container">'
        '<p class="text-muted small px-1">ACL materials are Copyright &copy; 1963&ndash;2025 ACL; other '
        "materials are copyrighted by their respective copyright holders. Materials prior to 2016 here are "
        "licensed under the Creative Commons Attribution-NonCommercial-ShareAlike 3.0 International License. "
        "Permission is granted to make copies for the purposes of teaching and research.</p>"
        '<p class="text-muted small px-1">The ACL Anthology is managed and built by the ACL Anthology team '
        "of volunteers.</p></div></footer>"
    )
    return f'{nav}\n<div id="main-container" class="container">\n{content}\n</div>\n{footer}'


def _authors_html(rec: dict, sep: str = ",\n") -> str:
    return sep.join(f'<a href="{P}/people/{_slug(n)}/">{esc(n)}</a>' for n in display_names(rec["authors"]))


def bibtex_text(rec: dict) -> str:
    """The record as the anthology's BibTeX (author list verbatim, one field per line)."""
    aid = rec["_id"]
    first = display_names(rec["authors"])
    key = re.sub(r"[^a-z0-9]", "", (first[0].split()[-1] if first else "anonymous").lower())
    word = next((w.lower() for w in re.findall(r"[A-Za-z]+", rec["title"]) if len(w) > 3), "paper")
    lines = [
        f"@inproceedings{{{key}-etal-{rec['year']}-{word},",
        f'    title = "{rec["title"]}",',
        f'    author = "{rec["authors"]}",',
        f'    booktitle = "{rec["conference"]}",',
        f'    year = "{rec["year"]}",',
        '    publisher = "Association for Computational Linguistics",',
        f'    url = "https://{HOST}/{aid}/",',
    ]
    if rec.get("abstract"):
        lines.append(f'    abstract = "{rec["abstract"]}",')
    lines.append("}")
    return "\n".join(lines) + "\n"


def _paper_row(rec: dict) -> str:
    aid = rec["_id"]
    anchor = aid.replace(".", "--")
    buttons = []
    for col, label, cls in (("paper_link", "pdf", "primary"), ("bibtex_link", "bib", "secondary")):
        path = split_url(rec.get(col) or "", HOST)
        if path:
            buttons.append(
                f'<a class="badge badge-{cls} align-middle mr-1" href="{P}{esc(path)}">{label}</a>'
            )
    if rec.get("abstract"):
        buttons.append(
            f'<a class="badge badge-info align-middle mr-1" href="#abstract-{anchor}" data-toggle="collapse" '
            f'aria-expanded="false" title="Show Abstract">abs</a>'
        )
    row = (
        '<p class="d-sm-flex align-items-stretch">'
        f'<span class="d-block mr-2 text-nowrap list-button-row">{"".join(buttons)}</span>'
        f'<span class="d-block"><strong><a class="align-middle" href="{P}/{aid}/">{esc(rec["title"])}</a></strong>'
        f"<br>{_authors_html(rec, sep=' | ')}</span></p>"
    )
    if rec.get("abstract"):
        row += (
            f'<div class="card bg-light mb-2 mb-lg-3 collapse abstract-collapse" id="abstract-{anchor}">'
            f'<div class="card-body p-3 small">{esc(rec["abstract"])}</div></div>'
        )
    return row


def _volume_block(vol: _Volume) -> str:
    rows = "\n".join(_paper_row(r) for r in vol.papers)
    return (
        f'<div id="{esc(vol.vid)}"><h4 class="d-sm-flex pb-2 border-bottom">'
        f'<a class="align-middle" href="{P}/volumes/{esc(vol.vid)}/">{esc(vol.title)}</a></h4>\n{rows}\n</div>'
    )


async def home(request: Request) -> Response:
    idx = INDEX.get()
    rows = []
    for venue, abbr in VENUES.items():
        years = sorted({y for (v, y) in idx.events if v == venue}, reverse=True)
        if not years:
            continue
        links = " ".join(f'<a href="{P}/events/{venue}-{y}/">{y}</a>' for y in years)
        rows.append(f'<tr><th scope="row"><a href="{P}/venues/{venue}/">{abbr}</a></th><td>{links}</td></tr>')
    body = (
        '<section id="main"><h2 id="title">ACL Anthology</h2>'
        "<p>The ACL Anthology currently hosts papers on the study of computational linguistics "
        "and natural language processing.</p>"
        f'<table class="table table-hover table-sm"><tbody>{"".join(rows)}</tbody></table></section>'
    )
    return html_response(page("ACL Anthology", _chrome(body), head=_HEAD))


async def venue_page(request: Request) -> Response:
    venue = request.path_params["venue"]
    idx = INDEX.get()
    years = sorted({y for (v, y) in idx.events if v == venue}, reverse=True)
    if not years:
        return not_found(request, HOST)
    items = "\n".join(
        f'<li><a href="{P}/events/{venue}-{y}/">{VENUES[venue]} {y}</a><ul>'
        + "".join(
            f'<li><a href="{P}/volumes/{esc(v)}/">{esc(idx.volumes[v].title)}</a></li>'
            for v in idx.events[(venue, y)]
        )
        + "</ul></li>"
        for y in years
    )
    body = (
        f'<section id="main"><h2 id="title">{esc(VENUE_NAMES[venue])} ({VENUES[venue]})</h2>'
        f'<ul class="list-unstyled">{items}</ul></section>'
    )
    return html_response(
        page(f"{VENUE_NAMES[venue]} ({VENUES[venue]}) - ACL Anthology", _chrome(body), head=_HEAD)
    )


async def event_page(request: Request) -> Response:
    m = re.fullmatch(r"([a-z]+)-(\d{4})", request.path_params["event"])
    idx = INDEX.get()
    vids = idx.events.get((m.group(1), int(m.group(2)))) if m else None
    if not vids:
        return not_found(request, HOST)
    key = f"event:{request.path_params['event']}"
    text = idx.rendered.get(key)
    if text is None:
        venue, year = m.group(1), m.group(2)
        toc = "".join(
            f'<li><a class="align-middle" href="#{esc(v)}">{esc(idx.volumes[v].title)}</a>'
            f' <span class="badge badge-info align-middle ml-1">{len(idx.volumes[v].papers)}&nbsp;papers</span></li>'
            for v in vids
        )
        blocks = "\n".join(_volume_block(idx.volumes[v]) for v in vids)
        body = (
            f'<section id="main"><h2 id="title">{VENUES[venue]} {year}</h2>'
            f'<div class="card bg-light mb-2 mb-lg-3"><div class="card-body"><h4 class="card-title">'
            f'Volumes</h4><ul class="list-pl-responsive">{toc}</ul></div></div>\n{blocks}</section>'
        )
        text = idx.rendered[key] = page(
            f"Annual Meeting of the {VENUES[venue]} ({year}) - ACL Anthology", _chrome(body), head=_HEAD
        )
    return html_response(text)


async def volume_page(request: Request) -> Response:
    idx = INDEX.get()
    vol = idx.volumes.get(request.path_params["vid"])
    if vol is None:
        return not_found(request, HOST)
    key = f"volume:{vol.vid}"
    text = idx.rendered.get(key)
    if text is None:
        body = (
            f'<section id="main"><h2 id="title"><a href="{P}/volumes/{esc(vol.vid)}/">{esc(vol.title)}</a></h2>'
            '<div class="row acl-paper-details"><div class="col"><dl>'
            f"<dt>Anthology ID:</dt><dd>{esc(vol.vid)}</dd>"
            f"<dt>Year:</dt><dd>{vol.year}</dd>"
            f'<dt>Venue:</dt><dd><a href="{P}/venues/{vol.venue}/">{VENUES[vol.venue]}</a></dd>'
            f"<dt>Track:</dt><dd>{esc(vol.track)}</dd>"
            f'<dt>URL:</dt><dd><a href="{P}/volumes/{esc(vol.vid)}/">https://{HOST}/volumes/{esc(vol.vid)}/</a></dd>'
            f"</dl></div></div>\n{_volume_block(vol)}</section>"
        )
        text = idx.rendered[key] = page(f"{vol.title} - ACL Anthology", _chrome(body), head=_HEAD)
    return html_response(text)


def _paper_page(rec: dict) -> str:
    aid = rec["_id"]
    vol_link = f'<a href="{P}/volumes/{esc(rec["_volume"])}/">{esc(rec["conference"])}</a>'
    pdf = split_url(rec.get("paper_link") or "", HOST)
    title_html = f'<a href="{P}{esc(pdf)}">{esc(rec["title"])}</a>' if pdf else esc(rec["title"])
    abstract = (
        '<div class="card bg-light mb-2 mb-lg-3"><div class="card-body acl-abstract">'
        f'<h5 class="card-title">Abstract</h5><span>{esc(rec["abstract"])}</span></div></div>'
        if rec.get("abstract")
        else ""
    )
    dl = [
        f"<dt>Anthology ID:</dt><dd>{esc(aid)}</dd>",
        f"<dt>Volume:</dt><dd>{vol_link}</dd>",
        f"<dt>Year:</dt><dd>{rec['year']}</dd>",
        f'<dt>Venue:</dt><dd><a href="{P}/venues/{rec["abbr"].lower()}/">{esc(rec["abbr"])}</a></dd>',
        f"<dt>Track:</dt><dd>{esc(rec['track'])}</dd>",
        "<dt>Publisher:</dt><dd>Association for Computational Linguistics</dd>",
        f'<dt>URL:</dt><dd><a href="{P}/{esc(aid)}/">https://{HOST}/{esc(aid)}/</a></dd>',
    ]
    if pdf:
        dl.append(f'<dt>PDF:</dt><dd><a href="{P}{esc(pdf)}">https://{HOST}{esc(pdf)}</a></dd>')
    buttons = []
    if pdf:
        buttons.append(
            f'<a class="btn btn-primary" href="{P}{esc(pdf)}" title="Open PDF of \'{esc(rec["title"])}\'">PDF</a>'
        )
    bib = split_url(rec.get("bibtex_link") or "", HOST)
    if bib:
        buttons.append(f'<a class="btn btn-secondary" href="{P}{esc(bib)}" title="Export to BibTeX">Bib</a>')
    body = (
        f'<section id="main"><h2 id="title">{title_html}</h2>\n'
        f'<p class="lead">{_authors_html(rec)}</p>\n'
        f'<hr><div class="row acl-paper-details"><div class="col col-lg-10 order-2">{abstract}'
        f"<dl>{''.join(dl)}</dl></div>"
        f'<div class="col col-lg-2 order-1 order-lg-2"><div class="acl-paper-link-block">{"".join(buttons)}'
        '<a class="btn btn-secondary" data-toggle="modal" data-target="#citeModal">Cite</a></div></div></div>\n'
        '<div class="modal fade" id="citeModal" tabindex="-1" role="dialog"><div class="modal-dialog modal-lg">'
        '<div class="modal-content"><div class="modal-header"><h5 class="modal-title">Export citation</h5></div>'
        '<div class="modal-body"><div class="tab-content"><div class="tab-pane active" id="citeBibtex">'
        f'<pre id="citeBibtexContent" class="bg-light border p-2" style="max-height:50vh">{esc(bibtex_text(rec))}</pre>'
        "</div></div></div></div></div></div></section>"
    )
    return page(f"{rec['title']} - ACL Anthology", _chrome(body), head=_HEAD)


async def catch_all(request: Request) -> Response:
    path = "/" + request.path_params["path"]
    idx = INDEX.get()
    hit = idx.files.get(path)
    if hit is not None:
        return file_hit(path, hit, bibtex_text)
    aid = path.strip("/")
    rec = idx.papers.get(aid)
    if rec is None:
        return not_found(request, HOST)
    if not path.endswith("/"):
        return RedirectResponse(f"{P}/{aid}/", status_code=301)
    return html_response(_paper_page(rec))


def routes(ctx) -> list[BaseRoute]:
    return mounted(
        P,
        Route("/", home),
        Route("/venues/{venue}/", venue_page),
        Route("/events/{event}/", event_page),
        Route("/volumes/{vid}/", volume_page),
        Route("/{path:path}", catch_all),
    )
