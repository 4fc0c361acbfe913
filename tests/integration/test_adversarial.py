"""Adversarial trust tests (issue 14): no way around the address policy, no secret in clear, no hang, no traceback.

Two real loopback servers: the *named* host (127.0.0.1, the one the user gives) and the *unnamed* host
(127.0.0.2, a host nobody named). Every test that could leak a request counts the requests the unnamed host
received and asserts there were none; every test that uses a secret scans what the product wrote (DuckDB
tables, traces, the cache folder, JSON output, logs) for its value.
"""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from prefect_autodata.errors import AutoDataError, ConfigError, FetchError, TransientError
from prefect_autodata.runtime.fetch import Fetcher
from prefect_autodata.runtime.policy import CrawlPolicy, FetchPolicy
from prefect_autodata.runtime.spec import CollectorSpec

FAST = {"backoff_base": 0.01, "backoff_cap": 0.05, "rate_limit_per_host": 0, "max_retries": 1}

Handler = Callable[[BaseHTTPRequestHandler], None]


class Host:
    """A real HTTP server on one loopback address; ``routes`` maps a path to a handler; every request counts."""

    def __init__(self, address: str) -> None:
        self.routes: dict[str, Handler] = {}
        self.requests: list[str] = []
        host = self

        class H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _any(self) -> None:
                host.requests.append(self.path)
                route = host.routes.get(self.path.split("?", 1)[0])
                if route is None:
                    if self.path == "/robots.txt":
                        return send(self, 404, b"", "text/plain")
                    return send(self, 404, b"<html>no such page</html>", "text/html")
                route(self)

            do_GET = do_POST = do_HEAD = _any

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer((address, 0), H)
        self.server.daemon_threads = True
        self.address = address
        self.port = self.server.server_address[1]
        self.base = f"http://{address}:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def reset(self) -> None:
        self.routes.clear()
        self.requests.clear()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def send(h: BaseHTTPRequestHandler, status: int, body: bytes, ctype: str, **headers: str) -> None:
    h.send_response(status)
    h.send_header("Content-Type", ctype)
    h.send_header("Content-Length", str(len(body)))
    for k, v in headers.items():
        h.send_header(k.replace("_", "-"), v)
    h.end_headers()
    if h.command != "HEAD":
        h.wfile.write(body)


def html(body: str) -> Handler:
    return lambda h: send(h, 200, f"<!doctype html><html><body>{body}</body></html>".encode(), "text/html")


def redirect(to: Callable[[], str], status: int = 302) -> Handler:
    return lambda h: send(h, status, b"", "text/plain", Location=to())


def as_json(obj: object) -> Handler:
    return lambda h: send(h, 200, json.dumps(obj).encode(), "application/json")


@pytest.fixture(scope="module")
def servers():
    named, unnamed = Host("127.0.0.1"), Host("127.0.0.2")
    yield named, unnamed
    named.close()
    unnamed.close()


@pytest.fixture()
def named(servers) -> Host:
    servers[0].reset()
    return servers[0]


@pytest.fixture()
def unnamed(servers) -> Host:
    """The host nobody named. Anything at all that reaches it is a failure of the address policy."""
    host = servers[1]
    host.reset()
    host.routes["/"] = html("unnamed")
    host.routes["/x"] = html("unnamed")
    host.routes["/pixel.png"] = lambda h: send(h, 200, b"\x89PNG", "image/png")
    host.routes["/api"] = as_json({"leak": True})
    return host


def fetcher(named: Host, **policy) -> Fetcher:
    return Fetcher(FetchPolicy(**{**FAST, **policy}), allowed_hosts=[named.base])


def all_tables(db: str) -> str:
    """Every value of every table of a DuckDB file, as one string."""
    con = duckdb.connect(db, read_only=True)
    try:
        tables = [r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()]
        return "\n".join(
            json.dumps(con.execute(f'SELECT * FROM "{t}"').fetchall(), default=str) for t in tables
        )
    finally:
        con.close()


def folder_text(root: Path) -> str:
    return "\n".join(
        p.read_bytes().decode("utf-8", "replace") for p in sorted(Path(root).rglob("*")) if p.is_file()
    )


