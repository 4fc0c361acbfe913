"""Speed of the offline instruction parser, the task ground truths and the scorer.

Run: ``uv run --frozen python benchmarks/bench_tasks_and_scoring.py``; figures go to docs/bench/tasks-and-scoring.md.
"""

from __future__ import annotations

import time

from prefect_autodata.agents.offline.instruction import parse_instruction
from prefect_autodata.sandbox.data import describe
from prefect_autodata.sandbox.scorer import score
from prefect_autodata.sandbox.tasks import catalog, get_task


def main() -> None:
    texts = [t.instruction for t in catalog()]
    t0 = time.perf_counter()
    for _ in range(10):
        for s in texts:
            parse_instruction(s)
    dt = time.perf_counter() - t0
    print(f"parse_instruction: {10 * len(texts)} parses, {dt / (10 * len(texts)) * 1000:.2f} ms/parse")
    t0 = time.perf_counter()
    for t in catalog():
        t.ground_truth()
    print(f"ground_truth, all {len(texts)} tasks, cold ({describe()}): {time.perf_counter() - t0:.2f} s")
    for tid in ("t01-acl-2023", "t04-sp500-2024"):
        gt = get_task(tid).ground_truth()
        t0 = time.perf_counter()
        s = score(gt.sample(frac=1.0, random_state=0), gt)
        dt = time.perf_counter() - t0
        print(f"score {tid} ({len(gt)} rows x {gt.shape[1]} fields): {dt:.2f} s (f1={s.f1})")


if __name__ == "__main__":
    main()
