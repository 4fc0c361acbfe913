"""openreview.net imitation for ICLR: a JS-rendered group page, forum pages, PDFs, and the v1 notes API.

Two hosts, as on the real platform:

* ``/api.openreview.net`` — API v1 shape (the one ICLR 2018–2023 used):
  ``GET /notes?invitation=ICLR.cc/<year>/Conference/-/Blind_Submission&offset=0&limit=1000``
  (also ``content.venueid=ICLR.cc/<year>/Conference``, ``id=`` or ``forum=``) →
  ``{"notes": [{"id", "forum", "number", "invitation", "cdate", "content": {"title", "authors",
  "authorids", "abstract", "pdf", "venue", "venueid", "_bibtex"}, ...}], "count": N}``; ``limit`` is
  1..1000 (default 1000), ``offset`` ≥ 0; bad values → 400 ``{"name": "ValidationError", "message",
  "status": 400, "details": {"path", "value"}}``. ``GET /groups?id=ICLR.cc/<year>/Conference``.
* ``/openreview.net`` — ``/group?id=ICLR.cc/<year>/Conference`` (lists papers only by calling the
  API from script, like the real page), ``/forum?id=<note id>`` (server-rendered citation meta tags
  and content), ``/pdf/<hash>.pdf`` (the stored ``paper_link``) and ``/pdf?id=<note id>``.

Only accepted papers are in the data, so every Blind_Submission note is an accepted paper;
``content.venue`` is ``ICLR <year>``, and the BibTeX booktitle + year give the conference full name.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import dataclass, field

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route

from prefect_autodata.sandbox.sites._html import (
    LazyIndex,
    bib_value,
    comma_names,
    esc,
    html_response,
    not_found,
    page,
    papers_for,
    pdf_response,
    split_url,
)

HOST = "openreview.net"
API_HOST = "api.openreview.net"
P = f"/{HOST}"
API = f"/{API_HOST}"
MAX_LIMIT = 1000
SITEMAP = [
    ("OpenReview (openreview.net)", f"{P}/group?id=ICLR.cc/2021/Conference"),
    (
        "OpenReview API v1 (api.openreview.net)",
        f"{API}/notes?invitation=ICLR.cc/2021/Conference/-/Blind_Submission&limit=5",
    ),
]

_INVITATION = re.compile(r"^ICLR\.cc/(\d{4})/Conference/-/(Blind_Submission|Submission)$")
_VENUEID = re.compile(r"^ICLR\.cc/(\d{4})/Conference$")


def note_id(rec: dict) -> str:
    """A stable 10-character OpenReview-style note id derived from the paper's PDF link."""
    digest = hashlib.sha1((rec.get("paper_link") or rec["title"]).encode()).digest()
    return base64.urlsafe_b64encode(digest).decode()[:10]


def venue_id(year: int) -> str:
    return f"ICLR.cc/{year}/Conference"


def _authorid(name: str) -> str:
    return "~" + re.sub(r"\s+", "_", name.strip()) + "1"


def _bibtex(rec: dict, nid: str) -> str:
    first = (rec["authors"].split(",")[0].split() or ["anonymous"])[-1].lower()
    word = next((w.lower() for w in re.findall(r"[A-Za-z]+", rec["title"]) if len(w) > 3), "paper")
    booktitle = re.sub(r"\s*\d{4}$", "", rec["conference"])
    authors = " and ".join(comma_names(rec["authors"]))
    return (
        f"@inproceedings{{\n{re.sub(r'[^a-z]', '', first)}{rec['year']}{word},\n"
        f"title={{{bib_value(rec['title'])}}},\nauthor={{{bib_value(authors)}}},\n"
        f"booktitle={{{booktitle}}},\nyear={{{rec['year']}}},\n"
        f"url={{https://{HOST}/forum?id={nid}}}\n}}"
    )


