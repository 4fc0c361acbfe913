"""Registry of the zoo's layout families: one module per family, each exposing FAMILY."""

from __future__ import annotations

from prefect_autodata.sandbox.zoo.base import Family
from prefect_autodata.sandbox.zoo.families import (
    html_table,
)

FAMILIES: dict[str, Family] = {
    "html_table": html_table.FAMILY,
}
