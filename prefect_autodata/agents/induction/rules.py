"""What every HTML inducer builds from its matches: a typed FieldRule per matched candidate, and the
assembled spec with the matches and the rows it was built from (``Built``, ranked by ``assemble``).

One module below ``assemble`` and the inducers it calls (``embedded``) so they share these without
importing each other.
"""

from __future__ import annotations

from prefect_autodata.agents.induction.matching import Candidate, Match, dominant_type
from prefect_autodata.runtime.spec import CollectorSpec, FieldRule, Transform


def typed_rule(name: str, cand: Candidate) -> FieldRule:
    """The FieldRule reading ``cand`` as column ``name``, typed from its sample values."""
    rule = dict(cand.rule)
    tr = [Transform.model_validate(t) for t in rule.pop("transforms", [])]
    kind, share = dominant_type(cand.values)
    col = "string"
    # "4.170" reads as a grouped integer, but the integer transform refuses a dot: a number then
    # ("1.234.567", dots grouping thousands, stays text: neither transform reads it)
    dotted = any("." in str(v) for v in cand.values if v is not None)
    if kind == "integer" and any(str(v).count(".") > 1 for v in cand.values if v is not None):
        share = 0.0
    if share == 1.0 and kind == "integer" and not dotted:
        col = "integer"
        tr += [Transform(op="replace", pattern=r"[,\s\u202f]", value=""), Transform(op="integer")]
    elif share == 1.0 and kind in ("number", "integer"):
        col = "float"
        tr += [Transform(op="number")]
    return FieldRule(name=name, type=col, transforms=tr, **rule)


class Built:
    """One assembled spec, the matches it reads, how many rows it saw on ``url`` and why it was built."""

    def __init__(self, spec: CollectorSpec, matches: dict[str, Match], rows: int, url: str, why: str):
        self.spec, self.matches, self.rows, self.url, self.why = spec, matches, rows, url, why
