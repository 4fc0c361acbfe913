"""Issue 3's bad-input list through ``autodata run``: one clear line, the run marked failed, nothing landed.

A small real server on 127.0.0.1 misbehaves path by path (the fetcher-level behaviour has its own tests
in test_fetch.py); here the assertions are at the run level: exit code, the ``--json`` object, the
``_autodata_runs`` row and the absence of the data table.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import duckdb
import pytest
import yaml
from typer.testing import CliRunner

from prefect_autodata.cli import app

BODIES = {
    "/robots.txt": (200, "text/plain", b"User-agent: *\nDisallow: /private/\n"),
    "/ok": (200, "text/html; charset=utf-8", b"<html><body><p class='row'>hello</p></body></html>"),
    "/private/data": (200, "text/html", b"<html><body><p class='row'>secret</p></body></html>"),
    "/binary": (200, "application/octet-stream", b"\x89PNG\r\n\x1a\n" + b"\x00" * 64),
    "/giant": (200, "text/html", b"<html><body>" + b"y" * 300_000 + b"</body></html>"),
    "/undecodable": (200, "text/html", bytes(range(256)) * 20),
    "/botcheck": (
        200,
        "text/html",
        b"<html><head><title>Just a moment...</title></head><body><p>Checking your browser before "
        b"accessing the site.</p></body></html>",
    ),
}
REDIRECTS = {"/loop-a": "/loop-b", "/loop-b": "/loop-a", "/to-private": "http://10.1.2.3/internal"}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        path = self.path.split("?")[0]
        if path in REDIRECTS:
            status, ctype, body, extra = 302, "text/html", b"", {"Location": REDIRECTS[path]}
        else:
            status, ctype, body = BODIES.get(path, (404, "text/html", b"<html><body>nope</body></html>"))
            extra = {}
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in extra.items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def base():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    httpd.handle_error = lambda *a: None  # the client hangs up on the giant body on purpose
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def spec_file(tmp_path, base: str, path: str, *, records: str = "p.row", **politeness) -> str:
    spec = {
        "name": "bad-input",
        "base_url": base,
        "primary_key": ["text"],
        "sources": [
            {
                "name": "page",
                "kind": "html",
                "request": {"url": "{base_url}" + path},
                "records": {"css": records},
                "fields": [{"name": "text", "css": "p"}],
            }
        ],
        "politeness": {"rate_limit_per_host": 0, "backoff_base": 0.01, "backoff_cap": 0.05, **politeness},
    }
    p = tmp_path / "spec.yaml"
    p.write_text(yaml.safe_dump(spec))
    return str(p)


def run_cli(*args: str):
    result = CliRunner().invoke(app, ["run", *args, "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = [ln for ln in result.stdout.splitlines() if ln.strip()]
    assert len(lines) == 1, result.output  # exactly one JSON object on stdout
    return result.exit_code, json.loads(lines[0])


def test_a_good_page_lands(base, tmp_path):
    db = str(tmp_path / "w.duckdb")
    code, out = run_cli(spec_file(tmp_path, base, "/ok"), "--db", db)
    assert code == 0 and out["status"] == "succeeded" and out["rows"] == 1


@pytest.mark.parametrize(
    ("path", "kw", "needle"),
    [
        ("/ok", {"records": "table.nothing"}, "no records"),
        ("/binary", {}, "expected html"),
        ("/giant", {"max_bytes": 100_000}, "100000-byte limit"),
        ("/loop-a", {}, "redirects in a loop"),
        ("/undecodable", {}, "not decodable"),
        ("/botcheck", {}, "bot-check/interstitial"),
        ("/private/data", {}, "disallowed by robots.txt"),
        ("/to-private", {}, "private"),
    ],
)
def test_bad_input_fails_the_run_with_one_line(base, tmp_path, path, kw, needle):
    db = str(tmp_path / "w.duckdb")
    records = kw.pop("records", "p.row")
    code, out = run_cli(spec_file(tmp_path, base, path, records=records, **kw), "--db", db)
    assert code == 1 and out["status"] == "failed" and out["rows"] == 0
    assert needle in out["error"] and "\n" not in out["error"]
    con = duckdb.connect(db, read_only=True)
    try:
        assert con.execute("SELECT status, error FROM _autodata_runs").fetchall() == [
            ("failed", out["error"])
        ]
        tables = {r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}
    finally:
        con.close()
    assert "bad_input" not in tables  # nothing half-landed


def test_invalid_spec_names_the_field_and_runs_nothing(base, tmp_path):
    p = tmp_path / "spec.yaml"
    spec = yaml.safe_load(open(spec_file(tmp_path, base, "/ok")))
    spec["primary_key"] = ["nope"]
    p.write_text(yaml.safe_dump(spec))
    db = tmp_path / "w.duckdb"
    code, out = run_cli(str(p), "--db", str(db))
    assert code == 2 and out["status"] == "failed"
    assert "primary_key" in out["error"] and "'nope'" in out["error"] and "\n" not in out["error"]
    assert not db.exists()  # validation happens before anything is opened or fetched


def test_run_enforces_the_collectors_checks_beside_its_spec(base, tmp_path):
    db = str(tmp_path / "w.duckdb")
    spec = spec_file(tmp_path, base, "/ok")
    failing = {"name": "bad-input", "policy": "fail", "checks": [{"kind": "row_count", "min": 5}]}
    (tmp_path / "checks.yaml").write_text(yaml.safe_dump(failing))
    code, out = run_cli(spec, "--db", db)
    assert code == 1 and out["status"] == "failed_checks" and out["rows"] == 0
    assert out["checks_status"] == "failed"
    con = duckdb.connect(db, read_only=True)
    try:
        checks = con.execute(
            "SELECT engine, passed FROM _autodata_checks WHERE \"check\" = 'row_count' ORDER BY engine"
        ).fetchall()
    finally:
        con.close()
    assert checks == [("gx", False), ("pandera", False)]
    code, out = run_cli(spec, "--db", db, "--no-checks")
    assert code == 0 and out["rows"] == 1 and out["checks_status"] is None
    passing = tmp_path / "other.checks.yaml"
    passing.write_text(yaml.safe_dump({**failing, "checks": [{"kind": "row_count", "min": 1}]}))
    code, out = run_cli(spec, "--db", db, "--checks", str(passing))
    assert code == 0 and out["checks_status"] == "passed"
    code, out = run_cli(spec, "--db", db, "--checks", str(tmp_path / "missing.yaml"))
    assert code == 2 and "missing.yaml does not exist" in out["error"]
