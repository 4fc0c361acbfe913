"""The one HTTP client layer every source goes through: polite, bounded, retried, SSRF-safe, with lineage.

Built on ``requests`` (one pooled Session, safe to share across a ThreadPoolExecutor). Redirects are followed
by hand so every hop passes the address policy and robots.txt; bodies are streamed so a giant response is cut
off at ``max_bytes`` instead of filling memory.
"""

from __future__ import annotations

import email.utils
import hashlib
import heapq
import itertools
import os
import random
import re
import socket
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal
from urllib.parse import urljoin, urlsplit

import requests
from pydantic import BaseModel
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

from prefect_autodata import redact
from prefect_autodata.errors import FetchError, TransientError
from prefect_autodata.runtime.interstitial import detect_interstitial
from prefect_autodata.runtime.policy import FetchPolicy
from prefect_autodata.runtime.robots import RobotsCache
from prefect_autodata.runtime.ssrf import AddressPolicy
from prefect_autodata.runtime.urlnorm import origin_of, redact_url

RobotsDecision = Literal["allowed", "disallowed", "disallowed-overridden", "not-checked"]

#: a local mirror that serves every real host under ``<mirror>/<host>/<path>`` (a run-time transport
#: mapping, e.g. a deployment's job variable; specs keep naming the real hosts)
MIRROR_ENV = "AUTODATA_MIRROR"
_ORIGIN = re.compile(r"^https?://([^/?#\s]+)(.*)$", re.S)


def mirror_from_env() -> str | None:
    """The mirror base URL set for this process (``$AUTODATA_MIRROR``), if any."""
    return os.environ.get(MIRROR_ENV, "").strip().rstrip("/") or None


def mirror_url(url: str, mirror: str | None) -> str:
    """``https://host/path`` -> ``<mirror>/host/path``; URLs already on the mirror are kept."""
    if not mirror:
        return url
    mirror = mirror.rstrip("/")
    if url == mirror or url.startswith(mirror + "/"):
        return url
    m = _ORIGIN.match(url)
    return f"{mirror}/{m.group(1)}{m.group(2)}" if m else url


_TRANSIENT_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504, 520, 521, 522, 523, 524})
_REDIRECT_STATUS = frozenset({301, 302, 303, 307, 308})
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_\-:.]+)""", re.I)
_XML_DECL = re.compile(rb"""^<\?xml[^>]+encoding\s*=\s*["']([A-Za-z0-9_\-.]+)""", re.I)
_TEXTUAL = ("text/", "application/json", "application/xml", "application/xhtml", "application/javascript")
_EXPECT_TYPES: dict[str, tuple[str, ...]] = {
    "html": ("text/html", "application/xhtml+xml"),
    "json": ("application/json", "+json", "text/json", "application/x-ndjson"),
    "csv": ("text/csv", "application/csv", "text/plain", "application/vnd.ms-excel"),
    "xml": ("application/xml", "text/xml", "+xml"),
    "text": ("text/",),
}


@dataclass(slots=True)
class FetchResponse:
    """One successful fetch: the body (raw and decoded) plus what lineage needs."""

    url: str
    final_url: str
    status: int
    headers: dict[str, str]
    content: bytes
    text: str
    encoding: str | None
    content_type: str
    content_hash: str
    fetched_at: datetime
    elapsed: float
    robots: RobotsDecision
    from_cache: bool = False

    def json(self) -> Any:
        """Decode the body as JSON; a malformed body is a FetchError naming the URL."""
        import json

        try:
            return json.loads(self.text if self.text else self.content)
        except ValueError as exc:
            raise FetchError(f"{self.final_url} did not return valid JSON: {exc}") from exc
        except RecursionError as exc:
            raise FetchError(f"{self.final_url}: JSON nested too deeply to decode") from exc


class SourceRecord(BaseModel):
    """One row of ``_autodata_sources``: what was fetched, how it went, and the robots decision."""

    url: str
    status: int | None
    bytes: int
    content_hash: str | None
    fetched_at: datetime
    robots: RobotsDecision
    from_cache: bool = False
    error: str | None = None


