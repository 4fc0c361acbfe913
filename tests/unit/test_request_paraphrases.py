"""The plan agent's parser on the hand-written paraphrase set (tests/data/requests): the issue's
accuracy thresholds over the whole set; per split and per kind figures come from
``benchmarks/bench_parser_accuracy.py`` (docs/benchmarks.md)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_parser_accuracy.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_parser_accuracy", _BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def judged(bench):
    rows = []
    for split in bench.SPLITS:
        today, cases = bench.load(split)
        rows += [(c, bench.judge(c, today)) for c in cases]
    return rows


def test_the_set_is_big_and_varied(judged):
    assert len(judged) >= 150
    assert len({c["kind"] for c, _ in judged}) >= 20


def test_accuracy_meets_the_thresholds(judged):
    n = len(judged)
    entity = sum(j["entity"] for _, j in judged) / n
    with_fields = [j for _, j in judged if j["has_fields"]]
    fields = sum(j["fields"] for j in with_fields) / len(with_fields)
    filters_time = sum(j["filters_time"] for _, j in judged) / n
    assert entity >= 0.95, entity
    assert fields >= 0.95, fields
    assert filters_time >= 0.90, filters_time


def test_no_sentence_naming_a_kind_and_a_source_is_unresolved(judged):
    bad = [c["text"] for c, j in judged if j["has_source"] and not j["resolved_with_source"]]
    assert not bad


def test_the_scorer_can_fail(bench):
    # A wrong expectation is reported as wrong (the judge is not vacuous).
    case = {"kind": "books", "text": "every book with title and price", "entity": "movie", "fields": ["isbn"]}
    j = bench.judge(case, bench.load("dev")[0])
    assert not j["entity"] and not j["fields"]