# ------------------------------------------------------------------------------ 4. one address policy


def test_plain_fetch_redirect_hop_to_the_unnamed_host_is_refused(named, unnamed):
    named.routes["/hop"] = redirect(lambda: f"{named.base}/hop2")
    named.routes["/hop2"] = redirect(lambda: f"{unnamed.base}/x")
    named.routes["/ok"] = redirect(lambda: f"{named.base}/page")
    named.routes["/page"] = html("named")
    with fetcher(named) as f:
        assert f.get(f"{named.base}/ok").final_url == f"{named.base}/page"  # same-host redirects still work
        with pytest.raises(FetchError, match=r"refused http://127\.0\.0\.2.*loopback"):
            f.get(f"{named.base}/hop")
    assert unnamed.requests == []


def test_browser_redirects_subresources_and_websockets_never_reach_the_unnamed_host(named, unnamed):
    from prefect_autodata.runtime.browser import BrowserSession

    u = unnamed.base
    named.routes["/img-hop"] = redirect(lambda: f"{u}/pixel.png")
    named.routes["/xhr-hop"] = redirect(lambda: f"{u}/api", 307)
    named.routes["/data"] = as_json({"ok": 1})
    named.routes["/page"] = html(
        f"""<h1 id=t>named</h1><img src="/img-hop"><img src="{u}/pixel.png">
        <iframe src="{u}/x"></iframe>
        <script>
          fetch('/xhr-hop').then(r => r.text()).catch(() => 0);
          fetch('/data').then(r => r.json()).then(j => {{ document.getElementById('t').dataset.ok = j.ok; }});
          try {{ new WebSocket('ws://127.0.0.2:{unnamed.port}/socket'); }} catch (e) {{}}
          navigator.sendBeacon && navigator.sendBeacon('{u}/beacon', 'x');
        </script>"""
    )
    named.routes["/nav-hop"] = redirect(lambda: f"{named.base}/nav-hop2")
    named.routes["/nav-hop2"] = redirect(lambda: f"{u}/x")
    named.routes["/same-host-hop"] = redirect(lambda: f"{named.base}/page")
    with fetcher(named) as f, BrowserSession(f) as b:
        page = b.render(f"{named.base}/page", wait_for="h1[data-ok='1']")
        assert 'data-ok="1"' in page.html  # same-host XHR through the guard still works
        blocked = "\n".join(page.blocked)
        for what in ("/pixel.png", "/api", "/x", "/socket"):
            assert f"127.0.0.2:{unnamed.port}{what}" in blocked, (what, blocked)
        with pytest.raises(FetchError, match=r"127\.0\.0\.2.*loopback"):
            b.render(f"{named.base}/nav-hop")
        moved = b.render(f"{named.base}/same-host-hop", wait_for="h1")
        assert moved.final_url == f"{named.base}/page"
    assert unnamed.requests == []


def test_a_crawl_start_derived_from_a_page_is_not_trusted(named, unnamed):
    from prefect_autodata.runtime.crawler import bfs_crawl

    named.routes["/"] = html(f'<a href="/a">a</a> <a href="{unnamed.base}/x">elsewhere</a>')
    named.routes["/a"] = html("a page")
    with fetcher(named) as f:
        own = bfs_crawl(f"{named.base}/", f, CrawlPolicy(same_site=False, attempts=1))
        assert own.pages_ok == 2  # the named site is crawled, its off-site link is not followed
        derived = bfs_crawl(f"{unnamed.base}/", f, CrawlPolicy(attempts=1))
        assert derived.pages_ok == 0 and "refused" in (derived.pages[0].error or "")
    assert unnamed.requests == []


def test_the_llm_fetch_tool_does_not_trust_a_model_chosen_host(named, unnamed, tmp_path):
    from prefect_autodata.agents.squads import SquadContext, llm_tools
    from prefect_autodata.ohcache.cache import ArtifactCache

    named.routes["/page"] = html("named")
    with fetcher(named) as f:
        ctx = SquadContext(
            instruction="x", fields=None, sources=[named.base], fetcher=f, search=None, today=None,
            progress=lambda *_: None,
        )  # fmt: skip
        tool = next(t for t in llm_tools(ctx, ArtifactCache(tmp_path / "cache")) if t.name == "fetch")
        fetch_url = tool.fn
        assert fetch_url(f"{named.base}/page")["status"] == 200
        with pytest.raises(AutoDataError, match="refused"):
            fetch_url(f"{unnamed.base}/x")
        with pytest.raises(FetchError, match="refused"):  # and it did not become trusted either
            f.get(f"{unnamed.base}/x")
    assert unnamed.requests == []


