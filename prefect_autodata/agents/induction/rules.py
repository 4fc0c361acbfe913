"""What every HTML inducer builds from its matches: a typed FieldRule per matched candidate, and the
assembled spec with the matches and the rows it was built from (``Built``, ranked by ``assemble``).

One module below ``assemble`` and the inducers it calls (``embedded``) so they share these without
importing each other.
"""

from __future__ import annotations

import dataclasses
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
    return [Transform(op="regex", pattern=_GRAB, group=0), *_number_steps(amounts)]


def _number_steps(nums: list[str]) -> list[Transform]:
    """The steps reading number texts (``"1,299"``, ``"14,95"``, ``"7 128"``) as numbers, the decimal
    mark decided over the whole column (see ``money_transforms``)."""
    # an amount with three digits after a dot groups thousands ("1.299 €"): prices have cents, not mills
    comma = any(re.search(r",\d{1,2}$|\.\d{3},", a) or re.fullmatch(r"\d{1,3}(?:\.\d{3})+", a) for a in nums)
    dot = any(re.search(r"\.\d{1,2}$|,\d{3}\.", a) for a in nums)
    if comma and not dot:
        return [
            Transform(op="replace", pattern=r"[.\s\u202f\u00a0']", value=""),
            Transform(op="replace", pattern=",", value="."),
            Transform(op="number"),
        ]
    return [Transform(op="replace", pattern=r"[,\s\u202f\u00a0']", value=""), Transform(op="number")]


# A number as a page shows a measure of it: with its unit and an aside in parentheses or brackets
# ("18 m (59 ft)", "7,128 m (23,386 ft)", "17 nmi (31 km)", "1.85 m", "42 [3]").
_ASIDE = r"(?:\s*(?:\([^()]*\)|\[[^\[\]]*\]))"
_MEASURE = re.compile(
    rf"^(?P<n>{_AMOUNT})(?:\s?(?P<u>[^\W\d_][^\W\d_/.]{{0,7}}(?:/[^\W\d_]{{1,4}})?[²³]?\.?))?(?P<a>{_ASIDE}*)$"
)
_CONVERSION = re.compile(rf"\(\s?(?:{_AMOUNT})\s?[^\W\d_][^\W\d_/.]{{0,7}}(?:/[^\W\d_]{{1,4}})?[²³]?\.?\s?\)")
# A mark before a number naming it ("#412", "No. 7", "Nº 3", "№ 3", "Nr. 12"): the number is the id.
_MARKED = re.compile(r"^(?P<m>#|№|(?:No|Nr|N[º°o]|n[º°])\.?)\s?(?P<n>\d+)$")
# Families of fields asking a number a page may show with its unit: the number is read and the unit
# is recorded (``FieldRule.unit``) and written into the rule's pattern (a row in another unit reads
# null, never a silent conversion). A name saying nothing (None) reads it when every value shows the
# unit; names asking words (a title, a person, a place, a text) read values as shown.
_MEASURE_FAMILIES = frozenset({"height", "length", "weight", "number", "integer", "rating", "category"})
_ID_FAMILIES = frozenset({"code", "integer", "number", None})


def _unit_key(unit: str) -> str:
    """One unit however a column writes it: ``"MPG"`` = ``"mpg"``, ``"mins"`` = ``"min"``,
    ``"Comments"`` = ``"comment"``, ``"in."`` = ``"in"``."""
    u = unit.casefold().rstrip(".")
    if len(u) >= 5 and u.endswith("ies"):
        return u[:-3] + "y"  # "replies" = "reply"
    return u[:-1] if len(u) >= 3 and u.endswith("s") and not u.endswith("ss") else u


