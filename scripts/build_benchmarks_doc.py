"""Assemble docs/benchmarks.md from the per-area result files in docs/bench/ (each written by its benchmark's owner).

The headline table lists the fixed output line of every benchmark script as last recorded in its section.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "docs" / "bench"
ORDER = [
    ("sandbox.md", "Sandbox throughput", "benchmarks/sandbox_throughput.py", r"sandbox responses/s: [\d,.]+"),
    ("landing.md", "Landing vs dlt", "benchmarks/landing_vs_dlt.py", r"landing speedup vs dlt: [\d.]+"),
    (
        "fanout.md",
        "Fan-out with one writer",
        "benchmarks/fanout.py",
        r"fan-out speedup vs single process: [\d.]+",
    ),
    ("crawl.md", "BFS crawl vs Scrapy", "benchmarks/crawl_vs_scrapy.py", r"crawl speedup vs scrapy: [\d.]+"),
    (
        "ohcache.md",
        "OHCache context tokens",
        "benchmarks/ohcache_tokens.py",
        r"ohcache context-token reduction vs broadcast\+inline: [\d.]+",
    ),
    (
        "validation.md",
        "Validation overhead",
        "benchmarks/validation_overhead.py",
        r"validation/landing time ratio: [\d.]+",
    ),
    (
        "prefect.md",
        "sp500-daily on Prefect",
        "benchmarks/sp500_daily.py",
        r"sp500-daily wall: [\d.]+ s \(rate-limit minimum: [\d.]+ s\)",
    ),
    ("squads.md", "Agent squads on the task catalog", "autodata bench", None),
    ("trust.md", "Trust mutations", "benchmarks/trust_mutations.py", r"mutations caught: \d+/\d+"),
]


def main() -> None:
    rows, sections, used = [], [], set()
    for fname, title, script, pattern in ORDER:
        path = BENCH / fname
        if not path.exists():
            continue
        text = path.read_text()
        used.add(fname)
        line = ""
        if pattern:
            found = re.findall(pattern, text)
            line = found[-1] if found else ""
        rows.append(f"| {title} | `{script}` | {('`' + line + '`') if line else 'see section'} |")
        sections.append(_demote(text))
    for path in sorted(BENCH.glob("*.md")):
        if path.name not in used:
            sections.append(_demote(path.read_text()))
    out = [
        "# Benchmarks",
        "",
        "Every figure here was measured on this project's 2-core, 24 GiB machine by the script named beside it",
        "(the command and conditions are in each section). Sections are assembled from `docs/bench/*.md` by",
        "`scripts/build_benchmarks_doc.py`. Speed targets are proven here, never by timed assertions in tests.",
        "",
        "| benchmark | script | last recorded result |",
        "| --- | --- | --- |",
        *rows,
        "",
        *sections,
    ]
    (ROOT / "docs" / "benchmarks.md").write_text("\n".join(out).rstrip() + "\n")


def _demote(text: str) -> str:
    """Each area file starts with '# Title'; nest it one level down."""
    return re.sub(r"^(#+) ", lambda m: "#" + m.group(1) + " ", text, flags=re.M).rstrip() + "\n"


if __name__ == "__main__":
    main()
