"""The manager's scheduling and stop rules, the plan agent's message, and the squads' spec/check plumbing."""

from __future__ import annotations

import pytest

from prefect_autodata.agents.fields import fields_from_schema_file, parse_fields
from prefect_autodata.agents.manager import ManagerPolicy, decide, stop_reason_of
from prefect_autodata.agents.plan import Unresolvable, make_plan, plan_message, require_resolved
from prefect_autodata.agents.squads import checks_from_proposals, proposals_from_checks, runnable, unmirrored
from prefect_autodata.errors import ConfigError
from prefect_autodata.expectations.spec import CheckSpec, RowCountCheck, UniqueCheck
from prefect_autodata.ohcache.hypergraph import Hypergraph
from prefect_autodata.ohcache.messages import (
    BlueprintMessage,
    CheckProposal,
    CheckResult,
    EngineeringMessage,
    PageFinding,
    Role,
    TestMessage,
    ToolMessage,
    ToolObservation,
    ValidationMessage,
    WebMessage,
)
from prefect_autodata.runtime.spec import CollectorSpec

AAPL = "Collect the daily stock data of AAPL in 2024"


def inbox(*bodies):
    g = Hypergraph()
    for b in bodies:
        g.add(b.role, [Role.MANAGER], b)
    return g.context(Role.MANAGER)


def tmsg(verdict: str, q: float) -> TestMessage:
    return TestMessage(
        results=[CheckResult(name="x", passed=verdict == "pass", evidence="e")],
        quality_score=q,
        verdict=verdict,
        repair_hint="selector matched nothing",
    )


PLAN = plan_message(make_plan(AAPL))
WEB = WebMessage(pages=[PageFinding(url="http://h/p", status=200)])
TOOL = ToolMessage(observations=[ToolObservation(tool="none", result="-")])
BP = BlueprintMessage(
    name="b",
    sources=[{"url": "http://h/a", "kind": "api"}],
    method="m",
    extraction_logic="e",
    output=[{"name": "Date"}],
)
ENG = EngineeringMessage(title="t", spec={}, rationale="r")
VAL = ValidationMessage(checks=[CheckProposal(name="rows", kind="row_count", params={"min": 1})])


@pytest.mark.parametrize(
    ("bodies", "nxt"),
    [
        ((), Role.PLAN),
        ((PLAN,), Role.WEB),
        ((PLAN, WEB), Role.TOOL),
        ((PLAN, WEB, TOOL), Role.BLUEPRINT),
        ((PLAN, WEB, TOOL, BP), Role.ENGINEERING),
        ((PLAN, WEB, TOOL, BP, ENG), Role.TEST),
        ((PLAN, WEB, TOOL, BP, ENG, tmsg("fail", 0.2)), Role.ENGINEERING),
        ((PLAN, WEB, TOOL, BP, ENG, tmsg("pass", 1.0)), Role.VALIDATION),
    ],
)
def test_manager_schedules_the_squads_in_order(bodies, nxt):
    assert decide(inbox(*bodies), ManagerPolicy()).next == nxt


def test_manager_finishes_on_success_and_says_why():
    msg = decide(inbox(PLAN, WEB, TOOL, BP, ENG, tmsg("pass", 1.0), VAL), ManagerPolicy())
    assert msg.next == "finish" and stop_reason_of(msg) == "success"


def test_manager_stops_an_unresolvable_plan_naming_what_is_missing():
    # A kind lacking its subject is searched for (plan gate); two kinds at once is truly unresolvable.
    msg = decide(inbox(plan_message(make_plan("MLB statistics of the Yankees in 2020"))), ManagerPolicy())
    assert stop_reason_of(msg) == "unresolvable" and "hitting or pitching" in msg.reason


def test_manager_stops_when_no_source_answers():
    dead = WebMessage(pages=[PageFinding(url="http://h/p", status=404)], notes="all 404")
    assert stop_reason_of(decide(inbox(PLAN, dead), ManagerPolicy())) == "no_sources"


