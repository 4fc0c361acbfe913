"""The zoo's task catalog: coverage of kinds and families, determinism, and a truth that matches the request."""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest
from zoo_oracle import oracle_frame

from prefect_autodata.sandbox.scorer import score
from prefect_autodata.sandbox.zoo.catalog import draw_choice, draw_task, draw_tasks
from prefect_autodata.sandbox.zoo.families import FAMILIES
from prefect_autodata.sandbox.zoo.kinds import KINDS


def test_all_twelve_kinds_and_at_least_fourteen_families_across_three_seeds():
    kinds: Counter[str] = Counter()
    families: Counter[str] = Counter()
    for seed in (1, 2, 3):
        for i in range(60):
            kind, family = draw_choice(seed, i)
            kinds[kind] += 1
            families[family] += 1
    assert len(KINDS) == 12
    assert set(kinds) == set(KINDS)
    assert len(families) >= 14, families
    assert set(families) <= set(FAMILIES)


def test_a_task_is_a_function_of_seed_and_index():
    a, b = draw_task(5, 3), draw_task(5, 3)
    assert a.instruction == b.instruction and a.fields == b.fields and a.source == b.source
    assert a.truth.equals(b.truth)
    assert draw_choice(5, 3) == (a.kind, a.family)
    other = draw_task(6, 3)
    assert (other.instruction, other.site.host) != (a.instruction, a.site.host)


def test_tasks_are_well_formed():
    tasks = draw_tasks(2, 24)
    hosts = [t.site.host for t in tasks]
    assert len(set(hosts)) == len(hosts)  # each task its own site
    assert any(t.fields is None for t in tasks) and any(t.fields for t in tasks)
    assert any(t.source is None for t in tasks) and any(t.source for t in tasks)
    for t in tasks:
        assert len(t.truth) >= 3, t.id
        assert list(t.truth.columns) == list(t.columns.values())
        if t.fields:
            assert t.fields == list(t.truth.columns)
        if t.source:
            assert t.source == f"/{t.site.host}{t.site.entry_path}"
        assert t.instruction.strip() and t.instruction[-1] in ".?"


def test_filters_cut_the_truth_to_the_records_they_keep():
    tasks = draw_tasks(4, 40)
    filtered = [t for t in tasks if t.filters]
    assert filtered, "some tasks of 40 carry a filter"
    for t in tasks:
        if t.filters:
            assert 3 <= len(t.truth) < t.site_records, t.id
        else:
            assert len(t.truth) == t.site_records, t.id


def test_the_oracle_scores_one_on_sixty_tasks_of_a_random_seed(capsys):
    """The reference check: a collector that knows every layout gets F1 1.000 through the scorer."""
    seed = int(os.environ.get("ZOO_SEED") or random.randrange(1_000_000))
    with capsys.disabled():
        print(f"\nzoo oracle seed {seed} (rerun with ZOO_SEED={seed})")
    failures = []
    for task in draw_tasks(seed, 60):
        s = score(oracle_frame(task), task.truth, fields=task.scored_fields)
        if s.f1 != pytest.approx(1.0) or s.row_recall != pytest.approx(1.0):
            failures.append((task.id, task.family, round(s.f1, 4), round(s.row_recall, 4)))
    assert not failures, f"seed {seed}: {failures}"


def test_filter_semantics():
    from datetime import date

    from prefect_autodata.sandbox.zoo.catalog import keeps
    from prefect_autodata.sandbox.zoo.phrasing import Filter

    assert keeps(Filter("genre", "eq", "Comedy"), {"genre": "comedy"})
    assert not keeps(Filter("genre", "eq", "Comedy"), {"genre": "Drama"})
    assert not keeps(Filter("genre", "eq", "Comedy"), {"genre": None})
    q1 = Filter("date", "range", (date(2023, 1, 1), date(2023, 3, 31)))
    assert keeps(q1, {"date": date(2023, 3, 31)}) and not keeps(q1, {"date": date(2023, 4, 1)})
    assert keeps(Filter("year", "ge", 2019), {"year": 2019}) and not keeps(
        Filter("year", "le", 2018), {"year": 2019}
    )
    assert keeps(Filter("team", "in", ["LAL", "BOS"]), {"team": "bos"})
    assert not keeps(Filter("year", "range", (2003, 2006)), {"year": "n/a"})  # incomparable: not kept
