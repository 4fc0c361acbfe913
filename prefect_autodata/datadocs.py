"""One Data Docs site per workspace: an index across every collector's runs, and a loopback server for it.

Each validation writes ``data_docs/<collector>/<run>.html`` plus that collector's ``index.html``
(``expectations.report``); ``write_site_index`` adds ``data_docs/index.html`` linking every collector's
latest run, so one page answers "what passed, what failed, where". The pages are offline-readable
files; ``autodata docs serve`` serves them over HTTP so a link in a Prefect artifact opens them
(browsers do not follow ``file://`` links from a web page).
"""

from __future__ import annotations

import html
import json
import os
from pathlib import Path
from typing import Any

from prefect_autodata.workspace import Workspace

DOCS_PORT = 8766
DOCS_URL_ENV = "AUTODATA_DOCS_URL"


def docs_base_url() -> str:
    """Where ``autodata docs serve`` answers (``$AUTODATA_DOCS_URL``, else loopback on its default port)."""
    return (os.environ.get(DOCS_URL_ENV) or f"http://127.0.0.1:{DOCS_PORT}").rstrip("/")


def page_url(docs_path: str | Path, workspace: Workspace) -> str | None:
    """The served URL of a Data Docs page inside ``workspace`` (None when it lives elsewhere)."""
    try:
        rel = Path(docs_path).resolve().relative_to(workspace.data_docs_dir.resolve())
    except ValueError:
        return None
    return f"{docs_base_url()}/{rel.as_posix()}"


def _latest(folder: Path) -> dict[str, Any] | None:
    try:
        data = json.loads((folder / "latest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def collectors_summary(workspace: Workspace) -> list[dict[str, Any]]:
    """Per collector with Data Docs: name, latest run, status, rows landed/quarantined, failed checks."""
    out = []
    root = workspace.data_docs_dir
    if not root.is_dir():
        return out
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and p.name != "static"):
        latest = _latest(folder)
        if latest is None:
            continue
        failed = sorted({c.get("check", "?") for c in latest.get("checks", []) if not c.get("passed", True)})
        out.append(
            {
                "collector": folder.name,
                "run_id": latest.get("run_id"),
                "at": latest.get("at"),
                "status": latest.get("status"),
                "rows_good": latest.get("rows_good"),
                "rows_quarantined": latest.get("rows_quarantined"),
                "failed": failed,
                "page": f"{folder.name}/{latest.get('run_id')}.html",
                "runs": f"{folder.name}/index.html",
            }
        )
    return out


def write_site_index(workspace: Workspace) -> Path:
    """``data_docs/index.html``: every collector's latest validation, linking its page and its runs."""
    rows = "".join(
        f'<tr><td><a href="{html.escape(c["runs"])}">{html.escape(c["collector"])}</a></td>'
        f'<td><a href="{html.escape(c["page"])}">{html.escape(str(c["run_id"]))}</a></td>'
        f"<td>{html.escape(str(c['at']))}</td><td>{html.escape(str(c['status']))}</td>"
        f"<td>{c['rows_good']}</td><td>{c['rows_quarantined']}</td>"
        f"<td>{html.escape(', '.join(c['failed']) or '-')}</td></tr>"
        for c in collectors_summary(workspace)
    )
    path = workspace.data_docs_dir / "index.html"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".html.tmp")
    tmp.write_text(
        '<!doctype html><html><head><meta charset="utf-8"><title>autodata Data Docs</title>'
        '<link rel="stylesheet" href="static/css/bootstrap.min.css"></head><body class="container">'
        "<h1>Data Docs: every collector</h1>"
        '<table class="table table-striped"><thead><tr><th>collector</th><th>latest run</th><th>at</th>'
        "<th>status</th><th>landed</th><th>quarantined</th><th>failed checks</th></tr></thead>"
        f"<tbody>{rows}</tbody></table></body></html>",
        encoding="utf-8",
    )
    tmp.replace(path)
    return path


def serve(workspace: Workspace, *, host: str = "127.0.0.1", port: int = DOCS_PORT):
    """An HTTP server over ``data_docs/`` (not started: call ``serve_forever`` or run it in a thread)."""
    import functools
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    from prefect_autodata.errors import ConfigError

    write_site_index(workspace)

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the stdlib's name
            pass

    handler = functools.partial(Quiet, directory=str(workspace.data_docs_dir))
    try:
        return ThreadingHTTPServer((host, port), handler)
    except OSError as exc:
        raise ConfigError(f"cannot serve Data Docs on {host}:{port}: {exc.strerror or exc}") from exc