def test_a_host_whose_dns_changes_after_the_check_is_dropped_before_http(named):
    """DNS rebinding: the policy checked the name (here: its cached verdict says public, as a rebinding
    host's first answer would), the connection then reaches loopback. The peer address is checked on
    connect, so no HTTP byte reaches it."""
    named.routes["/page"] = html("named")
    with fetcher(named) as f:
        f.addresses._cache["localhost"] = None  # the first, public-looking answer
        with pytest.raises(FetchError, match=r"refused .*localhost connected to loopback address"):
            f.get(f"http://localhost:{named.port}/page")
    assert "/page" not in named.requests


@pytest.mark.parametrize("entry", ["0.0.0.0/0", "::/0", "0.0.0.0/1", "::ffff:0:0/96", "2002::/16", "*"])
def test_allow_private_refuses_catch_all_ranges(entry, named):
    spec = {
        "name": "catch-all",
        "base_url": named.base,
        "primary_key": ["a"],
        "sources": [{"name": "s", "kind": "json", "request": {"url": "{base_url}/d"}, "fields": [
            {"name": "a", "jsonpath": "$.a"}]}],
        "politeness": {"allow_private": [entry]},
    }  # fmt: skip
    with pytest.raises(ConfigError, match=r"politeness\.allow_private"):
        CollectorSpec.parse(spec)


def test_a_narrow_allow_list_is_the_only_way_to_the_unnamed_host(named, unnamed):
    """Positive control: the unnamed host is reachable exactly when a person allow-lists it."""
    with Fetcher(FetchPolicy(**FAST, allow_private=["127.0.0.2/32"]), [named.base]) as f:
        assert f.get(f"{unnamed.base}/x").status == 200
    assert unnamed.requests == ["/robots.txt", "/x"]


@pytest.mark.parametrize(
    "literal",
    [
        "[::ffff:127.0.0.2]",  # IPv4-mapped
        "[::127.0.0.2]",  # IPv4-compatible
        "[2002:7f00:2::1]",  # 6to4 of 127.0.0.2
        "[64:ff9b::7f00:2]",  # NAT64 well-known prefix
        "[2001:0:4136:e378:8000:63bf:80ff:fffd]",  # Teredo, client 127.0.0.2
        "[fe80::5efe:7f00:2]",  # ISATAP
    ],
)
def test_embedded_ipv4_forms_are_classified_by_their_ipv4_part(literal, named, unnamed):
    with fetcher(named) as f, pytest.raises(FetchError, match="refused.*(loopback|link-local)"):
        f.get(f"http://{literal}:{unnamed.port}/x")
    assert unnamed.requests == []


# ------------------------------------------------------------------------------ 5. secrets by value

SECRETS = {
    "ADV_PATH_TOKEN": "pathtok-7f3a9c1e5b",
    "ADV_AUTH_TOKEN": "authtok-2d8e4f6a0c",
    "ADV_CLIENT_SECRET": "clisec-9b1d3f5e7a",
}
USERINFO_PASSWORD = "userpw-4c6e8a0b2d"


def secret_spec(base: str, *, fail_second: bool = False) -> dict:
    userinfo_base = base.replace("http://", f"http://reader:{USERINFO_PASSWORD}@")
    return {
        "name": "adv-secrets",
        "base_url": userinfo_base,
        "primary_key": ["day"],
        "sources": [
            {
                "name": "prices",
                "kind": "json",
                "request": {
                    "url": "{base_url}/api/{secret:ADV_PATH_TOKEN}/prices/{ticker}",
                    "params": {
                        "auth_token": "{secret:ADV_AUTH_TOKEN}",
                        "client_secret": "{secret:ADV_CLIENT_SECRET}",
                    },
                },
                "params": {"ticker": {"values": ["AAA", "BBB"] if fail_second else ["AAA"]}},
                "records": {"jsonpath": "$[*]"},
                "fields": [
                    {"name": "day", "jsonpath": "$.day"},
                    {"name": "close", "jsonpath": "$.close", "type": "float"},
                    {"name": "ticker", "from_param": "ticker"},
                    {"name": "page", "from_url": True},
                    {"name": "note", "jsonpath": "$.note"},  # the API echoes the credential back
                ],
            }
        ],
        "politeness": FAST,
    }


