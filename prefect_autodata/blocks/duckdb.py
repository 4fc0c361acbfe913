"""DuckDB destination block: where collected tables land."""

from __future__ import annotations

import re
from typing import ClassVar

from prefect.blocks.core import Block
from pydantic import Field, field_validator

from prefect_autodata.blocks.llm import LOGO

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")


class DuckDBDestination(Block):
    """A DuckDB database file and the schema/prefix collector tables are written under."""

    _block_type_name: ClassVar[str] = "DuckDB Destination"
    _block_type_slug: ClassVar[str] = "autodata-duckdb-destination"
    _logo_url: ClassVar[str] = LOGO  # type: ignore[assignment]
    _documentation_url: ClassVar[str] = (
        "https://github.com/prefect-autodata/prefect-autodata/blob/main/docs/blocks.md"  # type: ignore[assignment]
    )
    _description: ClassVar[str] = "DuckDB file, schema and table prefix for collected datasets."
    _code_example: ClassVar[str] = """
```python
from prefect_autodata.blocks import DuckDBDestination

dest = DuckDBDestination.load("BLOCK_NAME")
```
"""

    path: str = Field(default="workspace/autodata.duckdb", description="Path of the DuckDB database file.")
    schema_name: str = Field(default="main", description="Schema the tables are created in.")
    table_prefix: str = Field(default="", description="Prefix added to every collector's table name.")

    @field_validator("schema_name")
    @classmethod
    def _ident(cls, v: str) -> str:
        if not _IDENT.match(v):
            raise ValueError(f"schema_name {v!r} must be a SQL identifier (letters, digits, '_')")
        return v

    @field_validator("table_prefix")
    @classmethod
    def _prefix(cls, v: str) -> str:
        if v and not _IDENT.match(v):
            raise ValueError(f"table_prefix {v!r} must be letters, digits or '_'")
        return v

    def table(self, name: str) -> str:
        """Qualified table name for collector ``name``."""
        from prefect_autodata.workspace import table_name

        return f'"{self.schema_name}"."{self.table_prefix}{table_name(name)}"'
