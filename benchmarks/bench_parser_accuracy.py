"""Accuracy of the plan agent's offline parser on the hand-written paraphrase set (tests/data/requests).

Per kind of record and overall, for the dev and the held-out split: entity recognised, requested fields
recovered (exact set of normalised names; a field a record kind reads as one of its columns also
answers a label naming that column, through ``RequestField.aliases``: "wins" for ``w``), filters and
time scope exact, and sentences that name a source but come out unresolved. ``tests/unit/test_request_paraphrases.py`` asserts the thresholds.

Field names are compared as docs/requests.md ("Field names") says a name is normalised: the words
must be the same, the number of the *last* word aside ("opening_hours" = "opening_hour",
"number_of_beds" = "number_of_bed": the labels of different splits write it both ways, and induction
matches a column either way), while a plural inside a name must match ("votes_received" is not
"vote_received"). ``--strict`` compares the names exactly instead (the scorer before session S6).

Run: ``.venv/bin/python benchmarks/bench_parser_accuracy.py [--json] [--strict] [--split NAME]``;
figures go to docs/bench/parser-accuracy.md.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from datetime import date
from pathlib import Path
from typing import Any

import yaml

SET_DIR = Path(__file__).resolve().parents[1] / "tests" / "data" / "requests"
SPLITS = (
    "dev",
    "heldout",
    "heldout2",
    "heldout3",
    "heldout4",
    "heldout5",
    "heldout6",
    "heldout7",
    "heldout8",
    "heldout9",
    "heldout10",
    "heldout11",
)


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


def _plain_singular(word: str) -> str:
    """English singular by the regular rules only (the scorer's own, not the parser's)."""
    if len(word) <= 3 or word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "sses", "zes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") else word


def name_key(name: str) -> str:
    """A normalised field name up to the number of its last word (``opening_hours`` → ``opening_hour``)."""
    words = [w for w in re.split(r"[^a-z0-9]+", str(name).lower()) if w]
    return "_".join([*words[:-1], _plain_singular(words[-1])]) if words else ""


def _matched(got: list[set[str]], want: set[str]) -> bool:
    """Whether every label can be given its own field (a matching of labels to the fields answering them)."""
    owner: dict[int, str] = {}

    def place(w: str, seen: set[int]) -> bool:
        for i, g in enumerate(got):
            if w in g and i not in seen:
                seen.add(i)
                if i not in owner or place(owner[i], seen):
                    owner[i] = w
                    return True
        return False

    return all(place(w, set()) for w in want)


_COUNTED_TAILS = frozenset("count available total".split())


def _filter_forms(filters: list[tuple[str, str, Any]]) -> list[tuple[str, str, Any]]:
    """One form for one predicate: ``range [a, b]`` is ``ge a`` and ``le b``."""
    out = []
    for field, op, value in filters:
        if op == "range" and isinstance(value, tuple) and len(value) == 2:
            out += [(field, "ge", value[0]), (field, "le", value[1])]
        else:
            out.append((field, op, value))
    return sorted(out, key=repr)


def _same_compared(a: str, b: str, requested: set[str]) -> bool:
    """Two names of the compared field that say the same thing: equal, or one the requested field the
    other's words close ("vendors" / number_of_vendors, "price" / hammer_price) or open before a word of
    counting ("ratings" / rating_count, "bikes" / bikes_available)."""
    if name_key(a) == name_key(b):
        return True
    ka, kb = (name_key(x).split("_") for x in (a, b))
    short, long_ = (ka, kb) if len(ka) < len(kb) else (kb, ka)
    if "_".join(long_) not in requested or len(short) == len(long_):
        return False
    n = len(short)
    return long_[-n:] == short or (long_[:n] == short and set(long_[n:]) <= _COUNTED_TAILS)


def _filters_match(
    got: list[tuple[str, str, Any]], want: list[tuple[str, str, Any]], requested: set[str]
) -> bool:
    """The same predicates, a comparison's field named either way (``_same_compared``)."""
    got, want = _filter_forms(got), _filter_forms(want)
    if len(got) != len(want):
        return False
    left = list(got)
    for w in want:
        i = next(
            (
                i
                for i, g in enumerate(left)
                if g[1:] == w[1:]
                and (
                    g[0] == w[0]
                    or (w[1] in ("ge", "le", "gt", "lt") and _same_compared(g[0], w[0], requested))
                )
            ),
            None,
        )
        if i is None:
            return False
        left.pop(i)
    return True


def judge(case: dict[str, Any], today: date, *, strict: bool = False) -> dict[str, bool]:
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
    if want_fields == "all" or want_fields == ["all"]:  # "[all]": no field is called "all"
        fields_ok = r.all_fields
    elif want_fields:
        key = (lambda n: str(n).lower()) if strict else name_key
        # a field answers a label by its normalised name (the user's words) or by a column a record kind
        # reads it as (its aliases: "wins" -> W); each label answered by one field, no field left over
        got = [{key(n) for n in [f.normalized, *f.aliases]} for f in r.fields]
        want = {key(w) for w in want_fields}
        fields_ok = len(got) == len(want) and all(g & want for g in got) and _matched(got, want)
    else:
        fields_ok = True
    got_filters = sorted((f.field, f.op, _norm(f.value)) for f in r.filters)
    want_filters = sorted((f["field"], f["op"], _norm(f["value"])) for f in case.get("filters") or [])
    listed = want_fields if isinstance(want_fields, list) and want_fields != ["all"] else []
    requested = {name_key(n) for n in listed}
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
            # the first and last day the scope covers: its dates, else its first and last year whole
            start = ts.start_date or (date(ts.start_year, 1, 1) if ts.start_year else None)
            end = ts.end_date or (date(ts.end_year, 12, 31) if ts.end_year else None)
            if "start" in want_time and (start is None or start.isoformat() != str(want_time["start"])):
                time_ok = False
            if "end" in want_time and (end is None or end.isoformat() != str(want_time["end"])):
                time_ok = False
    return {
        "entity": entity_ok,
        "fields": fields_ok,
        "has_fields": bool(want_fields),
        "filters_time": _filters_match(got_filters, want_filters, requested) and time_ok,
        "resolved_with_source": (not case.get("source")) or r.is_resolved,
        "has_source": bool(case.get("source")),
    }


def score(split: str, *, strict: bool = False) -> dict[str, Any]:
    """One split ("dev", "heldout", ...) or "all" of them together."""
    pairs = [(today, c) for s in SPLITS for today, cs in [load(s)] for c in cs] if split == "all" else []
    if split != "all":
        today, cs = load(split)
        pairs = [(today, c) for c in cs]
    per: dict[str, list[dict[str, bool]]] = defaultdict(list)
    misses: list[dict[str, Any]] = []
    for today, c in pairs:
        j = judge(c, today, strict=strict)
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
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    ap.add_argument(
        "--strict", action="store_true", help="compare field names exactly (the number of every word counts)"
    )
    ap.add_argument("--split", action="append", choices=[*SPLITS, "all"], help="only this split (repeatable)")
    args = ap.parse_args()
    results = [score(s, strict=args.strict) for s in (args.split or (*SPLITS, "all"))]
    if args.json:
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
