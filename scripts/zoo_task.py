"""Debug one layout-zoo task: its request, its entry page, what `collect` chose, and the per-field score.

    python scripts/zoo_task.py SEED INDEX [--pages N] [--path /extra/path ...] [--no-collect]

A developer tool (not product code): it serves the task's site alone, prints the instruction, the
fields, the truth's first rows and the entry page, then runs `collect` the way `autodata bench` does
and prints the spec YAML, the rationale lines of the progress log and the scorer's per-field figures.
"""

from __future__ import annotations

import argparse
import tempfile
import urllib.request
from pathlib import Path

import duckdb


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("seed", type=int)
    ap.add_argument("index", type=int)
    ap.add_argument("--pages", type=int, default=3000, help="characters of each page to print")
    ap.add_argument("--path", action="append", default=[], help="another site path to print")
    ap.add_argument("--no-collect", action="store_true")
    args = ap.parse_args()

    from prefect_autodata.flows.collect import collect
    from prefect_autodata.sandbox.scorer import score, spec_units
    from prefect_autodata.sandbox.server import sandbox_secrets
    from prefect_autodata.sandbox.zoo.catalog import draw_task
    from prefect_autodata.sandbox.zoo.server import ZooServer
    from prefect_autodata.workspace import Workspace

    t = draw_task(args.seed, args.index)
    print(f"# {t.id}  family={t.family} kind={t.kind}")
    print(f"instruction: {t.instruction}")
    print(f"--fields: {t.fields}  --source: {t.source}  filters: {t.filters}")
    print(f"truth: {len(t.truth)} rows of {t.site_records}; columns {list(t.truth.columns)}")
    print(t.truth.head(4).to_string())
    with ZooServer([t.site], seed=args.seed) as server:
        base = server.base_url
        for path in ([t.source] if t.source else []) + args.path:
            print(f"\n=== GET {path}")
            try:
                body = urllib.request.urlopen(base + path).read().decode("utf-8", "replace")
            except Exception as exc:  # a debug print, not a product path
                body = f"ERROR {exc}"
            print(body[: args.pages])
        if args.no_collect:
            return
        root = Path(tempfile.mkdtemp(prefix="zoo-task-"))
        log: list[str] = []
        res = collect(
            t.instruction,
            sources=[base + t.source] if t.source else None,
            fields=list(t.fields) if t.fields else None,
            workspace=Workspace(root / t.id).ensure(),
            backend="offline",
            search_url=base,
            mirror=base,
            today=t.today,
            deploy=False,
            prepare=sandbox_secrets,
            progress=lambda role, msg: log.append(f"{role}: {msg}"),
        )
        print(f"\n=== collect: {res.status} ({res.stop_reason}) rows={res.rows} error={res.error}")
        print(res.detail[:3000])
        for line in log:
            print("  log:", line[:400])
        if res.spec and Path(res.spec).exists():
            print("\n=== spec\n" + Path(res.spec).read_text()[:6000])
        if res.table and res.rows:
            con = duckdb.connect(res.db, read_only=True)
            df = con.execute(f'SELECT * FROM "{res.table}"').df()
            print("\n=== landed (first rows)\n" + df.head(4).to_string())
            s = score(df, t.truth, fields=t.scored_fields, units=spec_units(res.spec))
            print(f"\n=== score F1 {s.f1:.3f} row R {s.row_recall:.3f} missing {s.missing_fields}")
            for f, a in s.per_attribute.items():
                print(f"  {f}: F1 {a.f1:.3f} (tp {a.true_positives}, pred {a.predicted}, exp {a.expected})")


if __name__ == "__main__":
    main()
