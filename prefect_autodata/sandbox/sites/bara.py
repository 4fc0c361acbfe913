"""A BaRA-style multimodal site: a children's picture-book library (synthetic, deterministic).

Nested internal pages (books, authors, collections, shelves, events), lazy-loaded images (``data-src``,
``loading=lazy``) and videos, some broken media (404, or an image URL answering HTML), off-site links,
login/privacy/terms pages, a robots-disallowed staff area and an endless calendar ("next month" forever).
Every page is built from one model (:func:`page`), so :func:`reference_set` -- the pages and valid media a
bounded crawler should find -- is derived from the very thing that is served, never hand-maintained.

``/stacks/0`` starts a separate synthetic section of :data:`STACKS_PAGES` linked pages for crawl benchmarks.
"""

from __future__ import annotations

import hashlib
import html
import re
import struct
import zlib
from collections import deque
from dataclasses import dataclass, field
from functools import cache

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route

HOST = "www.picturebook-library.org"
PREFIX = f"/{HOST}"
STACKS_PAGES = 2500
STACKS_START = f"{PREFIX}/stacks/0"
STACKS_FANOUT = 4
BOOKS_PER_PAGE = 8
EXCLUDED = ("/login", "/signup", "/privacy", "/terms", "/private/")  # not content; never in the reference set
TRAP = "/events/calendar/"
CALENDAR_START = (2025, 1)
_PIXEL = "data:image/gif;base64,R0lGODlhAQABAAAAACw="

_ADJ = (
    "Sleepy",
    "Brave",
    "Little",
    "Curious",
    "Silly",
    "Gentle",
    "Hungry",
    "Lost",
    "Tiny",
    "Happy",
    "Busy",
    "Quiet",
)
_NOUN = (
    "Bear",
    "Fox",
    "Moon",
    "Owl",
    "Dragon",
    "Tugboat",
    "Garden",
    "Penguin",
    "Snail",
    "Rabbit",
    "Whale",
    "Kite",
)
_FIRST = ("Ada", "Ben", "Clara", "Dev", "Elif", "Farah", "Goran", "Hana")
_LAST = ("Okafor", "Lindqvist", "Moreau", "Tanaka", "Rossi", "Novak", "Haddad", "Kowalski")
_COLLECTIONS = ("bedtime-stories", "animals", "first-words", "adventures")


@dataclass
class Page:
    """One page of the site as a model: text, internal/external links in DOM order, media."""

    title: str
    text: str
    links: list[tuple[str, str]] = field(default_factory=list)  # (href, label)
    media: list[tuple[str, str]] = field(default_factory=list)  # (kind: img|img-lazy|video, href)


