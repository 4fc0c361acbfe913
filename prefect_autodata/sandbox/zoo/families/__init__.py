"""Registry of the zoo's layout families: one module per family, each exposing FAMILY."""

from __future__ import annotations

from prefect_autodata.sandbox.zoo.base import Family

FAMILIES: dict[str, Family] = {}