def measure_transforms(name: str, values: list[Any]) -> tuple[list[Transform], str | None] | None:
    """Transforms reading the number of values shown with one unit and/or an aside (``"18 m (59 ft)"``
    → 18.0, ``"20 mpg"`` → 20.0) for a field asking a measure, and the unit as the page writes it; None
    when the values are not all of that shape, show more than one unit, or are plain numbers (read by
    the number transforms). The regex keeps the unit (``^(\\d...)\\s?m\\b``), so a row in another unit
    reads null, and the unit goes to the rule's ``unit``: the column holds numbers in that unit."""
    fam = lx.family(name)
    if fam not in _MEASURE_FAMILIES and fam is not None:
        return None
    filled = [" ".join(str(v).split()) for v in values if v is not None and str(v).strip()]
    ms = [_MEASURE.match(v) for v in filled]
    if len(filled) < 2 or not all(ms):
        return None
    if fam is None and not all(
        m.group("u") and (not m.group("a").strip() or _CONVERSION.fullmatch(m.group("a").strip())) for m in ms
    ):
        return None  # a name saying no measure: every value shows its unit ("17 nmi", "17 nmi (31 km)")
    units = {_unit_key(m.group("u") or "") for m in ms}
    if len(units) != 1 or not any(m.group("u") or m.group("a") for m in ms):
        return None  # two units in one column, or plain numbers
    shown = sorted({m.group("u") for m in ms if m.group("u")}, key=len, reverse=True)
    if shown:
        forms = "|".join(re.escape(u) for u in shown)
        tail = rf"\s?(?i:{forms})(?![^\W\d_])"
        unit = max(shown, key=[m.group("u") for m in ms].count).rstrip(".") or None
    else:
        tail, unit = r"(?![\d.,])", None
    grab = Transform(op="regex", pattern=rf"^\s*({_AMOUNT}){tail}", group=1)
    return [grab, *_number_steps([m.group("n") for m in ms])], unit


# A currency as a column writes it: a sign with its country letters ("US$", "C$", "€") or a code.
_CURRENCY_MARK = re.compile(rf"(?:[A-Z]{{1,3}})?[{_CUR}]|\b(?:{_CODES})\b", re.I)


def money_unit(values: list[Any]) -> str | None:
    """The one currency every amount of a column shows (``"$"``, ``"EUR"``), else None."""
    marks = set()
    for v in values:
        if v is None or not str(v).strip():
            continue
        m = _CURRENCY_MARK.search(str(v))
        marks.add(m.group(0).upper() if m else None)
    return next(iter(marks)) if len(marks) == 1 and None not in marks else None


def marked_transforms(name: str, values: list[Any]) -> list[Transform] | None:
    """Transforms reading ids shown with a mark before them (``"#412"``, ``"No. 7"``) as integers, for a
    field asking a number or an id, or None when not every filled value is one such id."""
    if lx.family(name) not in _ID_FAMILIES:
        return None
    filled = [" ".join(str(v).split()) for v in values if v is not None and str(v).strip()]
    ms = [_MARKED.match(v) for v in filled]
    if len(filled) < 2 or not all(ms):
        return None
    marks = sorted({re.escape(m.group("m")) for m in ms}, key=len, reverse=True)
    return [
        Transform(op="regex", pattern=rf"^\s*(?:{'|'.join(marks)})\s?(\d+)\s*$", group=1),
        Transform(op="integer"),
    ]


# A field name asking minutes: "total_time_minutes", "duration_min", "cook time (mins)".
_ASKS_MINUTES = re.compile(r"(?:^|[\W_])(?:in[\W_]+)?(?:minutes?|mins?)(?:$|[\W_])", re.I)


def minutes_transforms(
    name: str, values: list[Any], unit: str | None = None
) -> tuple[list[Transform], bool] | None:
    """The transform reading durations (``"PT1H20M"``, ``"1 hour 20 minutes"``, ``"80 min"``) as minutes
    for a field whose name or requested ``unit`` asks minutes ("cook time in minutes": the plan keeps
    the unit apart from the name), and whether every sample reads whole; None when neither asks
    minutes or some filled value is no duration (a bare number keeps the number transforms)."""
    from prefect_autodata.runtime.normalize import duration_minutes

    if not _ASKS_MINUTES.search(name) and not (unit and _ASKS_MINUTES.search(f" {unit} ")):
        return None
    filled = [v for v in values if v is not None and str(v).strip()]
    if len(filled) < 2:
        return None
    try:
        read = [duration_minutes(v) for v in filled]
    except ValueError:
        return None
    return [Transform(op="duration_minutes")], all(isinstance(r, int) for r in read)


# A cell that shows only a dash or "n/a" among cells that show values: the page's mark for no value.
_NO_VALUE = re.compile(r"^(?:[-\u2010-\u2015\u2212]{1,3}|n/?a)$", re.I)


def _shown(v: Any) -> str:
    return " ".join(str(v).split()) if v is not None else ""


def no_value_marks(values: list[Any]) -> list[str]:
    """The no-value marks of a column (``"—"``, ``"-"``, ``"n/a"``) when some cells show one and more
    than half of the filled cells show a value; [] otherwise (a column of dashes is its own data)."""
    filled = [_shown(v) for v in values if _shown(v)]
    marks = sorted({v for v in filled if _NO_VALUE.match(v)})
    rest = [v for v in filled if not _NO_VALUE.match(v)]
    return marks if marks and len(rest) > len(filled) / 2 else []