def _slug(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")


@cache
def books() -> tuple[dict, ...]:
    out = []
    for i in range(24):
        title = f"The {_ADJ[i % 12]} {_NOUN[(i * 5) % 12]}"
        if i >= 12:
            title += " Goes Home"
        author = i % len(_FIRST)
        out.append(
            {
                "i": i,
                "slug": _slug(title),
                "title": title,
                "author": _slug(f"{_FIRST[author]} {_LAST[author]}"),
                "collection": _COLLECTIONS[i % len(_COLLECTIONS)],
                "year": 1990 + (i * 7) % 34,
                "video": i % 4 == 0,
                "broken_404": i % 5 == 3,
                "broken_mime": i % 7 == 2,
            }
        )
    return tuple(out)


@cache
def authors() -> tuple[dict, ...]:
    return tuple(
        {"slug": _slug(f"{f} {ln}"), "name": f"{f} {ln}"} for f, ln in zip(_FIRST, _LAST, strict=True)
    )


def _book(slug: str) -> dict | None:
    return next((b for b in books() if b["slug"] == slug), None)


def _p(path: str) -> str:
    return PREFIX + path


# -- the page model ------------------------------------------------------------------------------
def page(path: str) -> Page | None:
    """The page at ``path`` (relative to the site prefix, e.g. ``/books/``), or None for a 404."""
    common = [("/", "Home"), ("/books/", "Books"), ("/authors/", "Authors"), ("/collections/", "Collections")]
    common = [(_p(h), label) for h, label in common]
    footer = [
        (_p("/about"), "About us"),
        (_p("/login"), "Log in"),
        (_p("/privacy"), "Privacy"),
        (_p("/terms"), "Terms of use"),
        ("https://www.facebook.com/picturebooklibrary", "Facebook"),
    ]
    if path in ("", "/"):
        featured = [(_p(f"/books/{b['slug']}"), b["title"]) for b in books()[:3]]
        return Page(
            "Picture Book Library",
            "A free library of picture books for children, with illustrations and read-aloud videos.",
            [*common, (_p("/events/"), "Events"), *featured, (_p("/private/staff"), "Staff area"), *footer],
            [("img-lazy", _p("/media/hero.png"))],
        )
    if path == "/books/" or (m := re.fullmatch(r"/books/page/(\d+)", path)):
        n = 1 if path == "/books/" else int(m.group(1))  # type: ignore[union-attr]
        pages = (len(books()) + BOOKS_PER_PAGE - 1) // BOOKS_PER_PAGE
        if not 1 <= n <= pages or path == "/books/page/1":
            return None
        chunk = books()[(n - 1) * BOOKS_PER_PAGE : n * BOOKS_PER_PAGE]
        links = [(_p(f"/books/{b['slug']}"), b["title"]) for b in chunk]
        if n < pages:
            links.append((_p(f"/books/page/{n + 1}"), "Next page"))
        return Page(f"All books — page {n}", "Browse every picture book.", [*common, *links, *footer])
    if m := re.fullmatch(r"/books/([a-z0-9-]+)/reviews", path):
        b = _book(m.group(1))
        if b is None:
            return None
        return Page(
            f"Reviews of {b['title']}",
            f"Readers love {b['title']}: 'My daughter asks for it every night.'",
            [*common, (_p(f"/books/{b['slug']}"), b["title"]), *footer],
        )
    if m := re.fullmatch(r"/books/([a-z0-9-]+)", path):
        b = _book(m.group(1))
        if b is None:
            return None
        i = b["i"]
        related = [books()[(i + 1) % len(books())], books()[(i + 7) % len(books())]]
        media = [
            ("img-lazy", _p(f"/media/covers/{b['slug']}.png")),
            ("img", _p(f"/media/illustrations/{b['slug']}-1.png")),
            ("img", _p(f"/media/illustrations/{b['slug']}-2.png")),
        ]
        if b["broken_404"]:
            media.append(("img", _p(f"/media/illustrations/{b['slug']}-3.png")))
        if b["broken_mime"]:
            media.append(("img-lazy", _p(f"/media/covers/{b['slug']}-large.jpg")))
        if b["video"]:
            media.append(("video", _p(f"/media/video/{b['slug']}.mp4")))
        return Page(
            b["title"],
            f"{b['title']} ({b['year']}) is a picture book in our {b['collection'].replace('-', ' ')} collection.",
            [
                *common,
                (_p(f"/authors/{b['author']}"), "About the author"),
                (_p(f"/collections/{b['collection']}"), "Collection"),
                (_p(f"/books/{b['slug']}/reviews"), "Reviews"),
                *[(_p(f"/books/{r['slug']}"), r["title"]) for r in related],
                ("https://publisher.example.com/catalog", "Buy from the publisher"),
                *footer,
            ],
            media,
        )
    if path == "/authors/":
        return Page(
            "Authors",
            "The people who write and illustrate our books.",
            [*common, *[(_p(f"/authors/{a['slug']}"), a["name"]) for a in authors()], *footer],
        )
    if m := re.fullmatch(r"/authors/([a-z0-9-]+)", path):
        a = next((a for a in authors() if a["slug"] == m.group(1)), None)
        if a is None:
            return None
        theirs = [(_p(f"/books/{b['slug']}"), b["title"]) for b in books() if b["author"] == a["slug"]]
        return Page(
            a["name"],
            f"{a['name']} writes and illustrates picture books.",
            [*common, *theirs, *footer],
            [("img-lazy", _p(f"/media/portraits/{a['slug']}.png"))],
        )
    if path == "/collections/":
        return Page(
            "Collections",
            "Books grouped by theme.",
            [
                *common,
                *[(_p(f"/collections/{c}"), c.replace("-", " ").title()) for c in _COLLECTIONS],
                *footer,
            ],
        )
    if m := re.fullmatch(r"/collections/([a-z-]+)(?:/shelves/(\d+))?", path):
        c = m.group(1)
        if c not in _COLLECTIONS:
            return None
        members = [b for b in books() if b["collection"] == c]
        if m.group(2) is None:
            shelves = [(_p(f"/collections/{c}/shelves/{k}"), f"Shelf {k}") for k in (1, 2)]
            return Page(
                f"Collection: {c.replace('-', ' ')}", "Two shelves of books.", [*common, *shelves, *footer]
            )
        k = int(m.group(2))
        if k not in (1, 2):
            return None
        shelf = members[k - 1 :: 2]
        return Page(
            f"{c.replace('-', ' ').title()} — shelf {k}",
            "Books on this shelf.",
            [
                *common,
                (_p(f"/collections/{c}"), "Back"),
                *[(_p(f"/books/{b['slug']}"), b["title"]) for b in shelf],
            ],
        )
    if path == "/events/":
        y, mo = CALENDAR_START
        return Page(
            "Events",
            "Story time every Saturday.",
            [
                *common,
                (_p("/events/storytime"), "Story time"),
                (_p(f"/events/calendar/{y}/{mo:02d}"), "Calendar"),
            ],
        )
    if path == "/events/storytime":
        return Page(
            "Story time",
            "Watch last week's read-aloud.",
            [*common, (_p("/events/"), "Events")],
            [("video", _p("/media/video/storytime.mp4")), ("img-lazy", _p("/media/hero.png"))],
        )
    if m := re.fullmatch(r"/events/calendar/(\d{4})/(\d{2})", path):
        y, mo = int(m.group(1)), int(m.group(2))
        if not (1900 <= y <= 9999 and 1 <= mo <= 12):
            return None
        ny, nm = (y + 1, 1) if mo == 12 else (y, mo + 1)
        py, pm = (y - 1, 12) if mo == 1 else (y, mo - 1)
        return Page(
            f"Calendar {y}-{mo:02d}",
            "No events this month.",
            [
                *common,
                (_p(f"/events/calendar/{py}/{pm:02d}"), "Previous month"),
                (_p(f"/events/calendar/{ny}/{nm:02d}"), "Next month"),
            ],
        )
    if path == "/about":
        return Page("About the library", "Run by volunteers since 1998.", [*common, *footer])
    if path in ("/login", "/signup", "/privacy", "/terms"):
        title = {
            "/login": "Log in",
            "/signup": "Sign up",
            "/privacy": "Privacy policy",
            "/terms": "Terms of use",
        }
        return Page(title[path], "Standard boilerplate.", [*common, (_p("/signup"), "Sign up")])
    if path == "/private/staff":
        return Page("Staff area", "Staff only.", [*common])
    if m := re.fullmatch(r"/stacks/(\d+)", path):
        n = int(m.group(1))
        if not 0 <= n < STACKS_PAGES or m.group(1) != str(n):
            return None
        kids = [
            k for k in range(STACKS_FANOUT * n + 1, STACKS_FANOUT * n + STACKS_FANOUT + 1) if k < STACKS_PAGES
        ]
        links = [(_p(f"/stacks/{k}"), f"Stack {k}") for k in kids]
        if n:
            links = [(_p(f"/stacks/{(n - 1) // STACKS_FANOUT}"), "Up"), (_p("/stacks/0"), "Top"), *links]
        return Page(f"Stack {n}", f"Archive stack {n} of {STACKS_PAGES}.", links)
    return None


# -- media -----------------------------------------------------------------------------------------
def _png(seed: str) -> bytes:
    """A tiny valid 8x8 PNG in a colour derived from ``seed`` (distinct content per image)."""
    r, g, b = hashlib.sha1(seed.encode()).digest()[:3]
    raw = b"".join(b"\x00" + bytes([r, g, b]) * 8 for _ in range(8))

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    ihdr = struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    )


