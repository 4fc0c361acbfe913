"""Media discovery and BaRA's verification gates: in the DOM, downloadable (2xx), right MIME type, not a duplicate.

A media URL an agent proposes is only kept when every gate passes; a rejection carries its reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from lxml import html as lxml_html

from prefect_autodata.errors import AutoDataError
from prefect_autodata.runtime.fetch import Fetcher

MediaKind = str  # "image" | "video" | "audio" | "pdf"

_EXT_KIND = {
    **dict.fromkeys(
        ("png", "jpg", "jpeg", "gif", "webp", "svg", "bmp", "avif", "ico", "tif", "tiff"), "image"
    ),
    **dict.fromkeys(("mp4", "webm", "mov", "m4v", "ogv", "mkv", "avi"), "video"),
    **dict.fromkeys(("mp3", "wav", "ogg", "oga", "m4a", "flac", "aac"), "audio"),
    "pdf": "pdf",
}
_TAG_KIND = {"img": "image", "video": "video", "audio": "audio", "picture": "image"}
_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "image"),
    (b"\xff\xd8\xff", "image"),
    (b"GIF8", "image"),
    (b"%PDF-", "pdf"),
    (b"ID3", "audio"),
    (b"OggS", "audio"),
    (b"fLaC", "audio"),
)


@dataclass(frozen=True)
class MediaItem:
    """A media URL seen on a page (absolute), with the kind its tag or extension declares."""

    url: str
    page_url: str
    kind: MediaKind
    attribute: str = "src"


@dataclass
class MediaResult:
    url: str
    page_url: str
    kind: MediaKind
    ok: bool
    reason: str | None = None
    content_type: str | None = None
    bytes: int = 0
    sha256: str | None = None


def kind_from_url(url: str) -> MediaKind | None:
    path = urlsplit(url).path.lower()
    ext = path.rsplit(".", 1)[-1] if "." in path.rsplit("/", 1)[-1] else ""
    return _EXT_KIND.get(ext)


def _srcset_urls(value: str) -> list[str]:
    return [part.strip().split()[0] for part in value.split(",") if part.strip()]


def extract_media(doc_or_html: object, page_url: str) -> list[MediaItem]:
    """Every media URL in the DOM, in document order: img/video/audio/source ``src``, ``data-src``,
    ``srcset``, ``poster``, and links to media files. ``data:`` placeholders are ignored."""
    doc = lxml_html.fromstring(doc_or_html) if isinstance(doc_or_html, str | bytes) else doc_or_html
    base = page_url
    base_el = doc.find(".//base[@href]")  # type: ignore[union-attr]
    if base_el is not None:
        base = urljoin(page_url, base_el.get("href"))
    out: list[MediaItem] = []
    seen: set[str] = set()

    def add(raw: str | None, kind: MediaKind | None, attr: str) -> None:
        if not raw:
            return
        raw = raw.strip()
        if not raw or raw.startswith(("data:", "blob:", "javascript:", "#")):
            return
        url = urljoin(base, raw).split("#", 1)[0]
        if url in seen:
            return
        k = kind_from_url(url) or kind
        if k is None:
            return
        seen.add(url)
        out.append(MediaItem(url=url, page_url=page_url, kind=k, attribute=attr))

    for el in doc.iter("img", "video", "audio", "source", "a", "embed", "object"):  # type: ignore[union-attr]
        tag = el.tag
        if tag == "source":
            parent = el.getparent()
            kind = _TAG_KIND.get(parent.tag if parent is not None else "", None)
        else:
            kind = _TAG_KIND.get(tag)
        if tag == "a":
            href = el.get("href")
            if href and kind_from_url(urljoin(base, href)):
                add(href, None, "href")
            continue
        for attr in ("src", "data-src", "data-original", "data-lazy-src"):
            add(el.get(attr), kind, attr)
        for attr in ("srcset", "data-srcset"):
            if el.get(attr):
                for u in _srcset_urls(el.get(attr)):
                    add(u, kind or "image", attr)
        if tag == "video" and el.get("poster"):
            add(el.get("poster"), "image", "poster")
        if tag in ("embed", "object"):
            add(el.get("data"), None, "data")
    return out


def _sniff(body: bytes) -> MediaKind | None:
    for magic, kind in _MAGIC:
        if body.startswith(magic):
            return kind
    if body[4:8] == b"ftyp":
        return "video"
    if body.startswith(b"RIFF") and body[8:12] == b"WEBP":
        return "image"
    if body.startswith(b"\x1aE\xdf\xa3"):
        return "video"
    return None


def _mime_matches(kind: MediaKind, content_type: str, body: bytes) -> bool:
    if kind == "pdf":
        return content_type == "application/pdf" or (
            content_type in ("application/octet-stream", "binary/octet-stream") and _sniff(body) == "pdf"
        )
    if content_type.startswith(f"{kind}/"):
        sniffed = _sniff(body)
        return sniffed is None or sniffed == kind or content_type == "image/svg+xml"
    if content_type in ("application/octet-stream", "binary/octet-stream", ""):
        return _sniff(body) == kind
    return False


def verify_media(
    candidates: Iterable[MediaItem],
    page_html_by_url: Mapping[str, str | bytes],
    fetcher: Fetcher,
    *,
    concurrency: int = 8,
) -> list[MediaResult]:
    """Apply BaRA's gates to each candidate, in order; duplicates (same bytes) keep the first URL only."""
    items = list(candidates)
    in_dom: dict[str, set[str]] = {}
    for page_url in {c.page_url for c in items}:
        html_text = page_html_by_url.get(page_url)
        in_dom[page_url] = (
            {m.url for m in extract_media(html_text, page_url)} if html_text else set()  # type: ignore[arg-type]
        )

    def download(item: MediaItem) -> MediaResult:
        if item.url not in in_dom.get(item.page_url, set()):
            return MediaResult(item.url, item.page_url, item.kind, False, "not present in the page's DOM")
        try:
            resp = fetcher.get(item.url)
        except AutoDataError as exc:
            return MediaResult(item.url, item.page_url, item.kind, False, f"download failed: {exc}")
        if not 200 <= resp.status < 300:
            return MediaResult(item.url, item.page_url, item.kind, False, f"HTTP {resp.status}")
        if not resp.content:
            return MediaResult(item.url, item.page_url, item.kind, False, "empty body", resp.content_type)
        if not _mime_matches(item.kind, resp.content_type, resp.content):
            return MediaResult(
                item.url,
                item.page_url,
                item.kind,
                False,
                f"MIME {resp.content_type or 'unknown'} does not match {item.kind}",
                resp.content_type,
                len(resp.content),
                resp.content_hash,
            )
        return MediaResult(
            item.url,
            item.page_url,
            item.kind,
            True,
            None,
            resp.content_type,
            len(resp.content),
            resp.content_hash,
        )

    with ThreadPoolExecutor(max(1, concurrency)) as pool:
        results = list(pool.map(download, items))
    first_by_hash: dict[str, str] = {}
    seen_urls: set[str] = set()
    for r in results:
        if r.ok and r.url in seen_urls:
            r.ok, r.reason = False, "duplicate URL"
            continue
        seen_urls.add(r.url)
        if r.ok and r.sha256:
            if r.sha256 in first_by_hash and first_by_hash[r.sha256] != r.url:
                r.ok, r.reason = False, f"duplicate content of {first_by_hash[r.sha256]}"
            else:
                first_by_hash.setdefault(r.sha256, r.url)
    return results