@dataclass
class FetchStats:
    requests: int = 0
    retries: int = 0
    bytes: int = 0
    not_modified: int = 0
    failures: int = 0


#: bodies kept for conditional re-requests (ETag/Last-Modified) within one fetcher, at most this many bytes
VALIDATOR_CACHE_BYTES = 32 * 2**20


@dataclass
class _Validator:
    etag: str | None
    last_modified: str | None
    response: FetchResponse


@dataclass
class _HostGate:
    """Per-host token bucket (burst 1: strict spacing) and concurrency semaphore."""

    interval: float
    semaphore: threading.Semaphore
    lock: threading.Lock = field(default_factory=threading.Lock)
    next_at: float = 0.0
    blocked_until: float = 0.0

    def acquire(self) -> None:
        self.semaphore.acquire()
        with self.lock:
            now = time.monotonic()
            slot = max(now, self.next_at, self.blocked_until)
            self.next_at = slot + self.interval
        delay = slot - now
        if delay > 0:
            time.sleep(delay)

    def release(self) -> None:
        self.semaphore.release()

    def back_off(self, seconds: float) -> None:
        """A 429/503 with Retry-After slows the whole host down, not only the request that got it."""
        with self.lock:
            self.blocked_until = max(self.blocked_until, time.monotonic() + seconds)


class _Deadline:
    """One exchange's total deadline (headers and body). Past it the watchdog shuts the socket, so a server
    trickling a byte every few seconds cannot hold a run: ``read_timeout`` only bounds the silence between
    two bytes."""

    __slots__ = ("conn", "expired", "cancelled", "seconds")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.conn: Any = None
        self.expired = False
        self.cancelled = False


class _Watchdog:
    """One daemon thread firing deadlines in time order (no timer thread per request)."""

    def __init__(self) -> None:
        self._cv = threading.Condition()
        self._heap: list[tuple[float, int, _Deadline]] = []
        self._seq = itertools.count()
        self._thread: threading.Thread | None = None

    def watch(self, deadline: _Deadline, after: float | None = None) -> None:
        with self._cv:
            when = time.monotonic() + (deadline.seconds if after is None else after)
            heapq.heappush(self._heap, (when, next(self._seq), deadline))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="autodata-deadlines", daemon=True)
                self._thread.start()
            self._cv.notify()

    def cancel(self, deadline: _Deadline) -> None:
        with self._cv:  # never shut a socket that is back in the pool
            deadline.cancelled = True

    def _run(self) -> None:
        with self._cv:
            while True:
                while self._heap and self._heap[0][2].cancelled:
                    heapq.heappop(self._heap)
                if not self._heap:
                    self._cv.wait(30)
                    continue
                wait = self._heap[0][0] - time.monotonic()
                if wait > 0:
                    self._cv.wait(wait)
                    continue
                _, _, d = heapq.heappop(self._heap)
                d.expired = True
                sock = getattr(d.conn, "sock", None)
                if sock is None:  # still connecting (connect_timeout bounds that): look again shortly
                    when = time.monotonic() + 0.2
                    heapq.heappush(self._heap, (when, next(self._seq), d))
                    continue
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


_WATCHDOG = _Watchdog()
_current = threading.local()


def _attach(conn: Any) -> None:
    """Tell the running exchange's deadline which connection it must shut when it expires."""
    deadline = getattr(_current, "deadline", None)
    if deadline is not None:
        deadline.conn = conn
        if deadline.expired:
            raise TimeoutError("request deadline passed")


def _pin(conn: Any, sock: socket.socket) -> socket.socket:
    """Check the address a new connection really reached, before one byte of HTTP or TLS is sent.

    The policy resolved the host when it checked the URL; a host whose DNS answer changed since then
    (DNS rebinding) is caught here, on the connected peer address."""
    policy = getattr(_current, "policy", None)
    if policy is None:
        return sock
    try:
        addr = str(sock.getpeername()[0])
    except OSError:
        return sock
    reason = policy.connected_refusal(str(conn.host or ""), addr)
    if reason is not None:
        _current.refused = reason
        sock.close()
        raise OSError(reason)
    return sock