def _mp4(seed: str) -> bytes:
    """A minimal MP4 (ftyp + free box) -- enough for MIME sniffing and hashing."""
    ftyp = b"ftypisom" + b"\x00\x00\x02\x00" + b"isomiso2mp41"
    free = hashlib.sha256(seed.encode()).digest()
    return struct.pack(">I", 8 + len(ftyp) - 4) + ftyp + struct.pack(">I", 8 + len(free)) + b"free" + free


def media(path: str) -> tuple[int, str, bytes]:
    """(status, content type, body) for a media path relative to the prefix; the single source of truth."""
    slugs = {b["slug"] for b in books()}
    if path == "/media/hero.png":
        return 200, "image/png", _png(path)
    if m := re.fullmatch(r"/media/covers/([a-z0-9-]+)\.png", path):
        if m.group(1) in slugs:
            return 200, "image/png", _png(path)
    if m := re.fullmatch(r"/media/covers/([a-z0-9-]+)-large\.jpg", path):
        b = _book(m.group(1))
        if b and b["broken_mime"]:  # a misconfigured CDN answering an image URL with an HTML page
            return 200, "text/html; charset=utf-8", b"<html><body>Image temporarily unavailable</body></html>"
    if m := re.fullmatch(r"/media/illustrations/([a-z0-9-]+)-([12])\.png", path):
        if m.group(1) in slugs:
            return 200, "image/png", _png(path)
    if m := re.fullmatch(r"/media/portraits/([a-z0-9-]+)\.png", path):
        if m.group(1) in {a["slug"] for a in authors()}:
            return 200, "image/png", _png(path)
    if m := re.fullmatch(r"/media/video/([a-z0-9-]+)\.mp4", path):
        b = _book(m.group(1))
        if (b and b["video"]) or m.group(1) == "storytime":
            return 200, "video/mp4", _mp4(path)
    return 404, "text/html; charset=utf-8", b"<html><body><h1>404 Not Found</h1></body></html>"


