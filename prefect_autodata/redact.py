"""Secrets by value: once a credential is known, it is scrubbed from every string the product writes.

Name lists alone leak (``auth_token``, ``client_secret``, a token in the URL path, a userinfo password), so
every resolved ``{secret:NAME}`` value and every credential-looking query parameter, header or userinfo the
fetcher sends is *registered* here; ``redact_text`` then replaces those values (and their URL-encoded forms)
wherever they appear: URLs, error messages, log records, traces, cache entries, DuckDB tables, JSON output.
Name-based rules still apply to values never registered (a URL in an error about a request not yet sent).

The registry is process-wide on purpose: a secret resolved by one run must not reach a log line written by
another thread. It only grows; values shorter than ``MIN_SECRET`` are ignored (they would blank ordinary text).
"""

from __future__ import annotations

import base64
import logging
import re
import threading
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import parse_qsl, quote, quote_plus, unquote, urlsplit

REDACTED = "REDACTED"
MIN_SECRET = 4  # a resolved {secret:...} value at least this long is redacted everywhere
MIN_GUESSED = 6  # a value guessed to be a credential (by its parameter/header name) at least this long

# Words that, as a part of a parameter or header name, mark its value as a credential.
_SECRET_PARTS = frozenset(
    {
        "token",
        "secret",
        "password",
        "passwd",
        "pwd",
        "apikey",
        "key",
        "auth",
        "authorization",
        "signature",
        "sig",
        "credential",
        "credentials",
        "jwt",
        "bearer",
        "session",
        "sessionid",
        "cookie",
        "otp",
    }
)
_SECRET_SUBSTRINGS = ("token", "secret", "passw", "apikey", "api_key", "privatekey", "accesskey")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_QUERY_PAIR = re.compile(r"([?&;]([A-Za-z0-9_.\-\[\]]{1,64})=)([^&\s#'\"<>,):]+)")
_USERINFO = re.compile(r"(\b[a-zA-Z][a-zA-Z0-9+.\-]*://[^\s/@:]*:)([^\s/@]+)(@)")
# The segment after a credential word, when it looks like a credential (a digit in it, or 16+ characters):
# not an ordinary path word ("/daily/KEY/prices" is KeyCorp's prices, not a key "prices").
_PATH_TOKEN = re.compile(
    r"(/(?:token|tokens|key|keys|apikey|api_key|api-key|secret|access_token|auth)/)"
    r"((?=[^/?#\s'\"<>]*[0-9])[^/?#\s'\"<>]{6,}|[^/?#\s'\"<>]{16,})",
    re.IGNORECASE,
)
_BEARER = re.compile(r"\b(Bearer|Basic|Token)\s+([A-Za-z0-9_\-.=+/]{8,})")
_KEY_SHAPED = re.compile(r"\bsk-[A-Za-z0-9_\-]{8,}")

_lock = threading.Lock()
_values: tuple[str, ...] = ()  # every form of every registered secret, longest first


def is_secret_name(name: str) -> bool:
    """``auth_token``, ``client_secret``, ``X-Api-Key``, ``apiKey``, ``password``... (not ``author``, ``keyword``)."""
    low = name.lower()
    if any(s in low for s in _SECRET_SUBSTRINGS):
        return True
    parts = re.split(r"[_\-.\[\]\s]+", _CAMEL.sub("_", name).lower())
    return any(p in _SECRET_PARTS for p in parts if p)


def _forms(value: str) -> set[str]:
    """The value as it may appear in text: raw, percent-encoded, form-encoded."""
    return {value, quote(value, safe=""), quote(value), quote_plus(value)}


def register(value: Any, *, min_len: int = MIN_SECRET) -> None:
    """Redact ``value`` from now on, everywhere (no-op for short or non-string values)."""
    global _values
    if not isinstance(value, str):
        return
    value = value.strip()
    if len(value) < min_len:
        return
    with _lock:
        known = set(_values)
        new = _forms(value) - known
        if not new:
            return
        _values = tuple(sorted(known | {f for f in new if len(f) >= min_len}, key=len, reverse=True))
    install_log_redaction()


def register_all(values: Iterable[Any], *, min_len: int = MIN_SECRET) -> None:
    for v in values:
        register(v, min_len=min_len)


def registered() -> tuple[str, ...]:
    """The registered forms (tests use this to scan outputs)."""
    return _values


