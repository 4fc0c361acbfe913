"""Hard budgets and cost accounting for agent runs.

Users of LLM scrapers complain most about cost they cannot see and agents that never stop.
Every run carries a ``Budget``; a ``BudgetMeter`` charges tokens, dollars and steps as they
happen and raises ``BudgetExceeded`` naming the limit and the setting to raise.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from pydantic import BaseModel, ConfigDict, Field

from prefect_autodata.errors import BudgetExceeded


class Budget(BaseModel):
    """Hard limits for one collection run; None means unlimited."""

    model_config = ConfigDict(extra="forbid")

    max_tokens: int | None = Field(
        default=200_000, ge=1, description="Prompt + completion tokens, all agents."
    )
    max_cost_usd: float | None = Field(default=2.0, ge=0, description="Dollars, priced with the price table.")
    max_steps: int | None = Field(default=60, ge=1, description="Agent invocations plus LLM calls.")
    max_wall_s: float | None = Field(default=1800.0, gt=0, description="Wall-clock seconds for the run.")


class ModelPrice(BaseModel):
    """USD per million tokens."""

    input_per_mtok: float = Field(ge=0)
    output_per_mtok: float = Field(ge=0)


# Illustrative list prices (USD per 1M tokens); override per deployment in the LLM block.
DEFAULT_PRICES: dict[str, ModelPrice] = {
    "gpt-4o": ModelPrice(input_per_mtok=2.5, output_per_mtok=10.0),
    "gpt-4o-mini": ModelPrice(input_per_mtok=0.15, output_per_mtok=0.6),
    "gpt-4.1": ModelPrice(input_per_mtok=2.0, output_per_mtok=8.0),
    "gpt-4.1-mini": ModelPrice(input_per_mtok=0.4, output_per_mtok=1.6),
}


class PriceTable(BaseModel):
    """Model name → price. Unknown models (local vLLM/Ollama) cost ``default``, normally zero."""

    prices: dict[str, ModelPrice] = Field(default_factory=lambda: dict(DEFAULT_PRICES))
    default: ModelPrice = Field(default_factory=lambda: ModelPrice(input_per_mtok=0.0, output_per_mtok=0.0))

    def cost(self, model: str, prompt_tokens: int, completion_tokens: int) -> float:
        p = self.prices.get(model, self.default)
        return (prompt_tokens * p.input_per_mtok + completion_tokens * p.output_per_mtok) / 1_000_000


class BudgetMeter:
    """Running totals for one run, checked on every charge."""

    def __init__(self, budget: Budget | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.budget = budget or Budget()
        self.clock = clock
        self.started = clock()
        self.tokens = 0
        self.cost_usd = 0.0
        self.steps = 0
        self.by_role: dict[str, dict[str, float]] = {}

    @property
    def elapsed_s(self) -> float:
        return self.clock() - self.started

    def charge(self, *, role: str = "", tokens: int = 0, cost_usd: float = 0.0, steps: int = 0) -> None:
        """Add usage, then enforce every limit."""
        self.tokens += tokens
        self.cost_usd += cost_usd
        self.steps += steps
        acc = self.by_role.setdefault(role or "-", {"tokens": 0, "cost_usd": 0.0, "steps": 0})
        acc["tokens"] += tokens
        acc["cost_usd"] += cost_usd
        acc["steps"] += steps
        self.check()

    def check(self) -> None:
        b = self.budget
        if b.max_tokens is not None and self.tokens > b.max_tokens:
            raise BudgetExceeded(
                f"token budget exceeded: {self.tokens:,} tokens used, limit {b.max_tokens:,} (raise budget.max_tokens)"
            )
        if b.max_cost_usd is not None and self.cost_usd > b.max_cost_usd:
            raise BudgetExceeded(
                f"cost budget exceeded: ${self.cost_usd:.4f} spent, limit ${b.max_cost_usd:.4f} (raise budget.max_cost_usd)"
            )
        if b.max_steps is not None and self.steps > b.max_steps:
            raise BudgetExceeded(
                f"step budget exceeded: {self.steps} steps taken, limit {b.max_steps} (raise budget.max_steps)"
            )
        if b.max_wall_s is not None and self.elapsed_s > b.max_wall_s:
            raise BudgetExceeded(
                f"wall-time budget exceeded: {self.elapsed_s:.1f}s elapsed, limit {b.max_wall_s:.1f}s (raise budget.max_wall_s)"
            )

    def summary(self) -> dict:
        return {
            "tokens": self.tokens,
            "cost_usd": round(self.cost_usd, 6),
            "steps": self.steps,
            "elapsed_s": round(self.elapsed_s, 3),
            "by_role": self.by_role,
        }
