"""What every HTML inducer builds from its matches: a typed FieldRule per matched candidate, and the
assembled spec with the matches and the rows it was built from (``Built``, ranked by ``assemble``).

One module below ``assemble`` and the inducers it calls (``embedded``) so they share these without
importing each other.
"""

from __future__ import annotations

import re
from typing import Any

from prefect_autodata.agents.induction import lexicon as lx
from prefect_autodata.agents.induction.matching import Candidate, Match, dominant_type
from prefect_autodata.runtime.spec import CollectorSpec, FieldRule, Transform

_CUR = lx.CURRENCY_SIGN_RE
_CODES = lx.CURRENCY_CODE_RE
_AMOUNT = r"\d{1,3}(?:[,.\s\u202f\u00a0']\d{3})+(?:[.,]\d{1,4})?|\d+(?:[.,]\d{1,4})?"
# One amount with its currency sign or code before or after it ("$1,299", "€14,95", "12.99 EUR",
# "CHF 1'200.50"); a range, a rate ("/hr") or a "k" suffix is not one number and stays text.
_ONE_AMOUNT = re.compile(
    rf"^(?:(?:[A-Z]{{1,3}})?[{_CUR}]|(?:{_CODES})\.?)\s?(?P<a>{_AMOUNT})(?:\s?(?:[{_CUR}]|(?:{_CODES})))?$"
    rf"|^(?P<b>{_AMOUNT})\s?(?:[{_CUR}]|(?:{_CODES})\b\.?)$",
    re.I,
)
_GRAB = r"\d(?:[\d.,\s\u202f\u00a0']*\d)?"


def money_transforms(values: list[Any]) -> list[Transform] | None:
    """Transforms reading amounts with a currency as plain numbers, or None when ``values`` are not all
    single amounts. The decimal mark is decided over the whole column: a comma when some amount ends in
    one or two digits after a comma (``"€14,95"``, ``"1.299,00"``) or dots group thousands (``"1.299 €"``)
    and no amount has one or two digits after a dot; else a dot."""
    amounts = []
    for v in values:
        if v is None or not str(v).strip():
            continue
        m = _ONE_AMOUNT.match(" ".join(str(v).split()))
        if not m:
            return None
        amounts.append(m.group("a") or m.group("b"))
    if not amounts:
        return None
    # an amount with three digits after a dot groups thousands ("1.299 €"): prices have cents, not mills
    comma = any(
        re.search(r",\d{1,2}$|\.\d{3},", a) or re.fullmatch(r"\d{1,3}(?:\.\d{3})+", a) for a in amounts
    )
    dot = any(re.search(r"\.\d{1,2}$|,\d{3}\.", a) for a in amounts)
    grab = Transform(op="regex", pattern=_GRAB, group=0)
    if comma and not dot:
        return [
            grab,
            Transform(op="replace", pattern=r"[.\s\u202f\u00a0']", value=""),
            Transform(op="replace", pattern=",", value="."),
            Transform(op="number"),
        ]
    return [grab, Transform(op="replace", pattern=r"[,\s\u202f\u00a0']", value=""), Transform(op="number")]


def typed_rule(name: str, cand: Candidate) -> FieldRule:
    """The FieldRule reading ``cand`` as column ``name``, typed from its sample values."""
    rule = dict(cand.rule)
    tr = [Transform.model_validate(t) for t in rule.pop("transforms", [])]
    own = len(tr)
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
    elif share == 1.0 and kind == "money" and (money := money_transforms(cand.values)):
        col = "float"  # "$1,299", "€14,95", "12.99 EUR": the amount, as the number it is
        tr += money
    elif kind != "year" and lx.family(name) == "year" and _one_year_each(cand.values):
        tr += [Transform(op="regex", pattern=_YEAR_IN)]  # the year asked, inside "NeurIPS 2019" or a date
    if col != "string" and not _reads_all(cand.values, tr[own:]):
        # a number with its unit ("20 mpg", "3.5 L") is a number to the eye, not to the number
        # transform: typed, every row would be refused at run time; the value is kept as shown
        col, tr = "string", tr[:own]
    return FieldRule(name=name, type=col, transforms=tr, **rule)


def _reads_all(values: list[Any], transforms: list[Transform]) -> bool:
    """True when ``transforms`` read every filled sample value without an error."""
    from prefect_autodata.runtime.extract import apply_transforms

    try:
        for v in values:
            if v not in (None, ""):
                apply_transforms(v, transforms)
    except ValueError:
        return False
    return True


# A year standing alone inside a longer value: not part of a longer number ("12019", "2019.5").
_YEAR_IN = r"(?<![\d.,])((?:1[5-9]|20)\d{2})(?![\d]|[.,]\d)"


def _one_year_each(values: list[Any]) -> bool:
    """True when every filled value holds one year (once or repeated) beside other text: a venue with
    its year ("NeurIPS 2019"), a date ("March 5, 2019", "2019-03-05"). A field asked as a year then
    reads that year, not the whole value."""
    filled = [str(v) for v in values if v not in (None, "")]
    if len(filled) < 2 or any(_SPAN.search(v) for v in filled):
        return False  # a season over two years ("2010-11 regular season") is read as shown
    return all(len(set(re.findall(_YEAR_IN, v))) == 1 for v in filled)


_SPAN = re.compile(r"(?:1[5-9]|20)\d{2}\s?[-–/]\s?\d{2}(?![\d/-])")


class Built:
    """One assembled spec, the matches it reads, how many rows it saw on ``url`` and why it was built."""

    def __init__(self, spec: CollectorSpec, matches: dict[str, Match], rows: int, url: str, why: str):
        self.spec, self.matches, self.rows, self.url, self.why = spec, matches, rows, url, why
