"""The plan agent alone on the layout zoo's phrasing: a second test bed, independent of the hand-written set.

Per zoo task (``draw_task``: a paraphrased request with its ground truth; nothing is fetched or
collected) the plan is judged on three things:

- **entity**: the plan's entity noun names the zoo kind (the words of one are among the words of the
  other, case-insensitive: "team season" for "NBA team season");
- **fields**: the plan's column names are the truth's column names (the zoo names columns by the
  request's words), as a set;
- **filters**: semantic and exact: the plan's filters and time scope, compiled by the induction row
  filter (``agents/induction/filters.row_filter``) over the site's displayed records (columns named
  as the request names them, other fields by their own name), keep exactly the records the truth
  keeps. A filter the row filter cannot place (no such column) counts as wrong.

Run: ``.venv/bin/python benchmarks/bench_zoo_plan.py SEED [SEED ...] [--tasks 60] [--json] [-v]``.
Figures go to docs/bench/zoo-plan.md.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections import defaultdict
from typing import Any


def _site_records(seed: int, i: int) -> list[dict[str, Any]]:
    """The displayed records of task i's site (the draw's first steps, replayed)."""
    from prefect_autodata.sandbox.zoo import catalog
    from prefect_autodata.sandbox.zoo.families import FAMILIES
    from prefect_autodata.sandbox.zoo.kinds import KINDS, record_set

    rng = random.Random(f"zoo:{seed}:{i}")
    kind_name, family = catalog._choose(rng)
    size = catalog.draw_size(rng)
    cap = getattr(FAMILIES[family], "max_records", None)
    rs = record_set(KINDS[kind_name], rng, min(size, cap) if cap else size)
    return rs.records


# The product's record-kind plug-in that stands for a zoo kind (its entity then reads as the plug-in's).
_PLUGIN = {
    "paper": "paper",
    "stock_day": "stock",
    "nba_team_season": "nba_team",
    "nba_player_season": "nba_player",
    "mlb_team_hitting": "mlb_hitting",
    "mlb_team_pitching": "mlb_pitching",
}


def _words(s: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", s.lower()))


def _kept(code: str | None, rows: list[dict[str, Any]]) -> set[int]:
    if code is None:
        return set(range(len(rows)))
    env: dict[str, Any] = {}
    exec(code, env)  # the spec's own python step, as the runtime would run it
    tagged = [{**r, "__i": j} for j, r in enumerate(rows)]
    return {r["__i"] for r in env["transform"](tagged)}


def judge(seed: int, i: int) -> dict[str, Any]:
    from prefect_autodata.agents.induction.filters import row_filter
    from prefect_autodata.agents.plan import make_plan
    from prefect_autodata.sandbox.zoo.catalog import draw_task, keeps
    from prefect_autodata.sandbox.zoo.kinds import KINDS

    t = draw_task(seed, i)
    kind = KINDS[t.kind]
    r = make_plan(t.instruction, fields=t.fields, today=t.today, sources=[t.source] if t.source else None)
    got = r.entity.singular if r.entity else ""
    entity_ok = (r.kind is not None and r.kind == _PLUGIN.get(t.kind)) or (
        bool(got) and (_words(got) <= _words(kind.singular) or _words(kind.singular) <= _words(got))
    )
    # the zoo scorer finds a column by its name case-insensitively
    fields_ok = {n.lower() for n in r.field_names} == {c.lower() for c in t.truth.columns}
    records = _site_records(seed, i)
    assert len(records) == t.site_records, "the replayed draw differs from draw_task"
    cols = {f: t.columns.get(f, f) for f in kind.field_names}
    rows = [{cols[f]: rec.get(f) for f in kind.field_names} for rec in records]
    code, notes = row_filter(r, list(cols.values()))
    want = {j for j, raw in enumerate(_raw(seed, i)) if all(keeps(f, raw) for f in t.filters)}
    try:
        kept = _kept(code, rows)
    except Exception as exc:  # a row filter that fails to run is a wrong filter
        kept, notes = set(), [*notes, f"row filter failed: {exc}"]
    filters_ok = kept == want and not [n for n in notes if "not applied" in n]
    return {
        "task": t.id,
        "kind": t.kind,
        "instruction": t.instruction,
        "entity": entity_ok,
        "fields": fields_ok,
        "filters": filters_ok,
        "has_filter": bool(t.filters),
        "resolved": r.is_resolved,
        "got": {
            "entity": got,
            "fields": r.field_names,
            "filters": [(f.field, f.op, str(f.value)) for f in r.filters],
            "time": r.time_scope.phrase if r.time_scope else None,
            "kept": len(kept),
            "notes": notes,
        },
        "want": {
            "fields": list(t.truth.columns),
            "filters": [(f.field, f.op, str(f.value)) for f in t.filters],
            "kept": len(want),
        },
    }


def _raw(seed: int, i: int) -> list[dict[str, Any]]:
    from prefect_autodata.sandbox.zoo import catalog
    from prefect_autodata.sandbox.zoo.families import FAMILIES
    from prefect_autodata.sandbox.zoo.kinds import KINDS, record_set

    rng = random.Random(f"zoo:{seed}:{i}")
    kind_name, family = catalog._choose(rng)
    size = catalog.draw_size(rng)
    cap = getattr(FAMILIES[family], "max_records", None)
    return record_set(KINDS[kind_name], rng, min(size, cap) if cap else size).raw


def score(seed: int, tasks: int = 60) -> dict[str, Any]:
    rows = [judge(seed, i) for i in range(tasks)]
    per: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        per[row["kind"]].append(row)

    def agg(rs: list[dict[str, Any]]) -> dict[str, Any]:
        filt = [r for r in rs if r["has_filter"]]
        return {
            "n": len(rs),
            "entity": sum(r["entity"] for r in rs) / len(rs),
            "fields": sum(r["fields"] for r in rs) / len(rs),
            "filters": sum(r["filters"] for r in rs) / len(rs),
            "with_filter": len(filt),
            "filters_of_filtered": (sum(r["filters"] for r in filt) / len(filt)) if filt else None,
            "unresolved": sum(not r["resolved"] for r in rs),
        }

    return {
        "seed": seed,
        "overall": agg(rows),
        "per_kind": {k: agg(v) for k, v in sorted(per.items())},
        "misses": [r for r in rows if not (r["entity"] and r["fields"] and r["filters"])],
    }


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def main() -> None:
    args = sys.argv[1:]
    tasks = 60
    if "--tasks" in args:
        k = args.index("--tasks")
        tasks = int(args[k + 1])
        del args[k : k + 2]
    seeds = [int(a) for a in args if a.lstrip("-").isdigit()]
    results = [score(s, tasks) for s in seeds]
    if "--json" in args:
        print(json.dumps(results, indent=1, default=str))
        return
    for res in results:
        o = res["overall"]
        print(
            f"## seed {res['seed']}: {o['n']} tasks, entity {_pct(o['entity'])}, fields {_pct(o['fields'])}, "
            f"filters exact {_pct(o['filters'])} (of the {o['with_filter']} with a filter: "
            f"{_pct(o['filters_of_filtered'])}), unresolved {o['unresolved']}"
        )
        print("| kind | n | entity | fields | filters exact | with a filter |")
        print("|---|---|---|---|---|---|")
        for k, a in res["per_kind"].items():
            print(
                f"| {k} | {a['n']} | {_pct(a['entity'])} | {_pct(a['fields'])} | {_pct(a['filters'])} "
                f"| {a['with_filter']} ({_pct(a['filters_of_filtered'])}) |"
            )
        if "-v" in args:
            for m in res["misses"]:
                bad = [k for k in ("entity", "fields", "filters") if not m[k]]
                print(f"- {m['task']} ({', '.join(bad)}): {m['instruction']}")
                print(f"    got {m['got']}\n    want {m['want']}")
        print()


if __name__ == "__main__":
    main()
