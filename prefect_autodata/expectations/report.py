"""Reports a data engineer reads: GE Data Docs per run (offline), a Prefect markdown artifact, a CLI summary.

GE's page templates load Bootstrap, jQuery, Font Awesome, bootstrap-table, Vega and a logo from
CDNs. The workspace may be opened on a machine without internet, so every page is post-processed:
known assets point at copies vendored in this package (``static/``, copied once to
``<workspace>/data_docs/static``), the rest are removed. A page never makes a network request.
"""

from __future__ import annotations

import datetime as dt
import html
import json
import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prefect_autodata.errors import ConfigError
from prefect_autodata.workspace import Workspace, validate_name

if TYPE_CHECKING:
    from prefect_autodata.expectations.enforce import EnforcementResult
    from prefect_autodata.expectations.spec import CheckSpec

STATIC = Path(__file__).parent / "static"

#: CDN asset (matched by file name in the URL) -> vendored path under static/
_ASSETS = {
    "bootstrap.min.css": "css/bootstrap.min.css",
    "bootstrap.min.js": "js/bootstrap.min.js",
    "bootstrap-table.min.css": "css/bootstrap-table.min.css",
    "bootstrap-table.min.js": "js/bootstrap-table.min.js",
    "bootstrap-table-filter-control.css": "css/bootstrap-table-filter-control.min.css",
    "bootstrap-table-filter-control.min.css": "css/bootstrap-table-filter-control.min.css",
    "bootstrap-table-filter-control.min.js": "js/bootstrap-table-filter-control.min.js",
    "jquery-3.7.1.min.js": "js/jquery.min.js",
    "popper.min.js": "js/popper.min.js",
    "all.min.css": "css/fontawesome.all.min.css",
}
_TAG = re.compile(r"<(script|link)\b[^>]*?(?:src|href)=\"(https?://[^\"]+)\"[^>]*>(?:\s*</script>)?", re.I)
_IMG = re.compile(r"<img\b[^>]*?src=\"https?://[^\"]+\"[^>]*>", re.I)
_CSS_URL = re.compile(r"url\(['\"]?https?://[^)]+\)", re.I)
_NUMPY_REPR = re.compile(r"\bnp\.(?:float|int|uint|bool_|str_|datetime64)\w*\(([^()]*)\)")
_SRI = re.compile(r"\s(?:integrity|crossorigin)=\"[^\"]*\"", re.I)


def offline_html(page: str, static_href: str) -> str:
    """Point CDN assets at local copies and drop any other remote asset, so the page loads offline."""

    def swap(m: re.Match) -> str:
        tag, url = m.group(1).lower(), m.group(2)
        local = _ASSETS.get(url.split("?")[0].rsplit("/", 1)[-1])
        if local is None:
            return ""  # vega charts, date pickers, dark theme: optional, and remote
        if tag == "link":
            return f'<link rel="stylesheet" href="{static_href}/{local}">'
        return f'<script src="{static_href}/{local}"></script>'

    page = _TAG.sub(swap, page)
    page = _IMG.sub("", page)
    page = _CSS_URL.sub("none", page)
    page = _SRI.sub("", page)
    page = page.replace(
        'href="../../../static/images/favicon.ico"', f'href="{static_href}/images/favicon.ico"'
    )
    page = re.sub(r'href="(?:\.\./)+index\.html"', 'href="index.html"', page)
    page = re.sub(r'href="(?:\.\./)+expectations/[^"]*"', 'href="index.html"', page)
    return page


def install_static(workspace: Workspace) -> Path:
    """Copy the vendored assets (and GE's own images) into ``<workspace>/data_docs/static`` once."""
    dest = workspace.data_docs_dir / "static"
    marker = dest / ".autodata-assets"
    if not marker.exists():
        shutil.copytree(STATIC, dest, dirs_exist_ok=True)
        try:
            import great_expectations

            images = Path(great_expectations.__file__).parent / "render" / "view" / "static" / "images"
            shutil.copytree(images, dest / "images", dirs_exist_ok=True)
        except (ImportError, OSError):
            pass
        marker.write_text("vendored Data Docs assets\n", encoding="utf-8")
    return dest


