"""Shared HTML machinery of the zoo's HTML families: chrome, noise, class names, labels, pagination.

Every choice here is drawn from the family's seeded ``random.Random``, so a seed reproduces a site
and two seeds differ. The record markup itself lives in each family; this module supplies what all
of them share: a page shell (nav, cookie banner, ads, footer with the "generated records" line),
class-name styles (meaningful / obfuscated / none), per-site field labels (synonyms, casing, a
second language), the listing pager (next link, numbered pages, ``?page=``, ``?offset=&limit=``, one
page, per-letter or per-year index) and the notes the test oracle reads.

Notes of the HTML families (``ZooSite.notes``; paths relative to the site root):

- ``method``: ``"html"``; ``listing_paths``: every listing page (entry first), in order;
- ``mode``: ``"items"`` (one element per record), ``"lines"`` (text lines), ``"columns"``
  (a transposed table: one column per record);
- items: ``item`` (XPath of a record on a listing page, noise excluded), ``fields`` (field →
  ``{"x": relative XPath, "prefix": text to strip or None}``), ``detail_link`` (relative XPath of
  the href, or None) and ``detail_fields`` (field → spec, XPaths on the detail page);
- lines: ``container`` (XPath of the element holding the lines), ``sep``, ``order``, ``header``;
- columns: ``table`` (XPath), ``rows`` (field → row position, 1-based), ``first_col`` (1-based
  column of the first record).
"""

from __future__ import annotations

import html
import random
import re
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Route

from prefect_autodata.sandbox.zoo.base import KindDef, RecordSet

_BAD = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

# Class-name styles: a word per role, a random hash-like token, or no class at all.
CLASS_STYLES = ("meaningful", "obfuscated", "none")
OBFUSCATED_PREFIXES = ("css-", "sc-", "jsx-", "_", "x")
MEANINGFUL_WORDS: dict[str, tuple[str, ...]] = {
    "list": ("listing", "results", "items", "catalog", "collection"),
    "item": ("item", "entry", "record", "row", "result"),
    "card": ("card", "tile", "box", "panel"),
    "title": ("title", "name", "heading", "headline"),
    "label": ("label", "key", "term", "caption"),
    "value": ("value", "val", "data", "content"),
    "meta": ("meta", "details", "info", "attrs"),
    "pager": ("pagination", "pager", "pages", "nav-pages"),
    "total": ("count", "total", "summary", "stats"),
}


def esc(value: object) -> str:
    text = "" if value is None else _BAD.sub("", str(value))
    return html.escape(text, quote=True)


class Namer:
    """Class names per role, in one of three styles, stable within a site."""

    def __init__(self, rng: random.Random, style: str | None = None) -> None:
        self.rng = rng
        self.style = style or rng.choice(CLASS_STYLES)
        self._names: dict[str, str] = {}
        self._prefix = rng.choice(OBFUSCATED_PREFIXES)

    def name(self, role: str) -> str:
        if self.style == "none":
            return ""
        if role not in self._names:
            if self.style == "obfuscated":
                alphabet = string.ascii_lowercase + string.digits
                token = self._prefix + "".join(
                    self.rng.choice(alphabet) for _ in range(self.rng.randint(4, 7))
                )
            else:
                words = MEANINGFUL_WORDS.get(role, (role.replace("_", "-"),))
                token = self.rng.choice(words)
                if token in self._names.values():
                    token = f"{token}-{role.replace('_', '-')}"
            self._names[role] = token
        return self._names[role]

    def attr(self, role: str) -> str:
        """`` class="..."`` (with the leading space) or nothing."""
        n = self.name(role)
        return f' class="{n}"' if n else ""


LANGS = ("en", "en", "en", "en", "de", "es")


def draw_labels(kind: KindDef, rng: random.Random, lang: str = "en") -> dict[str, str]:
    """One printed label per field for this site: a synonym, sometimes re-cased."""
    casing = rng.choice(("as_is", "as_is", "upper", "lower", "title"))
    out: dict[str, str] = {}
    for f in kind.fields:
        pool = {"de": f.labels_de, "es": f.labels_es}.get(lang) or f.labels
        word = rng.choice(pool)
        if casing == "upper":
            word = word.upper()
        elif casing == "lower":
            word = word.lower()
        elif casing == "title" and word.islower():
            word = word.title()
        out[f.name] = word
    return out