class _WatchedHTTPConnection(HTTPConnection):
    def _new_conn(self) -> socket.socket:
        return _pin(self, super()._new_conn())

    def request(self, *args: Any, **kwargs: Any) -> Any:
        _attach(self)
        return super().request(*args, **kwargs)


class _WatchedHTTPSConnection(HTTPSConnection):
    def _new_conn(self) -> socket.socket:
        return _pin(self, super()._new_conn())

    def request(self, *args: Any, **kwargs: Any) -> Any:
        _attach(self)
        return super().request(*args, **kwargs)


class _WatchedHTTPPool(HTTPConnectionPool):
    ConnectionCls = _WatchedHTTPConnection


class _WatchedHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _WatchedHTTPSConnection


class Fetcher:
    """Thread-safe HTTP client honouring a FetchPolicy. Use as a context manager (closes the pool).

    ``allowed_hosts``: hosts the user named explicitly (loopback/private allowed for these only).
    """

    def __init__(
        self,
        policy: FetchPolicy | None = None,
        allowed_hosts: Iterable[str] = (),
        *,
        pool_size: int | None = None,
        mirror: str | None = None,
    ) -> None:
        self.policy = policy or FetchPolicy()
        self._run_ends = time.monotonic() + self.policy.run_deadline
        allowed_hosts = list(allowed_hosts)
        for h in allowed_hosts:
            redact.scan_url(h)  # a user-named URL's credentials are never written anywhere
        self.addresses = AddressPolicy(allowed_hosts, self.policy.allow_private)
        self.mirror = mirror.rstrip("/") if mirror else None
        if self.mirror:
            self.addresses.allow_host(self.mirror)
        self.session = requests.Session()
        size = pool_size or max(16, self.policy.concurrency_per_host * 2)
        adapter = HTTPAdapter(pool_connections=16, pool_maxsize=size, max_retries=0)
        self.session.mount("http://", adapter)
        self.session.mount("https://", adapter)
        # every connection reports to its exchange's deadline (see _Deadline)
        adapter.poolmanager.pool_classes_by_scheme = {"http": _WatchedHTTPPool, "https": _WatchedHTTPSPool}
        self.session.headers.update(
            {"User-Agent": self.policy.user_agent, "Accept-Encoding": "gzip, deflate", "Accept": "*/*"}
        )
        self.sources: list[SourceRecord] = []
        self.stats = FetchStats()
        self._validators: dict[str, _Validator] = {}
        self._validator_bytes = 0
        self._gates: dict[str, _HostGate] = {}
        self._lock = threading.Lock()
        self.robots = RobotsCache(self._download_robots)
        self._closed = False

    # -- lifecycle -------------------------------------------------------------------------------------
    def close(self) -> None:
        if not self._closed:
            self.session.close()
            self._closed = True

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- policy helpers (also used by the browser) ------------------------------------------------------
    def allow_host(self, host_or_url: str) -> None:
        """Trust a host the user named explicitly (a --source URL, a spec's base URL).

        Never call this for a host a page, a redirect or a model chose: those pass the address policy."""
        redact.scan_url(host_or_url)
        self.addresses.allow_host(host_or_url)

    def time_left(self) -> float:
        """Seconds left of the run deadline (``politeness.run_deadline``)."""
        return self._run_ends - time.monotonic()

    def check_address(self, url: str) -> None:
        self.addresses.check(url)

    def route(self, url: str) -> str:
        """Where ``url`` is really fetched: through the mirror when one is set (see ``mirror_url``)."""
        return mirror_url(url, self.mirror)

    def robots_decision(self, url: str) -> RobotsDecision:
        """Check robots.txt for ``url``: FetchError when disallowed and the policy respects robots."""
        rules = self.robots.rules_for(origin_of(url))
        if rules.deny_all and rules.reason and self.policy.respect_robots:
            raise FetchError(f"{url}: {rules.reason}")
        delay = rules.crawl_delay(self.policy.user_agent)
        if delay:  # Crawl-delay slows our per-host pace (capped like Retry-After)
            gate = self._gate(url)
            gate.interval = max(gate.interval, min(delay, self.policy.backoff_cap))
        if rules.allowed(url, self.policy.user_agent):
            return "allowed"
        if self.policy.respect_robots:
            raise FetchError(f"{url} is disallowed by robots.txt for {self.policy.user_agent.split('/')[0]}")
        return "disallowed-overridden"

    def check_url(self, url: str) -> RobotsDecision:
        """Address policy plus robots.txt, without fetching ``url`` itself."""
        self.check_address(url)
        return self.robots_decision(url)

    # -- public API ------------------------------------------------------------------------------------
    def get(
        self,
        url: str,
        *,
        params: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        method: str = "GET",
        expect: str | None = None,
        data: Any = None,
        json_body: Any = None,
    ) -> FetchResponse:
        """Fetch ``url`` (params are encoded into it). ``expect``: html/json/csv/xml/text or a MIME prefix;
        a mismatching Content-Type is a FetchError. Raises FetchError (terminal) or TransientError (retries
        exhausted on a transient failure)."""
        if self._closed:
            raise FetchError(f"fetcher is closed; cannot fetch {url}")
        url = self.route(url)
        full_url = requests.Request(method, url, params=params).prepare().url or url
        redact.scan_url(full_url)  # credentials we send are redacted by value wherever they show up
        redact.scan_headers(headers)
        try:
            resp = self._fetch_with_retries(full_url, method.upper(), dict(headers or {}), data, json_body)
        except (FetchError, TransientError) as exc:
            with self._lock:
                self.stats.failures += 1
                self.sources.append(
                    SourceRecord(
                        url=redact_url(full_url),
                        status=getattr(exc, "status", None),
                        bytes=0,
                        content_hash=None,
                        fetched_at=datetime.now(UTC),
                        robots=getattr(exc, "robots", "not-checked"),
                        error=str(exc),
                    )
                )
            raise
        if expect is not None:
            _check_expect(resp, expect)
        if expect == "json" or "json" in resp.content_type:
            _check_json_depth(resp, self.policy.max_json_depth)
        with self._lock:
            self.sources.append(
                SourceRecord(
                    url=redact_url(resp.url),
                    status=resp.status,
                    bytes=len(resp.content),
                    content_hash=resp.content_hash,
                    fetched_at=resp.fetched_at,
                    robots=resp.robots,
                    from_cache=resp.from_cache,
                )
            )
        return resp

    def record(self, url: str, status: int | None, content: bytes, robots: RobotsDecision) -> SourceRecord:
        """Add a lineage record for a body obtained another way (e.g. a page rendered by the browser)."""
        rec = SourceRecord(
            url=redact_url(url),
            status=status,
            bytes=len(content),
            content_hash=hashlib.sha256(content).hexdigest(),
            fetched_at=datetime.now(UTC),
            robots=robots,
        )
        with self._lock:
            self.sources.append(rec)
        return rec

    # -- internals -------------------------------------------------------------------------------------
    def _gate(self, url: str) -> _HostGate:
        origin = origin_of(url)
        with self._lock:
            gate = self._gates.get(origin)
            if gate is None:
                rate = self.policy.rate_limit_per_host
                gate = _HostGate(
                    interval=(1.0 / rate) if rate > 0 else 0.0,
                    semaphore=threading.Semaphore(self.policy.concurrency_per_host),
                )
                self._gates[origin] = gate
            return gate

    def _download_robots(self, robots_url: str) -> tuple[int, str]:
        resp = self._fetch_with_retries(robots_url, "GET", {}, None, None, robots=False, allow_status=True)
        return resp.status, resp.text

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.policy.backoff_cap)
        base = self.policy.backoff_base * (2**attempt)
        return min(self.policy.backoff_cap, base) * random.uniform(0.5, 1.0)

    def _fetch_with_retries(
        self,
        url: str,
        method: str,
        headers: dict[str, str],
        data: Any,
        json_body: Any,
        *,
        robots: bool = True,
        allow_status: bool = False,
    ) -> FetchResponse:
        attempt = 0
        interstitial_left = min(2, self.policy.max_retries)
        while True:
            if self.time_left() <= 0:
                raise FetchError(
                    f"{url}: the run deadline of {self.policy.run_deadline:g}s (politeness.run_deadline) "
                    "has passed"
                )
            try:
                return self._fetch_once(url, method, headers, data, json_body, robots, allow_status)
            except _Interstitial as exc:
                if interstitial_left <= 0:
                    raise FetchError(
                        f"{exc.url} returned a bot-check/interstitial page ({exc.reason}) instead of content"
                    ) from None
                interstitial_left -= 1
                error: TransientError = TransientError(str(exc))
            except TransientError as exc:
                error = exc
            if attempt >= self.policy.max_retries:
                raise TransientError(
                    f"{url}: gave up after {attempt + 1} attempts: {error}", retry_after=error.retry_after
                ) from error
            delay = self._backoff(attempt, error.retry_after)
            left = self.time_left()
            if delay >= left or (error.retry_after is not None and error.retry_after >= left):
                asked = f"Retry-After {error.retry_after:g}s" if error.retry_after is not None else "a retry"
                raise TransientError(
                    f"{url}: {error}; {asked} not honoured: only {max(left, 0):.0f}s left of the run "
                    f"deadline ({self.policy.run_deadline:g}s, politeness.run_deadline)",
                    retry_after=error.retry_after,
                ) from error
            if error.retry_after is not None:
                self._gate(url).back_off(delay)
            with self._lock:
                self.stats.retries += 1
            time.sleep(delay)
            attempt += 1

    def _fetch_once(
        self,
        url: str,
        method: str,
        headers: dict[str, str],
        data: Any,
        json_body: Any,
        check_robots: bool,
        allow_status: bool,
    ) -> FetchResponse:
        current = url
        robots_decision: RobotsDecision = "not-checked"
        seen: set[str] = set()
        started = time.monotonic()
        for _hop in range(self.policy.max_redirects + 1):
            self.addresses.check(current)
            if check_robots:
                try:
                    robots_decision = self.robots_decision(current)
                except FetchError as exc:
                    exc.robots = "disallowed"  # type: ignore[attr-defined]
                    raise
            req_headers = dict(headers)
            cached = self._validators.get(current) if method == "GET" else None
            if cached is not None and self.policy.conditional_requests:
                if cached.etag:
                    req_headers["If-None-Match"] = cached.etag
                if cached.last_modified:
                    req_headers["If-Modified-Since"] = cached.last_modified
            gate = self._gate(current)
            gate.acquire()
            try:
                raw = self._send(current, method, req_headers, data, json_body)
            finally:
                gate.release()
            status, resp_headers, body = raw
            if status in _REDIRECT_STATUS and "location" in resp_headers:
                seen.add(current)
                nxt = urljoin(current, resp_headers["location"])
                if nxt in seen:
                    raise FetchError(f"{url} redirects in a loop (back to {nxt})")
                current = nxt
                if status == 303:
                    method, data, json_body = "GET", None, None
                continue
            if status == 304 and cached is not None:
                with self._lock:
                    self.stats.not_modified += 1
                prev = cached.response
                return FetchResponse(
                    url=url,
                    final_url=current,
                    status=prev.status,
                    headers=prev.headers,
                    content=prev.content,
                    text=prev.text,
                    encoding=prev.encoding,
                    content_type=prev.content_type,
                    content_hash=prev.content_hash,
                    fetched_at=datetime.now(UTC),
                    elapsed=time.monotonic() - started,
                    robots=robots_decision,
                    from_cache=True,
                )
            if status in _TRANSIENT_STATUS:
                transient = TransientError(
                    f"{current} answered HTTP {status}",
                    retry_after=_retry_after(resp_headers.get("retry-after")),
                )
                transient.reason = f"HTTP {status}"  # type: ignore[attr-defined]
                raise transient
            if status >= 400 and not allow_status:
                err = FetchError(f"{current} answered HTTP {status}")
                err.status = status  # type: ignore[attr-defined]
                err.robots = robots_decision  # type: ignore[attr-defined]
                raise err
            content_type = resp_headers.get("content-type", "").split(";")[0].strip().lower()
            text, encoding = _decode(body, resp_headers.get("content-type", ""), content_type, current)
            if status < 300 and check_robots:
                reason = detect_interstitial(text, content_type) if text else None
                if reason is not None:
                    raise _Interstitial(current, reason)
            resp = FetchResponse(
                url=url,
                final_url=current,
                status=status,
                headers=resp_headers,
                content=body,
                text=text,
                encoding=encoding,
                content_type=content_type,
                content_hash=hashlib.sha256(body).hexdigest(),
                fetched_at=datetime.now(UTC),
                elapsed=time.monotonic() - started,
                robots=robots_decision,
            )
            if method == "GET" and status == 200 and self.policy.conditional_requests:
                etag, modified = resp_headers.get("etag"), resp_headers.get("last-modified")
                size = len(resp.content) + len(resp.text)
                if (etag or modified) and self._validator_bytes + size <= VALIDATOR_CACHE_BYTES:
                    with self._lock:  # bounded: a big run must not keep every body it fetched
                        self._validator_bytes += size
                        self._validators[current] = _Validator(etag, modified, resp)
                        self._validators.setdefault(url, _Validator(etag, modified, resp))
            return resp
        raise FetchError(f"{url} exceeded {self.policy.max_redirects} redirects (last: {current})")

    def _send(
        self, url: str, method: str, headers: dict[str, str], data: Any, json_body: Any
    ) -> tuple[int, dict[str, str], bytes]:
        """One exchange under a total deadline: ``request_deadline``, or what is left of the run's."""
        budget = min(self.policy.request_deadline, self.time_left())
        if budget <= 0:
            raise FetchError(
                f"{url}: the run deadline of {self.policy.run_deadline:g}s (politeness.run_deadline) has passed"
            )
        deadline = _Deadline(budget)
        _current.deadline = deadline
        _current.policy, _current.refused = self.addresses, None
        _WATCHDOG.watch(deadline)
        try:
            result = self._exchange(url, method, headers, data, json_body)
            if deadline.expired:  # the socket was shut: what came back may look complete but is not
                raise TimeoutError("request deadline passed")
            return result
        except Exception as exc:
            if _current.refused:
                refused = FetchError(
                    f"refused {url}: {_current.refused} (not a host you named; allow-list it in the fetch "
                    "policy's allow_private to permit)"
                )
                refused.policy_refusal = True  # type: ignore[attr-defined]
                raise refused from exc
            if deadline.expired:
                which = (
                    "politeness.request_deadline"
                    if budget >= self.policy.request_deadline
                    else "what was left of politeness.run_deadline"
                )
                raise FetchError(
                    f"{url}: no complete response within {budget:g}s ({which}); the server is too slow "
                    "or trickling its response"
                ) from exc
            raise
        finally:
            _WATCHDOG.cancel(deadline)
            _current.deadline = _current.policy = _current.refused = None

    def _exchange(
        self, url: str, method: str, headers: dict[str, str], data: Any, json_body: Any
    ) -> tuple[int, dict[str, str], bytes]:
        """One HTTP exchange; transport failures become TransientError, the body is size-capped."""
        limit = self.policy.max_bytes
        with self._lock:
            self.stats.requests += 1
        try:
            r = self.session.request(
                method,
                url,
                headers=headers,
                data=data,
                json=json_body,
                allow_redirects=False,
                stream=True,
                timeout=(self.policy.connect_timeout, self.policy.read_timeout),
            )
        except requests.exceptions.InvalidURL as exc:
            raise FetchError(f"{url} is not a valid URL: {exc}") from exc
        except (requests.ConnectionError, requests.Timeout) as exc:
            reason = _transport_reason(exc, url, self.policy.read_timeout)
            err = TransientError(f"{url}: {reason}")
            err.reason = reason  # type: ignore[attr-defined]
            raise err from exc
        except requests.RequestException as exc:
            raise FetchError(f"{url}: {type(exc).__name__}: {_short(exc)}") from exc
        try:
            headers_out = {k.lower(): v for k, v in r.headers.items()}
            declared = headers_out.get("content-length")
            if declared and declared.isdigit() and int(declared) > limit:
                raise FetchError(
                    f"{url} body is {int(declared)} bytes, over the {limit}-byte limit (max_bytes)"
                )
            if r.status_code in _REDIRECT_STATUS or r.status_code == 304:
                return r.status_code, headers_out, b""
            chunks: list[bytes] = []
            size = 0
            try:
                for chunk in r.iter_content(chunk_size=65536):
                    size += len(chunk)
                    if size > limit:
                        raise FetchError(f"{url} body exceeds the {limit}-byte limit (max_bytes); aborted")
                    chunks.append(chunk)
            except (
                requests.exceptions.ChunkedEncodingError,
                requests.ConnectionError,
                requests.Timeout,
            ) as exc:
                raise TransientError(f"{url}: body truncated or connection lost: {_short(exc)}") from exc
            except requests.exceptions.ContentDecodingError as exc:
                raise FetchError(f"{url}: body could not be decompressed: {_short(exc)}") from exc
            body = b"".join(chunks)
            if (
                declared
                and declared.isdigit()
                and "content-encoding" not in headers_out
                and method != "HEAD"
                and len(body) != int(declared)
            ):
                raise TransientError(f"{url}: body truncated ({len(body)} of {declared} bytes)")
            with self._lock:
                self.stats.bytes += len(body)
            return r.status_code, headers_out, body
        finally:
            r.close()