_PERCENT = re.compile(r"^\s*([+\-\u2212]?\d[\d,.]*)\s?%\s*$")


def percent_transforms(values: list[Any]) -> list[Transform] | None:
    """Transforms reading percents (``"93%"``, ``"+2.81 %"``, ``"-0.50%"``) as their number, or None
    when some filled value is not one: a share is a number of percent, as a price is one of dollars."""
    filled = [" ".join(str(v).split()) for v in values if v is not None and str(v).strip()]
    ms = [_PERCENT.match(v) for v in filled]
    if len(filled) < 2 or not all(ms):
        return None
    grab = Transform(op="regex", pattern=_PERCENT.pattern, group=1)
    return [grab, *_number_steps([m.group(1).lstrip("+-\u2212") for m in ms if m])]


def typed_rule(name: str, cand: Candidate, asked: str | None = None) -> FieldRule:
    """The FieldRule reading ``cand`` as column ``name``, typed from its sample values; ``asked`` is
    the unit the request reads the field in (``RequestField.unit``)."""
    rule = dict(cand.rule)
    tr = [Transform.model_validate(t) for t in rule.pop("transforms", [])]
    if marks := no_value_marks(cand.values):  # "—" for the cancelled flight's estimate: no value
        tr.append(Transform(op="map", mapping=dict.fromkeys(marks), strict=False))
        cand = dataclasses.replace(cand, values=[None if _shown(v) in marks else v for v in cand.values])
    own = len(tr)
    kind, share = dominant_type(cand.values)
    col = "string"
    unit = None
    # "4.170" reads as a grouped integer, but the integer transform refuses a dot: a number then
    # ("1.234.567", dots grouping thousands, stays text: neither transform reads it)
    dotted = any("." in str(v) for v in cand.values if v is not None)
    if kind == "integer" and any(str(v).count(".") > 1 for v in cand.values if v is not None):
        share = 0.0
    if minutes := minutes_transforms(name, cand.values, asked):
        col = "integer" if minutes[1] else "float"  # "PT1H20M" for "total time in minutes": 80
        tr += minutes[0]
    elif measure := measure_transforms(name, cand.values):
        col = "float"  # "18 m (59 ft)" for a height: 18, the unit kept in the rule's pattern
        tr += measure[0]
        unit = measure[1]
    elif marked := marked_transforms(name, cand.values):
        col = "integer"  # "#412" for a ticket number: 412
        tr += marked
    elif share == 1.0 and kind == "integer" and not dotted:
        col = "integer"
        tr += [Transform(op="replace", pattern=r"[,\s\u202f]", value=""), Transform(op="integer")]
    elif share == 1.0 and kind in ("number", "integer"):
        col = "float"
        tr += [Transform(op="number")]
    elif share == 1.0 and kind == "money" and (money := money_transforms(cand.values)):
        col = "float"  # "$1,299", "€14,95", "12.99 EUR": the amount, as the number it is
        tr += money
        unit = money_unit(cand.values)
    elif share == 1.0 and kind == "percent" and (pct := percent_transforms(cand.values)):
        col, unit = "float", "%"  # "93%", "+2.81%": the number of percent, the unit kept in the rule
        tr += pct
    elif (kind != "year" or share < 1.0) and lx.family(name) == "year" and _one_year_each(cand.values):
        tr += [Transform(op="regex", pattern=_YEAR_IN)]  # the year asked, inside "NeurIPS 2019" or a date
    if col != "string" and not _reads_all(cand.values, tr[own:]):
        # a number with its unit ("20 mpg", "3.5 L") is a number to the eye, not to the number
        # transform: typed, every row would be refused at run time; the value is kept as shown
        col, tr, unit = "string", tr[:own], None
    if unit is None and col in ("integer", "float") and not minutes:
        unit = lx.header_unit(cand.label)  # "Height (m)" over 412: the column counts metres
    return FieldRule(name=name, type=col, transforms=tr, unit=unit, **rule)


# transforms that only clean text: a rule holding just these reads the value as shown
_CLEANING = frozenset({"strip", "collapse_whitespace"})