def _note(rec: dict, number: int) -> dict:
    nid = rec["_id"]
    year = rec["year"]
    authors = [a.strip() for a in rec["authors"].split(",")] if rec["authors"] else []
    content = {
        "title": rec["title"],
        "authors": authors,
        "authorids": [_authorid(a) for a in authors],
        "pdf": rec["_pdf"],
        "venue": f"ICLR {year}",
        "venueid": venue_id(year),
        "_bibtex": _bibtex(rec, nid),
    }
    if rec["abstract"]:
        content["abstract"] = rec["abstract"]
    ms = 1_500_000_000_000 + (year - 2018) * 31_536_000_000 + number * 1000
    return {
        "id": nid,
        "original": None,
        "number": number,
        "cdate": ms,
        "tcdate": ms,
        "mdate": ms,
        "tmdate": ms,
        "ddate": None,
        "forum": nid,
        "replyto": None,
        "invitation": f"{venue_id(year)}/-/Blind_Submission",
        "content": content,
        "signatures": [venue_id(year)],
        "readers": ["everyone"],
        "nonreaders": [],
        "writers": [venue_id(year)],
    }


@dataclass
class _Index:
    years: dict[int, list[dict]] = field(default_factory=dict)
    by_id: dict[str, dict] = field(default_factory=dict)
    by_pdf: dict[str, dict] = field(default_factory=dict)
    conference: dict[int, str] = field(default_factory=dict)


def _build() -> _Index:
    idx = _Index()
    for rec in papers_for("ICLR"):
        pdf = split_url(rec.get("paper_link") or "", HOST)
        rec = dict(rec)
        rec["_id"] = note_id(rec)
        if rec["_id"] in idx.by_id:
            continue
        rec["_pdf"] = pdf or f"/pdf?id={rec['_id']}"
        recs = idx.years.setdefault(rec["year"], [])
        rec["_note"] = _note(rec, len(recs) + 1)
        recs.append(rec)
        idx.by_id[rec["_id"]] = rec
        idx.conference.setdefault(rec["year"], rec["conference"])
        if pdf:
            idx.by_pdf[pdf] = rec
    return idx


INDEX: LazyIndex[_Index] = LazyIndex(_build)


def _validation_error(path: str, value: object, message: str) -> JSONResponse:
    return JSONResponse(
        {
            "name": "ValidationError",
            "message": message,
            "status": 400,
            "details": {"path": path, "value": value},
        },
        status_code=400,
    )


def _int(request: Request, name: str, default: int, lo: int, hi: int) -> int | JSONResponse:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not re.fullmatch(r"-?\d+", raw.strip()):
        return _validation_error(name, raw, f'"{name}" must be a number')
    value = int(raw)
    if value < lo:
        return _validation_error(name, raw, f'"{name}" must be greater than or equal to {lo}')
    if value > hi:
        return _validation_error(name, raw, f'"{name}" must be less than or equal to {hi}')
    return value


_NOTE_PARAMS = {
    "invitation",
    "content.venueid",
    "id",
    "forum",
    "offset",
    "limit",
    "details",
    "sort",
    "select",
}


async def api_notes(request: Request) -> Response:
    unknown = sorted(set(request.query_params) - _NOTE_PARAMS)
    if unknown:
        return _validation_error(
            unknown[0], request.query_params[unknown[0]], f'"{unknown[0]}" is not allowed'
        )
    limit = _int(request, "limit", MAX_LIMIT, 1, MAX_LIMIT)
    if isinstance(limit, JSONResponse):
        return limit
    offset = _int(request, "offset", 0, 0, 10**9)
    if isinstance(offset, JSONResponse):
        return offset
    idx = INDEX.get()
    q = request.query_params
    if "id" in q or "forum" in q:
        rec = idx.by_id.get(q.get("id") or q.get("forum") or "")
        recs = [rec] if rec else []
    elif "invitation" in q:
        m = _INVITATION.match(q["invitation"])
        if not m:
            return _validation_error("invitation", q["invitation"], "Invitation Not Found")
        recs = idx.years.get(int(m.group(1)), [])
    elif "content.venueid" in q:
        m = _VENUEID.match(q["content.venueid"])
        recs = idx.years.get(int(m.group(1)), []) if m else []
    else:
        return _validation_error(
            "invitation", None, "one of invitation, content.venueid, id or forum is required"
        )
    page_recs = recs[offset : offset + limit]
    body = json.dumps({"notes": [r["_note"] for r in page_recs], "count": len(recs)}, ensure_ascii=False)
    return Response(body, media_type="application/json; charset=utf-8")