class _Interstitial(Exception):
    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"{url}: bot-check/interstitial page ({reason})")
        self.url = url
        self.reason = reason


def _transport_reason(exc: BaseException, url: str, read_timeout: float) -> str:
    """``connection refused at 127.0.0.1:9``, not a urllib3 repr: what went wrong, and where."""
    parts = urlsplit(url)
    host = parts.hostname or "?"
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        port = "?"
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    text = str(exc)
    if "Connection refused" in text or "Errno 111]" in text:
        return f"connection refused at {where}"
    if isinstance(exc, requests.ConnectTimeout):
        return f"connection timed out at {where} (connect_timeout)"
    if any(s in text for s in ("NameResolutionError", "Name or service not known", "nodename nor servname")):
        return f"host {host} does not resolve"
    if isinstance(exc, requests.ReadTimeout):
        return f"no data from {where} for {read_timeout:g}s (read_timeout)"
    if "reset by peer" in text or "Errno 104]" in text:
        return f"connection reset by {where}"
    if "Connection aborted" in text or "RemoteDisconnected" in text:
        return f"{where} closed the connection without a response"
    return f"{type(exc).__name__}: {_short(exc)}"


_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'"[]{}')


def json_depth(body: bytes) -> int:
    """The deepest nesting of ``[``/``{`` in a JSON body, brackets inside strings not counted.

    In C, no loop over tokens: escaped backslashes and quotes are cut out, then every byte but quotes and
    brackets; adjacent quotes (an empty string or the gap between two strings, both bracket-free) go, and
    what lies between the quotes left is string content. The depth is the running sum's maximum. An odd
    number of quotes (malformed JSON) takes a regex over the strings instead. A 650 KB page of 2,500
    records: a few ms (the former token loop in Python: ~45 ms a page, the landing benchmark's largest cost).
    """
    raw = body
    if b"\\" in body:
        body = body.replace(b"\\\\", b"").replace(b'\\"', b"")
    kept = body.translate(None, _NOT_STRUCTURE).replace(b'""', b"")
    if b'"' in kept:
        parts = kept.split(b'"')
        if len(parts) % 2:
            kept = b"".join(parts[::2])
        else:  # an unterminated string: strip the strings that do close, count every other bracket
            kept = _JSON_STRING.sub(b"", raw).translate(None, _NOT_BRACKET)
    if not kept:
        return 0
    import numpy as np

    a = np.frombuffer(kept, dtype=np.uint8)
    return max(0, int(np.cumsum(np.where((a == 0x5B) | (a == 0x7B), 1, -1)).max()))


