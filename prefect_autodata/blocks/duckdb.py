"""DuckDB destination block: where collected tables land (file and table prefix), used by the flows.

``run_collector(destination=...)``, ``collect --destination-block NAME`` and deployments take the
block's document name; a plain DuckDB path still works where no block is wanted. Tables stay in
DuckDB's ``main`` schema (lineage tables live beside them), so the block has no schema field.
"""

from __future__ import annotations

import re
from typing import ClassVar

from prefect.blocks.core import Block
from pydantic import Field, field_validator

from prefect_autodata.blocks.llm import LOGO, load_block

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")


class DuckDBDestination(Block):
    """A DuckDB database file and the prefix collector tables are written under."""

    _block_type_name: ClassVar[str] = "Autodata DuckDB Destination"
    _block_type_slug: ClassVar[str] = "autodata-duckdb-destination"
    _logo_url: ClassVar[str] = LOGO  # type: ignore[assignment]
    _documentation_url: ClassVar[str] = (
        "https://github.com/prefect-autodata/prefect-autodata/blob/main/docs/blocks.md"  # type: ignore[assignment]
    )
    _description: ClassVar[str] = "autodata: DuckDB file and table prefix for collected datasets."
    _code_example: ClassVar[str] = """
```python
from prefect_autodata.blocks import DuckDBDestination

dest = DuckDBDestination.load("BLOCK_NAME")
```
"""

    path: str = Field(default="workspace/autodata.duckdb", description="Path of the DuckDB database file.")
    table_prefix: str = Field(default="", description="Prefix added to every collector's table name.")

    @field_validator("table_prefix")
    @classmethod
    def _prefix(cls, v: str) -> str:
        if v and not _IDENT.match(v):
            raise ValueError(f"table_prefix {v!r} must be letters, digits or '_'")
        return v

    def table(self, name: str) -> str:
        """The table collector ``name`` lands in."""
        from prefect_autodata.workspace import table_name

        return f"{self.table_prefix}{table_name(name)}"


def looks_like_path(value: str) -> bool:
    """A DuckDB file rather than a block document name (block names are slugs without '/' or '.duckdb')."""
    return "/" in value or "\\" in value or value.endswith((".duckdb", ".db")) or value == ":memory:"


def load_destination(value: str) -> DuckDBDestination | None:
    """The DuckDBDestination block named ``value``; None when ``value`` is a path. ConfigError when missing."""
    if looks_like_path(value):
        return None
    return load_block(DuckDBDestination, value, "--destination-block")
