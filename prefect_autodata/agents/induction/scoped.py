"""Fields a request filters on without asking to land them, read so the row filter can compare on them.

"Restaurants where the food is Steak, Seafood, with name, address and phone" lands three columns but
keeps only the rows whose cuisine is the one asked: the spec must read the cuisine too, or the filter
is named "not applied" and every record lands. Each inducer (listing regions and tables in
``assemble``, script JSON records in ``embedded``) offers the candidates no requested field took; a
filter field takes one only when the candidate's label names it (``name_score`` >= 0.8), never by
value type or elimination, so an unlabelled column is not compared on by guess.
"""

from __future__ import annotations

from typing import Any

from prefect_autodata.agents.induction.filters import scope_fields
from prefect_autodata.agents.induction.matching import Candidate, Match, assign, name_score

MIN_NAME = 0.8


def filter_matches(
    plan: Any,
    requested: list[str],
    matches: dict[str, Match],
    cands: list[Candidate],
    *,
    detail: bool = False,
) -> dict[str, Match]:
    """Matches for the filtered-but-not-requested fields among the candidates ``matches`` left free.

    ``detail``: the records link detail pages the spec reads, so a detail-page candidate may serve
    (a filter on the year only detail pages show; the row filter then runs on the joined rows)."""
    scope = scope_fields(plan, requested)
    if not scope:
        return {}
    taken = {id(x.candidate) for x in matches.values()}
    free = [
        c for c in cands if id(c) not in taken and (c.where == "listing" or (detail and c.where == "detail"))
    ]
    if not free:
        return {}
    names = kind_names(plan, scope)
    got = assign(scope, free, eliminate=False, aliases=names)
    named = {
        k
        for k, x in got.items()
        if max(name_score(n, x.candidate.label or "") for n in (k, *names.get(k, ()))) >= MIN_NAME
    }
    return {k: got[k] for k in scope if k in named}  # in the plan's order: the columns' order


def kind_names(plan: Any, fields: list[str]) -> dict[str, tuple[str, ...]]:
    """The plan's record kind's column and words for each filter field ("club" -> ``TEAM_ABBR``,
    "team"): a label the kind gave a column (its consistency named the team's codes) names it."""
    from prefect_autodata.agents import kinds

    kind = kinds.get(getattr(plan, "kind", None) if isinstance(getattr(plan, "kind", None), str) else None)
    out: dict[str, tuple[str, ...]] = {}
    for f in fields if kind is not None else []:
        col = kind.map_field(f)
        if col:
            out[f] = tuple(dict.fromkeys([col, *kind.names_for(col)]))
    return out