def build_data_docs(
    gx_result: Any, spec: CheckSpec, workspace: Workspace, *, run_id: str, status: str
) -> Path:
    """Render GE's validation-result page for this run into ``data_docs/<name>/<run_id>.html`` (offline)."""
    from great_expectations.render.renderer import ValidationResultsPageRenderer
    from great_expectations.render.view import DefaultJinjaPageView

    install_static(workspace)
    folder = workspace.data_docs_dir / validate_name(spec.name)
    folder.mkdir(parents=True, exist_ok=True)
    document = ValidationResultsPageRenderer().render(gx_result)
    page = offline_html(DefaultJinjaPageView().render(document), "../static")
    page = _NUMPY_REPR.sub(r"\1", page)  # GE prints numpy scalars as np.float64(1.5): show 1.5
    banner = (
        f'<div class="alert alert-{"success" if status == "passed" else "danger" if status == "failed" else "warning"}"'
        f' id="autodata-run" style="margin:0">autodata run <b>{html.escape(run_id)}</b> of '
        f"<b>{html.escape(spec.name)}</b>: {html.escape(status)} (policy {html.escape(spec.policy)})</div>"
    )
    page = re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + banner, page, count=1)
    path = folder / f"{run_id}.html"
    path.write_text(page, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- run summaries


def summary_dict(result: EnforcementResult, spec: CheckSpec) -> dict[str, Any]:
    return {
        "name": spec.name,
        "run_id": result.run_id,
        "status": result.status,
        "policy": result.policy,
        "at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "rows_good": len(result.good),
        "rows_quarantined": len(result.quarantined),
        "docs_path": str(result.docs_path) if result.docs_path else None,
        "checks": result.results,
    }


def markdown_report(result: EnforcementResult, spec: CheckSpec) -> str:
    """A pass/fail table per check and engine, linking the Data Docs page (the Prefect artifact body)."""
    lines = [
        f"## Checks for `{spec.name}`: **{result.status}**",
        "",
        f"Run `{result.run_id}`, policy `{result.policy}`: {len(result.good)} rows to land, "
        f"{len(result.quarantined)} quarantined.",
    ]
    if result.docs_path:
        lines.append(f"[Data Docs page]({Path(result.docs_path).resolve().as_uri()})")
    lines += ["", "| check | engine | result | failing rows | observed |", "| --- | --- | --- | --- | --- |"]
    for r in sorted(result.checks, key=lambda c: (c.passed, c.check, c.engine)):
        mark = "pass" if r.passed else ("FAIL" if r.severity == "error" else "warn")
        obs = r.observed_text().replace("|", "\\|")[:120]
        lines.append(f"| {r.check} | {r.engine} | {mark} | {r.failing_rows} | {obs} |")
    return "\n".join(lines) + "\n"


def publish_artifact(result: EnforcementResult, spec: CheckSpec) -> str | None:
    """Attach the markdown report to the current Prefect flow/task run; outside a run there is nothing to attach to."""
    try:
        from prefect.artifacts import create_markdown_artifact
        from prefect.context import FlowRunContext, TaskRunContext
    except ImportError:  # pragma: no cover - prefect is a dependency
        return None
    if FlowRunContext.get() is None and TaskRunContext.get() is None:
        return None
    key = re.sub(r"[^a-z0-9-]", "-", f"{spec.name}-checks".lower())
    artifact = create_markdown_artifact(
        markdown=markdown_report(result, spec), key=key, description=f"expectations for {spec.name}"
    )
    return str(getattr(artifact, "id", artifact))


def record_run(result: EnforcementResult, spec: CheckSpec, workspace: Workspace) -> Path:
    """Keep the run's summary beside its Data Docs page (``latest.json`` is what ``autodata report`` prints)."""
    folder = workspace.data_docs_dir / validate_name(spec.name)
    folder.mkdir(parents=True, exist_ok=True)
    data = json.dumps(summary_dict(result, spec), indent=1, default=str)
    (folder / f"{result.run_id}.json").write_text(data, encoding="utf-8")
    tmp = folder / "latest.json.tmp"
    tmp.write_text(data, encoding="utf-8")
    tmp.replace(folder / "latest.json")
    _write_index(folder, spec.name)
    return folder / "latest.json"


def _write_index(folder: Path, name: str) -> None:
    runs = []
    for p in sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True):
        if p.name == "latest.json":
            continue
        try:
            d = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            continue
        runs.append(d)
    rows = "".join(
        f'<tr><td><a href="{html.escape(d["run_id"])}.html">{html.escape(d["run_id"])}</a></td>'
        f"<td>{html.escape(str(d.get('at')))}</td><td>{html.escape(d['status'])}</td>"
        f"<td>{d.get('rows_good')}</td><td>{d.get('rows_quarantined')}</td></tr>"
        for d in runs
    )
    (folder / "index.html").write_text(
        '<!doctype html><html><head><meta charset="utf-8"><title>Data Docs: '
        f'{html.escape(name)}</title><link rel="stylesheet" href="../static/css/bootstrap.min.css"></head>'
        f'<body class="container"><h1>Expectation runs of {html.escape(name)}</h1>'
        '<table class="table table-striped"><thead><tr><th>run</th><th>at</th><th>status</th><th>landed</th>'
        f"<th>quarantined</th></tr></thead><tbody>{rows}</tbody></table></body></html>",
        encoding="utf-8",
    )


def latest_summary(name: str, workspace: Workspace | None = None) -> dict[str, Any]:
    """The latest run's summary for ``autodata report NAME``."""
    ws = workspace or Workspace.default()
    path = ws.data_docs_dir / validate_name(name) / "latest.json"
    if not path.exists():
        raise ConfigError(f"no expectation report for collector {name!r} yet (looked in {path.parent})")
    return json.loads(path.read_text(encoding="utf-8"))


def format_summary(summary: dict[str, Any]) -> str:
    failed = sorted({c["check"] for c in summary["checks"] if not c["passed"]})
    engines = sorted({c["engine"] for c in summary["checks"]})
    lines = [
        f"{summary['name']}: {summary['status']} (run {summary['run_id']}, policy {summary['policy']}, {summary['at']})",
        f"  rows landed: {summary['rows_good']}, quarantined: {summary['rows_quarantined']}",
        f"  checks: {len({c['check'] for c in summary['checks']})} on {', '.join(engines) or 'no engine'}; "
        f"failed: {', '.join(failed) if failed else 'none'}",
        f"  Data Docs: {summary.get('docs_path') or '(not built)'}",
    ]
    said: set[str] = set()
    for c in summary["checks"]:  # what is missing, in words (completeness: count and the first 20)
        msg = c.get("message") or ""
        if not c["passed"] and "expected rows missing" in msg and c["check"] not in said:
            said.add(c["check"])
            lines.append(f"  {c['check']}: {msg}")
    return "\n".join(lines)
