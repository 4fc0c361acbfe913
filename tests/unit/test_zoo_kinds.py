"""The zoo's record kinds: real label vocabularies and record sets displayed the way a site shows them."""

from __future__ import annotations

import random
import re

import pytest

from prefect_autodata.sandbox.scorer import normalise
from prefect_autodata.sandbox.zoo.kinds import DEFAULT_FIELDS, KINDS, record_set


def test_twelve_kinds_with_synonyms_and_second_languages():
    assert len(KINDS) == 12
    assert {k.domain for k in KINDS.values()} >= {"academic", "finance", "sport", "auto", "job", "movie"}
    for kind in KINDS.values():
        names = kind.field_names
        assert kind.title_field in names and set(kind.key) <= set(names)
        assert set(kind.scope_fields) <= set(names)
        assert 3 <= len(DEFAULT_FIELDS[kind.name]) <= 8 and set(DEFAULT_FIELDS[kind.name]) <= set(names)
        assert sum(len(f.labels) >= 2 for f in kind.fields) >= len(kind.fields) - 1, kind.name
        assert all(f.labels_de and f.labels_es for f in kind.fields), kind.name


@pytest.fixture(params=["real", "generated"])
def data_mode(request, monkeypatch, tmp_path):
    if request.param == "generated":
        monkeypatch.setenv("AUTODATA_DATA_DIR", str(tmp_path))
        monkeypatch.setenv("AUTODATA_RECORDS_DIR", str(tmp_path))
    else:
        from prefect_autodata.sandbox import data, records

        if data.is_generated() or records.is_generated():
            pytest.skip("the real records (../shared) are not here")
    return request.param


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_record_sets_are_display_strings_unique_on_the_key(kind, data_mode):
    rs = record_set(kind, random.Random(3), 40)
    assert rs.generated is (data_mode == "generated")
    assert 15 <= len(rs.records) <= 40 and len(rs.raw) == len(rs.records)
    k = KINDS[kind]
    keys = [tuple(str(r.get(f)).casefold() for f in k.key) for r in rs.records]
    assert len(set(keys)) == len(keys)
    for r in rs.records:
        assert r[k.title_field]
        assert all(v is None or (isinstance(v, str) and v == v.strip() and v) for v in r.values())


def test_a_site_style_formats_dates_and_numbers(data_mode):
    seen_formats = set()
    for seed in range(12):
        rs = record_set("stock_day", random.Random(seed), 20)
        d = rs.records[0]["date"]
        seen_formats.add(re.sub(r"\d", "9", re.sub(r"[A-Za-z]+", "M", d)))
        iso = normalise(d)
        assert iso == rs.raw[0]["date"].isoformat()  # every display format reads back as the same date
    assert len(seen_formats) >= 3
