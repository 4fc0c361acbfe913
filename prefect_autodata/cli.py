"""The ``autodata`` command line. Each command is a thin shell over a function in the room that owns it.

Human output goes to stderr (Rich); ``--json`` output is one JSON object on stdout. Every
``AutoDataError`` becomes one clear line and exit code 1 (2 for bad input), never a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer
from rich.console import Console

from prefect_autodata.errors import AutoDataError, ConfigError

app = typer.Typer(
    name="autodata",
    help="One sentence in: a DuckDB dataset with lineage, a reusable collector deployed on Prefect, and an expectation report.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
sandbox_app = typer.Typer(
    help="The local imitation web used for tests, benchmarks and the offline demo.", no_args_is_help=True
)
app.add_typer(sandbox_app, name="sandbox")
docs_app = typer.Typer(help="The workspace's Data Docs (expectation reports).", no_args_is_help=True)
app.add_typer(docs_app, name="docs")

err = Console(stderr=True)


def emit_json(obj: dict) -> None:
    from prefect_autodata.redact import redact_text

    sys.stdout.write(redact_text(json.dumps(obj, default=str)) + "\n")  # secrets by value, never printed
    sys.stdout.flush()


def _fail(exc: AutoDataError) -> None:
    err.print(f"[bold red]error:[/] {exc}")
    raise typer.Exit(2 if isinstance(exc, ConfigError) else 1)


@sandbox_app.command("serve")
def sandbox_serve(
    host: str = typer.Option("127.0.0.1", help="Interface to bind."),
    port: int = typer.Option(8765, help="Port to bind."),
    chaos: str = typer.Option("none", help="Chaos profile: none, flaky or hostile."),
    seed: int = typer.Option(0, help="Seed that makes chaos deterministic."),
) -> None:
    """Serve the sandbox web (imitations of the real sites) and print its site map."""
    from prefect_autodata.sandbox.app import sitemap
    from prefect_autodata.sandbox.server import serve_forever

    if chaos not in ("none", "flaky", "hostile"):
        _fail(ConfigError(f"--chaos must be none, flaky or hostile, not {chaos!r}"))
    base = f"http://{host}:{port}"
    err.print(f"[bold]autodata sandbox[/] on {base} (chaos={chaos}, seed={seed})")
    for title, path in sitemap():
        err.print(f"  {title:<45} {base}{path}")
    serve_forever(host=host, port=port, chaos=chaos, seed=seed)


@docs_app.command("serve")
def docs_serve(
    port: int = typer.Option(8766, "--port", help="Loopback port to serve on."),
    host: str = typer.Option("127.0.0.1", "--host", help="Interface to bind."),
) -> None:
    """Serve the workspace's Data Docs (one index across collectors) so Prefect artifact links open them."""
    from prefect_autodata.datadocs import serve
    from prefect_autodata.workspace import Workspace

    ws = Workspace.default()
    try:
        server = serve(ws, host=host, port=port)
    except AutoDataError as exc:
        _fail(exc)
        return
    err.print(f"[bold]Data Docs[/] of {ws.root}")
    err.print(f"  http://{host}:{server.server_address[1]}/index.html", overflow="ignore", crop=False)
    err.print("  (set AUTODATA_DOCS_URL for runs when this is not the default address; Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


@sandbox_app.command("tasks")
def sandbox_tasks(as_json: bool = typer.Option(False, "--json", help="Print the catalog as JSON.")) -> None:
    """List the sandbox task catalog (Instruct2DS templates T1-T18 instantiated on the sandbox)."""
    from prefect_autodata.sandbox.tasks import catalog

    tasks = catalog()
    if as_json:
        sys.stdout.write(
            json.dumps(
                [
                    {
                        "id": t.id,
                        "template": t.template,
                        "domain": t.domain,
                        "instruction": t.instruction,
                        "fields": t.fields,
                    }
                    for t in tasks
                ],
                indent=1,
            )
            + "\n"
        )
        return
    from rich.table import Table

    table = Table(title=f"{len(tasks)} sandbox tasks")
    for col in ("id", "template", "domain", "instruction"):
        table.add_column(col)
    for t in tasks:
        table.add_row(t.id, t.template, t.domain, t.instruction)
    Console().print(table)


def _prefect_defaults() -> None:
    """Before Prefect is imported: no telemetry, time for an ephemeral API to migrate a fresh database,
    and Prefect's own console lines off (our progress says what the tasks do, a failure is one line;
    the flow run keeps every log line, tracebacks included, on the API)."""
    import os

    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    os.environ.setdefault("DO_NOT_TRACK", "1")
    os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "300")
    os.environ.setdefault("PREFECT_LOGGING_HANDLERS_CONSOLE_LEVEL", "CRITICAL")