def media_is_valid(path: str) -> bool:
    """2xx and a MIME type matching the file extension (BaRA's media gates, minus DOM presence)."""
    status, ctype, _ = media(path)
    ext = path.rsplit(".", 1)[-1].lower()
    want = {"png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "mp4": "video/mp4"}.get(ext)
    return 200 <= status < 300 and ctype.split(";")[0] == want


# -- the reference set -----------------------------------------------------------------------------
def _excluded(rel: str) -> bool:
    return rel.startswith(EXCLUDED) or rel.startswith(TRAP) or rel.startswith("/stacks/")


def reference_set(max_depth: int = 3) -> dict[str, set[str]]:
    """Internal content pages within ``max_depth`` links of the home page, and the valid media on them.

    Paths are sandbox paths with the site prefix (e.g. ``/www.picturebook-library.org/books/``).
    Excluded: login/signup/privacy/terms, the robots-disallowed ``/private/`` area and the endless calendar.
    The home page is depth 0; links from excluded pages are not followed.
    """
    pages: set[str] = set()
    found_media: set[str] = set()
    start = _p("/")
    queue: deque[tuple[str, int]] = deque([(start, 0)])
    seen = {start}
    while queue:
        url, depth = queue.popleft()
        pg = page(url[len(PREFIX) :])
        if pg is None:
            continue
        pages.add(url)
        found_media.update(h for _, h in pg.media if media_is_valid(h[len(PREFIX) :]))
        if depth >= max_depth:
            continue
        for href, _ in pg.links:
            if not href.startswith(PREFIX + "/") or href in seen or _excluded(href[len(PREFIX) :]):
                continue
            seen.add(href)
            queue.append((href, depth + 1))
    return {"pages": pages, "media": found_media}


# -- rendering -------------------------------------------------------------------------------------
_LAZY_JS = (
    "document.addEventListener('DOMContentLoaded',function(){var io=new IntersectionObserver(function(es){"
    "es.forEach(function(e){if(!e.isIntersecting)return;var el=e.target;if(el.dataset.src){el.src=el.dataset.src;}"
    "el.querySelectorAll&&el.querySelectorAll('source[data-src]').forEach(function(s){s.src=s.dataset.src;"
    "el.load&&el.load();});io.unobserve(el);});});"
    "document.querySelectorAll('img[data-src],video.lazy').forEach(function(el){io.observe(el);});});"
)


def render(pg: Page) -> str:
    def esc(s: str) -> str:
        return html.escape(s, quote=True)

    nav = "".join(f'<li><a href="{esc(h)}">{esc(label)}</a></li>' for h, label in pg.links)
    items = []
    for kind, href in pg.media:
        alt = esc(href.rsplit("/", 1)[-1])
        if kind == "img-lazy":
            items.append(
                f'<img class="lazy" src="{_PIXEL}" data-src="{esc(href)}" alt="{alt}" loading="lazy">'
            )
        elif kind == "img":
            items.append(f'<img src="{esc(href)}" alt="{alt}" loading="lazy" width="320" height="240">')
        else:
            items.append(
                f'<video class="lazy" controls preload="none"><source data-src="{esc(href)}" type="video/mp4">'
                "Your browser does not support video.</video>"
            )
    figures = "".join(f"<figure>{m}</figure>" for m in items)
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{esc(pg.title)}</title>'
        f"</head><body><main><h1>{esc(pg.title)}</h1><p>{esc(pg.text)}</p>{figures}</main>"
        f"<nav><ul>{nav}</ul></nav><script>{_LAZY_JS}</script></body></html>"
    )


def routes(ctx) -> list[BaseRoute]:
    async def serve_page(request: Request) -> Response:
        rel = "/" + request.path_params.get("rest", "")
        if rel.startswith("/media/"):
            status, ctype, body = media(rel)
            return Response(body, status_code=status, media_type=ctype)
        pg = page(rel)
        if pg is None:
            return HTMLResponse(
                render(Page("404 Not Found", f"No page at {PREFIX}{rel}.", [(_p("/"), "Home")])),
                status_code=404,
            )
        return HTMLResponse(render(pg))

    return [Mount(PREFIX, routes=[Route("/", serve_page), Route("/{rest:path}", serve_page)])]


SITEMAP = [
    ("Picture Book Library (BaRA multimodal crawl)", f"{PREFIX}/"),
    (f"Picture Book Library stacks ({STACKS_PAGES} linked pages)", STACKS_START),
]

SEARCH_DOCS = [
    {
        "title": "Picture Book Library — free children's picture books",
        "url": f"{PREFIX}/",
        "snippet": "Children's picture books with illustrations, covers and read-aloud videos; authors, collections.",
    },
    {
        "title": "Picture Book Library — all books",
        "url": f"{PREFIX}/books/",
        "snippet": "Browse every children's picture book in the library.",
    },
]
