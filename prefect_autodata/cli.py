"""The ``autodata`` command line. Each command is a thin shell over a function in the room that owns it.

Human output goes to stderr (Rich); ``--json`` output is one JSON object on stdout. Every
``AutoDataError`` becomes one clear line and exit code 1 (2 for bad input), never a traceback.
"""

from __future__ import annotations

import json
import sys

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

err = Console(stderr=True)


def emit_json(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj, default=str) + "\n")
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


def main() -> None:
    try:
        app()
    except AutoDataError as exc:  # commands raise; we print one line
        err.print(f"[bold red]error:[/] {exc}")
        sys.exit(2 if isinstance(exc, ConfigError) else 1)


if __name__ == "__main__":
    main()
