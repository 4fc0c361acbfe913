"""Two of the hand-written wild sites (tests/data/wild) end to end: static loopback server, offline
collect from the entry page without ``--fields``, scored by the zoo scorer (benchmarks/bench_wild.py).

The whole set is a benchmark (docs/benchmarks.md, "Wild pages"), not a test; these two are sites the
product lands in full at the time of writing, so a regression in plain-table induction shows here.
"""

from __future__ import annotations

import importlib.util
import sys
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

_BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_wild.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_wild", _BENCH)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["bench_wild"] = mod  # its dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def test_every_wild_site_has_its_entry_page_and_records(bench):
    sites = bench.load_sites()
    assert len(sites) >= 12
    for s in sites:
        assert 5 <= len(s.truth) <= 30, s.name
        assert list(s.truth.columns) == s.fields, s.name


def test_the_static_server_serves_a_query_page_from_its_file(bench):
    with bench.WildServer() as server:
        first = urllib.request.urlopen(f"{server.base_url}/drupal_jobs/jobs", timeout=30).read()
        second = urllib.request.urlopen(f"{server.base_url}/drupal_jobs/jobs?page=1", timeout=30).read()
    assert b"Senior Drupal Developer" in first and b"Senior Drupal Developer" not in second
    assert b"Technical Writer" in second


def test_two_wild_sites_land_their_records(bench, tmp_path):
    sites = bench.load_sites(names=["countries_table", "wiki_countries"])
    with bench.WildServer() as server:
        results = {s.name: bench.run_site(s, server.base_url, tmp_path) for s in sites}
    table = results["countries_table"]
    assert table.status == "succeeded", table.error
    assert table.f1 == 1.0, table.per_field
    wiki = results["wiki_countries"]
    assert wiki.status == "succeeded", wiki.error
    # the World totals row is the one extra row today; every requested field is landed
    assert wiki.f1 >= 0.9, wiki.per_field
    assert min(wiki.per_field.values()) >= 0.9, wiki.per_field
