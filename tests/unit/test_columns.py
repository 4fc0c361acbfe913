"""System column and table names live in runtime/columns.py only; landing and lineage write exactly those."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from pydantic import ValidationError

from prefect_autodata.runtime import columns, landing, lineage
from prefect_autodata.runtime.spec import CollectorSpec

PKG = Path(__file__).resolve().parents[2] / "prefect_autodata"
SPEC = {
    "name": "cols-demo",
    "base_url": "https://example.org",
    "primary_key": ["k"],
    "sources": [
        {
            "kind": "json",
            "request": {"url": "{base_url}/x"},
            "fields": [{"name": "k", "type": "integer", "jsonpath": "$.k"}],
        }
    ],
}


def test_no_product_module_spells_a_system_name_outside_columns():
    """A quoted ``_autodata_*`` literal in code (not docs) outside columns.py is a second definition."""
    literal = re.compile(r"""(?<![A-Za-z0-9_])f?["'](_autodata_\w+|\w*__quarantine)["']""")
    offenders = []
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG).as_posix()
        if rel == "runtime/columns.py" or rel.startswith("sandbox/"):
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if literal.search(line):
                offenders.append(f"{rel}:{n}: {line.strip()}")
    assert offenders == []


def test_landing_and_lineage_create_exactly_the_named_tables_and_columns(tmp_path):
    db = str(tmp_path / "c.duckdb")
    spec = CollectorSpec.model_validate(SPEC)
    run_id = "r1"
    landing.begin_run(db, spec, run_id, flow_run_id=None, started_at=datetime.now(UTC))
    good = pd.DataFrame({"k": [1, 2]})
    good[columns.SOURCE_URL] = "https://example.org/x"
    good[columns.FETCHED_AT] = pd.Timestamp(datetime.now(UTC))
    landing.land_run(db, spec, run_id, good, sources=[], rows_fetched=2, rows_rejected=0, requests=0)
    con = duckdb.connect(db, read_only=True)
    try:
        tables = {r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()}
        assert {
            columns.RUNS_TABLE,
            columns.SOURCES_TABLE,
            columns.CHECKS_TABLE,
            columns.PROFILES_TABLE,
        } <= tables
        assert all(columns.is_system_name(t) for t in tables - {spec.table_name})
        landed = landing.table_columns(con, spec.table_name)
    finally:
        con.close()
    assert set(landed) == {"k", *columns.LINEAGE_COLUMNS}
    for name, decl in {**columns.LINEAGE_COLUMNS, "k": columns.DUCKDB_TYPES["integer"]}.items():
        assert landing._same_type(landed[name], decl), (name, landed[name], decl)
    assert lineage.RUNS_DDL.strip().startswith(f"CREATE TABLE IF NOT EXISTS {columns.RUNS_TABLE} (")


def test_user_fields_may_not_take_a_system_name():
    bad = {
        **SPEC,
        "sources": [{**SPEC["sources"][0], "fields": [{"name": columns.RUN_ID, "type": "string"}]}],
    }
    with pytest.raises(ValidationError, match=columns.SYSTEM_PREFIX):
        CollectorSpec.model_validate(bad)


def test_every_spec_type_has_a_duckdb_type():
    from typing import get_args

    from prefect_autodata.runtime.spec import ColumnSpec

    declared = set(get_args(ColumnSpec.model_fields["type"].annotation))
    assert declared == set(columns.DUCKDB_TYPES)
