"""Accuracy of the plan agent's offline parser on the hand-written paraphrase set (tests/data/requests).

Per kind of record and overall, for the dev and the held-out split: entity recognised, requested fields
recovered (exact set of normalised names), filters and time scope exact, and sentences that name a
source but come out unresolved. ``tests/unit/test_request_paraphrases.py`` asserts the thresholds.

Run: ``.venv/bin/python benchmarks/bench_parser_accuracy.py [--json]``; figures go to docs/benchmarks.md.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from datetime import date
from pathlib import Path
from typing import Any

import yaml

SET_DIR = Path(__file__).resolve().parents[1] / "tests" / "data" / "requests"
SPLITS = ("dev", "heldout", "heldout2", "heldout3", "heldout4", "heldout5")


def load(split: str) -> tuple[date, list[dict[str, Any]]]:
    data = yaml.safe_load((SET_DIR / f"{split}.yaml").read_text(encoding="utf-8"))
    return date.fromisoformat(data["today"]), data["cases"]


def _norm(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(sorted(_norm(x) for x in v))
    if isinstance(v, str):
        return v.strip().lower()
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


def judge(case: dict[str, Any], today: date) -> dict[str, bool]:
    """One case → which of entity / fields / filters+time / resolution the parse gets right."""
    from prefect_autodata.agents.offline.instruction import parse_request

    r = parse_request(case["text"], today=today)
    if case.get("plugin"):
        entity_ok = r.kind == case["plugin"]
    else:
        want = case["entity"].lower()
        got = r.entity.singular.lower() if r.entity else ""
        entity_ok = got == want or got.endswith(" " + want)
    want_fields = case.get("fields")
    if want_fields == "all":
        fields_ok = r.all_fields
    elif want_fields:
        fields_ok = {f.normalized for f in r.fields} == set(want_fields)
    else:
        fields_ok = True
    got_filters = sorted((f.field, f.op, _norm(f.value)) for f in r.filters)
    want_filters = sorted((f["field"], f["op"], _norm(f["value"])) for f in case.get("filters") or [])
    time_ok = True
    want_time = case.get("time")
    ts = r.time_scope
    if want_time is None:
        time_ok = ts is None or (not ts.years and ts.start_date is None and not ts.dates)
    else:
        if ts is None:
            time_ok = False
        else:
            if "years" in want_time and list(ts.years) != list(want_time["years"]):
                time_ok = False
            if "start" in want_time and (
                ts.start_date is None or ts.start_date.isoformat() != str(want_time["start"])
            ):
                time_ok = False
            if "end" in want_time and (
                ts.end_date is None or ts.end_date.isoformat() != str(want_time["end"])
            ):
                time_ok = False
    return {
        "entity": entity_ok,
        "fields": fields_ok,
        "has_fields": bool(want_fields),
        "filters_time": got_filters == want_filters and time_ok,
        "resolved_with_source": (not case.get("source")) or r.is_resolved,
        "has_source": bool(case.get("source")),
    }


def score(split: str) -> dict[str, Any]:
    """One split ("dev", "heldout", "heldout2") or "all" of them together."""
    pairs = [(today, c) for s in SPLITS for today, cs in [load(s)] for c in cs] if split == "all" else []
    if split != "all":
        today, cs = load(split)
        pairs = [(today, c) for c in cs]
    per: dict[str, list[dict[str, bool]]] = defaultdict(list)
    misses: list[dict[str, Any]] = []
    for today, c in pairs:
        j = judge(c, today)
        per[c["kind"]].append(j)
        bad = [k for k in ("entity", "fields", "filters_time", "resolved_with_source") if not j[k]]
        if bad:
            misses.append({"text": c["text"], "wrong": bad})

    def agg(rows: list[dict[str, bool]]) -> dict[str, Any]:
        with_fields = [r for r in rows if r["has_fields"]]
        sourced = [r for r in rows if r["has_source"]]
        return {
            "n": len(rows),
            "entity": sum(r["entity"] for r in rows) / len(rows),
            "fields": (sum(r["fields"] for r in with_fields) / len(with_fields)) if with_fields else None,
            "fields_n": len(with_fields),
            "filters_time": sum(r["filters_time"] for r in rows) / len(rows),
            "unresolved_with_source": sum(not r["resolved_with_source"] for r in sourced),
        }

    allrows = [r for rows in per.values() for r in rows]
    return {
        "split": split,
        "overall": agg(allrows),
        "per_kind": {k: agg(v) for k, v in sorted(per.items())},
        "misses": misses,
    }


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def main() -> None:
    results = [score(s) for s in (*SPLITS, "all")]
    if "--json" in sys.argv:
        print(json.dumps(results, indent=1))
        return
    for res in results:
        o = res["overall"]
        print(
            f"## {res['split']}: {o['n']} sentences, entity {_fmt(o['entity'])}, fields {_fmt(o['fields'])} "
            f"(of {o['fields_n']}), filters+time {_fmt(o['filters_time'])}, "
            f"unresolved with a source {o['unresolved_with_source']}"
        )
        print("| kind | n | entity | fields | filters+time |")
        print("|---|---|---|---|---|")
        for k, a in res["per_kind"].items():
            print(
                f"| {k} | {a['n']} | {_fmt(a['entity'])} | {_fmt(a['fields'])} | {_fmt(a['filters_time'])} |"
            )
        for m in res["misses"] if res["split"] != "all" else []:
            print(f"- miss ({', '.join(m['wrong'])}): {m['text']}")
        print()


if __name__ == "__main__":
    main()
