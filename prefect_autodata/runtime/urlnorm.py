"""URL normalisation, site scoping and redaction: one canonical form so the crawler never visits a page twice."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, quote, unquote, urlencode, urljoin, urlsplit, urlunsplit

# Query keys that only track the visitor; dropping them never changes the page.
TRACKING_PARAMS = frozenset(
    {
        "ref",
        "ref_src",
        "referrer",
        "fbclid",
        "gclid",
        "dclid",
        "gclsrc",
        "msclkid",
        "mc_cid",
        "mc_eid",
        "igshid",
        "yclid",
        "_ga",
        "_gl",
        "_hsenc",
        "_hsmi",
        "mkt_tok",
        "spm",
        "sessionid",
        "session_id",
        "phpsessid",
        "jsessionid",
    }
)
TRACKING_PREFIXES = ("utm_", "pk_", "mtm_", "hsa_")

# Query keys whose values are secrets; lineage must never store them.
SECRET_PARAMS = frozenset(
    {"token", "key", "api_key", "apikey", "password", "passwd", "secret", "access_token", "auth", "signature"}
)

BINARY_EXTENSIONS = frozenset(
    {
        ".7z",
        ".avi",
        ".bin",
        ".bmp",
        ".bz2",
        ".csv",
        ".dmg",
        ".doc",
        ".docx",
        ".eot",
        ".epub",
        ".exe",
        ".flac",
        ".gif",
        ".gz",
        ".ico",
        ".iso",
        ".jpeg",
        ".jpg",
        ".js",
        ".json",
        ".m4a",
        ".mkv",
        ".mov",
        ".mp3",
        ".mp4",
        ".mpeg",
        ".ogg",
        ".otf",
        ".parquet",
        ".pdf",
        ".png",
        ".ppt",
        ".pptx",
        ".rar",
        ".svg",
        ".tar",
        ".tgz",
        ".tif",
        ".tiff",
        ".ttf",
        ".wav",
        ".webm",
        ".webp",
        ".woff",
        ".woff2",
        ".xls",
        ".xlsx",
        ".xml",
        ".zip",
        ".css",
        ".bib",
    }
)

_DEFAULT_PORTS = {"http": 80, "https": 443}
_DIGITS = re.compile(r"\d+")


def _is_tracking(key: str) -> bool:
    k = key.lower()
    return k in TRACKING_PARAMS or k.startswith(TRACKING_PREFIXES)


def normalize_url(url: str, base: str | None = None, *, strip_trailing_slash: bool = True) -> str:
    """Canonical form: absolute, no fragment, no tracking keys, lowercase scheme/host, no default port,
    no trailing slash (except the root), query keys sorted. Pagination/sort/category keys are kept.

    The trailing-slash-free form is an identity key; servers may treat ``/a/`` and ``/a`` differently, so
    pass ``strip_trailing_slash=False`` for the URL actually requested."""
    if base is not None:
        url = urljoin(base, url.strip())
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    port = parts.port
    netloc = host if port is None or _DEFAULT_PORTS.get(scheme) == port else f"{host}:{port}"
    if parts.username:
        netloc = f"{parts.username}@{netloc}"
    path = quote(unquote(parts.path), safe="/:@!$&'()*+,;=-._~%")
    path = re.sub(r"/{2,}", "/", path)
    if strip_trailing_slash and len(path) > 1 and path.endswith("/"):
        path = path.rstrip("/") or "/"
    if not path:
        path = "/"
    query_pairs = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not _is_tracking(k)]
    query = urlencode(sorted(query_pairs), doseq=True)
    return urlunsplit((scheme, netloc, path, query, ""))


def site_root_of(url: str) -> str:
    """Default site root: the URL's normalised origin (``scheme://host[:port]``)."""
    parts = urlsplit(normalize_url(url))
    return f"{parts.scheme}://{parts.netloc}"


def in_site(url: str, site_root: str) -> bool:
    """True when ``url`` lives under ``site_root`` (same origin, and under its path prefix if it has one)."""
    root = normalize_url(site_root)
    u = normalize_url(url)
    r = urlsplit(root)
    p = urlsplit(u)
    if (p.scheme, p.netloc) != (r.scheme, r.netloc):
        return False
    prefix = r.path.rstrip("/")
    if not prefix:
        return True
    return p.path == prefix or p.path.startswith(prefix + "/")


def is_binary_url(url: str) -> bool:
    """A link to a file download (by extension), not a page the crawler should parse."""
    path = urlsplit(url).path.lower()
    dot = path.rfind(".")
    if dot == -1 or "/" in path[dot:]:
        return False
    return path[dot:] in BINARY_EXTENSIONS


def family_key(url: str) -> str:
    """The URL's pattern with numbers collapsed: ``/cal?d=2024-05-01`` and ``/cal?d=2024-05-02`` share one.

    Used by the trap guard so an endless calendar cannot eat the page budget."""
    parts = urlsplit(normalize_url(url))
    path = _DIGITS.sub("0", parts.path)
    keys = sorted({k for k, _ in parse_qsl(parts.query, keep_blank_values=True)})
    return f"{parts.netloc}{path}?{'&'.join(keys)}"


def redact_url(url: str) -> str:
    """Replace secret query values (token, api_key, auth_token, client_secret...), userinfo passwords and
    every registered secret value (a token in the path, say) with ``REDACTED``."""
    from prefect_autodata.redact import is_secret_name, redact_text

    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return redact_text(url)
    netloc = parts.netloc
    if password is not None:
        netloc = netloc.replace(f":{password}@", ":REDACTED@", 1)
    if not parts.query:
        return redact_text(urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment)))
    pairs = [
        (k, "REDACTED" if k.lower() in SECRET_PARAMS or is_secret_name(k) else v)
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
    ]
    query = urlencode(pairs, safe="/:")
    return redact_text(urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment)))


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` exactly as requested (used to key robots.txt and rate limits)."""
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"
