"""Hard budgets stop a run with a message naming the limit; cost follows the price table."""

from __future__ import annotations

import pytest

from prefect_autodata.agents.base import AgentRuntime
from prefect_autodata.agents.budget import Budget, BudgetMeter, ModelPrice, PriceTable
from prefect_autodata.errors import BudgetExceeded
from prefect_autodata.ohcache.messages import ManagerMessage, Role, TestMessage


def test_price_table():
    p = PriceTable(prices={"m": ModelPrice(input_per_mtok=2.0, output_per_mtok=8.0)})
    assert p.cost("m", 1_000_000, 500_000) == pytest.approx(6.0)
    assert p.cost("local-llama", 10**6, 10**6) == 0.0


@pytest.mark.parametrize(
    ("budget", "charge", "needle"),
    [
        (Budget(max_tokens=100), {"tokens": 101}, "token budget exceeded: 101 tokens used, limit 100"),
        (
            Budget(max_cost_usd=0.5),
            {"cost_usd": 0.75},
            r"cost budget exceeded: \$0.7500 spent, limit \$0.5000",
        ),
        (Budget(max_steps=2), {"steps": 3}, "step budget exceeded: 3 steps taken, limit 2"),
    ],
)
def test_each_limit(budget, charge, needle):
    m = BudgetMeter(budget)
    with pytest.raises(BudgetExceeded, match=needle):
        m.charge(role="web", **charge)


def test_within_budget_accumulates_per_role():
    m = BudgetMeter(Budget(max_tokens=100))
    m.charge(role="web", tokens=60)
    m.charge(role="plan", tokens=40)
    assert m.tokens == 100 and m.by_role["web"]["tokens"] == 60


def test_wall_time():
    t = [0.0]
    m = BudgetMeter(Budget(max_wall_s=10), clock=lambda: t[0])
    m.check()
    t[0] = 10.5
    with pytest.raises(BudgetExceeded, match="wall-time budget exceeded: 10.5s elapsed, limit 10.0s"):
        m.check()


class Manager:
    """Never finishes: keeps sending the test agent back."""

    role = Role.MANAGER

    def run(self, inbox, tools):
        return ManagerMessage(next=Role.TEST, instruction="again")


class Tester:
    role = Role.TEST

    def run(self, inbox, tools):
        return TestMessage(
            results=[{"name": "rows", "passed": False, "evidence": "0 rows"}], quality_score=0, verdict="fail"
        )


def test_step_budget_stops_a_managed_run(tmp_path):
    rt = AgentRuntime(cache=tmp_path, budget=Budget(max_steps=7)).add(Manager(), Tester())
    with pytest.raises(BudgetExceeded, match="step budget exceeded: 8 steps taken, limit 7"):
        rt.run_managed()
    assert len(rt.graph) == 7  # every completed step is kept in the hypergraph (and the trace)
    assert len(rt.trace.of_event("edge")) == 7