def retyped(rule: FieldRule, values: list[Any], unit: str | None = None) -> FieldRule:
    """A text rule of a JSON or CSV source typed as the HTML rules are (``typed_rule``): durations as
    minutes for a field asked in minutes, a number shown with its unit ("20 mpg") as the number with
    ``FieldRule.unit``, an amount with its currency as the amount; else ``rule`` unchanged.

    Why: one reading of values for every source kind; a file's "15 mpg" landed as text where the same
    value on a page lands as 15 in mpg. Only rules that read the value as shown (no type, only
    cleaning transforms) and only when the new transforms read every filled sample value."""
    if rule.type != "string" or rule.unit or any(t.op not in _CLEANING for t in rule.transforms):
        return rule
    texts = [v for v in values if v not in (None, "")]
    if len(texts) < 2 or not all(isinstance(v, str) for v in texts):
        return rule  # typed JSON values (numbers, lists) are read by the JSON inducer's own types
    col, tr, got = "string", [], None
    if minutes := minutes_transforms(rule.name, texts, unit):
        col, tr = ("integer" if minutes[1] else "float"), minutes[0]
    elif measure := measure_transforms(rule.name, texts):
        col, tr, got = "float", measure[0], measure[1]
    elif money := money_transforms(texts):
        col, tr, got = "float", money, money_unit(texts)
    if col == "string" or not _reads_all(texts, [*rule.transforms, *tr]):
        return rule
    return rule.model_copy(update={"type": col, "transforms": [*rule.transforms, *tr], "unit": got})


def field_units(plan: Any) -> dict[str, str]:
    """``{field name: unit}`` of the requested fields the plan reads in a unit ("total time in minutes")."""
    return {str(f.name): str(f.unit) for f in getattr(plan, "fields", None) or [] if getattr(f, "unit", None)}


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
    # an aside after the value is not its year: "1857 (current tower 1911)" was first lit in 1857
    # (a year only inside the aside, "Proc. of the 31st Conference (2014)", is the value's year)
    heads = [re.sub(_ASIDE, "", v).strip() for v in filled]
    heads = [h if re.search(_YEAR_IN, h) else v for h, v in zip(heads, filled, strict=True)]
    return all(len(set(re.findall(_YEAR_IN, h))) == 1 for h in heads)


_SPAN = re.compile(r"(?:1[5-9]|20)\d{2}\s?[-–/]\s?\d{2}(?![\d/-])")


def key_columns(columns: list[str], values: dict[str, list[Any]], loose: set[str]) -> list[str]:
    """The columns that identify a record when no column is a verified key: those the sample never
    leaves empty, without the ``loose`` ones (read through a pattern: a measure with its unit, an
    amount with its currency) when the others alone tell the sample's records apart.

    Why: a pattern reads null where a row shows something else ("N/A" for a fuel economy, "call for
    price"), and a null key column rejects the row, where a plain number column would have read the
    row's value (or refused it whatever the key). Every other column stays in the key (broad on
    purpose: one page of a paged listing shows each team once, the next page repeats them)."""
    full = [c for c in columns if c in values and all(v not in (None, "") for v in values[c])]
    firm = [c for c in full if c not in loose]
    sizes = {len(values[c]) for c in firm}
    n = sizes.pop() if len(sizes) == 1 else 0  # one value per sampled record in every firm column
    if firm and len(firm) < len(full) and n >= 2:
        rows = {tuple(" ".join(str(values[c][i]).split()).casefold() for c in firm) for i in range(n)}
        if len(rows) == n:
            return firm
    return full


def loose_columns(rules: list[FieldRule]) -> set[str]:
    """The rules that read their value through a pattern (a ``regex`` transform): null on another shape."""
    return {r.name for r in rules if any(t.op == "regex" for t in r.transforms)}


def unique_key(key: list[str], columns: list[str], rows: list[dict[str, Any]], loose: set[str]) -> list[str]:
    """``key`` when it tells the sample ``rows`` apart, else ``key_columns`` over ``columns``.

    Why: a key that repeats inside one sample (a team over its seasons in one file) merges or refuses
    good rows; the record is then what its never-empty columns say together."""
    if not key or len(rows) < 2:
        return key
    seen = {tuple(" ".join(str(r.get(k)).split()).casefold() for k in key) for r in rows}
    if len(seen) == len(rows):
        return key
    values = {c: [r.get(c) for r in rows] for c in columns}
    return key_columns(columns, values, loose) or key


class Built:
    """One assembled spec, the matches it reads, how many rows it saw on ``url`` and why it was built."""

    def __init__(self, spec: CollectorSpec, matches: dict[str, Match], rows: int, url: str, why: str):
        self.spec, self.matches, self.rows, self.url, self.why = spec, matches, rows, url, why