def field_order(kind: KindDef, rs: RecordSet, rng: random.Random, *, title_first: bool = True) -> list[str]:
    """The fields this site shows, shuffled (the title first when ``title_first``)."""
    present = [f.name for f in kind.fields if any(r.get(f.name) is not None for r in rs.records)]
    rest = [f for f in present if f != kind.title_field]
    rng.shuffle(rest)
    if kind.title_field in present:
        return [kind.title_field, *rest] if title_first else rng.sample(present, len(present))
    return rest


def split_value(value: str, on: bool) -> str:
    """A value's HTML, sometimes split across adjacent elements (text content stays the value)."""
    if not on or len(value) < 4:
        return esc(value)
    if value[0] in "$€£" and len(value) > 1:
        return f"<span>{esc(value[0])}</span><span>{esc(value[1:])}</span>"
    if " " in value:
        head, tail = value.split(" ", 1)
        return f"<span>{esc(head)}</span> <span>{esc(tail)}</span>"
    cut = len(value) // 2
    return f"<span>{esc(value[:cut])}</span><span>{esc(value[cut:])}</span>"


# Icons some families print instead of a label (a glyph only a person reading the page maps to a field).
ICONS = ("★", "◆", "●", "▲", "■", "✦", "☰", "⚑", "✎", "⌂", "☎", "✉")


@dataclass
class Chrome:
    """Site-wide page shell and noise, drawn once per site."""

    site_name: str
    kind: KindDef
    rng: random.Random
    generated: bool
    lang: str = "en"
    nav: list[tuple[str, str]] = field(default_factory=list)
    cookie: bool = False
    ads: bool = False
    featured: dict[str, Any] | None = None
    related: list[dict[str, Any]] = field(default_factory=list)
    featured_idx: int | None = None
    related_idx: list[int] = field(default_factory=list)
    title_field: str = ""
    prefix: str = ""

    def href(self, path: str) -> str:
        """A site-root path as the pages link it: under the site's /<host> prefix."""
        return self.prefix + path

    @classmethod
    def draw(
        cls, rs: RecordSet, rng: random.Random, site_name: str, entry: str, host: str, lang: str = "en"
    ) -> Chrome:
        kind = rs.kind
        nav = [("Home", entry), ("About", "/about"), ("Contact", "/contact")]
        rng.shuffle(nav)
        c = cls(
            prefix="/" + host,
            site_name=site_name,
            kind=kind,
            rng=rng,
            generated=rs.generated,
            lang=lang,
            nav=nav,
            cookie=rng.random() < 0.5,
            ads=rng.random() < 0.5,
            title_field=kind.title_field,
        )
        if rs.records and rng.random() < 0.35:
            c.featured_idx = rng.randrange(len(rs.records))
            c.featured = rs.records[c.featured_idx]
        if len(rs.records) > 4 and rng.random() < 0.4:
            c.related_idx = rng.sample(range(len(rs.records)), 3)
            c.related = [rs.records[i] for i in c.related_idx]
        return c

    def _nav(self) -> str:
        links = "".join(f'<a href="{esc(self.href(href))}">{esc(text)}</a> ' for text, href in self.nav)
        return f"<header><nav>{links}</nav><p><strong>{esc(self.site_name)}</strong></p></header>"

    def _noise_top(self, featured: str | None = None) -> str:
        out = ""
        if self.cookie:
            out += (
                '<div id="cookie-consent" role="dialog"><p>We use cookies to improve your experience. '
                "By continuing you accept our cookie policy.</p><button>Accept</button></div>"
            )
        if self.ads:
            out += f'<aside class="ad-slot"><p>Advertisement</p><a href="{esc(self.href("/about"))}">Sponsored: upgrade today</a></aside>'
        if featured is not None:
            out += featured
        elif self.featured is not None:
            title = self.featured.get(self.title_field) or ""
            out += f"<aside><h2>Featured</h2><p><b>{esc(title)}</b></p></aside>"
        return out

    def _related(self) -> str:
        if not self.related:
            return ""
        items = "".join(f"<li>{esc(r.get(self.title_field))}</li>" for r in self.related)
        return f"<aside><h2>Related {esc(self.kind.plural)}</h2><ul>{items}</ul></aside>"

    def _footer(self) -> str:
        gen = (
            "<p>Sample data — generated records, not real ones.</p>"
            if self.generated
            else "<p>Records as published by their sources.</p>"
        )
        about = esc(self.href("/about"))
        return f'<footer><p>© {esc(self.site_name)}</p>{gen}<p><a href="{about}">About</a></p></footer>'

    def page(
        self,
        title: str,
        main: str,
        *,
        head: str = "",
        h1: str | None = None,
        listing: bool = True,
        featured: str | None = None,
        related: str | None = None,
    ) -> str:
        """A full document; ``main`` goes inside <main>, noise outside it.

        ``featured`` / ``related``: the family's own markup for those records (shaped like the listing's
        records), replacing the default title-only blocks.
        """
        heading = f"<h1>{esc(h1)}</h1>" if h1 else ""
        top = self._noise_top(featured) if listing else ""
        bottom = ((self._related() if related is None else related) if listing else "") + self._footer()
        return (
            f'<!DOCTYPE html>\n<html lang="{self.lang}">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{esc(title)}</title>\n{head}</head>\n<body>\n{self._nav()}\n{top}\n"
            f"<main>{heading}{main}</main>\n{bottom}\n</body>\n</html>\n"
        )