def test_manager_stops_without_progress_and_on_exhausted_repairs():
    base = (PLAN, WEB, TOOL, BP)
    stuck = (*base, ENG, tmsg("fail", 0.5), ENG, tmsg("fail", 0.4), ENG, tmsg("fail", 0.5))
    msg = decide(inbox(*stuck), ManagerPolicy(patience=2))
    assert stop_reason_of(msg) == "no_progress" and "0.50" in msg.reason
    improving = (*base, ENG, tmsg("fail", 0.1), ENG, tmsg("fail", 0.2), ENG, tmsg("fail", 0.3))
    assert decide(inbox(*improving), ManagerPolicy(patience=2, max_repairs=5)).next == Role.ENGINEERING
    assert (
        stop_reason_of(decide(inbox(*improving), ManagerPolicy(patience=9, max_repairs=2))) == "no_progress"
    )
    assert stop_reason_of(decide(inbox(*improving), ManagerPolicy(patience=9, steps_left=2))) == "budget"


def test_plan_message_carries_schema_scope_and_missing():
    msg = plan_message(make_plan(AAPL, fields=["Date", "Close"]))
    assert [f.name for f in msg.target_schema] == ["Date", "Close"]
    assert [f.type for f in msg.target_schema] == ["date", "number"]
    assert "AAPL" in msg.scope and "2024-01-01..2024-12-31" in msg.scope
    with pytest.raises(Unresolvable, match="before it starts"):
        require_resolved(make_plan("stock prices of MSFT from 2020 to 2018"))


def test_fields_parsing_and_schema_files(tmp_path):
    assert parse_fields("Date, Close ,Volume") == ["Date", "Close", "Volume"]
    assert parse_fields(None) is None
    for bad, needle in [(" , ", "empty"), ("Date,Date", "more than once"), ("a;b", "not a usable")]:
        with pytest.raises(ConfigError, match=needle):
            parse_fields(bad)
    (tmp_path / "s.yaml").write_text("columns:\n  - {name: Date}\n  - {name: Close}\n")
    assert fields_from_schema_file(tmp_path / "s.yaml") == ["Date", "Close"]
    (tmp_path / "s.json").write_text('["TITLE", "AUTHORS"]')
    assert fields_from_schema_file(tmp_path / "s.json") == ["TITLE", "AUTHORS"]
    with pytest.raises(ConfigError, match="does not exist"):
        fields_from_schema_file(tmp_path / "nope.yaml")


def test_checks_round_trip_through_proposals_and_bad_ones_are_named():
    spec = CheckSpec(name="x", checks=[UniqueCheck(columns=["Date"]), RowCountCheck(min=5)])
    back, skipped = checks_from_proposals("x", proposals_from_checks(spec))
    assert [c.model_dump(exclude={"name"}) for c in back.checks] == [
        c.model_dump(exclude={"name"}) for c in spec.checks
    ]
    assert [c.check_name for c in back.checks] == [c.check_name for c in spec.checks] and not skipped
    _, skipped = checks_from_proposals("x", [CheckProposal(name="odd", kind="telepathy", column="a")])
    assert skipped and skipped[0].startswith("odd")


def test_specs_are_saved_with_real_hosts_and_run_through_the_mirror():
    m = "http://127.0.0.1:9"
    spec = CollectorSpec.parse(
        {
            "name": "x",
            "primary_key": ["d"],
            "base_url": m,
            "sources": [
                {
                    "name": "a",
                    "kind": "json",
                    "request": {
                        "url": "{base_url}/api.example.org/p",
                        "headers": {"Referer": m + "/www.example.org/q", "Origin": m},
                    },
                    "fields": [{"name": "d", "jsonpath": "$.d"}],
                }
            ],
        }
    )
    real = unmirrored(spec, m)
    req = real.sources[0].request
    assert req.url == "https://api.example.org/p" and real.base_url is None
    assert req.headers == {"Referer": "https://www.example.org/q", "Origin": "https://www.example.org"}
    assert runnable(real, m).sources[0].request.url == m + "/api.example.org/p"
    assert runnable(runnable(real, m), m).sources[0].request.url == m + "/api.example.org/p"
    assert unmirrored(spec, None) is spec