def _check_json_depth(resp: FetchResponse, limit: int) -> None:
    """A body nested deeper than ``limit`` is a clear FetchError (no RecursionError later, in a parser)."""
    body = resp.content
    if resp.encoding not in (None, "utf-8", "utf-8-sig", "ascii", "us-ascii"):
        body = resp.text.encode("utf-8")
    if body.count(b"[") + body.count(b"{") <= limit:
        return
    if json_depth(body) > limit:
        raise FetchError(
            f"{resp.final_url}: JSON nested more than {limit} levels deep "
            "(politeness.max_json_depth); refusing to decode it"
        )


def _short(exc: BaseException) -> str:
    text = str(exc)
    return text if len(text) < 200 else text[:200] + "..."


def _retry_after(value: str | None) -> float | None:
    """Retry-After as seconds: either delta-seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def _is_textual(content_type: str) -> bool:
    return (
        content_type.startswith(_TEXTUAL)
        or content_type.endswith(("+json", "+xml"))
        or content_type
        in (
            "",
            "application/csv",
            "application/x-ndjson",
        )
    )


def _decode(body: bytes, raw_content_type: str, content_type: str, url: str) -> tuple[str, str | None]:
    """Decode a textual body: header charset, then BOM / meta / XML declaration, then UTF-8, then detection.

    Binary bodies (images, PDFs...) are left undecoded (text ""). Undecodable text is a FetchError."""
    if not body or not _is_textual(content_type):
        return "", None
    candidates: list[str] = []
    m = re.search(r"charset\s*=\s*[\"']?([A-Za-z0-9_\-:.]+)", raw_content_type, re.I)
    if m:
        candidates.append(m.group(1))
    if body.startswith(b"\xef\xbb\xbf"):
        candidates.append("utf-8-sig")
    elif body.startswith((b"\xff\xfe", b"\xfe\xff")):
        candidates.append("utf-16")
    head = body[:4096]
    for pattern in (_META_CHARSET, _XML_DECL):
        mm = pattern.search(head)
        if mm:
            candidates.append(mm.group(1).decode("ascii", "ignore"))
    candidates.append("utf-8")
    for enc in candidates:
        try:
            return body.decode(enc), enc.lower()
        except (LookupError, UnicodeDecodeError):
            continue
    from charset_normalizer import from_bytes

    matches = list(from_bytes(body))
    best = matches[0] if matches else None
    # Ties between single-byte Latin guesses go to windows-1252, the web's undeclared default (WHATWG).
    for m in matches:
        if m.encoding == "cp1252" and best is not None and m.chaos <= best.chaos:
            best = m
            break
    if best is None or best.encoding is None:
        raise FetchError(f"{url}: body is not decodable text (declared {raw_content_type or 'no charset'})")
    if best.chaos > 0.2:
        raise FetchError(f"{url}: body is not decodable text (best guess {best.encoding} looks like noise)")
    return str(best), best.encoding


def _check_expect(resp: FetchResponse, expect: str) -> None:
    ct = resp.content_type
    wanted = _EXPECT_TYPES.get(expect.lower(), (expect.lower(),))
    if any(ct.startswith(w) or (w.startswith("+") and ct.endswith(w)) for w in wanted):
        return
    if expect.lower() == "json" and resp.text.lstrip()[:1] in ("{", "["):
        return
    if (
        expect.lower() == "html"
        and not ct
        and resp.text.lstrip()[:15].lower().startswith(("<!doctype", "<html"))
    ):
        return
    raise FetchError(
        f"{resp.final_url} returned {ct or 'no Content-Type'} ({len(resp.content)} bytes), expected {expect}"
    )