def serve_prices(named: Host) -> None:
    path = f"/api/{SECRETS['ADV_PATH_TOKEN']}/prices/AAA"

    def prices(h: BaseHTTPRequestHandler) -> None:
        ok = SECRETS["ADV_AUTH_TOKEN"] in h.path and SECRETS["ADV_CLIENT_SECRET"] in h.path
        if not ok or "Authorization" not in h.headers:
            return send(h, 401, b'{"detail": "bad credentials"}', "application/json")
        row = {"day": "2024-01-02", "close": 1.5, "note": f"issued to {SECRETS['ADV_CLIENT_SECRET']}"}
        send(h, 200, json.dumps([row]).encode(), "application/json")

    named.routes[path] = prices


def assert_no_secret(*blobs: str) -> None:
    for blob in blobs:
        for value in [*SECRETS.values(), USERINFO_PASSWORD]:
            assert value not in blob


def test_secrets_never_land_in_tables_json_or_logs(named, unnamed, tmp_path, monkeypatch, caplog, capfd):
    from prefect_autodata.cli import emit_json
    from prefect_autodata.flows.run_collector import run_spec

    for k, v in SECRETS.items():
        monkeypatch.setenv(f"AUTODATA_SECRET_{k}", v)
    caplog.set_level(logging.DEBUG)  # urllib3's DEBUG lines echo request URLs
    serve_prices(named)
    ok = run_spec(CollectorSpec.parse(secret_spec(named.base)), str(tmp_path / "ok.duckdb"))
    assert ok.status == "succeeded" and ok.rows_landed == 1
    failed = run_spec(
        CollectorSpec.parse(secret_spec(named.base, fail_second=True)), str(tmp_path / "f.duckdb")
    )
    assert failed.status == "failed" and "BBB" in failed.error  # the error names the URL...
    emit_json(failed.summary())  # the CLI's one JSON output path (``autodata run --json``)
    printed = capfd.readouterr()
    out = json.loads(printed.out.strip().splitlines()[-1])
    assert out["status"] == "failed" and "/prices/BBB" in out["error"]
    stored = all_tables(str(tmp_path / "ok.duckdb")) + all_tables(str(tmp_path / "f.duckdb"))
    assert "/prices/AAA" in stored and "REDACTED" in stored  # lineage is there, with the values redacted
    assert "issued to REDACTED" in stored  # a data value echoing a credential keeps its other text
    captured = capfd.readouterr()
    assert_no_secret(
        stored, ok.model_dump_json(), failed.model_dump_json(), printed.out, printed.err, caplog.text,
        captured.out, captured.err,
    )  # fmt: skip
    assert unnamed.requests == []


def test_source_url_tokens_are_not_stored_in_traces_or_the_cache(named, unnamed, tmp_path):
    """A ``--source`` URL carrying an api_key and a userinfo password: the research run's trace and cache
    record the source, never its credentials."""
    from prefect_autodata.agents.squads import research_and_develop
    from prefect_autodata.workspace import Workspace

    key, password = "srckey-5e7a9c1b3d", "srcpw-8a0c2e4f6b"
    named.routes["/table"] = html(
        "<table><tr><th>name</th><th>score</th></tr><tr><td>a</td><td>1</td></tr>"
        "<tr><td>b</td><td>2</td></tr><tr><td>c</td><td>3</td></tr></table>"
    )
    source = named.base.replace("http://", f"http://u:{password}@") + f"/table?api_key={key}&page=1"
    ws = Workspace(tmp_path / "ws")
    research_and_develop("names and scores in the table", sources=[source], workspace=ws)
    assert any(r.startswith("/table") for r in named.requests)  # the source was really fetched
    written = folder_text(ws.root)
    assert "/table" in written and "api_key=REDACTED" in written  # the trace/cache record the source...
    assert key not in written and password not in written  # ...never its credentials
    assert unnamed.requests == []


