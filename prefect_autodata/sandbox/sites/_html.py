"""Shared helpers for sandbox sites: page chrome, lazy per-site indexes, tiny PDFs, 404 pages, file routes.

Sites render root-relative links with the ``/<real host>`` prefix, so a sandbox URL maps to the real
one by dropping ``http://127.0.0.1:PORT/`` and prepending ``https://``.
"""

from __future__ import annotations

import html
import re
import threading
from collections.abc import Awaitable, Callable, Iterable
from typing import Generic, TypeVar

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Mount

from prefect_autodata.sandbox.data import data_dir, load_table, sample_note

T = TypeVar("T")

# Characters HTML cannot carry (C0 controls other than tab/newline); the real sites drop them too.
_BAD_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def esc(value: object) -> str:
    """HTML-escape text, dropping characters HTML cannot represent (and normalising CR)."""
    text = "" if value is None else str(value)
    text = _BAD_CHARS.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    return html.escape(text, quote=True)


def page(
    title: str,
    body: str,
    *,
    head: str = "",
    body_attrs: str = "",
    lang: str = "en",
) -> str:
    """A full HTML document; sites pass their own nav/header/footer inside ``body``."""
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n{head}\n</head>\n<body{(' ' + body_attrs) if body_attrs else ''}>\n"
        f"{body}\n{sample_footer()}</body>\n</html>\n"
    )


def sample_footer() -> str:
    """The footer line every page carries when the sandbox serves generated sample records ("" otherwise)."""
    note = sample_note()
    return f'<footer class="sample-data-note"><small>{esc(note)}</small></footer>\n' if note else ""


def html_response(text: str, status_code: int = 200) -> HTMLResponse:
    return HTMLResponse(text, status_code=status_code)


def bare_page(title: str, body: str, status_code: int = 200) -> HTMLResponse:
    """The minimal one-line document of the API-backed sites (FanGraphs, NBA, Tiingo); ``body`` holds any nav."""
    return HTMLResponse(
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title></head>'
        f"<body>{body}{sample_footer()}</body></html>",
        status_code=status_code,
    )


def not_found(request: Request, site: str = "") -> HTMLResponse:
    """The 404 HTML page every sandbox site answers for paths it does not know."""
    path = request.url.path
    body = (
        f'<div class="container"><h1>Page not found</h1><p>The page <code>{esc(path)}</code> '
        f"does not exist{(' on ' + esc(site)) if site else ''}.</p>"
        '<p><a href="/">Back to the site map</a></p></div>'
    )
    return HTMLResponse(page("404 Not Found", body), status_code=404)


def _pdf_escape(text: str) -> str:
    text = text.encode("latin-1", "replace").decode("latin-1")
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def tiny_pdf(title: str) -> bytes:
    """A small but valid one-page PDF (correct xref offsets) whose only text is ``title``."""
    line = _pdf_escape(title[:90])
    stream = f"BT /F1 12 Tf 40 750 Td ({line}) Tj ET".encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, obj in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + obj + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def pdf_response(title: str) -> Response:
    return Response(tiny_pdf(title), media_type="application/pdf")


