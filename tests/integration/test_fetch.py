"""The fetch client against a small real server on 127.0.0.1 that misbehaves on purpose, path by path."""

from __future__ import annotations

import socket
import threading
from concurrent.futures import ThreadPoolExecutor
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from prefect_autodata.errors import FetchError, TransientError
from prefect_autodata.runtime.fetch import Fetcher
from prefect_autodata.runtime.policy import FetchPolicy

FAST = dict(backoff_base=0.01, backoff_cap=0.2, rate_limit_per_host=0, connect_timeout=2, read_timeout=2)


class _State:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.hits: dict[str, int] = {}

    def hit(self, path: str) -> int:
        with self.lock:
            self.hits[path] = self.hits.get(path, 0) + 1
            return self.hits[path]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state: _State

    def log_message(self, *args) -> None:  # keep pytest output clean
        pass

    def _send(
        self, status: int, body: bytes, ctype: str = "text/html; charset=utf-8", **headers: str
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers.items():
            self.send_header(k.replace("_", "-"), v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: C901 - one branch per misbehaviour
        path = self.path
        n = self.state.hit(path.split("?")[0])
        if path == "/robots.txt":
            return self._send(200, b"User-agent: *\nDisallow: /private/\n", "text/plain")
        if path.startswith("/ok"):
            return self._send(200, b"<html><head><title>ok</title></head><body>hello</body></html>")
        if path == "/private/data":
            return self._send(200, b"<html><body>secret</body></html>")
        if path == "/429":
            if n == 1:
                return self._send(429, b"slow down", "text/plain", Retry_After="1")
            return self._send(200, b"<html><body>after 429</body></html>")
        if path == "/503-date":
            if n == 1:
                return self._send(503, b"busy", "text/plain", Retry_After=formatdate(usegmt=True))
            return self._send(200, b"<html><body>after 503</body></html>")
        if path == "/always-500":
            return self._send(500, b"boom", "text/plain")
        if path == "/404":
            return self._send(404, b"<html><body>nope</body></html>")
        if path == "/reset":
            if n <= 2:
                self.connection.setsockopt(
                    socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00"
                )
                self.close_connection = True
                self.connection.close()
                return None
            return self._send(200, b"<html><body>after reset</body></html>")
        if path == "/truncated":
            if n == 1:
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", "1000")
                self.end_headers()
                self.wfile.write(b"<html><body>" + b"x" * 100)
                self.wfile.flush()
                self.close_connection = True
                return None
            return self._send(200, b"<html><body>complete</body></html>")
        if path == "/giant-declared":
            return self._send(200, b"y" * 300_000, "text/plain")
        if path == "/giant-chunked":
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b"z" * 65536
            try:
                for _ in range(10):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.write(b"0\r\n\r\n")
            except OSError:
                pass
            self.close_connection = True
            return None
        if path.startswith("/loop-a"):
            return self._send(302, b"", Location="/loop-b")
        if path.startswith("/loop-b"):
            return self._send(302, b"", Location="/loop-a")
        if path.startswith("/chain/"):
            k = int(path.rsplit("/", 1)[1])
            return self._send(302, b"", Location=f"/chain/{k + 1}")
        if path == "/to-private":
            return self._send(302, b"", Location="http://10.1.2.3/internal")
        if path == "/to-metadata":
            return self._send(302, b"", Location="http://169.254.169.254/latest/meta-data/")
        if path == "/to-robots-blocked":
            return self._send(302, b"", Location="/private/data")
        if path == "/latin1":
            return self._send(
                200, "<html><body>Café crème à la Noël</body></html>".encode("cp1252"), "text/html"
            )
        if path == "/latin1-meta":
            body = '<html><head><meta charset="windows-1252"></head><body>Zürich</body></html>'
            return self._send(200, body.encode("cp1252"), "text/html")
        if path == "/undecodable":
            return self._send(200, bytes(range(256)) * 20, "text/html")
        if path == "/botcheck":
            body = (
                b"<html><head><title>Just a moment...</title></head><body>"
                b"<p>Checking your browser before accessing the site.</p></body></html>"
            )
            return self._send(200, body)
        if path == "/botcheck-clears":
            if n == 1:
                return self._send(
                    200, b"<html><head><title>Just a moment...</title></head><body></body></html>"
                )
            return self._send(200, b"<html><head><title>Real</title></head><body>real data</body></html>")
        if path == "/etag":
            if self.headers.get("If-None-Match") == '"v1"':
                self.send_response(304)
                self.send_header("ETag", '"v1"')
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            return self._send(200, b'{"v": 1}', "application/json", ETag='"v1"')
        if path == "/json":
            return self._send(200, b'{"a": 1}', "application/json")
        if path == "/binary":
            return self._send(200, b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "application/octet-stream")
        if path.startswith("/echo"):
            return self._send(200, self.path.encode(), "text/plain")
        return self._send(404, b"<html><body>not found</body></html>")


@pytest.fixture(scope="module")
def server():
    state = _State()
    handler = type("H", (Handler,), {"state": state})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    httpd.handle_error = lambda *a: None  # the reset path closes sockets on purpose
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    yield base, state
    httpd.shutdown()
    httpd.server_close()


def make(base: str, **kw) -> Fetcher:
    return Fetcher(FetchPolicy(**{**FAST, **kw}), allowed_hosts=[base])


def test_ok_records_lineage_and_counters(server):
    base, _ = server
    with make(base) as f:
        r = f.get(f"{base}/ok", params={"api_key": "s3cr3t", "q": "x"}, expect="html")
        assert r.status == 200 and "hello" in r.text and r.robots == "allowed"
        assert len(r.content_hash) == 64
        src = f.sources[-1]
        assert "s3cr3t" not in src.url and "api_key=REDACTED" in src.url and "q=x" in src.url
        assert src.bytes == len(r.content) and src.robots == "allowed"
        assert f.stats.requests >= 2  # robots.txt + page


def test_429_retry_after_then_success(server):
    base, _ = server
    with make(base) as f:
        r = f.get(f"{base}/429")
        assert "after 429" in r.text and f.stats.retries == 1


def test_503_with_http_date_retry_after(server):
    base, _ = server
    with make(base) as f:
        assert "after 503" in f.get(f"{base}/503-date").text


def test_persistent_5xx_gives_up_as_transient(server):
    base, state = server
    with make(base, max_retries=2) as f:
        with pytest.raises(TransientError, match="always-500.*HTTP 500"):
            f.get(f"{base}/always-500")
        assert f.sources[-1].error and f.sources[-1].status is None
    assert state.hits["/always-500"] == 3


def test_4xx_is_terminal_and_not_retried(server):
    base, state = server
    before = state.hits.get("/404", 0)
    with make(base) as f, pytest.raises(FetchError, match="HTTP 404"):
        f.get(f"{base}/404")
    assert state.hits["/404"] == before + 1


def test_connection_reset_is_retried(server):
    base, _ = server
    with make(base) as f:
        assert "after reset" in f.get(f"{base}/reset").text
        assert f.stats.retries == 2


def test_truncated_body_is_retried(server):
    base, _ = server
    with make(base) as f:
        r = f.get(f"{base}/truncated")
        assert "complete" in r.text and f.stats.retries == 1


@pytest.mark.parametrize("path", ["/giant-declared", "/giant-chunked"])
def test_giant_body_is_refused(server, path):
    base, _ = server
    with make(base, max_bytes=100_000) as f, pytest.raises(FetchError, match=rf"{path}.*100000-byte limit"):
        f.get(f"{base}{path}")


def test_redirect_loop_and_limit(server):
    base, _ = server
    with make(base) as f:
        with pytest.raises(FetchError, match="redirects in a loop"):
            f.get(f"{base}/loop-a")
    with make(base, max_redirects=3) as f:
        with pytest.raises(FetchError, match="exceeded 3 redirects"):
            f.get(f"{base}/chain/0")


def test_encodings(server):
    base, _ = server
    with make(base) as f:
        assert "Zürich" in f.get(f"{base}/latin1-meta").text
        r = f.get(f"{base}/latin1")
        assert "crème" in r.text and "Noël" in r.text
        with pytest.raises(FetchError, match="undecodable.*not decodable|not decodable"):
            f.get(f"{base}/undecodable")


def test_binary_bodies_are_not_decoded_and_expect_is_enforced(server):
    base, _ = server
    with make(base) as f:
        r = f.get(f"{base}/binary")
        assert r.text == "" and r.content.startswith(b"\x89PNG")
        with pytest.raises(FetchError, match=r"/binary returned application/octet-stream.*expected html"):
            f.get(f"{base}/binary", expect="html")
        assert f.get(f"{base}/json", expect="json").json() == {"a": 1}


def test_bot_check_page_is_an_error(server):
    base, _ = server
    with make(base) as f, pytest.raises(FetchError, match="bot-check/interstitial"):
        f.get(f"{base}/botcheck")


def test_bot_check_that_clears_on_retry_succeeds(server):
    base, _ = server
    with make(base) as f:
        assert "real data" in f.get(f"{base}/botcheck-clears").text


def test_robots_disallow_and_override(server):
    base, state = server
    with make(base) as f, pytest.raises(FetchError, match="disallowed by robots.txt"):
        f.get(f"{base}/private/data")
    assert "/private/data" not in state.hits
    with make(base) as f, pytest.raises(FetchError, match="disallowed by robots.txt"):
        f.get(f"{base}/to-robots-blocked")  # the redirect hop is checked too
    assert "/private/data" not in state.hits
    with make(base, respect_robots=False) as f:
        r = f.get(f"{base}/private/data")
        assert r.robots == "disallowed-overridden" and f.sources[-1].robots == "disallowed-overridden"


def test_etag_revalidation_serves_cached_body(server):
    base, _ = server
    with make(base) as f:
        first = f.get(f"{base}/etag")
        second = f.get(f"{base}/etag")
        assert not first.from_cache and second.from_cache
        assert second.json() == {"v": 1} and second.content_hash == first.content_hash
        assert f.stats.not_modified == 1


def test_private_address_via_redirect_is_refused(server):
    base, _ = server
    with make(base) as f:
        with pytest.raises(FetchError, match=r"10\.1\.2\.3.*private"):
            f.get(f"{base}/to-private")
        with pytest.raises(FetchError, match=r"169\.254\.169\.254.*link-local/metadata"):
            f.get(f"{base}/to-metadata")


def test_discovered_private_links_refused_without_sending_a_packet(server, monkeypatch):
    base, _ = server
    sent: list[str] = []
    with make(base) as f:
        real_send = f._send
        monkeypatch.setattr(f, "_send", lambda url, *a: sent.append(url) or real_send(url, *a))
        for url in ("http://10.0.0.8/admin", "http://169.254.169.254/latest/", "http://[fd00:ec2::254]/"):
            with pytest.raises(FetchError, match="refused"):
                f.get(url)
        assert sent == []


def test_loopback_is_refused_unless_named_or_allow_listed(server):
    base, _ = server
    port = base.rsplit(":", 1)[1]
    with Fetcher(FetchPolicy(**FAST)) as f, pytest.raises(FetchError, match="loopback"):
        f.get(f"http://localhost:{port}/ok")
    with Fetcher(FetchPolicy(**FAST, allow_private=["127.0.0.0/8"])) as f:
        assert f.get(f"http://localhost:{port}/ok").status == 200


def test_rate_limit_and_concurrency_per_host_are_honoured(server):
    base, state = server
    with make(base, rate_limit_per_host=200, concurrency_per_host=2) as f:
        gate = f._gate(f"{base}/echo")
        in_flight = 0
        peak = 0
        lock = threading.Lock()
        real_send = f._send

        def counting(url, *a):
            nonlocal in_flight, peak
            with lock:
                in_flight += 1
                peak = max(peak, in_flight)
            try:
                return real_send(url, *a)
            finally:
                with lock:
                    in_flight -= 1

        f._send = counting  # type: ignore[method-assign]
        with ThreadPoolExecutor(8) as pool:
            texts = list(pool.map(lambda i: f.get(f"{base}/echo/{i}").text, range(20)))
        assert texts == [f"/echo/{i}" for i in range(20)]
        assert peak <= 2 and gate.interval == pytest.approx(1 / 200)