async def api_groups(request: Request) -> Response:
    gid = request.query_params.get("id")
    if not gid:
        return _validation_error("id", None, '"id" is required')
    m = _VENUEID.match(gid)
    idx = INDEX.get()
    if not m or int(m.group(1)) not in idx.years:
        return JSONResponse(
            {
                "name": "NotFoundError",
                "message": f"Group Not Found: {gid}",
                "status": 404,
                "details": {"path": "id"},
            },
            status_code=404,
        )
    year = int(m.group(1))
    conf = idx.conference[year]
    return JSONResponse(
        {
            "groups": [
                {
                    "id": gid,
                    "readers": ["everyone"],
                    "members": [],
                    "content": {
                        "title": f"ICLR {year} Conference",
                        "subtitle": re.sub(r"\s*\d{4}$", "", conf),
                        "venue_id": gid,
                        "submission_id": f"{gid}/-/Blind_Submission",
                        "tracks": ["Main Conference Track"],
                    },
                }
            ]
        }
    )


_HEAD = (
    '<link rel="stylesheet" href="/openreview.net/_next/static/css/app.css">\n'
    '<link rel="icon" href="/openreview.net/favicon.ico">'
)


def _chrome(content: str) -> str:
    nav = (
        '<nav class="navbar navbar-inverse navbar-fixed-top"><div class="container">'
        f'<a class="navbar-brand home push-link" href="{P}/"><strong>OpenReview</strong>.net</a>'
        f'<form class="navbar-form navbar-left" role="search" action="{P}/search"><input type="text" '
        'class="form-control" name="term" placeholder="Search OpenReview..."></form>'
        f'<ul class="nav navbar-nav navbar-right"><li><a href="{P}/login">Login</a></li></ul></div></nav>'
    )
    footer = (
        '<footer class="sitemap"><div class="container"><ul class="list-unstyled">'
        f'<li><a href="{P}/about">About OpenReview</a></li><li><a href="{P}/venues">Venues</a></li>'
        f'<li><a href="{P}/legal/terms">Terms of Use</a></li><li><a href="{P}/legal/privacy">Privacy Policy</a></li>'
        "</ul><p>OpenReview is a long-term project to advance science through improved peer review.</p>"
        "</div></footer>"
    )
    return f'{nav}\n<div id="content" class="container">\n{content}\n</div>\n{footer}'


async def group_page(request: Request) -> Response:
    gid = request.query_params.get("id", "")
    m = _VENUEID.match(gid)
    idx = INDEX.get()
    if not m or int(m.group(1)) not in idx.years:
        return not_found(request, HOST)
    year = int(m.group(1))
    script = (
        "<script>\n"
        f"const API = '{API}';\nconst INVITATION = '{gid}/-/Blind_Submission';\n"
        "async function loadNotes(){\n"
        "  const list = document.getElementById('notes-list'); let offset = 0; const limit = 50;\n"
        "  while (true) {\n"
        "    const r = await fetch(`${API}/notes?invitation=${encodeURIComponent(INVITATION)}&offset=${offset}&limit=${limit}`);\n"
        "    const data = await r.json();\n"
        "    for (const n of data.notes) {\n"
        "      const li = document.createElement('li'); li.className = 'note';\n"
        f'      li.innerHTML = `<h4><a href="{P}/forum?id=${{n.id}}"></a></h4><div class="note-authors"></div>`;\n'
        "      li.querySelector('a').textContent = n.content.title;\n"
        "      li.querySelector('.note-authors').textContent = n.content.authors.join(', ');\n"
        "      list.appendChild(li);\n"
        "    }\n"
        "    offset += data.notes.length; if (!data.notes.length || offset >= data.count) break;\n"
        "  }\n"
        "}\ndocument.addEventListener('DOMContentLoaded', loadNotes);\n</script>"
    )
    body = (
        f'<div id="header" class="venue-header"><h1>ICLR {year} Conference</h1>'
        f"<h3>{esc(idx.conference[year])}</h3><h4>{esc(gid)}</h4></div>\n"
        '<ul class="nav nav-tabs" role="tablist"><li class="active"><a href="#main-conference-track">'
        "Main Conference Track</a></li></ul>\n"
        '<div class="tab-content"><div id="main-conference-track" class="tab-pane active">'
        '<ul id="notes-list" class="list-unstyled submissions-list"></ul>'
        "<noscript>Please enable JavaScript to see the list of papers.</noscript></div></div>"
    )
    return html_response(
        page(f"ICLR {year} Conference | OpenReview", _chrome(body), head=_HEAD + "\n" + script)
    )


