"""Shipped example collectors (``deployments/examples/*.yaml``): hand-written specs for every sandbox site family."""

from __future__ import annotations

from pathlib import Path

from prefect_autodata.errors import ConfigError
from prefect_autodata.runtime.spec import CollectorSpec

EXAMPLES_DIR = Path(__file__).parent / "examples"


def list_examples() -> list[str]:
    """Example names (file stems), sorted."""
    return sorted(p.stem for p in EXAMPLES_DIR.glob("*.yaml"))


def example_path(name: str) -> Path:
    p = EXAMPLES_DIR / f"{name}.yaml"
    if not p.is_file():
        raise ConfigError(f"no example collector {name!r} (examples: {', '.join(list_examples())})")
    return p


def load_example(name: str) -> CollectorSpec:
    return CollectorSpec.load(example_path(name))