class _QuietPrefectConsole:
    """While a command runs its flow: Prefect's console handler off (it was configured before this
    command's environment could say so, e.g. in a process that imported Prefect earlier)."""

    def __enter__(self) -> _QuietPrefectConsole:
        import logging
        import os

        from prefect.logging.handlers import PrefectConsoleHandler

        wanted = os.environ.get("PREFECT_LOGGING_HANDLERS_CONSOLE_LEVEL", "CRITICAL").upper()
        loggers = [logging.getLogger()] + [
            lg for lg in logging.Logger.manager.loggerDict.values() if isinstance(lg, logging.Logger)
        ]
        self.saved = [
            (h, h.level)
            for lg in loggers
            for h in lg.handlers
            if isinstance(h, PrefectConsoleHandler) and wanted == "CRITICAL"
        ]
        for h, _ in self.saved:
            h.setLevel(logging.CRITICAL)
        return self

    def __exit__(self, *exc: object) -> None:
        for h, level in self.saved:
            h.setLevel(level)


def _api_label() -> str:
    from prefect.settings import PREFECT_API_URL

    return PREFECT_API_URL.value() or "Prefect's ephemeral API"


@app.command("run")
def run_cmd(
    spec: str = typer.Argument(
        ..., help="A spec YAML path, a workspace collector name, or a shipped example name."
    ),
    db: str = typer.Option(None, "--db", help="DuckDB file to land in (default: the workspace database)."),
    destination_block: str = typer.Option(
        None, "--destination-block", help="A saved DuckDBDestination block to land in (wins over --db)."
    ),
    crawler_block: str = typer.Option(
        None, "--crawler-block", help="A saved CrawlerPolicy block (politeness and crawl bounds)."
    ),
    sandbox: bool = typer.Option(
        False,
        "--sandbox",
        help="Start the built-in sandbox on a free port and fetch the spec's hosts from it.",
    ),
    as_json: bool = typer.Option(
        False, "--json", help="Print one JSON object (status, table, db, rows, run_id)."
    ),
    checks: str = typer.Option(
        None,
        "--checks",
        help="A CheckSpec YAML to enforce before landing (default: the collector's checks.yaml, "
        "from the workspace or beside a spec.yaml).",
    ),
    no_checks: bool = typer.Option(False, "--no-checks", help="Land without validating."),
) -> None:
    """Run a collector once as a ``run_collector`` flow run (fetch -> extract -> validate -> land with
    lineage) on PREFECT_API_URL, else Prefect's ephemeral API; reruns never call an LLM."""
    import os

    _prefect_defaults()
    from prefect_autodata.ui import LiveProgress, TaskLogForwarder

    live = LiveProgress(err, title="autodata run")
    progress = live.__enter__()
    progress("run", f"{spec}: loading the collector and Prefect")
    try:
        from prefect_autodata.flows.run_collector import resolve_spec, run_collector_flow_run
        from prefect_autodata.runtime.fetch import MIRROR_ENV

        _check_input_file(spec, "spec")  # a directory, binary or non-UTF-8 file: one line, exit 2
        collector = resolve_spec(spec)
        check_spec = None if no_checks else _collector_checks(spec, collector.name, checks)
        server = None
        if sandbox:
            from prefect_autodata.sandbox.server import SandboxServer, sandbox_secrets

            sandbox_secrets(collector)  # unset secrets get a throwaway token the sandbox accepts
            server = SandboxServer().start()
            os.environ[MIRROR_ENV] = server.base_url  # the fetcher maps the real hosts onto it
        try:
            progress("prefect", f"run_collector flow run for {collector.name} on {_api_label()}")
            with TaskLogForwarder(progress), _QuietPrefectConsole():
                result = run_collector_flow_run(
                    collector, destination_block or db, checks=check_spec, crawler=crawler_block
                )
        finally:
            if server is not None:
                server.stop()
                os.environ.pop(MIRROR_ENV, None)
    except AutoDataError as exc:
        live.__exit__(None, None, None)
        if as_json:
            emit_json(
                {"status": "failed", "error": str(exc), "table": None, "db": db, "rows": 0, "run_id": None}
            )
            raise typer.Exit(2 if isinstance(exc, ConfigError) else 1) from None
        _fail(exc)
        return
    live.__exit__(None, None, None)
    if as_json:
        emit_json(result.summary())
    elif result.ok:
        err.print(
            f"[bold green]{result.status}[/] {result.collector}: {result.rows_landed} rows landed in "
            f"{result.table} ({result.db}), {result.rows_rejected} rejected, run {result.run_id}",
            overflow="ignore",
        )
        for w in result.warnings:
            err.print(f"  [yellow]warning:[/] {w}")
        if result.checks_status:
            err.print(
                f"  checks: {result.checks_status}, {result.rows_quarantined} rows quarantined "
                f"(`autodata report {result.collector}` for the Data Docs page)"
            )
        if result.flow_run_id:
            err.print(f"  flow run: {result.flow_run_id} (`autodata trace {result.run_id}`)")
    else:
        err.print(f"[bold red]{result.status}:[/] {result.collector}: {result.error} (run {result.run_id})")
    if not result.ok:
        raise typer.Exit(1)