# ------------------------------------------------------------------------------ 6. deadlines


def _trickle(headers_first: bool) -> Handler:
    def handler(h: BaseHTTPRequestHandler) -> None:
        try:
            if headers_first:
                h.send_response(200)
                h.send_header("Content-Type", "text/html")
                h.send_header("Content-Length", "100000")
                h.end_headers()
                h.wfile.flush()
                chunk = b"x"
            else:
                chunk = b"H"
                h.wfile.write(b"HTTP/1.1 200 OK\r\nX-Slow: ")
            for _ in range(200):  # a byte every 0.2 s: read_timeout never fires
                h.wfile.write(chunk)
                h.wfile.flush()
                time.sleep(0.2)
        except OSError:
            pass  # the client gave up: that is the point

    return handler


@pytest.mark.parametrize("headers_first", [True, False], ids=["trickling-body", "trickling-headers"])
def test_a_trickling_server_hits_the_request_deadline(named, headers_first):
    named.routes["/slow"] = _trickle(headers_first)
    with fetcher(named, request_deadline=1.0, read_timeout=30) as f:
        with pytest.raises(
            FetchError, match=r"no complete response within 1s \(politeness\.request_deadline\)"
        ):
            f.get(f"{named.base}/slow")


def test_retry_after_past_the_run_deadline_is_not_honoured(named):
    named.routes["/busy"] = lambda h: send(h, 429, b"slow down", "text/plain", Retry_After="30")
    with fetcher(named, run_deadline=5, backoff_cap=60, max_retries=4) as f:
        with pytest.raises(TransientError, match=r"Retry-After 30s not honoured.*run deadline"):
            f.get(f"{named.base}/busy")
    assert named.requests.count("/busy") == 1  # no retry was attempted


def test_the_run_deadline_ends_a_run_with_a_clear_error(named, tmp_path):
    from prefect_autodata.flows.run_collector import run_spec

    def slow(h: BaseHTTPRequestHandler) -> None:
        time.sleep(0.3)
        as_json([{"n": h.path}])(h)

    for i in range(20):
        named.routes[f"/n/{i}"] = slow
    spec = {
        "name": "adv-deadline",
        "base_url": named.base,
        "primary_key": ["n"],
        "sources": [{"name": "s", "kind": "json", "request": {"url": "{base_url}/n/{i}"},
                     "params": {"i": {"range": [0, 19]}}, "records": {"jsonpath": "$[*]"},
                     "fields": [{"name": "n", "jsonpath": "$.n"}]}],
        "politeness": {**FAST, "run_deadline": 1.0, "concurrency_per_host": 1},
    }  # fmt: skip
    res = run_spec(CollectorSpec.parse(spec), str(tmp_path / "d.duckdb"))
    assert res.status == "failed" and "politeness.run_deadline" in res.error
    assert named.requests.count("/n/19") == 0


def test_json_nested_1000_deep_is_a_clean_error(named, tmp_path):
    from prefect_autodata.flows.run_collector import run_spec

    named.routes["/deep"] = lambda h: send(h, 200, b"[" * 1000 + b"]" * 1000, "application/json")
    spec = {
        "name": "adv-deep",
        "base_url": named.base,
        "primary_key": ["a"],
        "sources": [{"name": "s", "kind": "json", "request": {"url": "{base_url}/deep"},
                     "records": {"jsonpath": "$[*]"}, "fields": [{"name": "a", "jsonpath": "$.a"}]}],
        "politeness": FAST,
    }  # fmt: skip
    res = run_spec(CollectorSpec.parse(spec), str(tmp_path / "deep.duckdb"))
    assert res.status == "failed" and "JSON nested more than 256 levels" in res.error
    with fetcher(named) as f, pytest.raises(FetchError, match="nested"):
        f.get(f"{named.base}/deep", expect="json")


