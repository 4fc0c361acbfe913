"""Ablation switches matching the AutoData paper, so the same run can be measured with parts off.

- A3: broadcast instead of routing (every message goes to every other agent);
- A4: no formatter (agents' raw, unstructured output travels as free text);
- A5: no local cache (artifact content travels inline in messages; no cache notices).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Ablation(BaseModel):
    """Which OHCache parts are on. The default is full OHCache."""

    model_config = ConfigDict(frozen=True)

    name: str = "ohcache"
    routing: bool = Field(default=True, description="False = broadcast (A3).")
    formatter: bool = Field(default=True, description="False = free-text messages (A4).")
    cache: bool = Field(default=True, description="False = artifacts inline (A5).")


OHCACHE = Ablation()
A3 = Ablation(name="A3 broadcast", routing=False)
A4 = Ablation(name="A4 no formatter", formatter=False)
A5 = Ablation(name="A5 no cache (inline)", cache=False)
BROADCAST_INLINE = Ablation(name="A3+A5 broadcast+inline", routing=False, cache=False)

PRESETS: dict[str, Ablation] = {"ohcache": OHCACHE, "a3": A3, "a4": A4, "a5": A5, "a3+a5": BROADCAST_INLINE}


def preset(name: str) -> Ablation:
    from prefect_autodata.errors import ConfigError

    try:
        return PRESETS[name.lower()]
    except KeyError:
        raise ConfigError(f"unknown ablation {name!r}; choose one of {', '.join(PRESETS)}") from None
