"""The task catalog: shape, ground truths computed from the generated sample records, and the CLI listing."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from typer.testing import CliRunner

from prefect_autodata.sandbox import data
from prefect_autodata.sandbox.tasks import authors_to_csv, catalog, get_task

TEMPLATES = [f"T{i}" for i in range(1, 19)]


@pytest.fixture()
def generated(monkeypatch, tmp_path):
    """Compute ground truths from the generated records a fresh clone serves (no ../shared)."""
    monkeypatch.setenv("AUTODATA_DATA_DIR", str(tmp_path))
    assert data.is_generated()


def test_catalog_covers_every_template():
    tasks = catalog()
    counts = Counter(t.template for t in tasks)
    assert len(tasks) >= 60
    assert set(counts) == set(TEMPLATES)
    assert min(counts.values()) >= 2
    assert len({t.id for t in tasks}) == len(tasks)
    for t in tasks:
        assert re.fullmatch(r"t\d\d-[a-z0-9-]+", t.id), t.id
        assert t.id.startswith(f"t{int(t.template[1:]):02d}-")
        assert t.domain in ("academic", "finance", "sport")
        assert t.fields and len(set(t.fields)) == len(t.fields)


def test_instruction_text_fills_the_template_parameters():
    for t in catalog():
        for key in ("conference", "ticker", "team", "player", "year", "start_year", "end_year", "date"):
            value = t.params.get(key)
            if value is not None and value != "*":
                assert str(value) in t.instruction, (t.id, key)


def test_every_ground_truth_comes_from_the_generated_records(generated):
    for t in catalog():
        gt = t.ground_truth()
        assert list(gt.columns) == t.fields, t.id
        assert len(gt) > 0, t.id


def test_ground_truth_values_follow_the_target_schema(generated):
    stock = get_task("t05-aapl-2023-01-03-2023-03-31").ground_truth()
    assert stock["Date"].iloc[0] == "2023-01-03" and stock["Date"].iloc[-1] == "2023-03-31"
    assert stock["Date"].is_monotonic_increasing
    team = get_task("t08-golden-state-warriors-2015-2019").ground_truth()
    assert team["YEAR"].tolist() == [2015, 2016, 2017, 2018, 2019]
    assert {"W", "L"} <= set(team.columns) and "WINS" not in team.columns
    assert team["W"].iloc[0] + team["L"].iloc[0] == team["GP"].iloc[0]
    player = get_task("t10-lebron-james").ground_truth()
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", player["BIRTHDATE"].iloc[0])
    assert player["YEAR"].max() <= 2024
    pitching = get_task("t18-mlb-pitching-2021").ground_truth()
    assert pitching["YEAR"].eq(2021).all() and pitching["TEAM_ABBR"].str.len().le(3).all()
    papers = get_task("t01-icml-2021").ground_truth()
    assert not papers["AUTHORS"].str.contains(" and ", regex=False).any()


def test_ground_truth_is_a_copy(generated):
    t = get_task("t09-nba-teams-2023")
    t.ground_truth().drop(index=0, inplace=True)
    assert len(t.ground_truth()) == 30


def test_get_task_unknown_id_suggests():
    with pytest.raises(KeyError, match="t01-neurips-2017"):
        get_task("t01-neurips-2071")


def test_authors_to_csv():
    assert (
        authors_to_csv("Kay, Martin  and von Neumann, Jr., John", True) == "Martin Kay, John von Neumann Jr."
    )
    assert authors_to_csv("Xiaohang Zhan , Ziwei Liu", False) == "Xiaohang Zhan, Ziwei Liu"


def test_cli_lists_the_catalog_as_json():
    from prefect_autodata.cli import app

    result = CliRunner().invoke(app, ["sandbox", "tasks", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert len(rows) == len(catalog())
    assert set(rows[0]) == {"id", "template", "domain", "instruction", "fields"}
    assert rows[0]["id"] == catalog()[0].id
