"""Generated and shipped deployment configuration validates with Prefect; schedules; the Docker variant."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from prefect.cli.deploy._models import PrefectYamlModel
from prefect.client.schemas.schedules import CronSchedule, IntervalSchedule, RRuleSchedule
from prefect.utilities.importtools import import_object

from prefect_autodata.deployments.deploy import FLOW_ENTRYPOINT, deploy_collector, plan_deployment
from prefect_autodata.deployments.docker import source_root, wheel_name
from prefect_autodata.deployments.examples import EXAMPLES_DIR, load_example
from prefect_autodata.deployments.schedule import parse_schedule, schedule_from_instruction
from prefect_autodata.errors import ConfigError
from prefect_autodata.expectations.spec import CheckSpec, load_checks
from prefect_autodata.flows.run_collector import resolve_spec, run_collector

REPO = Path(__file__).resolve().parents[2]


def validate_prefect_yaml(path: Path) -> PrefectYamlModel:
    """What `prefect deploy` does before talking to the API: parse the file, load each flow, check parameters."""
    model = PrefectYamlModel.model_validate(yaml.safe_load(path.read_text()))
    assert model.deployments
    for d in model.deployments:
        flow = import_object(d.entrypoint)
        assert flow is run_collector
        run_collector.validate_parameters(d.parameters)  # raises on a bad parameter
        for s in d.schedules or []:
            item = s.model_dump(exclude_none=True)
            if "cron" in item:
                CronSchedule(cron=item["cron"], timezone=item.get("timezone"))
            elif "interval" in item:
                IntervalSchedule(interval=item["interval"], timezone=item.get("timezone"))
            else:
                RRuleSchedule(rrule=item["rrule"], timezone=item.get("timezone"))
    return model


def test_shipped_sp500_daily_deployment_validates():
    model = validate_prefect_yaml(REPO / "prefect.yaml")
    (d,) = [d for d in model.deployments if d.name == "sp500-daily"]
    assert d.entrypoint == FLOW_ENTRYPOINT and d.work_pool.name == "autodata-process"
    # weekdays after the close, New York time
    (sched,) = d.schedules
    cron = sched.model_dump(exclude_none=True)
    assert cron["cron"].endswith("* * 1-5") and cron["timezone"] == "America/New_York"
    hour = int(cron["cron"].split()[1])
    assert hour >= 16
    spec = resolve_spec(d.parameters["spec"])
    assert spec.name == "sp500-daily" and spec.primary_key == ["ticker", "date"]
    # the inline checks are exactly the shipped checks file, and they fit the spec's columns
    inline = CheckSpec.model_validate(d.parameters["checks"])
    assert inline == load_checks(EXAMPLES_DIR / "checks" / "stocks.checks.yaml")
    cols = {c.name for c in spec.output_columns()}
    for check in inline.checks:
        for key in ("column", "left", "right"):
            if isinstance(getattr(check, key, None), str):
                assert getattr(check, key) in cols, check
    # no token in the file: the spec references it as a secret
    assert "{secret:TIINGO_TOKEN}" in (EXAMPLES_DIR / "sp500-daily.yaml").read_text()
    assert not re.search(r"token\s*[:=]\s*['\"]?[0-9a-f]{20,}", (REPO / "prefect.yaml").read_text())


def test_sp500_daily_lands_every_constituent_latest_day(sandbox_url, tmp_path, monkeypatch):
    """The shipped spec on the sandbox: 503 tickers, one (latest) day each, checks pass; a rerun adds nothing."""
    from prefect_autodata.flows.run_collector import run_spec
    from prefect_autodata.runtime.spec import mirrored
    from prefect_autodata.sandbox.sites.tiingo import DEMO_TOKEN

    monkeypatch.setenv("AUTODATA_SECRET_TIINGO_TOKEN", DEMO_TOKEN)
    monkeypatch.setenv("AUTODATA_WORKSPACE", str(tmp_path / "ws"))
    spec = load_example("sp500-daily")
    fast = spec.model_copy(
        update={"politeness": spec.politeness.model_copy(update={"rate_limit_per_host": 0})}
    )
    checks = load_checks(EXAMPLES_DIR / "checks" / "stocks.checks.yaml")
    db = str(tmp_path / "x.duckdb")
    first = run_spec(mirrored(fast, sandbox_url), db, checks=checks)
    assert first.status == "succeeded", first.error
    assert first.checks_status == "passed"
    import duckdb

    from prefect_autodata.sandbox.data import load_table

    stocks = load_table("stocks")

    def counts():
        con = duckdb.connect(db, read_only=True)
        try:
            return con.execute(
                "SELECT count(*), count(DISTINCT ticker), count(DISTINCT date) FROM sp500_daily"
            ).fetchall()[0]
        finally:
            con.close()

    n, tickers, days = counts()
    assert n == tickers == stocks["ticker"].nunique() and days == 1
    # same trading day again: rows are upserted on (ticker, date), nothing is duplicated
    again = run_spec(mirrored(fast, sandbox_url), db, checks=checks)
    assert again.status == "succeeded"
    assert counts() == (n, tickers, days)


def test_generated_prefect_yaml_validates_and_merges(workspace):
    spec = load_example("sp500-daily")  # no date range: scheduled as it is
    spec.save(workspace.spec_path(spec.name))
    first = deploy_collector(spec.name, workspace=workspace, schedule="daily at 6am", apply=False)
    assert not first.applied and first.schedule == "At 06:00 AM (UTC)" and len(first.next_runs) == 3
    other = spec.model_copy(update={"name": "sp500-copy"})
    deploy_collector(other, workspace=workspace, schedule="hourly", apply=False)
    again = deploy_collector(spec.name, workspace=workspace, schedule="every Monday", apply=False)
    model = validate_prefect_yaml(Path(again.prefect_yaml))
    names = [d.name for d in model.deployments]
    assert names == ["sp500-daily", "sp500-copy"]  # replaced in place, the other kept
    d = model.deployments[0]
    assert d.schedules[0].model_dump(exclude_none=True)["cron"] == "0 0 * * 1"
    assert d.parameters["spec"] == str(workspace.spec_path(spec.name))
    assert d.parameters["destination"] == str(workspace.db_path)
    assert d.work_pool.job_variables["env"]["AUTODATA_WORKSPACE"] == str(workspace.root)


def test_checks_in_the_workspace_become_the_checks_parameter(workspace):
    spec = load_example("sp500-daily")
    spec.save(workspace.spec_path(spec.name))
    src = EXAMPLES_DIR / "checks" / "stocks.checks.yaml"
    workspace.checks_path(spec.name).write_text(src.read_text())
    plan = plan_deployment(spec.name, workspace=workspace)
    assert CheckSpec.model_validate(plan.parameters["checks"]) == load_checks(src)
    run_collector.validate_parameters(plan.parameters)


def test_schedule_from_the_instruction():
    plan_sched = schedule_from_instruction(
        "Collect the daily stock data of all S&P 500 companies every weekday after market close"
    )
    assert plan_sched is not None and plan_sched.cron == "30 17 * * 1-5"
    assert plan_sched.timezone == "America/New_York"
    assert schedule_from_instruction("Collect the daily stock information of AAPL in 2024.") is None


@pytest.mark.parametrize(
    "text,kind,value",
    [
        ("every weekday after market close", "cron", "30 17 * * 1-5"),
        ("daily at 6am", "cron", "0 6 * * *"),
        ("every day at 6:30 pm", "cron", "30 18 * * *"),
        ("hourly", "interval", 3600),
        ("every 15 minutes", "interval", 900),
        ("15m", "interval", 900),
        ("every Monday", "cron", "0 0 * * 1"),
        ("every monday and friday at 9am", "cron", "0 9 * * 1,5"),
        ("monthly", "cron", "0 0 1 * *"),
        ("*/5 * * * *", "cron", "*/5 * * * *"),
        ("FREQ=WEEKLY;BYDAY=MO,WE", "rrule", "FREQ=WEEKLY;BYDAY=MO,WE"),
    ],
)
def test_schedule_phrases(text, kind, value):
    s = parse_schedule(text)
    assert s.kind == kind and getattr(s, kind) == value
    assert s.to_prefect() is not None


@pytest.mark.parametrize(
    "text,needle",
    [
        ("sometimes", "not understood"),
        ("61 * * * *", "invalid cron"),
        ("daily at 25:00", "not a time of day"),
        ("FREQ=SOMETIMES", "invalid rrule"),
        ("", "empty"),
    ],
)
def test_bad_schedules_are_one_clear_error(text, needle):
    with pytest.raises(ConfigError, match=needle):
        parse_schedule(text)


def test_bad_input_names_the_problem_and_keeps_files(workspace):
    with pytest.raises(ConfigError, match="no collector named 'nope'"):
        deploy_collector("nope", workspace=workspace, apply=False)
    workspace.prefect_yaml.write_text("deployments: [unclosed\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        deploy_collector("tiingo-aapl-2024", workspace=workspace, apply=False)
    assert workspace.prefect_yaml.read_text() == "deployments: [unclosed\n"


DOCKER_INSTRUCTIONS = {
    "FROM",
    "RUN",
    "COPY",
    "ENV",
    "WORKDIR",
    "ARG",
    "LABEL",
    "USER",
    "ENTRYPOINT",
    "CMD",
    "EXPOSE",
}


def dockerfile_instructions(text: str) -> list[tuple[str, str]]:
    """Join continuation lines, drop comments; every logical line must start with a known instruction."""
    out, buf = [], ""
    for line in text.splitlines():
        if not buf and (not line.strip() or line.lstrip().startswith("#")):
            continue
        buf += line.rstrip("\\").rstrip() + " " if line.endswith("\\") else line
        if not line.endswith("\\"):
            word, _, rest = buf.strip().partition(" ")
            out.append((word, rest))
            buf = ""
    assert not buf, "dangling line continuation"
    return out


def test_docker_variant_is_valid_and_self_contained(workspace):
    spec = load_example("tiingo-aapl-2024")
    spec.save(workspace.spec_path(spec.name))
    result = deploy_collector(spec.name, workspace=workspace, docker=True, apply=False)
    assert result.work_pool == "autodata-docker" and result.dockerfile
    instructions = dockerfile_instructions(Path(result.dockerfile).read_text())
    assert instructions[0][0] == "FROM"
    assert all(word in DOCKER_INSTRUCTIONS for word, _ in instructions), instructions
    # every COPY source is in the build context (the workspace) or produced by the wheel build step
    model = validate_prefect_yaml(Path(result.prefect_yaml))
    (d,) = model.deployments
    steps = {next(iter(s)): next(iter(s.values())) for s in d.build + d.push}
    produced = set()
    wheel_step = steps.get("prefect.deployments.steps.run_shell_script")
    if source_root() is not None:
        assert wheel_step and str(source_root()) in wheel_step["script"]
        assert (source_root() / "pyproject.toml").is_file()
        produced.add("dist/")
    for word, rest in instructions:
        if word == "COPY":
            src = rest.split()[0]
            assert src in produced or (workspace.root / src).exists(), src
        if word == "RUN" and "/tmp/dist/" in rest:
            assert wheel_name() in rest
    # every step is a function the installed packages provide
    for fqn in steps:
        assert callable(import_object(fqn)), fqn
    build = steps["prefect_docker.deployments.steps.build_docker_image"]
    assert build["dockerfile"] == "Dockerfile" and build["tag"] == spec.version
    assert d.work_pool.job_variables["image"] == "{{ build-image.image }}"
    assert build["id"] == "build-image"
    # the spec parameter is a path inside the image, copied from the workspace
    assert d.parameters["spec"] == f"collectors/{spec.name}/spec.yaml"
    assert (workspace.root / d.parameters["spec"]).is_file()
    assert d.parameters["destination"].startswith("/opt/autodata/workspace/")
    # the entrypoint module is part of the package that the image installs
    assert FLOW_ENTRYPOINT.rsplit(".", 1)[0].startswith("prefect_autodata.")


def test_ls_lists_specs_runs_and_deployments(workspace, sandbox_url, monkeypatch):
    from prefect_autodata.deployments.listing import list_collectors
    from prefect_autodata.flows.run_collector import run_spec
    from prefect_autodata.runtime.spec import mirrored
    from prefect_autodata.sandbox.sites.tiingo import DEMO_TOKEN

    assert list_collectors(workspace) == []
    monkeypatch.setenv("AUTODATA_SECRET_TIINGO_TOKEN", DEMO_TOKEN)
    spec = load_example("tiingo-aapl-2024")
    spec.save(workspace.spec_path(spec.name))
    result = run_spec(mirrored(spec, sandbox_url), workspace.db_path)
    asked = deploy_collector(spec.name, workspace=workspace, schedule="hourly", apply=False)
    assert asked.schedule == "Every hour (UTC)" and any("in the past" in w for w in asked.warnings)
    closed = deploy_collector(
        spec.name, workspace=workspace, instruction="AAPL in 2024, refreshed daily at 6am", apply=False
    )
    assert closed.schedule is None and any("not scheduled" in w for w in closed.warnings)  # 2024 is over
    deploy_collector("sp500-daily", workspace=workspace, schedule="hourly", apply=False)
    rows = {r.name: r for r in list_collectors(workspace)}
    assert sorted(rows) == ["sp500-daily", "tiingo-aapl-2024"]
    aapl = rows["tiingo-aapl-2024"]
    assert aapl.last_status == "succeeded" and aapl.rows == result.rows_landed and aapl.runs == 1
    assert aapl.deployment == "run_collector/tiingo-aapl-2024" and aapl.schedule is None
    assert rows["sp500-daily"].schedule.startswith("interval 3600")
    assert rows["sp500-daily"].last_status is None and rows["sp500-daily"].table == "sp500_daily"