def html_ok(text: str) -> HTMLResponse:
    return HTMLResponse(text)


def bad_request(message: str) -> HTMLResponse:
    return HTMLResponse(
        f"<!DOCTYPE html><html><head><title>400 Bad Request</title></head><body><h1>Bad request</h1>"
        f"<p>{esc(message)}</p></body></html>",
        status_code=400,
    )


def not_found() -> HTMLResponse:
    return HTMLResponse(
        "<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not found</h1></body></html>",
        status_code=404,
    )


def static_pages(chrome: Chrome) -> list[BaseRoute]:
    """The 'about' and 'contact' pages every HTML site links from its nav."""

    async def about(request: Request) -> Response:
        text = f"<p>{esc(chrome.site_name)} publishes {esc(chrome.kind.plural)}.</p>"
        return html_ok(chrome.page(f"About — {chrome.site_name}", text, h1="About", listing=False))

    async def contact(request: Request) -> Response:
        return html_ok(chrome.page("Contact", "<p>Write to us.</p>", h1="Contact", listing=False))

    return [Route("/about", about), Route("/contact", contact)]


PAGINATIONS = ("single", "page_param", "path_pages", "offset_limit", "letter", "year")


@dataclass
class Pager:
    """How a listing splits into pages, and how pages link to each other."""

    mode: str
    size: int
    links: str = "numbered"  # "next" | "numbered" | "both"
    total_line: bool = False
    group_field: str = ""

    @classmethod
    def draw(
        cls,
        rs: RecordSet,
        rng: random.Random,
        modes: tuple[str, ...] = PAGINATIONS,
        *,
        year_field: str | None = None,
    ) -> Pager:
        n = len(rs.records)
        title_text = rs.kind.field(rs.kind.title_field).type == "text"
        allowed = [m for m in modes if (m != "year" or year_field) and (m != "letter" or title_text)]
        if n <= 25:
            allowed = [m for m in allowed if m in ("single", "page_param", "letter")] or ["single"]
        mode = rng.choice(allowed)
        size = rng.choice((10, 20, 25, 50)) if n > 25 else rng.choice((5, 10))
        if n > 600:
            size = max(size, 100)
        group = ""
        if mode == "letter":
            group = rs.kind.title_field
        elif mode == "year":
            group = year_field or ""
        return cls(
            mode=mode,
            size=size,
            links=rng.choice(("next", "numbered", "both")),
            total_line=rng.random() < 0.5,
            group_field=group,
        )


def group_key(mode: str, value: Any) -> str:
    text = "" if value is None else str(value).strip()
    if mode == "letter":
        c = text[:1].upper()
        return c if c.isalpha() else "0-9"
    m = re.search(r"(1[89]|20)\d\d", text)
    return m.group(0) if m else "other"


