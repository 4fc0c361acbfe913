"""The deployment's schedule follows the cadence the plan read in the request (issue #12): the same
cron and timezone as ``Request.cadence``, no schedule when the request states none (a "daily" data
adjective is not one), and ``--schedule`` still wins."""

from __future__ import annotations

from datetime import date

import pytest

from prefect_autodata.agents.plan import make_plan
from prefect_autodata.deployments.deploy import plan_deployment
from prefect_autodata.deployments.examples import load_example
from prefect_autodata.flows.collect import cadence_text
from prefect_autodata.runtime.spec import CollectorSpec
from prefect_autodata.workspace import Workspace

TODAY = date(2024, 6, 3)


def _spec() -> CollectorSpec:
    data = load_example("tiingo-aapl-2024").model_dump(mode="json", exclude_none=True)
    data["name"] = "cadence-check"
    data["table"] = "cadence_check"
    return CollectorSpec.model_validate(data)


def _deployment(tmp_path, instruction: str, schedule: str | None = None):
    plan = make_plan(instruction, today=TODAY)
    ws = Workspace(tmp_path / "ws").ensure()
    return plan, plan_deployment(
        _spec(), workspace=ws, instruction=cadence_text(plan, instruction), schedule=schedule, today=TODAY
    )


@pytest.mark.parametrize(
    "instruction",
    [
        "Collect the daily prices of AAPL every weekday after market close",
        "Collect AAPL daily prices, refreshed on the first of every month at 02:00 UTC",
        "Collect the AAPL daily bars every Monday at 9am",
        "Collect AAPL prices every day at 6pm",
        "Collect AAPL prices every 15 minutes",
    ],
)
def test_the_deployment_schedule_is_the_requests_cadence(tmp_path, instruction):
    plan, dep = _deployment(tmp_path, instruction)
    c = plan.cadence
    assert c is not None and dep.schedule is not None, (c, dep.warnings)
    if dep.schedule.kind == "interval":
        step = int(c.cron.split()[0].removeprefix("*/"))  # "*/15 * * * *" every 15 minutes
        assert dep.schedule.interval == 60 * step
    else:
        assert dep.schedule.cron == c.cron
        assert dep.schedule.timezone == (c.timezone or "UTC")


def test_no_cadence_in_the_request_no_schedule(tmp_path):
    # "daily" describes the data; "each" a scope: the request reads no cadence, the deployment has none
    plan, dep = _deployment(tmp_path, "Collect the daily stock data of AAPL for each trading day in 2024")
    assert plan.cadence is None
    assert dep.schedule is None


def test_schedule_option_wins_over_the_cadence(tmp_path):
    _, dep = _deployment(tmp_path, "Collect AAPL prices every day at 6pm", schedule="every Monday at 9am")
    assert dep.schedule is not None and dep.schedule.cron == "0 9 * * 1"


def test_a_plan_without_a_cadence_field_keeps_the_instruction():
    assert cadence_text(object(), "every day at 6pm") == "every day at 6pm"
