"""Academic listing → detail collection end to end on the live sandbox, scored against ground truth.

``collect`` runs the offline squads (plan, research, listing/detail wrapper induction, dry runs,
checks), the collector and the landing; the landed table is scored with the sandbox scorer. The
conference-years are small ones so the detail pages stay few.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
import yaml

from prefect_autodata.flows.collect import collect
from prefect_autodata.sandbox.scorer import score
from prefect_autodata.sandbox.task_sources import source_paths
from prefect_autodata.sandbox.tasks import get_task


def _landed(db: str, table: str):
    con = duckdb.connect(db, read_only=True)
    try:
        return con.execute(f'SELECT * FROM "{table}"').df()
    finally:
        con.close()


def _run(task_id: str, sandbox_url: str, workspace, *, with_source: bool):
    task = get_task(task_id)
    res = collect(
        task.instruction,
        sources=[sandbox_url + p for p in source_paths(task)] if with_source else None,
        workspace=workspace,
        mirror=sandbox_url,
        search_url=sandbox_url,
    )
    assert res.status == "succeeded", (res.stop_reason, res.detail, res.error)
    assert res.tokens == 0
    df = _landed(res.db, res.table)
    return task, res, df, score(df, task.ground_truth(), fields=task.fields)


def test_listing_of_another_year_is_retargeted_and_detail_pages_fill_the_rest(sandbox_url, workspace):
    task, res, df, sc = _run("t01-neurips-2017", sandbox_url, workspace, with_source=True)
    assert sc.f1 >= 0.95, sc.per_attribute
    assert len(df) == sc.expected_rows
    spec = yaml.safe_load(Path(res.spec).read_text())
    src = spec["sources"][0]
    assert src["kind"] == "html" and src.get("detail")  # list -> detail
    assert "{year}" in src["request"]["url"] and src["params"]["year"]["values"] == [2017]
    assert not src["request"]["url"].startswith(sandbox_url)  # saved with the real host
    assert {"ABSTRACT", "BIBTEX_LINK"} <= {f["name"] for f in src["detail"]["fields"]}


def test_track_volume_found_through_search(sandbox_url, workspace):
    task, res, df, sc = _run("t02-acl-2023-short-paper", sandbox_url, workspace, with_source=False)
    assert sc.f1 >= 0.95, sc.per_attribute
    assert set(df["TRACK"]) == {"Short Paper Track"}
    assert df["CONFERENCE"].nunique() == 1


@pytest.mark.parametrize("task_id", ["t03-naacl-2021-2022"])
def test_year_range_collects_every_requested_year(task_id, sandbox_url, workspace):
    task, res, df, sc = _run(task_id, sandbox_url, workspace, with_source=False)
    assert sc.f1 >= 0.95, sc.per_attribute
    assert df["CONFERENCE"].nunique() == 2  # one proceedings title per year


def test_dry_run_judges_detail_fields_on_the_detail_pages_it_fetched(sandbox_url):
    """The request limit skips most detail pages: fill rates count only rows whose page was read."""
    from prefect_autodata.agents.evidence import Page
    from prefect_autodata.agents.offline.instruction import parse_instruction
    from prefect_autodata.agents.offline.listings import induce_listing, listing_spec
    from prefect_autodata.runtime.fetch import Fetcher
    from prefect_autodata.runtime.runner import dry_run
    from prefect_autodata.runtime.spec import CollectorSpec

    url = sandbox_url + "/papers.nips.cc/paper_files/paper/2017"
    plan = parse_instruction("Collect all accepted papers of NeurIPS 2017.")
    with Fetcher(None, {"127.0.0.1"}) as f:
        page = Page(url=url, final_url=url, status=200, kind="html")
        ind = induce_listing(page, plan, body=f.get(url).text, fetcher=f)
    spec = listing_spec(ind, plan, name="nips-2017")
    data = spec.model_dump(mode="json", exclude_none=True)
    data["columns"].append({"name": "DOI"})  # declared, produced by no rule: known empty
    rep = dry_run(CollectorSpec.model_validate(data), max_requests=4)
    assert rep.rows == len(get_task("t01-neurips-2017").ground_truth())
    assert rep.fill_rates["ABSTRACT"] == 1.0 and rep.fill_rates["DOI"] == 0.0
    assert not [i for i in rep.issues if i.kind == "empty_field"], rep.issues
    # a detail rule that reads nothing is still reported
    data["sources"][0]["detail"]["fields"][0]["xpath"] = "//nothing-here"
    rep = dry_run(CollectorSpec.model_validate(data), max_requests=4)
    bad = data["sources"][0]["detail"]["fields"][0]["name"]
    assert any(i.kind == "empty_field" and i.field == bad for i in rep.issues), rep.issues