RenderList = Callable[[list[int], str], str]


def listing_routes(
    entry: str,
    rs: RecordSet,
    pager: Pager,
    chrome: Chrome,
    namer: Namer,
    render: RenderList,
    *,
    title: str,
    h1: str | None,
    head: str = "",
    shaped_noise: bool = False,
) -> tuple[list[BaseRoute], list[str]]:
    """Routes serving the paginated listing at ``entry`` and every listing page's path (entry first).

    ``render(indices, extra)`` returns the records' markup for one page (``extra`` is ``"noise"`` when
    the markup goes into a featured/related block: no element ids then). ``shaped_noise``: the
    featured and related blocks (outside <main>) use that same markup, so they look like records.
    """
    n = len(rs.records)
    size = max(1, pager.size)
    pages = max(1, -(-n // size))
    plural = rs.kind.plural

    def total_html(lo: int, hi: int) -> str:
        if not pager.total_line or not n:
            return ""
        return f"<p{namer.attr('total')}>Showing {lo + 1}–{hi} of {n:,} {esc(plural)}</p>"

    def nav_html(cur: int, href: Callable[[int], str]) -> str:
        if pages <= 1:
            return ""
        bits = []
        if pager.links in ("numbered", "both"):
            for p in range(1, pages + 1):
                bits.append(
                    f"<span>{p}</span>" if p == cur else f'<a href="{esc(chrome.href(href(p)))}">{p}</a>'
                )
        if pager.links in ("next", "both"):
            if cur > 1:
                bits.insert(0, f'<a href="{esc(chrome.href(href(cur - 1)))}" rel="prev">« Previous</a>')
            if cur < pages:
                bits.append(f'<a href="{esc(chrome.href(href(cur + 1)))}" rel="next">Next »</a>')
        return f"<nav{namer.attr('pager')}>{' '.join(bits)}</nav>"

    featured = related = None
    if shaped_noise and chrome.featured_idx is not None:
        featured = f"<aside><h2>Featured</h2>{render([chrome.featured_idx], 'noise')}</aside>"
    if shaped_noise and chrome.related_idx:
        related = f"<aside><h2>You may also like</h2>{render(list(chrome.related_idx), 'noise')}</aside>"

    def doc(indices: list[int], lo: int, hi: int, nav: str) -> str:
        body = total_html(lo, hi) + render(indices, "") + nav
        return chrome.page(title, body, head=head, h1=h1, featured=featured, related=related)

    if pager.mode == "single" or n <= size and pager.mode not in ("letter", "year"):

        async def single(request: Request) -> Response:
            return html_ok(doc(list(range(n)), 0, n, ""))

        return [Route(entry, single)], [entry]

    if pager.mode in ("page_param", "path_pages"):

        def href(p: int) -> str:
            if p == 1:
                return entry
            return f"{entry}?page={p}" if pager.mode == "page_param" else f"{entry}page/{p}/"

        def one(p: int) -> Response:
            if not 1 <= p <= pages:
                return not_found() if pager.mode == "path_pages" else bad_request(f"page must be 1..{pages}")
            lo, hi = (p - 1) * size, min(n, p * size)
            return html_ok(doc(list(range(lo, hi)), lo, hi, nav_html(p, href)))

        async def first(request: Request) -> Response:
            raw = request.query_params.get("page", "1")
            if not raw.isdigit():
                return bad_request("page must be a positive integer")
            return one(int(raw))

        routes: list[BaseRoute] = [Route(entry, first)]
        if pager.mode == "path_pages":

            async def by_path(request: Request) -> Response:
                return one(request.path_params["p"])

            routes.append(Route(entry + "page/{p:int}/", by_path))
        return routes, [href(p) for p in range(1, pages + 1)]

    if pager.mode == "offset_limit":

        def href_o(p: int) -> str:
            return entry if p == 1 else f"{entry}?offset={(p - 1) * size}&limit={size}"

        async def by_offset(request: Request) -> Response:
            q = request.query_params
            try:
                off = int(q.get("offset", "0"))
                lim = int(q.get("limit", str(size)))
            except ValueError:
                return bad_request("offset and limit must be integers")
            if off < 0 or not 1 <= lim <= 500 or (off >= n and n):
                return bad_request(f"offset must be 0..{max(0, n - 1)} and limit 1..500")
            hi = min(n, off + lim)
            cur = off // size + 1 if lim == size and off % size == 0 else 0
            nav = nav_html(cur, href_o) if cur else ""
            if not cur and hi < n:
                nxt = chrome.href(f"{entry}?offset={hi}&limit={lim}")
                nav = f'<nav{namer.attr("pager")}><a href="{esc(nxt)}" rel="next">Next »</a></nav>'
            return html_ok(doc(list(range(off, hi)), off, hi, nav))

        return [Route(entry, by_offset)], [href_o(p) for p in range(1, pages + 1)]

    # letter / year index: the entry page lists the groups, each group page lists its records.
    groups: dict[str, list[int]] = {}
    for i, r in enumerate(rs.records):
        groups.setdefault(group_key(pager.mode, r.get(pager.group_field)), []).append(i)
    keys = sorted(groups)
    slug = {k: re.sub(r"[^a-z0-9-]", "", k.lower()) or "other" for k in keys}
    by_slug = {slug[k]: k for k in keys}
    word = "Browse by letter" if pager.mode == "letter" else "Browse by year"

    async def index(request: Request) -> Response:
        links = " ".join(f'<a href="{esc(chrome.href(entry + slug[k] + "/"))}">{esc(k)}</a>' for k in keys)
        body = f"<p>{word}:</p><p{namer.attr('pager')}>{links}</p>"
        if pager.total_line:
            body = f"<p{namer.attr('total')}>{n:,} {esc(plural)} in all</p>" + body
        return html_ok(chrome.page(title, body, head=head, h1=h1))

    async def group(request: Request) -> Response:
        k = by_slug.get(request.path_params["g"])
        if k is None:
            return not_found()
        idx = groups[k]
        return html_ok(chrome.page(f"{title} — {k}", render(idx, ""), head=head, h1=f"{h1 or title}: {k}"))

    return [Route(entry, index), Route(entry + "{g}/", group)], [entry + slug[k] + "/" for k in keys]


def detail_slug(rs: RecordSet, i: int) -> str:
    """A URL slug for record i (readable words plus the index, so slugs never collide)."""
    title = str(rs.records[i].get(rs.kind.title_field) or "")
    words = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:40].strip("-")
    return f"{words}-{i + 1}" if words else str(i + 1)


def detail_scheme(rng: random.Random, entry: str) -> tuple[str, str]:
    """(route path template, href template with {slug}/{id}) for detail pages."""
    choice = rng.choice(("slug", "id_path", "id_query"))
    if choice == "slug":
        return entry + "{slug}.html", entry + "{slug}.html"
    if choice == "id_path":
        return "/item/{id:int}", "/item/{id}"
    return "/view", "/view?id={id}"


def spec(x: str, prefix: str | None = None) -> dict[str, Any]:
    return {"x": x, "prefix": prefix}


def site_name_of(host: str) -> str:
    """A readable site name from a made-up host ("www.quill-house.test" -> "Quill House")."""
    core = host.split(".")
    core = [p for p in core if p not in ("www", "test", "example")] or core
    return " ".join(w.capitalize() for w in re.split(r"[-_]", core[0]) if w)


def entry_path(kind: KindDef, rng: random.Random) -> str:
    words = re.sub(r"[^a-z0-9]+", "-", kind.plural.lower()).strip("-")
    return "/" + rng.choice((words, words, "catalog", "browse", "list", "data", "all", "directory")) + "/"


def year_field(rs: RecordSet) -> str | None:
    for name in ("year", "season", "date", "date_posted"):
        if name in rs.kind.field_names and any(r.get(name) for r in rs.records):
            return name
    return None


@dataclass
class Basics:
    """What most HTML families draw first: language, labels, class names, chrome, entry, field order."""

    lang: str
    labels: dict[str, str]
    namer: Namer
    chrome: Chrome
    entry: str
    site_name: str
    order: list[str]


def basics(rs: RecordSet, rng: random.Random, host: str, *, title_first: bool = True) -> Basics:
    lang = rng.choice(LANGS)
    labels = draw_labels(rs.kind, rng, lang)
    namer = Namer(rng)
    entry = entry_path(rs.kind, rng)
    name = site_name_of(host)
    chrome = Chrome.draw(rs, rng, name, entry, host, lang)
    order = field_order(rs.kind, rs, rng, title_first=title_first)
    return Basics(lang, labels, namer, chrome, entry, name, order)


def base_notes(
    b: Basics, family: str, pager: Pager | None, listing_paths: list[str], **extra: Any
) -> dict[str, Any]:
    notes: dict[str, Any] = {
        "method": "html",
        "family": family,
        "site_name": b.site_name,
        "listing_paths": listing_paths,
        "labels": dict(b.labels),
        "lang": b.lang,
        "class_style": b.namer.style,
        "order": list(b.order),
        "pagination": pager.mode if pager else "single",
    }
    notes.update(extra)
    return notes


def detail_routes(
    rs: RecordSet, rng: random.Random, entry: str, render: Callable[[int], str]
) -> tuple[list[BaseRoute], Callable[[int], str]]:
    """Routes of one detail page per record and ``href(i)`` (a site-root path) to reach record i."""
    route_path, template = detail_scheme(rng, entry)
    slugs = [detail_slug(rs, i) for i in range(len(rs.records))]
    by_slug = {s: i for i, s in enumerate(slugs)}
    n = len(rs.records)

    def href(i: int) -> str:
        return template.format(slug=slugs[i], id=i + 1)

    async def page(request: Request) -> Response:
        if "slug" in request.path_params:
            i = by_slug.get(request.path_params["slug"])
        elif "id" in request.path_params:
            i = request.path_params["id"] - 1
        else:
            raw = request.query_params.get("id", "")
            if not raw.isdigit():
                return bad_request("id must be a positive integer")
            i = int(raw) - 1
        if i is None or not 0 <= i < n:
            return not_found()
        return html_ok(render(i))

    return [Route(route_path, page)], href


DETAIL_STYLES = ("dl", "table", "colon", "spans", "icons")


def render_fields(
    style: str, fields: list[str], rec: dict[str, Any], labels: dict[str, str], namer: Namer, split: bool
) -> str:
    """Label/value markup of one record's fields in a detail style."""
    icons = {f: ICONS[k % len(ICONS)] for k, f in enumerate(fields)}

    def val(f: str) -> str:
        v = rec.get(f)
        return "" if v is None else split_value(str(v), split)

    if style == "dl":
        rows = "".join(f"<dt>{esc(labels[f])}</dt><dd>{val(f)}</dd>" for f in fields)
        return f"<dl{namer.attr('meta')}>{rows}</dl>"
    if style == "table":
        rows = "".join(f"<tr><th>{esc(labels[f])}</th><td>{val(f)}</td></tr>" for f in fields)
        return f"<table{namer.attr('meta')}>{rows}</table>"
    if style == "colon":
        return "".join(f"<p>{esc(labels[f])}: {val(f)}</p>" for f in fields)
    if style == "spans":
        return "".join(
            f"<div><span{namer.attr('label')}>{esc(labels[f])}</span>"
            f"<span{namer.attr('value')}>{val(f)}</span></div>"
            for f in fields
        )
    return "".join(
        f'<div><span title="{esc(labels[f])}" aria-hidden="true">{icons[f]}</span> {val(f)}</div>'
        for f in fields
    )


def field_specs(
    style: str, fields: list[str], labels: dict[str, str], base: str
) -> dict[str, dict[str, Any]]:
    """XPath specs (for the oracle) of ``render_fields`` output placed under ``base``."""
    icons = {f: ICONS[k % len(ICONS)] for k, f in enumerate(fields)}
    out: dict[str, dict[str, Any]] = {}
    for k, f in enumerate(fields, start=1):
        if style == "dl":
            out[f] = spec(f"{base}/dl/dd[{k}]")
        elif style == "table":
            out[f] = spec(f"{base}/table//tr[{k}]/td")
        elif style == "colon":
            out[f] = spec(f"{base}/p[{k}]", f"{labels[f]}:")
        elif style == "spans":
            out[f] = spec(f"{base}/div[{k}]/span[2]")
        else:
            out[f] = spec(f"{base}/div[{k}]", icons[f])
    return out