async def forum_page(request: Request) -> Response:
    rec = INDEX.get().by_id.get(request.query_params.get("id", ""))
    if rec is None:
        return not_found(request, HOST)
    note = rec["_note"]
    c = note["content"]
    meta = "\n".join(
        [
            f'<meta name="citation_title" content="{esc(rec["title"])}">',
            *(f'<meta name="citation_author" content="{esc(a)}">' for a in c["authors"]),
            f'<meta name="citation_publication_date" content="{rec["year"]}">',
            f'<meta name="citation_online_date" content="{rec["year"]}">',
            f'<meta name="citation_pdf_url" content="https://{HOST}{esc(rec["_pdf"])}">',
            f'<meta name="citation_conference_title" content="{esc(rec["conference"])}">',
            f'<meta name="citation_abstract" content="{esc(rec["abstract"])}">',
        ]
    )
    body = (
        '<div class="forum-container"><div class="note"><div class="title_pdf_row">'
        f'<h2 class="citation_title">{esc(rec["title"])}</h2>'
        f'<a class="citation_pdf_url" href="{P}{esc(rec["_pdf"])}" title="Download PDF">PDF</a></div>'
        f'<h3 class="signatures author">{esc(rec["authors"])}</h3>'
        f'<div class="meta_row"><span class="date">Published: {rec["year"]}</span>'
        f'<span class="item">{esc(c["venue"])}</span></div>'
        f'<div class="note_contents"><span class="note_content_field">Abstract: </span>'
        f'<span class="note_content_value">{esc(rec["abstract"])}</span></div></div></div>'
    )
    return html_response(page(f"{rec['title']} | OpenReview", _chrome(body), head=_HEAD + "\n" + meta))


async def pdf_by_id(request: Request) -> Response:
    rec = INDEX.get().by_id.get(request.query_params.get("id", ""))
    if rec is None:
        return not_found(request, HOST)
    return pdf_response(rec["title"])


async def pdf_by_path(request: Request) -> Response:
    rec = INDEX.get().by_pdf.get(request.url.path[len(P) :])
    if rec is None:
        return not_found(request, HOST)
    return pdf_response(rec["title"])


async def home(request: Request) -> Response:
    idx = INDEX.get()
    items = "\n".join(
        f'<li><a href="{P}/group?id={venue_id(y)}">ICLR {y} Conference</a></li>'
        for y in sorted(idx.years, reverse=True)
    )
    body = f'<h1>Active Venues</h1>\n<ul class="conferences list-unstyled">\n{items}\n</ul>'
    return html_response(page("Venues | OpenReview", _chrome(body), head=_HEAD))


async def api_not_found(request: Request) -> Response:
    return not_found(request, API_HOST)


def routes(ctx) -> list[BaseRoute]:
    return [
        Mount(
            API,
            routes=[
                Route("/notes", api_notes),
                Route("/groups", api_groups),
                Route("/{path:path}", api_not_found),
            ],
        ),
        Mount(
            P,
            routes=[
                Route("/", home),
                Route("/venues", home),
                Route("/group", group_page),
                Route("/forum", forum_page),
                Route("/pdf", pdf_by_id),
                Route("/pdf/{name}", pdf_by_path),
            ],
        ),
    ]