def _collector_checks(spec_arg: str, name: str, checks_arg: str | None):
    """The CheckSpec ``autodata run`` enforces: ``--checks``, else the collector's own checks.yaml
    (beside a ``spec.yaml`` given by path, or in the workspace), else none."""
    from prefect_autodata.expectations.spec import load_checks
    from prefect_autodata.workspace import Workspace

    if checks_arg:
        if Path(checks_arg).exists():
            _check_input_file(checks_arg, "check spec")
        return load_checks(checks_arg)  # a missing or invalid file fails here, naming it
    given = Path(spec_arg)
    candidates = [given.parent / "checks.yaml"] if given.name == "spec.yaml" and given.is_file() else []
    candidates.append(Workspace.default().checks_path(name))
    for path in candidates:
        if path.is_file():
            _check_input_file(str(path), "check spec")
            return load_checks(path)
    return None


def _check_input_file(arg: str, what: str) -> None:
    """A path argument that is a directory, unreadable, binary or not UTF-8 is bad input (one line, exit 2)."""
    from prefect_autodata.runtime.spec import read_text_file

    p = Path(arg)
    if p.is_dir() or p.is_file():
        read_text_file(p, what)


def _check_sources(sources: list[str]) -> None:
    """``--source`` must be an http(s) URL (``file://`` and friends are bad input); its credentials are
    registered so no trace, cache entry or log line ever holds them."""
    from urllib.parse import urlsplit

    from prefect_autodata.redact import scan_url

    for s in sources:
        parts = urlsplit(s.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ConfigError(f"--source must be an http(s) URL with a host, got {s!r}")
        scan_url(s)


@app.command("report")
def report(
    name: str = typer.Argument(..., help="Collector name."),
    as_json: bool = typer.Option(False, "--json", help="Print the latest summary as JSON."),
) -> None:
    """Print the latest expectation summary of a collector and the path of its Data Docs page."""
    from prefect_autodata.expectations.report import format_summary, latest_summary

    try:
        summary = latest_summary(name)
    except AutoDataError as exc:
        _fail(exc)
    if as_json:
        emit_json(summary)
        return
    sys.stdout.write(format_summary(summary) + "\n")


@app.command("trace")
def trace_cmd(
    run: str = typer.Argument(
        ..., help="Run ID (or unique prefix, or a .jsonl path) whose OHCache trace to print."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the events as one JSON object."),
    mermaid: bool = typer.Option(False, "--mermaid", help="Print the hypergraph as a Mermaid flowchart."),
    png: str = typer.Option("", "--png", help="Also render the hypergraph to this PNG file (uses Chromium)."),
) -> None:
    """Print a collection run's agent trace: messages, tool calls, cache accesses, LLM calls and tokens."""
    from prefect_autodata.ohcache.render import to_mermaid, to_png
    from prefect_autodata.ohcache.trace import Trace, find_trace, format_trace
    from prefect_autodata.workspace import Workspace

    try:
        path = _resolve_trace(Workspace.default(), run, find_trace)
        events = Trace.load(path)
        if png:
            err.print(f"hypergraph picture: {to_png(events, png)}")
    except AutoDataError as exc:
        _fail(exc)
        return
    if as_json:
        emit_json({"run": path.stem, "path": str(path), "events": events})
    elif mermaid:
        sys.stdout.write(to_mermaid(events) + "\n")
    else:
        sys.stdout.write(format_trace(events) + "\n")


def _resolve_trace(ws, ref: str, find_trace):
    """A trace path, a collect id (``collect-…`` or its hex part), a run id, a collector name, or a
    unique prefix of any of them -> the trace file; one clear error naming what was tried."""
    tried = []
    for candidate in (ref, f"collect-{ref}"):
        try:
            return find_trace(ws.traces_dir, candidate)
        except ConfigError as exc:
            if "ambiguous" in str(exc):
                raise
            tried.append(candidate)
    index = ws.read_runs_index()
    for kind in ("runs", "collectors"):
        table = index.get(kind, {})
        hits = sorted({trace for key, trace in table.items() if key == ref}) or sorted(
            {trace for key, trace in table.items() if key.startswith(ref)}
        )
        if len(hits) > 1:
            raise ConfigError(f"{ref!r} is ambiguous: {kind} {', '.join(hits[:5])}")
        if hits:
            return find_trace(ws.traces_dir, hits[0])
    collector = _collector_of_run(ws, ref)
    if collector and collector in index.get("collectors", {}):
        return find_trace(ws.traces_dir, index["collectors"][collector])
    raise ConfigError(
        f"no trace for {ref!r} in {ws.traces_dir}: not a collect id, run id or collector name "
        "(`autodata ls` lists collectors and their last run)"
    )


def _collector_of_run(ws, ref: str) -> str | None:
    """The collector of run ``ref`` (or a unique run-id prefix) from the workspace database's lineage."""
    if not ws.db_path.is_file():
        return None
    import duckdb

    from prefect_autodata.runtime.columns import RUNS_TABLE

    try:
        con = duckdb.connect(str(ws.db_path), read_only=True)
    except duckdb.Error:
        return None
    try:
        rows = con.execute(
            f"SELECT DISTINCT collector FROM {RUNS_TABLE} WHERE run_id = ? OR starts_with(run_id, ?)",
            [ref, ref],
        ).fetchall()
    except duckdb.Error:
        return None
    finally:
        con.close()
    return rows[0][0] if len(rows) == 1 else None


@app.command("plan")
def plan_cmd(
    instruction: str = typer.Argument(..., help="What to collect, in one English sentence."),
    fields: str = typer.Option(None, "--fields", help="Comma-separated field names (override the sentence)."),
    schema: str = typer.Option(None, "--schema", help="A YAML/JSON file of field names (and types)."),
    as_json: bool = typer.Option(False, "--json", help="Print the Request as one JSON object."),
    backend: str = typer.Option(
        "offline", "--backend", help="offline (rule-based) or llm (the LLM plan agent; AUTODATA_LLM_*)."
    ),
) -> None:
    """Show how a sentence is read (entity, fields, filters, time scope, kind) without fetching anything."""
    from prefect_autodata.agents.fields import parse_fields, schema_from_file
    from prefect_autodata.agents.plan import make_plan
    from prefect_autodata.agents.request import check_instruction

    try:
        check_instruction(instruction)
        names = parse_fields(fields)
        pairs = None
        if schema:
            if names:
                raise ConfigError("give --fields or --schema, not both")
            pairs = schema_from_file(schema)
        if backend not in ("offline", "llm"):
            raise ConfigError(f"--backend must be offline or llm, not {backend!r}")
        if backend == "llm":
            from prefect_autodata.agents.llm.plan import read_request

            reading = read_request(instruction, fields=names, schema=pairs)
            req = reading.request
            err.print(f"read by: {reading.source} ({reading.tokens} tokens, ${reading.cost_usd:.4f})")
        else:
            req = make_plan(instruction, fields=names, schema=pairs)
    except AutoDataError as exc:
        sys.stderr.write(f"error: {' '.join(str(exc).split())}\n")
        raise typer.Exit(2 if isinstance(exc, ConfigError) else 1) from None
    if as_json:
        emit_json(req.to_json())
        return
    out = req.to_json()
    err.print(f"entity: {out['entity']}  kind: {out['kind']}  coverage: {out['coverage']}")
    err.print("fields: " + (", ".join(f"{f['name']} ({f['type'] or '?'})" for f in out["fields"]) or "-"))
    for f in out["filters"]:
        err.print(f"filter: {f['field']} {f['op']} {f['value']}")
    if out["time_scope"]:
        err.print(f"time: {out['time_scope']}")
    if out["cadence"]:
        err.print(f"cadence: {out['cadence']}")
    if out["sources"]:
        err.print("sources: " + ", ".join(out["sources"]))
    for a in req.assumptions:
        err.print(f"assumption: {a}")
    for q in out["unresolved"]:
        err.print(f"[bold red]unresolved:[/] {q}")


@app.command("collect")
def collect_cmd(
    instruction: str = typer.Argument(..., help="What to collect, in one sentence."),
    source: list[str] = typer.Option(
        None, "--source", help="A URL to start from (repeatable); default: search."
    ),
    fields: str = typer.Option(None, "--fields", help="Comma-separated column names of the table."),
    schema: str = typer.Option(None, "--schema", help="A YAML/JSON file listing the field names."),
    name: str = typer.Option(
        None, "--name", help="Collector (and table) name; default: derived from the plan."
    ),
    db: str = typer.Option(None, "--db", help="DuckDB file to land in (default: the workspace database)."),
    backend: str = typer.Option("offline", "--backend", help="offline (rule-based, no key) or llm."),
    deploy: bool = typer.Option(
        True, "--deploy/--no-deploy", help="Register a scheduled Prefect deployment."
    ),
    schedule: str = typer.Option(
        None,
        "--schedule",
        help="The deployment's schedule: a phrase ('every weekday after market close', 'daily at 6am'), "
        "cron, interval or RRule (default: the cadence in the instruction).",
    ),
    timezone: str = typer.Option(
        None, "--timezone", help="IANA timezone of the schedule (e.g. America/New_York)."
    ),
    destination_block: str = typer.Option(
        None, "--destination-block", help="A saved DuckDBDestination block to land in (wins over --db)."
    ),
    llm_block: str = typer.Option(
        None, "--llm-block", help="A saved LLMEndpointCredentials block (implies --backend llm)."
    ),
    crawler_block: str = typer.Option(
        None, "--crawler-block", help="A saved CrawlerPolicy block (politeness and crawl bounds)."
    ),
    search_block: str = typer.Option(
        None, "--search-block", help="A saved SearchProviderCredentials block for the research agents."
    ),
    force: bool = typer.Option(
        False, "--force", help="Replace an existing collector of the same name without asking."
    ),
    search_url: str = typer.Option(None, "--search-url", help="SearXNG-compatible search endpoint base URL."),
    sandbox: bool = typer.Option(
        False, "--sandbox", help="Start the built-in sandbox web on a free port for this run."
    ),
    chaos: str = typer.Option("none", "--chaos", help="With --sandbox: none, flaky or hostile."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
) -> None:
    """Research sources, write a collector and its checks, run it, validate, and land the rows in DuckDB
    (one ``collect`` flow run on PREFECT_API_URL, else Prefect's ephemeral API)."""
    _prefect_defaults()
    from prefect_autodata.agents.fields import fields_from_schema_file, parse_fields
    from prefect_autodata.ui import LiveProgress, TaskLogForwarder

    live = LiveProgress(err, title="autodata collect")
    progress = live.__enter__()
    server = None
    try:
        from prefect_autodata.agents.request import check_instruction

        check_instruction(instruction)  # empty, huge, control characters: one line, nothing fetched
        if backend not in ("offline", "llm"):
            raise ConfigError(f"--backend must be offline or llm, not {backend!r}")
        if chaos not in ("none", "flaky", "hostile"):
            raise ConfigError(f"--chaos must be none, flaky or hostile, not {chaos!r}")
        if name is not None:
            from prefect_autodata.workspace import validate_name

            validate_name(name)
        if schedule or timezone:
            from prefect_autodata.deployments.schedule import parse_schedule

            parse_schedule(schedule or "daily", timezone=timezone)  # bad input fails before research
        names = parse_fields(fields)
        if schema:
            if names:
                raise ConfigError("give --fields or --schema, not both")
            _check_input_file(schema, "schema file")
            names = fields_from_schema_file(schema)
        sources = list(source or [])
        _check_sources(sources)  # http(s) only; credentials registered before any trace is written
        mirror = None
        prepare = None
        if sandbox:
            import re

            from prefect_autodata.sandbox.server import SandboxServer, sandbox_secrets

            server = SandboxServer(chaos=chaos).start()
            mirror = server.base_url
            prepare = sandbox_secrets
            search_url = search_url or mirror
            sources = [s if s.startswith(mirror) else re.sub(r"^https?://", mirror + "/", s) for s in sources]
        progress("prefect", f"collect flow run on {_api_label()}")
        result = _collect_flow_run(
            instruction,
            sources=sources,
            fields=names,
            name=name,
            db=db,
            backend=backend,
            search_url=search_url,
            mirror=mirror,
            deploy=deploy,
            schedule=schedule,
            timezone=timezone,
            destination=destination_block,
            llm=llm_block,
            crawler=crawler_block,
            search=search_block,
            hooks={
                "prepare": prepare,
                "progress": progress,
                "confirm": None if force else _confirm_overwrite(live, interactive=not as_json),
            },
            forwarder=TaskLogForwarder(progress),
        )
    except AutoDataError as exc:
        live.__exit__(None, None, None)
        if server is not None:
            server.stop()
        if as_json:
            emit_json(
                {
                    "status": "failed",
                    "error": str(exc),
                    "name": name,
                    "db": db,
                    "table": None,
                    "rows": 0,
                    "spec": None,
                    "seconds": 0.0,
                    "tokens": 0,
                    "cost_usd": 0.0,
                }
            )
            raise typer.Exit(2 if isinstance(exc, ConfigError) else 1) from None
        _fail(exc)
        return
    live.__exit__(None, None, None)
    if server is not None:
        server.stop()
    if as_json:
        emit_json(result.model_dump(mode="json"))
    elif result.ok:
        from prefect_autodata.ui import print_summary

        report_page = None
        if result.db and result.name and result.run_id:
            page = Path(result.db).parent / "data_docs" / result.name / f"{result.run_id}.html"
            report_page = str(page) if page.exists() else None
        schedule_line = "not scheduled"
        if result.schedule:
            schedule_line = result.schedule + (" — incremental" if result.incremental else "")
        print_summary(
            f"[bold green]{result.status}[/]: {result.name}",
            [
                ("table", f"{result.table} in {result.db}"),
                (
                    "rows",
                    f"{result.rows} landed, {result.rows_quarantined} quarantined, {result.rows_rejected} rejected",
                ),
                ("checks", f"{result.checks_status or 'none'} ({result.checks})"),
                ("report", report_page or "not built"),
                ("deployment", result.deployment or "not deployed"),
                ("schedule", schedule_line if result.deployed else None),
                ("next runs", "; ".join(result.next_runs) if result.next_runs else None),
                ("spec", f"{result.spec} (version {result.spec_version})"),
                ("time", f"{result.seconds:.1f}s total, agents {result.agent_seconds:.1f}s"),
                ("tokens / cost", f"{result.tokens} / ${result.cost_usd:.4f} ({result.backend})"),
                ("trace", f"autodata trace {result.trace_id}"),
            ],
            err,
        )
        for w in result.warnings:
            err.print(f"  [yellow]warning:[/] {w}")
    elif result.status == "unresolvable":
        err.print("[bold red]cannot collect this yet[/] — the instruction is missing:")
        for m in result.missing:
            err.print(f"  - {m}")
    elif result.status == "kept":
        err.print(f"[yellow]kept[/] {result.error}")
    else:
        err.print(f"[bold red]{result.status}:[/] {result.error} (trace {result.trace_id})")
    if not result.ok:
        raise typer.Exit(1)


def _collect_flow_run(instruction: str, *, hooks: dict, forwarder, **params):
    """``collect_flow`` as one flow run; its CollectResult whether it succeeded or not."""
    from prefect_autodata import redact
    from prefect_autodata.flows.collect import CollectResult
    from prefect_autodata.flows.collect_flow import CLI_HOOKS, CollectFailed, collect_flow

    # Flow-run parameters are stored by the Prefect API: they get the redacted sentence and sources;
    # the agents get the originals (with their credentials) through the in-process hooks.
    sources = params.get("sources") or []
    safe_sources = [redact.redact_text(s) for s in sources]
    safe_instruction = redact.redact_text(instruction)
    if safe_sources != sources or safe_instruction != instruction:
        hooks = {**hooks, "instruction": instruction, "sources": sources}
        params["sources"] = safe_sources
    token = CLI_HOOKS.set(hooks)
    try:
        with forwarder, _QuietPrefectConsole():
            state = collect_flow(safe_instruction, **params, return_state=True)
    finally:
        CLI_HOOKS.reset(token)
    if state.is_completed():
        return CollectResult.model_validate(state.result())
    exc = state.result(raise_on_failure=False)
    if isinstance(exc, CollectFailed):
        return exc.result
    if isinstance(exc, AutoDataError):
        raise exc
    raise AutoDataError(f"the collect flow run ended {state.type.value.lower()}: {exc or state.message}")


def _confirm_overwrite(live, *, interactive: bool):
    """Show the spec diff of an existing collector and ask; without a terminal, keep it (use --force)."""

    def confirm(name: str, old: str, new: str) -> bool:
        from prefect_autodata.flows.collect_flow import spec_diff

        diff = spec_diff(old, new, name)
        if not interactive or not sys.stdin.isatty():
            err.print(f"collector {name!r} exists; its spec would change ({diff.count(chr(10))} diff lines)")
            return False
        live.__exit__(None, None, None)
        from rich.syntax import Syntax

        err.print(Syntax(diff, "diff", word_wrap=True))
        return typer.confirm(f"replace collector {name!r} with this spec?", default=False, err=True)

    return confirm


@app.command("bench")
def bench_cmd(
    tasks: str = typer.Option(
        None,
        "--tasks",
        help="Sandbox: comma-separated task IDs (default: the whole catalog). Zoo: how many tasks to draw (default 60).",
    ),
    suite: str = typer.Option(
        "sandbox", "--suite", help="sandbox (the task catalog), zoo (the layout zoo) or all."
    ),
    seed: int = typer.Option(
        None, "--seed", help="Zoo: the seed to draw tasks from (default: a fresh one, printed)."
    ),
    family: str = typer.Option(
        None, "--family", help="Zoo: keep only draws of these layout families (comma-separated)."
    ),
    kind: str = typer.Option(
        None, "--kind", help="Zoo: keep only draws of these record kinds (comma-separated)."
    ),
    no_source: bool = typer.Option(False, "--no-source", help="Give no --source: the agents search."),
    anonymous_search: bool = typer.Option(
        False,
        "--anonymous-search",
        help="Zoo: word tasks without a source as before site names (no site named), for earlier figures.",
    ),
    only: str = typer.Option(None, "--only", help="Zoo: score only the searched or the sourced tasks."),
    chaos: str = typer.Option("none", "--chaos", help="Sandbox chaos profile: none, flaky or hostile."),
    repeat: int = typer.Option(1, "--repeat", help="Run every task N times (variance)."),
    backend: str = typer.Option("offline", "--backend", help="offline or llm."),
    out: str = typer.Option(None, "--out", help="Write the markdown tables to this file."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
) -> None:
    """Run the sandbox task catalog through `collect` and score it (F1, P, R, rows, agent seconds, tokens)."""
    import shlex
    from pathlib import Path

    from prefect_autodata.bench import run_bench, run_zoo_bench, summary_json, to_markdown, zoo_markdown

    if suite not in ("sandbox", "zoo", "all"):
        _fail(ConfigError(f"--suite must be sandbox, zoo or all, not {suite!r}"))
        return
    count = int(tasks) if suite != "sandbox" and tasks and tasks.strip().isdigit() else None
    if suite in ("zoo", "all") and tasks and count is None:
        _fail(ConfigError(f"--tasks for the zoo suite is a number of tasks, not {tasks!r}"))
        return
    if count is not None and count < 1:
        _fail(ConfigError("--tasks for the zoo suite must be at least 1"))
        return
    ids = [t.strip() for t in tasks.split(",") if t.strip()] if suite == "sandbox" and tasks else None
    command = "autodata bench " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    md, payload = "", {}
    try:
        if suite in ("zoo", "all"):
            if seed is None:
                import secrets

                seed = secrets.randbelow(1_000_000)
            err.print(f"zoo seed {seed} (rerun with --seed {seed})")
            zoo = run_zoo_bench(
                seed=seed,
                tasks=count or 60,
                backend=backend,
                progress=err.print,
                families=[f.strip() for f in family.split(",") if f.strip()] if family else None,
                kinds=[k.strip() for k in kind.split(",") if k.strip()] if kind else None,
                anonymous_search=anonymous_search,
                only=only,
            )
            zoo.command = command
            md += zoo_markdown(zoo)
            payload = zoo.model_dump(mode="json")
        if suite in ("sandbox", "all"):
            report = run_bench(
                ids, no_source=no_source, chaos=chaos, repeat=repeat, backend=backend, progress=err.print
            )
            report.command = command
            md = (md + "\n" if md else "") + to_markdown(report)
            payload = (
                {"zoo": payload, "sandbox": summary_json(report)} if suite == "all" else summary_json(report)
            )
    except AutoDataError as exc:
        _fail(exc)
        return
    if out:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(md, encoding="utf-8")
        err.print(f"tables written to {out}")
    if as_json:
        emit_json(payload)
    else:
        sys.stdout.write(md)


@app.command("deploy")
def deploy_cmd(
    name: str = typer.Argument(
        ..., help="A workspace collector name, a spec YAML path, or a shipped example."
    ),
    schedule: str = typer.Option(
        None,
        "--schedule",
        help="Cron, interval ('15m', '3600') , RRule, or a phrase: 'every weekday after market close', 'daily at 6am'.",
    ),
    pool: str = typer.Option(
        None, "--pool", help="Work pool (default autodata-process, created if missing)."
    ),
    docker: bool = typer.Option(
        False, "--docker", help="Docker work pool: also write a Dockerfile and build/push steps."
    ),
    mirror: str = typer.Option(
        None, "--mirror", help="Serve the spec's hosts from this local mirror base URL (the sandbox)."
    ),
    apply: bool = typer.Option(
        True, "--apply/--no-apply", help="Register with the Prefect API (else only write prefect.yaml)."
    ),
    timezone: str = typer.Option(None, "--timezone", help="IANA timezone of the schedule."),
    destination_block: str = typer.Option(
        None, "--destination-block", help="Land in this DuckDBDestination block (default: the workspace DB)."
    ),
    notify_block: str = typer.Option(
        None,
        "--notify-block",
        help="A notification block ('type-slug/name' or a Custom Webhook's name) told when checks fail.",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
) -> None:
    """Register a collector as a scheduled Prefect deployment of run_collector (and write it to prefect.yaml)."""
    _prefect_defaults()
    from prefect_autodata.deployments.deploy import deploy_collector

    try:
        result = deploy_collector(
            name,
            schedule=schedule,
            pool=pool,
            docker=docker,
            mirror=mirror,
            apply=apply,
            timezone=timezone,
            destination=destination_block,
            notify_block=notify_block,
        )
    except AutoDataError as exc:
        if as_json:
            emit_json({"status": "failed", "error": str(exc), "name": name})
            raise typer.Exit(2 if isinstance(exc, ConfigError) else 1) from None
        _fail(exc)
        return
    if as_json:
        emit_json({"status": "deployed" if result.applied else "written", **result.model_dump(mode="json")})
        return
    verb = "registered" if result.applied else "written (not registered)"
    err.print(f"[bold green]deployment {verb}[/] {result.deployment} on work pool {result.work_pool}")
    err.print(f"  schedule:     {result.schedule or 'none (run it from the UI or `prefect deployment run`)'}")
    if result.next_runs:
        err.print(f"  next runs:    {'; '.join(result.next_runs)}")
    if result.incremental:
        err.print("  incremental:  each run resumes after the last landed value")
    for w in result.warnings:
        err.print(f"  [yellow]warning:[/] {w}")
    if result.automation_id:
        err.print(f"  automation:   notifies {notify_block} when checks fail")
    err.print(f"  prefect.yaml: {result.prefect_yaml}")
    if result.dockerfile:
        err.print(f"  Dockerfile:   {result.dockerfile}")
    if result.secrets_stored:
        err.print(f"  secrets:      stored as Prefect Secret blocks ({', '.join(result.secrets_stored)})")
    if result.applied:
        err.print(f"  start a worker: prefect worker start --pool {result.work_pool}")


@app.command("deploy-collect")
def deploy_collect_cmd(
    name: str = typer.Option("autodata-collect", "--name", help="Deployment name (collect/NAME)."),
    pool: str = typer.Option(
        None, "--pool", help="Work pool (default autodata-process, created if missing)."
    ),
    backend: str = typer.Option("offline", "--backend", help="Default backend of the runs: offline or llm."),
    search_url: str = typer.Option(None, "--search-url", help="Search endpoint the research agents use."),
    mirror: str = typer.Option(
        None, "--mirror", help="Collect through this local mirror (a running `autodata sandbox serve`)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object on stdout."),
) -> None:
    """Register the collect flow as a deployment: start new collections from the Prefect UI
    (Run -> Custom run -> instruction); each lands its data and registers its collector's deployment."""
    _prefect_defaults()
    from prefect_autodata.flows.collect_flow import deploy_collect_flow

    try:
        result = deploy_collect_flow(name, pool=pool, search_url=search_url, mirror=mirror, backend=backend)
    except AutoDataError as exc:
        if as_json:
            emit_json({"status": "failed", "error": str(exc), "name": name})
            raise typer.Exit(2 if isinstance(exc, ConfigError) else 1) from None
        _fail(exc)
        return
    if as_json:
        emit_json({"status": "deployed", **result.model_dump(mode="json")})
        return
    err.print(f"[bold green]deployment registered[/] {result.deployment} on work pool {result.work_pool}")
    err.print("  in the UI: Deployments -> collect -> Run -> Custom run -> instruction")
    err.print(f"  prefect.yaml: {result.prefect_yaml}", overflow="ignore", crop=False)
    err.print(f"  start a worker: prefect worker start --pool {result.work_pool}")


@app.command("demo")
def demo_cmd(
    instruction: str = typer.Option(
        None, "--instruction", help="The sentence to collect (default: AAPL daily prices for 2024)."
    ),
    as_json: bool = typer.Option(
        False, "--json", help="Print one JSON object (db, table, rows, report, deployment)."
    ),
) -> None:
    """Run the whole product offline: sandbox web, offline agents, DuckDB, Data Docs, a Prefect deployment."""
    import os

    # before Prefect is imported: no telemetry, and time for the ephemeral server to migrate a fresh database
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    os.environ.setdefault("DO_NOT_TRACK", "1")
    os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "300")
    from prefect_autodata.demo import DEFAULT_INSTRUCTION, demo_summary_items, run_demo
    from prefect_autodata.ui import LiveProgress, print_summary

    with LiveProgress(err, title="autodata demo") as progress:
        result = run_demo(instruction or DEFAULT_INSTRUCTION, progress=progress)
    if as_json:
        emit_json(result.model_dump(mode="json"))
    else:
        for w in result.warnings:
            err.print(f"[yellow]warning:[/] {w}")
        title = (
            "[bold green]demo succeeded[/]" if result.status == "succeeded" else "[bold red]demo failed[/]"
        )
        print_summary(title, demo_summary_items(result), err)
        if result.error:
            err.print(f"[bold red]error:[/] {result.error}")
    if result.status != "succeeded":
        raise typer.Exit(1)


@app.command("ls")
def ls_cmd(as_json: bool = typer.Option(False, "--json", help="Print one JSON object.")) -> None:
    """List the workspace's collectors with their last run, status and deployment."""
    from prefect_autodata.deployments.listing import list_collectors

    try:
        rows = list_collectors()
    except AutoDataError as exc:
        _fail(exc)
        return
    if as_json:
        emit_json({"collectors": [r.model_dump(mode="json") for r in rows]})
        return
    if not rows:
        err.print('no collectors yet: try `autodata demo` or `autodata collect "..."`')
        return
    console = Console()
    console.print(ls_renderable(rows, console.width))


def ls_renderable(rows, width: int):
    """A table when the terminal is wide enough, else one block per collector (nothing truncated)."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    def when(r) -> str:
        return str(r.last_run_at or "")[:19]

    if width >= 140:
        table = Table(title=f"{len(rows)} collectors")
        for col in ("collector", "table", "rows", "last run", "status", "error", "deployment", "schedule"):
            table.add_column(col, overflow="fold")
        for r in rows:
            table.add_row(
                r.name,
                r.table or "",
                str(r.rows if r.rows is not None else ""),
                when(r),
                r.last_status or "never run",
                (r.last_error or "")[:60],
                r.deployment or "",
                r.schedule or "",
            )
        return table
    parts: list = [Text(f"{len(rows)} collectors", style="bold")]
    for r in rows:
        parts.append(Text(""))
        parts.append(Text(r.name, style="bold"))
        fields = [
            ("table", f"{r.table or '-'} ({r.rows if r.rows is not None else 0} rows)"),
            ("last run", f"{when(r) or 'never'} {r.last_status or 'never run'}".strip()),
            ("error", r.last_error),
            ("deployment", r.deployment),
            ("schedule", r.schedule),
        ]
        for label, value in fields:
            if value:
                parts.append(Text.assemble(("  " + f"{label:<11}", "dim"), str(value)))
    return Group(*parts)


def main() -> None:
    try:
        app()
    except AutoDataError as exc:  # commands raise; we print one line
        err.print(f"[bold red]error:[/] {exc}")
        sys.exit(2 if isinstance(exc, ConfigError) else 1)


if __name__ == "__main__":
    main()
