"""Issue: one precise problem a collection or its typing found (the test agent repairs specs from these).

Its own module because extract (runner) and normalize both report issues and neither imports the other's
internals.
"""

from __future__ import annotations

from pydantic import BaseModel, Field


class Issue(BaseModel):
    """One precise problem found while collecting (the test agent repairs specs from these)."""

    kind: str = Field(
        description="no_records | empty_field | pagination_stopped | type_mismatch | fetch_error | page_cap "
        "| pages_failed | python_error"
    )
    source: str
    field: str | None = None
    url: str | None = None
    message: str
    ratio: float | None = None