def scan_url(url: str) -> None:
    """Register the credentials a URL carries: secret-named query values, a userinfo password, a path token."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return
    if password:
        register(unquote(password))
    for k, v in parse_qsl(parts.query, keep_blank_values=False):
        if is_secret_name(k):
            register(v, min_len=MIN_GUESSED)
    for m in _PATH_TOKEN.finditer(parts.path):
        register(unquote(m.group(2)), min_len=MIN_GUESSED)


def scan_params(params: Mapping[str, Any] | None) -> None:
    for k, v in (params or {}).items():
        if is_secret_name(str(k)):
            register(str(v), min_len=MIN_GUESSED)


def scan_headers(headers: Mapping[str, str] | None) -> None:
    """Register credential header values (``Authorization: Bearer X`` registers X and the whole value)."""
    for k, v in (headers or {}).items():
        if not isinstance(v, str) or not (is_secret_name(k) or k.lower() == "proxy-authorization"):
            continue
        register(v, min_len=MIN_GUESSED)
        scheme, _, cred = v.strip().partition(" ")
        if cred:
            register(cred, min_len=MIN_GUESSED)
            if scheme.lower() == "basic":
                try:
                    user_pass = base64.b64decode(cred, validate=True).decode("utf-8")
                except ValueError:
                    continue
                register(user_pass.partition(":")[2])
        if k.lower() == "cookie":
            for pair in v.split(";"):
                register(pair.partition("=")[2], min_len=MIN_GUESSED)


def _query_sub(m: re.Match) -> str:
    return m.group(1) + REDACTED if is_secret_name(m.group(2)) and m.group(3) != REDACTED else m.group(0)


def redact_text(text: str) -> str:
    """Every registered secret and every credential-shaped fragment of ``text`` becomes ``REDACTED``."""
    if not text or not isinstance(text, str):
        return text
    for v in _values:
        if v in text:
            text = text.replace(v, REDACTED)
    if "=" in text:
        text = _QUERY_PAIR.sub(_query_sub, text)
    if "@" in text:
        text = _USERINFO.sub(lambda m: m.group(1) + REDACTED + m.group(3), text)
    if "/" in text:
        text = _PATH_TOKEN.sub(lambda m: m.group(1) + REDACTED, text)
    text = _BEARER.sub(lambda m: f"{m.group(1)} {REDACTED}", text)
    return _KEY_SHAPED.sub(REDACTED, text)


def redact_bytes(data: bytes) -> bytes:
    """Registered secrets removed from raw bytes (cache entries); other bytes untouched."""
    for v in _values:
        b = v.encode("utf-8", "ignore")
        if b and b in data:
            data = data.replace(b, REDACTED.encode())
    return data


def redact_obj(obj: Any) -> Any:
    """``redact_text`` applied to every string inside dicts/lists/tuples (keys included)."""
    if isinstance(obj, str):
        return redact_text(obj)
    if isinstance(obj, dict):
        return {redact_obj(k) if isinstance(k, str) else k: redact_obj(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [redact_obj(v) for v in obj]
    return obj


def redact_column(values: Any) -> Any:
    """A pandas Series of strings, redacted (each distinct value once)."""
    if values is None or len(values) == 0:
        return values
    uniq = {v: redact_text(v) for v in values.dropna().unique() if isinstance(v, str)}
    if all(k == v for k, v in uniq.items()):
        return values
    return values.map(lambda v: uniq.get(v, v) if isinstance(v, str) else v)


MIN_IN_DATA = 8  # a registered value this long is also removed from data values (shorter ones could collide)


def redact_values(text: str) -> str:
    """Only the registered secret values (at least ``MIN_IN_DATA`` long) removed: for data values, where the
    name/shape rules would damage ordinary text ("Bearer tokens are ..." in an abstract)."""
    if not text or not isinstance(text, str):
        return text
    for v in _values:
        if len(v) >= MIN_IN_DATA and v in text:
            text = text.replace(v, REDACTED)
    return text


def redact_data_column(values: Any) -> Any:
    """A data column with registered secret values removed (a page URL kept by ``from_url``, an API echoing
    the token); untouched, and cheap, when no long secret is registered or none occurs."""
    if values is None or len(values) == 0 or not any(len(v) >= MIN_IN_DATA for v in _values):
        return values
    if values.dtype != object and not str(values.dtype).startswith("str"):
        return values
    uniq = {v: redact_values(v) for v in values.dropna().unique() if isinstance(v, str)}
    if all(k == v for k, v in uniq.items()):
        return values
    return values.map(lambda v: uniq.get(v, v) if isinstance(v, str) else v)


# -- logging -----------------------------------------------------------------------------------------------

_installed = False


def install_log_redaction() -> None:
    """Every log record created from now on is redacted (urllib3's DEBUG lines echo request URLs)."""
    global _installed
    with _lock:
        if _installed:
            return
        _installed = True
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a bad format string is the logger's problem, not ours
            return record
        clean = redact_text(message)
        if clean != message:
            record.msg, record.args = clean, None
        return record

    logging.setLogRecordFactory(factory)


install_log_redaction()