@pytest.mark.parametrize(
    "patch, field",
    [
        ({"pagination": {"kind": "page", "param": "p", "max_pages": 10**9}}, "max_pages"),
        ({"params": {"i": {"range": [0, 10**9]}}}, "range"),
        ({"params": {"i": {"range": [0, 99_999]}, "j": {"range": [0, 99]}}}, "expand to"),
    ],
)
def test_page_and_range_caps_are_clear_errors(patch, field):
    source = {"name": "s", "kind": "json", "request": {"url": "http://127.0.0.1:1/x"},
              "records": {"jsonpath": "$[*]"}, "fields": [{"name": "a", "jsonpath": "$.a"}], **patch}  # fmt: skip
    with pytest.raises(ConfigError, match=field):
        CollectorSpec.parse({"name": "caps", "primary_key": ["a"], "sources": [source]})


# ------------------------------------------------------------------------------ 7. clear errors for bad files


def _one_line_exit_2(args: list[str]) -> str:
    from prefect_autodata.cli import app

    res = CliRunner(env={"COLUMNS": "400"}).invoke(app, args)  # Rich wraps at the terminal width
    assert res.exit_code == 2, (res.exit_code, res.output, res.exception)
    assert "Traceback" not in res.output
    errors = [line for line in res.output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, res.output  # one line (a progress line may precede it)
    return errors[0]


def test_bad_spec_and_check_files_are_one_line_exit_2(tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text(
        "name: good\nprimary_key: [a]\nsources:\n- name: s\n  kind: json\n  request: {url: 'http://127.0.0.1:1/x'}"
        "\n  records: {jsonpath: '$[*]'}\n  fields: [{name: a, jsonpath: $.a}]\n"
    )
    latin = tmp_path / "latin.yaml"
    latin.write_bytes("name: caf\u00e9\n".encode("latin-1"))
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    assert "not UTF-8" in _one_line_exit_2(["run", str(latin)])
    assert "binary" in _one_line_exit_2(["run", str(binary)])
    assert "directory" in _one_line_exit_2(["run", str(folder)])
    assert "does not exist" in _one_line_exit_2(["run", str(tmp_path / "missing" / "spec.yaml")])
    assert "directory" in _one_line_exit_2(["run", str(good), "--checks", str(tmp_path)])
    assert "binary" in _one_line_exit_2(["run", str(good), "--checks", str(binary)])
    assert "not UTF-8" in _one_line_exit_2(["run", str(good), "--checks", str(latin)])
    assert "directory" in _one_line_exit_2(["collect", "x", "--schema", str(folder), "--no-deploy"])


@pytest.mark.parametrize("source", ["file:///etc/passwd", "ftp://127.0.0.1/x", "127.0.0.1/no-scheme"])
def test_a_non_http_source_is_bad_input(source, tmp_path, monkeypatch):
    monkeypatch.setenv("AUTODATA_WORKSPACE", str(tmp_path / "ws"))
    assert "--source must be an http(s) URL" in _one_line_exit_2(
        ["collect", "anything", "--source", source, "--no-deploy"]
    )


def _closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_an_unreachable_host_says_so_not_robots(tmp_path):
    from prefect_autodata.flows.run_collector import run_spec

    port = _closed_port()
    spec = {
        "name": "adv-unreachable",
        "base_url": f"http://127.0.0.1:{port}",
        "primary_key": ["a"],
        "sources": [{"name": "s", "kind": "json", "request": {"url": "{base_url}/x"},
                     "records": {"jsonpath": "$[*]"}, "fields": [{"name": "a", "jsonpath": "$.a"}]}],
        "politeness": {**FAST, "max_retries": 0},
    }  # fmt: skip
    res = run_spec(CollectorSpec.parse(spec), str(tmp_path / "u.duckdb"))
    assert res.status == "failed"
    assert f"connection refused at 127.0.0.1:{port}" in res.error
    assert "disallowed by robots.txt" not in res.error


def test_robots_txt_unreachable_means_complete_disallow_and_404_means_allow(named):
    named.routes["/robots.txt"] = lambda h: send(h, 503, b"down", "text/plain")
    named.routes["/page"] = html("named")
    with fetcher(named) as f:
        with pytest.raises(
            FetchError, match=r"robots\.txt is unreachable \(HTTP 503\).*RFC 9309.*complete disallow"
        ):
            f.get(f"{named.base}/page")
    assert named.requests.count("/page") == 0
    del named.routes["/robots.txt"]  # now 404: RFC 9309 says allow all
    with fetcher(named) as f:
        assert f.get(f"{named.base}/page").robots == "allowed"


# ------------------------------------------------------------------------------ the rest of the Why list
# (no silent loss; implemented by runtime/landing.py, runner.py and agents/validation.py, tested here through
# the same loopback hosts so the adversarial module covers the whole list)


def _rows_spec(base: str, name: str, *, pagination: dict | None = None, close: str = "$.close") -> dict:
    source = {"name": "rows", "kind": "json", "request": {"url": "{base_url}/rows"},
              "records": {"jsonpath": "$[*]"},
              "fields": [{"name": "day", "jsonpath": "$.day"}, {"name": "close", "jsonpath": close,
                                                                "type": "float"}]}  # fmt: skip
    if pagination:
        source["pagination"] = pagination
    return {"name": name, "base_url": base, "primary_key": ["day"], "sources": [source], "politeness": FAST}


ROWS = [{"day": f"2024-01-0{i}", "close": 10.0 + i} for i in range(2, 6)]


def test_a_field_renamed_upstream_never_overwrites_good_rows_with_nulls(named, unnamed, tmp_path):
    from prefect_autodata.flows.run_collector import run_spec

    db = str(tmp_path / "rename.duckdb")
    spec = CollectorSpec.parse(_rows_spec(named.base, "adv-rename"))
    named.routes["/rows"] = as_json(ROWS)
    assert run_spec(spec, db).status == "succeeded"
    named.routes["/rows"] = as_json([{"day": r["day"], "closePrice": r["close"]} for r in ROWS])
    second = run_spec(spec, db)
    con = duckdb.connect(db, read_only=True)
    try:
        closes = [r[0] for r in con.execute('SELECT close FROM adv_rename ORDER BY "day"').fetchall()]
    finally:
        con.close()
    assert closes == [r["close"] for r in ROWS]  # the baseline's good values are all still there
    assert second.status != "succeeded" or any("null" in w for w in second.warnings), second
    assert unnamed.requests == []


def test_duplicate_keys_in_a_batch_are_counted_not_collapsed_silently(named, tmp_path):
    from prefect_autodata.flows.run_collector import run_spec

    named.routes["/rows"] = as_json([*ROWS, {"day": ROWS[0]["day"], "close": 99.0}])
    res = run_spec(CollectorSpec.parse(_rows_spec(named.base, "adv-dups")), str(tmp_path / "d.duckdb"))
    said = " ".join([res.error or "", *res.warnings])
    assert "duplicate" in said and "1 row" in said, res


def test_stopping_at_the_page_cap_is_a_warning_with_the_count(named, tmp_path):
    from prefect_autodata.flows.run_collector import run_spec

    def page(h: BaseHTTPRequestHandler) -> None:
        p = int(h.path.split("p=")[1].split("&")[0])
        as_json([{"day": f"2024-02-{p:02d}", "close": float(p)}])(h)

    named.routes["/rows"] = page
    pagination = {"kind": "page", "param": "p", "start": 1, "max_pages": 3}
    res = run_spec(
        CollectorSpec.parse(_rows_spec(named.base, "adv-cap", pagination=pagination)),
        str(tmp_path / "c.duckdb"),
    )
    assert res.status == "succeeded" and res.rows_landed == 3
    assert any("page cap" in w and "3 records" in w for w in res.warnings), res.warnings


def test_a_crawl_page_failing_with_500_is_a_warning_not_a_silent_drop(named, unnamed, tmp_path):
    from prefect_autodata.flows.run_collector import run_spec

    named.routes["/"] = html('<a href="/a">a</a> <a href="/b">b</a>')
    named.routes["/a"] = html("<p class=r>alpha</p>")
    named.routes["/b"] = lambda h: send(h, 500, b"<html>oops</html>", "text/html")
    spec = {
        "name": "adv-crawl",
        "base_url": named.base,
        "primary_key": ["text"],
        "sources": [{"name": "pages", "kind": "crawl", "request": {"url": "{base_url}/"},
                     "crawl": {"depth": 1, "attempts": 1}, "records": {"css": "p.r"}, "allow_empty": True,
                     "fields": [{"name": "text", "css": "p.r"}]}],
        "politeness": {**FAST, "max_retries": 0},
    }  # fmt: skip
    res = run_spec(CollectorSpec.parse(spec), str(tmp_path / "crawl.duckdb"))
    assert any("1 of 3 crawled pages failed" in w and "HTTP 500" in w for w in res.warnings), res
    assert unnamed.requests == []


def test_a_held_duckdb_lock_is_waited_for_and_no_run_stays_running(named, tmp_path, monkeypatch):
    import subprocess
    import sys

    from prefect_autodata.flows.run_collector import run_spec

    db = str(tmp_path / "locked.duckdb")
    duckdb.connect(db).close()
    monkeypatch.setenv("AUTODATA_LOCK_WAIT_S", "60")
    holder = subprocess.Popen(
        [sys.executable, "-c", "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); print('held', "
         "flush=True); time.sleep(2); c.close()", db],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout.readline().strip() == "held"  # another process holds the file now
        named.routes["/rows"] = as_json(ROWS)
        res = run_spec(CollectorSpec.parse(_rows_spec(named.base, "adv-lock")), db)
    finally:
        holder.wait(timeout=30)
    assert res.status == "succeeded" and res.rows_landed == len(ROWS), res
    con = duckdb.connect(db, read_only=True)
    try:
        statuses = [r[0] for r in con.execute("SELECT status FROM _autodata_runs").fetchall()]
    finally:
        con.close()
    assert statuses and "running" not in statuses


def test_last_trading_day_skips_exchange_holidays():
    from datetime import date

    from prefect_autodata.runtime.templates import last_trading_day

    assert last_trading_day(date(2024, 7, 5)) == date(2024, 7, 3)  # Independence Day is no session
    assert last_trading_day(date(2024, 12, 26)) == date(2024, 12, 24)  # nor is Christmas


def test_a_year_of_prices_with_three_months_missing_fails_its_completeness_check(named, unnamed, tmp_path):
    """The request (AAPL, 2024) defines the expected rows, not the batch: March-May missing is caught."""
    from datetime import date

    from prefect_autodata.agents.plan import make_plan
    from prefect_autodata.agents.validation import design_checks
    from prefect_autodata.flows.run_collector import run_spec
    from prefect_autodata.runtime.trading_calendar import sessions

    days = [d for d in sessions(date(2024, 1, 1), date(2024, 12, 31)) if d.month not in (3, 4, 5)]
    named.routes["/prices"] = as_json([{"date": d.isoformat(), "close": 100.0} for d in days])
    spec = CollectorSpec.parse({
        "name": "adv-aapl", "base_url": named.base, "primary_key": ["date", "ticker"],
        "sources": [{"name": "p", "kind": "json", "request": {"url": "{base_url}/prices"},
                     "records": {"jsonpath": "$[*]"},
                     "fields": [{"name": "date", "jsonpath": "$.date", "type": "date"},
                                {"name": "close", "jsonpath": "$.close", "type": "float"},
                                {"name": "ticker", "const": "AAPL"}]}],
        "politeness": FAST,
    })  # fmt: skip
    plan = make_plan("AAPL daily closing prices for 2024", today=date(2025, 3, 1))
    checks = design_checks(plan, spec, name=spec.name, today=date(2025, 3, 1))
    res = run_spec(spec, str(tmp_path / "aapl.duckdb"), checks=checks, today=date(2025, 3, 1))
    con = duckdb.connect(str(tmp_path / "aapl.duckdb"), read_only=True)
    try:
        failed = con.execute('SELECT "check" FROM _autodata_checks WHERE NOT passed').fetchall()
    finally:
        con.close()
    assert res.checks_status not in (None, "passed"), res
    assert any("complete" in r[0] or "row_count" in r[0] for r in failed), failed
    assert unnamed.requests == []