def zip_response(name: str, title: str) -> Response:
    """A tiny valid ZIP holding one README (for ``-Supplemental.zip`` style links)."""
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("README.txt", f"Supplementary material for: {title}\n")
    return Response(
        buf.getvalue(),
        media_type="application/zip",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


def file_response(filename: str, title: str) -> Response:
    """PDF or ZIP bytes depending on the requested file name."""
    if filename.lower().endswith(".zip"):
        return zip_response(filename, title)
    return pdf_response(title)


def bibtex_response(text: str) -> Response:
    return Response(text, media_type="application/x-bibtex; charset=utf-8")


def bib_value(text: str) -> str:
    """Text safe inside a BibTeX braced value (unbalanced braces would break parsers)."""
    text = _BAD_CHARS.sub("", text or "").replace("\r", " ").replace("\n", " ")
    depth = 0
    for ch in text:
        depth += ch == "{"
        depth -= ch == "}"
        if depth < 0:
            break
    if depth != 0:
        text = text.replace("{", "").replace("}", "")
    return text


def comma_names(authors: str | None) -> list[str]:
    """``"A B, C D"`` → ``["A B", "C D"]`` (the stored author list; blank entries dropped)."""
    return [a.strip() for a in (authors or "").split(",") if a.strip()]


def display_names(authors: str) -> list[str]:
    """BibTeX ``Last, First and ...`` → ``["First Last", ...]`` as the proceedings sites show them."""
    out = []
    for part in re.split(r"\s+and\s+", (authors or "").strip()):
        part = part.strip()
        if not part:
            continue
        if "," in part:
            last, first = part.split(",", 1)
            part = f"{first.strip()} {last.strip()}".strip()
        out.append(part)
    return out


def cite_key(authors: str, year: int, title: str) -> str:
    """A BibTeX key like the real sites build: first author's surname + year + first title word."""
    first = (authors or "anon").split(" and ")[0].split(",")[0].strip()
    surname = first.split(",")[0] if "," in first else (first.split() or ["anon"])[-1]
    word = next((w for w in re.findall(r"[A-Za-z]+", title or "") if len(w) > 3), "paper")
    return f"{re.sub(r'[^A-Za-z]', '', surname).lower() or 'anon'}{year}{word.lower()}"


class LazyIndex(Generic[T]):
    """Build a site's index on first use (per data directory) and keep it; thread-safe."""

    def __init__(self, build: Callable[[], T]) -> None:
        self._build = build
        self._lock = threading.Lock()
        self._key: str | None = None
        self._value: T | None = None

    def get(self) -> T:
        key = str(data_dir())
        if self._key != key or self._value is None:
            with self._lock:
                if self._key != key or self._value is None:
                    self._value = self._build()
                    self._key = key
        return self._value  # type: ignore[return-value]


def papers_for(*abbrs: str) -> list[dict]:
    """Records of the given venues as plain dicts (sorted by year, idx)."""
    df = load_table("papers")
    sub = df[df["abbr"].isin(abbrs)].sort_values(["abbr", "year", "idx"], kind="stable")
    return sub.to_dict("records")


def split_url(url: str, host: str) -> str | None:
    """The path of a real URL on ``host`` (scheme ignored), or None when it is on another host."""
    m = re.match(r"^https?://([^/]+)(/.*)?$", url or "")
    if not m or m.group(1).lower() != host.lower():
        return None
    return m.group(2) or "/"


# What a stored file link is, by the ground-truth column that holds it.
FILE_KINDS = {"paper_link": "paper", "bibtex_link": "bibtex", "supp_link": "supp"}


def register_files(files: dict[str, tuple[str, dict]], rec: dict, host: str, cols: Iterable[str]) -> None:
    """Index the record's file links on ``host`` (path → (kind, record)); the first record for a path wins."""
    for col in cols:
        path = split_url(rec.get(col) or "", host)
        if path:
            files.setdefault(path, (FILE_KINDS[col], rec))


def file_handler(
    host: str,
    index: LazyIndex,
    *,
    paper_page: Callable[[dict], str] | None = None,
    bibtex: Callable[[dict], str] | None = None,
) -> Callable[[Request], Awaitable[Response]]:
    """A site's ``/{path:path}`` route: the paper page at that path (``index.pages``, when the site
    renders them there), else the stored file (the site's BibTeX for a ``.bib`` link when it writes
    one, else PDF/ZIP bytes), else the site's 404."""

    async def handler(request: Request) -> Response:
        path = "/" + request.path_params["path"]
        idx = index.get()
        if paper_page is not None:
            rec = idx.pages.get(path)
            if rec is not None:
                return html_response(paper_page(rec))
        hit = idx.files.get(path)
        if hit is None:
            return not_found(request, host)
        return file_hit(path, hit, bibtex)

    return handler


def file_hit(path: str, hit: tuple[str, dict], bibtex: Callable[[dict], str] | None = None) -> Response:
    """The bytes of a stored file link found by ``register_files``: a ``bibtex_link`` is the site's BibTeX
    when it writes one (``bibtex``); otherwise every file is PDF/ZIP bytes by its name."""
    kind, rec = hit
    if kind == "bibtex" and bibtex is not None:
        return bibtex_response(bibtex(rec))
    return file_response(path.rsplit("/", 1)[-1], rec["title"])


def mounted(prefix: str, *routes: BaseRoute) -> list[BaseRoute]:
    """A site's routes under its ``/<real host>`` prefix, as ``routes(ctx)`` returns them."""
    return [Mount(prefix, routes=list(routes))]
