"""What the inducers read from a plan: the requested field names and the entity noun.

Kept to these two facts so induction depends on no plan model in particular (the generic
``Request`` of ``agents/request.py``, or any object with ``field_names``/``fields``).
"""

from __future__ import annotations

from typing import Any


def requested_names(plan: Any) -> list[str]:
    """The requested field names of a plan (the Request's ``field_names``, else a ``fields`` list)."""
    if plan is None:
        return []
    names = getattr(plan, "field_names", None)
    if names is None:
        names = getattr(plan, "fields", None) or []
    return [n if isinstance(n, str) else str(getattr(n, "name", n)) for n in names]


def entity_noun(plan: Any) -> str | None:
    """The singular noun of what is requested ("book", "country"), when the plan knows it."""
    ent = getattr(plan, "entity", None)
    noun = getattr(ent, "singular", None)
    return noun if isinstance(noun, str) and noun else None
