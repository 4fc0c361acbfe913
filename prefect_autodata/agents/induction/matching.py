"""Requested field ↔ candidate value matching, for any field names, labels and languages: the one matcher.

A candidate is something a source offers as a field: a labelled value on a detail page, a table
column under its header, a text slot repeated in every record of a listing, a structured-data
property, a JSON key. The user names fields as they think of them ("writer", "cost", "type"); a
source labels them its own way ("By", "Precio", "Género", "vhc" documented as "Make & model").
Every requested field is scored against every candidate from

- names: normalisation (case, accents, punctuation, camelCase, plurals) and exact equality;
- the lexicon (``lexicon.py``): synonyms and translations sharing a concept ("type"/"Género",
  "telephone"/"Tel.", "fuel economy"/"MPG");
- abbreviations: a prefix ("Auth." → author), a consonant skeleton ("vhc" → vehicle), initials
  ("gp" → games played), the lexicon's usual abbreviations ("G" → games); short ones (one or two
  letters) count only when the values fit;
- the candidate's documented meaning (``doc``: a docs table, a tooltip, a title attribute) and its
  ``aliases`` (other texts naming it), scored like its label;
- fuzzy similarity (rapidfuzz), capped when the two names belong to different concepts;
- value types (``values.py``): what the field word implies (price → money, phone → phone, genre →
  a short repeated category) against the column's value profile;
- cross-record behaviour: a value constant over all records is template text, values equal to a
  label are header text, not a field.

The fields are then assigned globally (an exact Hungarian assignment, as ``scipy.optimize.linear_sum_assignment``
would give, without scipy's import cost), one candidate per field; then the record's own name fills a text field no label
named; then, by *elimination*, leftover fields take leftover unlabelled columns whose values have
the field's type (a phone pattern for the phone field, a repeated short text for a category).
Every match carries a ``why`` naming its evidence (name / synonym / abbrev / doc / type / elimination).

Nothing here knows a site, a record kind or a page layout.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from rapidfuzz import fuzz

from prefect_autodata.agents.induction import lexicon as lx
from prefect_autodata.agents.induction import values as vt

# ------------------------------------------------------------------------------------------ names

IDENTITY = {"title", "name", "heading", "headline"}
normalise = lx.normalise
_content = lx.content
_TEXTISH = {None, "text", "title", "person", "place"}


def _code_like(text: str) -> bool:
    """A short or vowel-less token ("vhc", "tlcnt", "c7"), the way keys and class names abbreviate."""
    letters = re.sub(r"[^a-z]", "", lx.fold(text))
    return len(letters) <= 4 or not re.search(r"[aeiouy]", letters) or bool(re.search(r"\d", text))


def _subseq(short: str, long: str) -> bool:
    it = iter(long)
    return all(ch in it for ch in short)


def _abbrev_of(tok: str, word: str) -> float:
    """How surely ``tok`` abbreviates ``word``: a prefix, else a skeleton of its letters in order."""
    if not tok or len(tok) >= len(word) or tok[0] != word[0] or not tok.isalpha():
        return 0.0
    if word.startswith(tok):
        return 0.8 if len(tok) >= 3 else 0.55 if len(tok) == 2 else 0.0
    if len(tok) >= 2 and _subseq(tok, word):
        return 0.65 if len(tok) >= 3 else 0.45
    return 0.0


_INITIAL_FAMILIES = frozenset({"money", "integer", "number", "percent"})


def _abbrev(r: str, lab: str) -> float:
    """``lab`` as an abbreviation of the normalised requested name ``r`` or of one of its synonyms."""
    lt = lab.split()
    if not lt or len(lt) > 3 or any(len(t) > 6 for t in lt):
        return 0.0
    best = 0.0
    joined = "".join(lt)
    rkeys = lx.concept_keys(r)
    if any(c.key in rkeys for c in lx.abbrev_concepts(joined)):
        best = 0.85

    def skeleton(tok: str, word: str) -> float:
        """``_abbrev_of``, but a word of another meaning abbreviates nothing: "auto" (a car) begins
        "autor" and holds the letters of "author" in order without standing for either."""
        if (ks := lx.concept_keys(tok)) and not ks & rkeys:
            return 0.0
        return _abbrev_of(tok, word)

    for phrase in lx.synonyms(r) | {r}:
        pw = phrase.split()
        if not pw:
            continue
        w = 1.0 if phrase == r else 0.92
        if len(lt) == 1:
            t = lt[0]
            if len(pw) == 1:
                s = skeleton(t, pw[0])
                if not s and t.endswith("s") and not pw[0].endswith("s"):
                    # a plural keeps its s when abbreviated ("wns" for wins, "rbs" for rebounds), while
                    # the normalised word lost it
                    s = _abbrev_of(t, pw[0] + "s")
            else:
                initials = "".join(x[0] for x in pw)
                s = 0.75 if len(t) >= 2 and t == initials else 0.9 * _abbrev_of(t, "".join(pw))
        elif len(lt) == len(pw):
            parts = [1.0 if a == b else _abbrev_of(a, b) for a, b in zip(lt, pw, strict=True)]
            s = 0.95 * min(parts) if 0 < min(parts) < 1.0 else 0.0
        elif len(pw) == 1 and len(lt) == 2 and len(lt[-1]) >= 3:
            # a qualifier before an abbreviated head word: "Hiring org." for organization
            s = 0.85 * skeleton(lt[-1], pw[0])
            w0 = pw[0]
            if len(lt[0]) + len(lt[-1]) < len(w0) and w0.startswith(lt[0]) and w0.endswith(lt[-1]):
                # a compound word cut to its first part's initials and its head ("T-Meter" for
                # tomatometer, "H Count" for headcount)
                s = max(s, 0.8)
        else:
            s = 0.0
        best = max(best, s * w)
    if len(lt) == 2 and len(lt[-1]) >= 2 and any(c.key in rkeys for c in lx.abbrev_concepts(lt[-1])):
        best = max(best, 0.7)  # "Hiring org." shares the head's usual abbreviation ("org": company)
    word = r if " " not in r else lx.head(r)  # "day low": a low, qualified by the day
    if not best and len(joined) == 1 and len(word) >= 3 and word[0] == joined and len(r.split()) <= 2:
        # one letter, the initial of the user's own word ("L" for low beside "HI", "OPEN"): weak, and
        # only for a measured field, whose values must then be numbers (``_score`` checks them)
        if lx.family(r) in _INITIAL_FAMILIES:
            best = 0.5
    return round(best, 3)


def _property_of(r: str, lab: str) -> bool:
    """True when ``lab`` names a property of the thing ``r`` names, not the thing: "institution type",
    "team id", "phone type" (the word asked qualifies a head of another value family). A head naming the
    thing itself ("team name") or a sibling of the same family ("year founded") does not count."""
    h = lx.head(lab)
    if h == r or h in IDENTITY or r == lab:
        return False
    hk, rk = lx.concept_keys(h), lx.concept_keys(r)
    if not hk or hk & rk or any(c.key in rk for c, w in lx.concepts_of(lab) if w >= 1.0):
        return False  # "phone number" is a phrase for the phone itself
    hf, rf = lx.family(h), lx.family(r)
    return hf is not None and hf != rf


def _values_refute_property(requested: str, label: str, prof: vt.Profile, ta: float) -> bool:
    """True when values under a label read as a property of the field ("price color", "rating
    class") are of the field's own typed family (money, a number, a date) and not of the family of the
    label's head word: the head then qualifies the field (a style class, a display variant), and the
    label names the field. A text-like field ("institution type", "team id") is never rescued: its
    values tell nothing against the property reading."""
    fam = expected_type(requested)
    if fam in _TEXTISH or ta <= 0:
        return False
    hf = lx.family(lx.head(normalise(label)))
    return hf is None or (hf != fam and vt.fit(hf, prof) <= 0)


def _direct(r: str, lab: str) -> tuple[float, str]:
    """Two normalised names compared as words (no lexicon)."""
    if r == lab:
        return 1.0, "name"
    rt, lt = r.split(), lab.split()
    if len(rt) == 1 and rt[0] in lt:
        return (0.85 if len(lt) <= 3 else 0.6), "name"
    if set(rt) <= set(lt):
        return 0.8, "name"
    if len(rt) > 1 and lab == lx.head(r):
        return 0.8, "name"  # "Rating" for "MPAA rating"
    if set(lt) < set(rt):
        return 0.6, "name"
    ratio = fuzz.ratio(r, lab) / 100.0
    if ratio >= 0.85:
        return 0.8, "fuzzy"
    if ratio >= 0.7 and min(len(r), len(lab)) >= 4:
        return 0.55, "fuzzy"
    overlap = len(set(rt) & set(lt)) / max(len(set(rt) | set(lt)), 1)
    return round(0.6 * overlap, 3), "name"


def _inflected_words(r: str, lab: str) -> float:
    """0.8 when the label's words are the field's words in other forms of one verb ("Filed" and
    "filing", "Issued on" and "issue"), 0.6 when they are some of them ("Filed" for "filing date");
    0 when no word is a participle or gerund, or a word has no counterpart."""
    rt, lt = r.split(), lab.split()
    if not any(lx.inflected(w) for w in (*rt, *lt)):
        return 0.0
    rs, ls = {lx.stem(w) for w in rt}, {lx.stem(w) for w in lt}
    if not ls <= rs or all(w in rt for w in lt):
        return 0.0
    return 0.8 if ls == rs else 0.6


@functools.lru_cache(maxsize=65536)
def name_evidence(requested: str, label: str | None) -> tuple[float, str]:
    """0..1: how surely ``label`` names the ``requested`` field, and by what (name/synonym/abbrev/fuzzy)."""
    if not label:
        return 0.0, ""
    r, lab = _content(normalise(requested)), _content(normalise(label))
    if not r or not lab:
        return 0.0, ""
    best, how = _direct(r, lab)
    if best >= 1.0:
        return best, how
    if best < 0.6 and (inflect := _inflected_words(r, lab)):
        best, how = inflect, "name"  # "Filed" for the filing date: one verb, two forms
    cr = {c.key: w for c, w in lx.concepts_of(requested)}
    cl = {c.key: w for c, w in lx.concepts_of(label)}
    shared = max((min(cr[k], cl[k]) for k in cr.keys() & cl.keys()), default=0.0)
    if shared and 0.9 * shared > best:
        best, how = round(0.9 * shared, 3), "synonym"
    if cr and cl and not shared and how == "fuzzy":
        best = min(best, 0.3)  # "rating"/"ranking": alike in spelling, different in meaning
    via = "synonym"
    if not cl and len(lab.split()) == 1:
        # an abbreviated label stands for its usual word's meaning here: "Addr." for an address
        cl = {c.key: 0.9 for c in lx.abbrev_concepts(lab)}
        via = "abbrev"  # short ones then need values of the field's type (``_score``)
    if not shared and lx.narrower(set(cr), set(cl)) and best < 0.6:
        best, how = 0.6, via  # the user's "location" is the page's "City": a narrower meaning
    elif not shared and lx.narrower(set(cl), set(cr)) and best < 0.45:
        best, how = 0.45, via  # the page's "Location" may be the city asked, or a street: weakly
    ab = _abbrev(r, lab)
    if ab > best:
        best, how = ab, "abbrev"
    if best and len(r.split()) == 1 and r in lab.split() and _property_of(r, lab):
        return 0.25, "property"  # "institution type" is a property of the institution, not its name
    return best, how


def name_score(requested: str, label: str | None) -> float:
    """0..1: how surely ``label`` (as a page shows it) names the ``requested`` field."""
    return name_evidence(requested, label)[0]


def _synonyms(n: str) -> set[str]:
    return lx.synonyms(n)


# ------------------------------------------------------------------------------------------ values


def value_type(value: Any) -> str:
    """The shape of one value: url, email, percent, money, height, date, year, integer, number, phone, text, empty."""
    return vt.coarse(vt.kind_of(value))


def dominant_type(values: Iterable[Any]) -> tuple[str, float]:
    """The most common non-empty type and its share of the non-empty values (``("empty", 0)`` when none)."""
    from collections import Counter

    kinds = [value_type(v) for v in values]
    kinds = [k for k in kinds if k != "empty"]
    if not kinds:
        return "empty", 0.0
    (k, n), *_ = Counter(kinds).most_common(1)
    return k, n / len(kinds)


def expected_type(requested: str) -> str | None:
    """The value family a field name implies (``price`` → money, ``Género`` → category), None when it does not say."""
    return lx.family(requested)


def type_agreement(requested: str, values: list[Any]) -> float:
    """+1 when the values look like what the name implies, -1 when clearly not, 0 when unknown."""
    return vt.fit(expected_type(requested), vt.profile(values))


def is_template(values: list[Any], *, min_records: int = 3) -> bool:
    """True when every record shows the same value: boilerplate ("Add to basket"), not a field."""
    vals = [str(v).strip() for v in values if v is not None and str(v).strip()]
    return len(values) >= min_records and len(vals) == len(values) and len(set(vals)) == 1


def _label_values(values: list[Any], labels: set[str]) -> bool:
    """True when most values are label texts themselves (a header row read as data)."""
    vals = [normalise(str(v)) for v in values if v not in (None, "")]
    if not vals or not labels:
        return False
    return sum(1 for v in vals if v in labels) / len(vals) >= 0.5


# ------------------------------------------------------------------------------------------ assignment


@dataclass
class Candidate:
    """Something a source offers as a field: its label (if any), sample values, and how to read it.

    ``rule`` is a dict of FieldRule keywords (selector, attr, transforms) without the name;
    ``identity`` marks the record's own name (its heading, its link text, a table's first column);
    ``anchor`` says how stable the selector is (label-anchored beats structural beats positional);
    ``doc`` is the documented meaning of the column when the source states one (a docs table row
    "vhc — Make & model", a tooltip, a title attribute); ``aliases`` are further texts naming it (a
    JSON key beside its display label); ``position`` its index among its siblings (a column's
    order in a text line), used to break ties between columns alike in type. A piece of a compound
    cell keeps the ``whole`` cell it was cut from; ``main_piece`` marks the text piece that carries the
    column's label ("Title" over "Fancy Pants (1950)": "Fancy Pants"). ``class_label``: the label is
    only the CSS class of the value's element, no text the page shows.
    """

    label: str | None
    values: list[Any]
    rule: dict[str, Any]
    origin: str = "region"
    identity: bool = False
    anchor: float = 0.5
    where: str = "listing"
    notes: list[str] = field(default_factory=list)
    doc: str | None = None
    aliases: list[str] = field(default_factory=list)
    position: int | None = None
    whole: Candidate | None = field(default=None, repr=False, compare=False)
    main_piece: bool = False
    # the label was told by the values' consistency with a record kind's other columns (runs beside
    # hits and at-bats): the column is that one, never left over for another field by elimination
    told: bool = False
    class_label: bool = False
    aside: bool = False  # the piece of a cell in parentheses after its text ("(Vote for 1)")
    headed: bool = False  # labelled by a header row over the records' cells (a grid of div rows)

    @property
    def fill(self) -> float:
        return sum(1 for v in self.values if v not in (None, "")) / max(len(self.values), 1)

    def texts(self) -> list[tuple[str, float, str]]:
        """(text, weight, what) for every text naming this candidate."""
        out = [(self.label, 1.0, "label")] if self.label else []
        out += [(a, 1.0, "key") for a in self.aliases if a and a != self.label]
        if self.doc:
            out.append((self.doc, 0.95, "doc"))
        return out

    def opaque(self) -> bool:
        """No label, or only code-like labels naming no concept ("vhc", "f3"), not words ("Deposit").
        A CSS class naming no concept ("itempn", "rb-cell") is a page's private name: opaque too."""
        texts = self.texts()
        if any(lx.is_known_word(t) for t, _, _ in texts):
            return False
        return self.class_label or all(_code_like(t) for t, _, _ in texts)


@dataclass
class Match:
    requested: str
    candidate: Candidate
    score: float
    why: str
    evidence: str = ""  # name | synonym | abbrev | fuzzy | doc | type | identity | elimination


def _rule_key(c: Candidate) -> str:
    try:
        return json.dumps(c.rule, sort_keys=True, default=str)
    except TypeError:
        return repr(c.rule)


# A requested field's other names weigh a little less than the user's own word.
ALIAS_WEIGHT = 0.97


def aliases_of(plan: Any) -> dict[str, tuple[str, ...]]:
    """Other names the plan knows for each requested field: ``RequestField.normalized`` where it
    differs from the user's word (a record kind's column for it: "strikeouts" → ``SO``), then the
    kind's other words for that column (``RequestField.aliases``: "h" → ``H``, "hits").

    Any object with ``fields`` of objects carrying ``name`` and ``normalized`` qualifies; anything
    else has no aliases.
    """
    out: dict[str, tuple[str, ...]] = {}
    for f in getattr(plan, "fields", None) or []:
        name = getattr(f, "name", None)
        if not isinstance(name, str):
            continue
        alts = [getattr(f, "normalized", None), *(getattr(f, "aliases", None) or [])]
        seen = {normalise(name)}
        keep = []
        for alt in alts:
            if isinstance(alt, str) and alt.strip() and normalise(alt) not in seen:
                seen.add(normalise(alt))
                keep.append(alt)
        if keep:
            out[name] = tuple(keep)
    return out


def names_of(requested: str, aliases: dict[str, tuple[str, ...]] | None) -> list[tuple[str, float]]:
    """The names a requested field goes by, with their weights: its own word, then its aliases."""
    return [(requested, 1.0)] + [(a, ALIAS_WEIGHT) for a in (aliases or {}).get(requested, ())]


def _evidence(
    requested: str, cand: Candidate, aliases: dict[str, tuple[str, ...]] | None = None
) -> tuple[float, str, str]:
    """Best name evidence over the candidate's texts and the field's names: (score, how, text)."""
    best = (0.0, "", "")
    for name, nw in names_of(requested, aliases):
        for text, w, what in cand.texts():
            s, how = name_evidence(name, text)
            s *= w * nw
            if what == "doc" and s:
                how = f"doc:{how}"
            if s > best[0]:
                best = (round(s, 3), how, text)
    return best


_PAIR_FORMS = {"dl", "row", "inline", "inline-tail", "inline-next", "sibling", "pieces", "icon"}
_HEADED = {"table", "text line"}  # columns under a header row: the header is each value's label
_LINE_PIECE = "text line"


def _unit_keys(u: str) -> set[str]:
    """The concepts one unit names (``"mpg"``: fuel economy; ``"hp"``: power); one letter ("L", "m") is
    too ambiguous to say."""
    bare = u.replace(".", "").replace(" ", "")
    if len(bare) < 2:
        return set()
    return lx.concept_keys(u) | {c.key for c in lx.abbrev_concepts(bare)}


def _unit_evidence(
    requested: str, prof: vt.Profile, aliases: dict[str, tuple[str, ...]] | None = None
) -> str | None:
    """The unit of the values when it names the requested field's concept (``"mpg"`` for fuel economy,
    ``"mi"`` for mileage): what the column measures, whatever its label says. None when it does not."""
    if not prof.units:
        return None
    names = names_of(requested, aliases)
    keys = set().union(*(lx.concept_keys(n) for n, _ in names))
    words = {_content(normalise(n)) for n, _ in names}
    for u in sorted(prof.units):
        if (_unit_keys(u) & keys) or (len(u) > 1 and u in words):
            return u
    # the field names a part of what the unit measures: "fuel" over "22 mpg City" (mpg: fuel economy)
    asked = {w for n, _ in names for w in _content(normalise(n)).split()}
    for u in sorted(prof.units):
        for key in sorted(_unit_keys(u)):
            c = lx.concept(key)
            if c is not None and any(
                len(p.split()) > 1 and asked and asked < set(p.split()) for p in c.phrases
            ):
                return u
    return None


def _score(
    requested: str,
    cand: Candidate,
    prof: vt.Profile,
    *,
    entity: str | None,
    header_texts: set[str],
    aliases: dict[str, tuple[str, ...]] | None = None,
) -> tuple[float, str, str]:
    if cand.fill == 0:
        return 0.0, "no values", ""
    if header_texts and _label_values(cand.values, header_texts):
        return 0.0, "values are label texts (a header read as data)", ""
    ns, how, text = _evidence(requested, cand, aliases)
    why = (
        f"{'doc' if how.startswith('doc') else 'label'} {text!r}"
        if text
        else (f"label {cand.label!r}" if cand.label else "unlabelled")
    )
    if how:
        why += f" ({how.split(':')[-1]})"
    rn = _content(normalise(requested))
    if entity and cand.label and rn in IDENTITY:
        ent = normalise(entity)
        lab = normalise(cand.label)
        if ent and (lab == ent or ent in lab.split() or lab in (f"{ent} name", f"{ent} title")):
            if ns < 0.85:
                ns, how, why = 0.85, "identity", f"label {cand.label!r} names the {entity}"
    if rn in IDENTITY and cand.identity and ns < 0.7:
        ns, how, why = 0.7, "identity", f"{why}; the record's own name ({cand.origin})"
    ta = vt.fit(expected_type(requested), prof)
    if how.endswith("property") and text and _values_refute_property(requested, text, prof, ta):
        ns, how = 0.7, "name"  # "price_color" over £12.99: the values are prices, not colours
        why = f"{why}; its values are the field's type, not its head word's"
    if ns < 0.5 and expected_type(requested) == "year" and prof.kind in ("date", "datetime"):
        if any(c.family in ("date", "datetime") for t, _, _ in cand.texts() for c, _ in lx.concepts_of(t)):
            ns, how = 0.5, "part"  # the year asked is the year of the date the page shows
            why = f"{why}; the year of its dates"
    unit = _unit_evidence(requested, prof, aliases)
    if unit is not None:  # "mileage" over "17 mpg City, 23 mpg Hwy" is the fuel economy asked
        ta = max(ta, 0.5)
        if ns < 0.7:
            ns, how = 0.7, "unit"
            why = f"{why}; values in {unit!r}"
    # A value the page labels beside it ("YR ◆ 2013" on every paper of one year) or under a column
    # header naming the field ("Yr" over 2014 in every row of one year's table) is data even when
    # constant; unlabelled constant text is template ("Add to basket").
    if ns < 0.7:
        named = _values_name(requested, prof, cand.values)
        if named:
            ns, how = named, "values"
            why = f"{why}; its values are each a {requested!r}"
    # a piece of a separator-delimited line is one of the record's values by construction: no template
    # text sits between separators, so a piece whose values name the field is data, constant or not
    beside = cand.origin in _PAIR_FORMS or ((cand.origin in _HEADED or cand.headed) and bool(cand.label))
    beside = beside or (cand.origin == _LINE_PIECE and how == "values")
    labelled = beside and ((ns >= 0.5 and ta > 0) or (ns >= 0.8 and ta >= 0))
    if prof.constant and ns < 0.9 and not labelled:
        return 0.0, "constant over all records (template text)", ""
    short = text and len(re.sub(r"[^a-z0-9]", "", lx.fold(text))) <= 2
    if (
        how.endswith("abbrev")
        and short
        and ta <= 0
        and not _abbrev_fits(requested, text, prof)
        and not _initials_over_numbers(requested, text, prof)
    ):
        return 0.0, f"{why}: a one- or two-letter label needs values of the field's type", ""
    if ns < 0.3:
        return 0.0, why, ""
    s = ns + 0.35 * ta + 0.1 * cand.anchor + 0.1 * cand.fill
    if ta <= -1.0:
        s -= 0.15
    return round(s, 4), f"{why}; types {ta:+.1f}", how.split(":")[0] if how else "name"


def _values_name(requested: str, prof: vt.Profile, values: list[Any]) -> float:
    """How surely the values name themselves as what the field asks: their head word is the field's
    word ("Main Conference Track" for a track, "Stanford University" for a university), 0.7, or a
    synonym of it ("… Track" for a session type), 0.6; 0 when they do not. Most short values must."""
    words = [w for w in _content(normalise(requested)).split() if w not in IDENTITY]
    if not words or prof.filled < 2 or not prof.short:
        return 0.0
    heads = [lx.head(normalise(str(v))) for v in values if v not in (None, "")]
    heads = [h for h in heads if h and not h.isdigit()]
    if len(heads) < 0.8 * prof.filled or not heads:
        return 0.0
    own = sum(1 for h in heads if h in words)
    if own >= 0.8 * len(heads):
        return 0.7
    keys = lx.concept_keys(_content(normalise(requested)))
    if keys and sum(1 for h in heads if lx.concept_keys(h) & keys) >= 0.8 * len(heads):
        return 0.6
    return 0.0


def _initials_over_numbers(requested: str, label: str, prof: vt.Profile) -> bool:
    """True when a short label is the initials of every word of a field of two or more words ("HR"
    for home runs, "GP" for games played) and the values below it are numbers: a field whose type
    the lexicon cannot tell is a count or a measure when its spelled-out words are abbreviated to
    initials over numbers. A label of other initials, or over text, stays refused."""
    words = _content(normalise(requested)).split()
    bare = re.sub(r"[^a-z0-9]", "", lx.fold(label))
    if len(words) < 2 or bare != "".join(w[0] for w in words):
        return False
    return prof.kind in ("integer", "decimal") and prof.share >= 0.8


def _abbrev_fits(requested: str, label: str, prof: vt.Profile) -> bool:
    """True when a short label is the usual abbreviation of one meaning of the field's word and the
    values have that meaning's type: "O" over prices for "open" (an opening price, though "open" may
    also be opening hours). The field's other meaning still sets the score's type term."""
    rkeys = lx.concept_keys(requested)
    bare = re.sub(r"[^a-z0-9]", "", lx.fold(label))
    return any(c.key in rkeys and vt.fit(c.family, prof) > 0 for c in lx.abbrev_concepts(bare))


def _unit_rivals(
    requested: list[str],
    profs: list[vt.Profile],
    matrix: list[list[float]],
    whys: dict[tuple[int, int], tuple[str, str]],
    aliases: dict[str, tuple[str, ...]] | None,
) -> None:
    """A column whose values' unit names another requested field (and not this one) serves this one
    less: "Mileage" over "17 mpg" when both mileage and fuel economy are asked goes to fuel economy."""
    for j, p in enumerate(profs):
        if not p.units:
            continue
        hits = [i for i, r in enumerate(requested) if _unit_evidence(r, p, aliases) is not None]
        if not hits:
            continue
        for i in range(len(requested)):
            if i not in hits and matrix[i][j] > 0:
                matrix[i][j] = round(max(matrix[i][j] - 0.3, 0.0), 4)
                why, ev = whys[(i, j)]
                whys[(i, j)] = (f"{why}; its unit names {requested[hits[0]]!r}", ev)


def _asked_units(
    requested: list[str],
    candidates: list[Candidate],
    matrix: list[list[float]],
    whys: dict[tuple[int, int], tuple[str, str]],
    units: dict[str, str],
) -> None:
    """A field the request reads in a unit ("height in feet") is served by the column whose header
    writes that unit ("Height (ft)") before one whose header writes another ("Height (m)"): the unit
    is what the numbers are counted in, not a difference of name."""
    for i, r in enumerate(requested):
        asked = lx.unit_symbol(units.get(r))
        if asked is None:
            continue
        for j, c in enumerate(candidates):
            shown = lx.header_unit(c.label)
            if shown is None or matrix[i][j] <= 0:
                continue
            why, ev = whys[(i, j)]
            if shown == asked:
                matrix[i][j] = round(matrix[i][j] + 0.1, 4)
                whys[(i, j)] = (f"{why}; its header writes the unit asked ({shown})", ev)
            else:
                matrix[i][j] = round(max(matrix[i][j] - 0.3, 0.0), 4)
                whys[(i, j)] = (f"{why}; its header writes {shown}, not the {asked} asked", ev)


def _prefixed(whole: Any, piece: Any) -> bool:
    """``whole`` is ``piece`` after a label of its own: ``"MSRP: $95,100"`` and ``"$95,100"``."""
    w, p = " ".join(str(whole or "").split()), " ".join(str(piece or "").split())
    if not w or not p or len(w) <= len(p) or not w.endswith(p):
        return False
    return w[: -len(p)].rstrip().endswith((":", "："))


def _whole_over_piece(
    candidates: list[Candidate], matrix: list[list[float]], whys: dict[tuple[int, int], tuple[str, str]]
) -> None:
    """A labelled value that carries a label of its own (``<dt>asking</dt><dd>MSRP: $95,100</dd>``) is
    read whole, as the page gives it, when both it and its inner piece serve a field: the inner
    "MSRP:" is part of what the source publishes for it, not a column of its own."""
    for j, cj in enumerate(candidates):
        for k, ck in enumerate(candidates):
            if j == k or len(cj.values) != len(ck.values) or cj.fill < 0.5:
                continue
            pairs = [(a, b) for a, b in zip(cj.values, ck.values, strict=True) if a not in (None, "")]
            if len(pairs) < 2 or not all(_prefixed(a, b) for a, b in pairs):
                continue
            for i, row in enumerate(matrix):
                if row[j] > 0 and row[k] > row[j]:
                    row[j] = round(row[k] + 0.001, 4)
                    why, ev = whys[(i, j)]
                    whys[(i, j)] = (f"{why}; read whole (its inner label is part of the value)", ev)


def score(requested: str, cand: Candidate, *, entity: str | None = None) -> tuple[float, str]:
    """How well ``cand`` serves ``requested`` (0 = not at all) and a short reason."""
    s, why, _ = _score(requested, cand, vt.profile(cand.values), entity=entity, header_texts=set())
    return s, why


def _hungarian(cost: list[list[float]]) -> list[int]:
    """Minimum-cost assignment of every row to a distinct column (rows <= columns): column per row.

    The classic O(n²m) Hungarian method with potentials; exact, like scipy's
    ``linear_sum_assignment``, whose import alone costs seconds on every run.
    """
    n, m = len(cost), len(cost[0])
    inf = float("inf")
    u, v = [0.0] * (n + 1), [0.0] * (m + 1)
    p, way = [0] * (m + 1), [0] * (m + 1)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = [inf] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = p[j0], inf, 0
            row = cost[i0 - 1]
            for j in range(1, m + 1):
                if not used[j]:
                    cur = row[j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j], way[j] = cur, j0
                    if minv[j] < delta:
                        delta, j1 = minv[j], j
            for j in range(m + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    out = [-1] * n
    for j in range(1, m + 1):
        if p[j]:
            out[p[j] - 1] = j - 1
    return out


def solve(matrix: list[list[float]], threshold: float) -> list[tuple[int, int]]:
    """Pairs (row, col) maximising the total score, each row and column once, scores >= threshold."""
    if not matrix or not matrix[0]:
        return []
    m = [[x if x >= threshold else 0.0 for x in row] for row in matrix]
    if not any(x for row in m for x in row):
        return []
    if len(m) <= len(m[0]):
        cols = _hungarian([[-x for x in row] for row in m])
        pairs = [(i, j) for i, j in enumerate(cols)]
    else:
        rows = _hungarian([[-m[i][j] for i in range(len(m))] for j in range(len(m[0]))])
        pairs = [(i, j) for j, i in enumerate(rows)]
    return [(i, j) for i, j in pairs if j >= 0 and i >= 0 and m[i][j] >= threshold and m[i][j] > 0]


def assign(
    requested: list[str],
    candidates: list[Candidate],
    *,
    entity: str | None = None,
    threshold: float = 0.45,
    eliminate: bool = True,
    aliases: dict[str, tuple[str, ...]] | None = None,
    units: dict[str, str] | None = None,
) -> dict[str, Match]:
    """Each requested field → its best candidate (each candidate serves one field), assigned globally.

    ``aliases`` are other names of a requested field (``aliases_of(plan)``), matched like its own;
    ``units`` the unit the request reads a field in (``rules.field_units``: "height in feet").
    Then the record's own name answers a text-like field no label named, and (``eliminate``)
    leftover fields take leftover unlabelled columns whose values have the field's type.
    """
    profs = [vt.profile(c.values) for c in candidates]
    header_texts = {normalise(t) for c in candidates for t, _, _ in c.texts() if len(normalise(t)) > 1}
    header_texts |= {normalise(r) for r in requested}
    rkeys = [_rule_key(c) for c in candidates]
    matrix: list[list[float]] = []
    whys: dict[tuple[int, int], tuple[str, str]] = {}
    headerish = [_label_values(c.values, header_texts) for c in candidates]
    for i, r in enumerate(requested):
        row = []
        for j, c in enumerate(candidates):
            if headerish[j]:
                row.append(0.0)
                whys[(i, j)] = ("values are label texts (a header read as data)", "")
                continue
            s, why, ev = _score(r, c, profs[j], entity=entity, header_texts=set(), aliases=aliases)
            row.append(s)
            whys[(i, j)] = (why, ev)
        matrix.append(row)
    _unit_rivals(requested, profs, matrix, whys, aliases)
    _asked_units(requested, candidates, matrix, whys, units or {})
    _whole_over_piece(candidates, matrix, whys)
    out: dict[str, Match] = {}
    used: set[int] = set()
    used_rules: set[str] = set()
    for i, j in sorted(solve(matrix, threshold), key=lambda p: -matrix[p[0]][p[1]]):
        if rkeys[j] in used_rules:
            continue  # the same reading under two names: one field only
        why, ev = whys[(i, j)]
        out[requested[i]] = Match(requested[i], candidates[j], matrix[i][j], why, ev)
        used.add(j)
        used_rules.add(rkeys[j])

    def free(j: int) -> bool:
        return j not in used and rkeys[j] not in used_rules and candidates[j].fill > 0

    # The record's own name (its heading, its link text) answers the first text-like field no
    # label matched: "club", "company", "model" are what a listing shows as each record's name. A
    # record named by a typed value (a day's prices headed by their date) answers the field of that
    # type: its values then say so (fit > 0), a heading of words never reads as a date.
    ident = next((j for j, c in enumerate(candidates) if c.identity and free(j)), None)
    if ident is not None and not any(m.candidate.identity for m in out.values()):
        for r in requested:
            fam = expected_type(r)
            typed = fam not in _TEXTISH and fam not in _INITIAL_FAMILIES and vt.fit(fam, profs[ident]) > 0
            if (
                r not in out
                and (fam in _TEXTISH or _names_entity(r, entity) or typed)
                and vt.fit(fam, profs[ident]) >= 0
                and not _label_values(candidates[ident].values, header_texts)
            ):
                out[r] = Match(r, candidates[ident], threshold, "the record's own name", "identity")
                used.add(ident)
                used_rules.add(rkeys[ident])
                break
    # A label naming the record's own kind by concept ("role" over job postings: a role is a position,
    # and a job is one) answers the first title-like field no label matched, repeating values or not.
    kind_col = next((j for j, c in enumerate(candidates) if free(j) and _labels_entity(c, entity)), None)
    if kind_col is not None and profs[kind_col].kind not in vt.NUMERIC:
        for r in requested:
            if r not in out and (_content(normalise(r)) in IDENTITY or _names_entity(r, entity)):
                why = f"label {candidates[kind_col].label!r} names the record's own kind ({entity})"
                out[r] = Match(r, candidates[kind_col], threshold, why, "identity")
                used.add(kind_col)
                used_rules.add(rkeys[kind_col])
                break
    if eliminate:
        out.update(_eliminate(requested, candidates, profs, out, free, header_texts, threshold, entity))
    taken = {_rule_key(m.candidate) for m in out.values()}
    named = _name_by_values(
        requested, candidates, profs, out, lambda j: free(j) and rkeys[j] not in taken, entity
    )
    if named is not None:
        r, j = named
        why = "one different short word value per record: the record's name"
        out[r] = Match(r, candidates[j], threshold, why, "identity")
    _whole_when_pieces_unused(candidates, out)
    _places_apart(requested, candidates, out)
    return {r: out[r] for r in requested if r in out}


def _places_apart(requested: list[str], candidates: list[Candidate], out: dict[str, Match]) -> None:
    """Places asked apart that one text writes together: "Haikou, China" under "City" when city and
    country are asked. The field the label named took the whole text; its comma pieces go from the
    narrowest place to the broadest (``lexicon.PLACE_ORDER``), so each place asked takes the piece of
    its rank: all pieces in order, or two places the first and the last piece. Nothing moves when a
    place asked has a column of its own, when two fields ask one rank or the pieces hold numbers."""
    for r, m in list(out.items()):
        whole, rank = m.candidate, lx.place_rank(r)
        if rank is None or whole.whole is not None:
            continue
        pieces = [c for c in candidates if c.whole is whole]
        # a place asked may hold a piece already (by elimination, its rank unread): it is placed anew
        cut = {f for f, x in out.items() if x.candidate.whole is whole}
        used = {_rule_key(x.candidate) for f, x in out.items() if f not in cut}
        if len(pieces) < 2 or any(_rule_key(p) in used for p in pieces) or not _comma_joined(whole, pieces):
            continue
        if any(vt.profile(p.values).kind in vt.NUMERIC for p in pieces):
            continue
        if any(lx.place_rank(f) is None for f in cut):
            continue  # another field's value is a piece of it: no places written together
        asked = [(rank, r)] + [
            (k, f) for f in requested if (f not in out or f in cut) and (k := lx.place_rank(f)) is not None
        ]
        if len(asked) < 2 or len({k for k, _ in asked}) != len(asked):
            continue
        asked.sort()
        if len(asked) == len(pieces):
            placed = list(zip(asked, pieces, strict=True))
        elif len(asked) == 2:
            placed = [(asked[0], pieces[0]), (asked[1], pieces[-1])]
        else:
            continue
        for (_, f), piece in placed:
            lab = whole.label if f == r else None
            cand = replace(piece, label=lab, anchor=whole.anchor if f == r else piece.anchor)
            why = f"piece {pieces.index(piece) + 1} of {len(pieces)} of {whole.label or 'a text'!r}"
            why += ": places written together go from the narrowest to the broadest"
            out[f] = Match(f, cand, m.score if f == r else m.score - 0.01, why, m.evidence)


def _comma_joined(whole: Candidate, pieces: list[Candidate]) -> bool:
    """True when every value of ``whole`` is its pieces' values joined by ", " (and some is)."""
    rows = list(zip(whole.values, *(p.values for p in pieces), strict=False))
    if len(rows) != len(whole.values) or not rows:
        return False
    filled = 0
    for w, *ps in rows:
        if w in (None, ""):
            continue
        filled += 1
        if any(p in (None, "") for p in ps) or re.sub(
            r"\s*,\s+", ", ", " ".join(str(w).split())
        ) != ", ".join(" ".join(str(p).split()) for p in ps):
            return False
    return filled >= 2


def _whole_when_pieces_unused(candidates: list[Candidate], out: dict[str, Match]) -> None:
    """The labelled text piece of a compound cell ("Fancy Pants" of "Fancy Pants (1950)" under "Title")
    stands for the column only because its other pieces (the year, a rank) are fields of their own.
    When no requested field takes any of them, the cell is read whole, as the page gives it."""
    taken = {id(m.candidate) for m in out.values()}
    for r, m in list(out.items()):
        piece, whole = m.candidate, m.candidate.whole
        if whole is None or not piece.main_piece:
            continue
        others = [c for c in candidates if c.whole is whole and c is not piece]
        if not others or any(id(c) in taken for c in others):
            continue
        cand = replace(whole, label=piece.label, anchor=piece.anchor, identity=piece.identity, whole=None)
        why = f"{m.why}; read whole (no requested field takes its other pieces)"
        out[r] = Match(r, cand, m.score, why, m.evidence)


def _name_by_values(
    requested: list[str],
    candidates: list[Candidate],
    profs: list[vt.Profile],
    out: dict[str, Match],
    free: Any,
    entity: str | None,
) -> tuple[str, int] | None:
    """A "name" field that no label answered takes the first free column whose values are short words,
    different in every record and never numbers, phones or addresses: what a list shows as each record's
    name when its header says "Venue" or nothing. A "name" field is a name word, the entity's own word
    ("restaurant" of restaurants) or a name-like first field ("college, phone, type"). Only when no
    column already serves as the record's name."""
    if any(m.evidence == "identity" for m in out.values()):
        return None
    ent = normalise(entity or "")
    ents = {ent, ent.rstrip("s")} if ent else set()
    ekeys = _entity_keys(entity)
    wanted = next(
        (
            r
            for r in requested
            if r not in out
            and (
                (rn := _content(normalise(r))) in IDENTITY
                or rn in ents
                or (rn.split()[-1:] == ["name"] and rn.split()[0] in ents)
                or bool(ekeys & lx.concept_keys(rn))  # "film" of movies, "vehicle" of used cars
                or (r == requested[0] and expected_type(r) == "title")  # a list names the record first
            )
        ),
        None,
    )
    if wanted is None:
        return None
    for j, p in enumerate(profs):
        if not free(j) or p.filled < 3 or p.filled < 0.9 * p.n or p.distinct < p.filled:
            continue
        if p.share_of(("text", "name")) < 0.9 or p.currency > 0 or p.avg_words > 8:
            continue
        if p.digits > 0.2 and (p.units or _digit_share(candidates[j].values) > 0.4):
            continue  # a measure in words ("16 mpg city"), not a name with a number ("2010 Honda Civic EX")
        return wanted, j
    return None


def _digit_share(values: list[Any]) -> float:
    """The share of digits among the letters and digits of the values."""
    text = "".join(str(v) for v in values if v not in (None, ""))
    alnum = [c for c in text if c.isalnum()]
    return sum(c.isdigit() for c in alnum) / max(len(alnum), 1)


def _entity_keys(entity: str | None) -> set[str]:
    """The record-naming concepts of the entity noun ("film" of movies, "job" of job postings)."""
    ent = normalise(entity or "")
    if not ent:
        return set()
    return {k for k in lx.concept_keys(ent) if (lx.concept(k) or lx.NO_CONCEPT).family == "title"}


def _labels_entity(cand: Candidate, entity: str | None) -> bool:
    """True when the candidate's label is a word for the record itself, by concept: its own concept
    ("Job" of job postings) or one the record's kind is a narrower meaning of ("role", a position)."""
    ekeys = _entity_keys(entity)
    if not ekeys or not cand.label:
        return False
    lkeys = {c.key for c, w in lx.concepts_of(cand.label) if w >= 0.8}  # not "Job type" by its first word
    return bool(ekeys & lkeys) or lx.narrower(lkeys, ekeys)


def _names_entity(requested: str, entity: str | None) -> bool:
    """True when the field's word is a word for the record itself: the "position" of job postings,
    the "film" of movies, or a word the record's kind is a narrower meaning of (a "role", a position,
    of job postings: a job is one). Whatever else the word may mean, the listing shows it as each
    record's name."""
    ekeys = _entity_keys(entity)
    rkeys = lx.concept_keys(_content(normalise(requested)))
    return bool(ekeys & rkeys) or (bool(ekeys) and lx.narrower(rkeys, ekeys))


def _eliminate(
    requested: list[str],
    candidates: list[Candidate],
    profs: list[vt.Profile],
    out: dict[str, Match],
    free: Any,
    header_texts: set[str],
    threshold: float,
    entity: str | None = None,
) -> dict[str, Match]:
    """Leftover fields ← leftover unlabelled columns, by value type (and order among equals). A field
    naming the record itself (``_names_entity``: the "role" of job postings) asks for its title."""

    def fam_of(r: str) -> str | None:
        return "title" if _names_entity(r, entity) else expected_type(r)

    fields = [r for r in requested if r not in out and fam_of(r) is not None]
    asked = set().union(*(lx.concept_keys(r) for r in fields)) if fields else set()
    cols = [
        j
        for j, c in enumerate(candidates)
        if free(j)
        and not c.told
        and (c.opaque() or not _names_asked(c, asked))
        and (not profs[j].constant or c.origin == _LINE_PIECE)
        and profs[j].kind != "empty"
        and c.origin not in ("link", "image")
        and not _label_values(c.values, header_texts)
    ]
    if not fields or not cols:
        return {}
    orgs = {j: vt.org_share(candidates[j].values) for j in cols}
    matrix = []
    for r in fields:
        fam = fam_of(r)
        # a title field naming another thing than the record ("user title" beside the username) may repeat
        own = r == requested[0] or _content(normalise(r)) in IDENTITY or _names_entity(r, entity)
        row = []
        for j in cols:
            f = vt.fit(fam, profs[j], own_name=own)
            strict = fam not in ("title", "person", "place", "category", "text", "long", "rating", "code")
            ok = f >= (0.8 if strict else 0.5) and (not strict or vt.distinctive(profs[j]))
            one_valued = profs[j].distinct == 1 and profs[j].filled >= 3
            if one_valued and fam not in ("year", "date", "datetime", "bool"):
                # the same text wherever it is shown ("Source code" under most releases) is template
                # text, not a value per record (a constant piece of a line may still be the year or
                # day of a one-year / one-day listing; a flag shown on some records is a yes/no)
                ok = False
            if ok and not candidates[j].opaque() and not (strict and _loose_label(candidates[j], fam)):
                ok = False  # a worded label is trusted unless its values plainly say another thing
            if not candidates[j].opaque():
                f -= 0.5  # an unlabelled column of the type goes first
            if fam == "title" and orgs[j]:
                # names of firms ("... Consulting", "... Ltd") answer an organisation, not another title
                f += 0.3 * orgs[j] if _ORG_CONCEPTS & lx.concept_keys(r) else -0.3 * orgs[j]
            if fam == "category" and not (profs[j].short and (profs[j].repeats or profs[j].avg_words <= 3)):
                ok = False  # a category repeats across records
            if fam == "code" and profs[j].filled >= 6 and profs[j].distinct * 3 <= profs[j].filled:
                f -= 0.3  # a few values shared by most records ("R", "D") are a category, not each one's code
            if fam in ("title", "person", "place", "text", "long") and profs[j].kind in vt.NUMERIC:
                ok = False
            row.append(round(threshold + 0.1 * f + 0.05 * candidates[j].fill, 4) if ok else 0.0)
        matrix.append(row)
    base = [row[:] for row in matrix]
    # among columns alike in type, the one in the same order as the fields wins the tie
    pos = {
        j: (candidates[j].position if candidates[j].position is not None else k) for k, j in enumerate(cols)
    }
    order = sorted(cols, key=lambda j: pos[j])
    for a in range(len(fields)):
        for b, j in enumerate(cols):
            if matrix[a][b]:
                rank = order.index(j)
                matrix[a][b] += 0.01 * (1.0 - abs(rank / max(len(cols) - 1, 1) - a / max(len(fields) - 1, 1)))
    got: dict[str, Match] = {}
    solved = solve(matrix, threshold)
    for a, b in solved:
        j = cols[b]
        # a rival another field takes by evidence ("R" for the party beside "Ozark-2" for the district)
        # is no rival; one it could swap with the pick as well (two equal counts) still is
        taken = {b2 for a2, b2 in solved if a2 != a and abs(base[a2][b] - base[a2][b2]) >= 0.005}
        if _tied(a, b, cols, base, candidates, profs, fam_of(fields[a]), taken):
            continue  # a coin toss between equals: leave the field to an honest refusal
        prof = profs[j]
        what = prof.kind + (", repeated" if prof.repeats else "")
        lab = f" {candidates[j].label!r}" if candidates[j].label else ""
        got[fields[a]] = Match(
            fields[a],
            candidates[j],
            round(matrix[a][b], 4),
            f"elimination: unlabelled{lab} column whose values look like {fam_of(fields[a])} ({what})",
            "elimination",
        )
    return got


# Concepts naming an organisation (lexicon keys): the employer, the publisher, the school.
_ORG_CONCEPTS = frozenset({"company", "publisher", "school"})


def _tied(
    a: int,
    b: int,
    cols: list[int],
    base: list[list[float]],
    candidates: list[Candidate],
    profs: list[vt.Profile],
    fam: str | None,
    taken: set[int] = frozenset(),  # type: ignore[assignment]
) -> bool:
    """True when the column picked for field ``a`` has a rival no evidence tells apart from it: another
    unlabelled column of the same value kind that fits the field as well (the same fit, so no range,
    unit or shape says which). Their order on the page is no evidence of which the user means."""
    j = cols[b]
    if not candidates[j].opaque() or candidates[j].texts():
        return False
    for b2, j2 in enumerate(cols):
        if (
            b2 == b
            or b2 in taken
            or not base[a][b2]
            or candidates[j2].texts()
            or candidates[j2].values == candidates[j].values
            or (
                candidates[j2].aside
                and candidates[j2].whole is not None
                and candidates[j2].whole is candidates[j].whole
            )
        ):
            continue  # a labelled rival, the same column read twice, or the pick's own aside is no tie
        if (
            profs[j2].kind == profs[j].kind
            and abs(base[a][b2] - base[a][b]) < 0.005
            and _alike(profs[j], profs[j2])
        ):
            if not _span_narrower(fam, candidates[j].values, candidates[j2].values):
                return True  # (a rival of the narrower span makes the pick a guess as well)
    return False


def _alike(p: vt.Profile, q: vt.Profile) -> bool:
    """Two columns of one kind whose texts are also of one length: a headline of eight words and a
    summary of forty differ in shape, which is evidence, not a coin toss."""
    lo, hi = sorted((p.avg_words or 0.0, q.avg_words or 0.0))
    return hi <= 1.5 * max(lo, 1.0)


def _span(values: list[Any]) -> float | None:
    """How far apart the column's numbers lie (max - min), None when it holds too few numbers."""
    nums = []
    for v in values:
        m = re.search(r"-?\d+(?:\.\d+)?", str(v).replace(",", "")) if v not in (None, "") else None
        if m:
            nums.append(float(m.group()))
    return max(nums) - min(nums) if len(nums) >= 3 else None


def _span_narrower(fam: str | None, one: list[Any], other: list[Any]) -> bool:
    """Range evidence between two columns of years: True when ``one`` is the year and ``other`` not.
    The records' years lie close together (a season, a decade), so a column spanning ten times the
    other's range and centuries ("1482 .. 1941") is a count that happens to have four digits."""
    if fam != "year":
        return False
    s1, s2 = _span(one), _span(other)
    if s1 is None or s2 is None:
        return False
    return s2 >= 100 and s2 > 10 * max(s1, 1)


def _names_asked(cand: Candidate, asked: set[str]) -> bool:
    """True when a text naming ``cand`` shares a concept with a field still unplaced: its name, not its
    values, decides for it (a field already matched by name is no rival: "Venue" took the venue)."""
    return any(lx.concept_keys(t) & asked for t, _, _ in cand.texts())


def _loose_label(cand: Candidate, fam: str) -> bool:
    """A worded label whose meaning is of another value family than ``fam`` while its values have the
    shape of ``fam`` ("Where" or "Location" over street addresses, "Details / Call" over phone numbers):
    the values say what the column is. A label of the same family ("Deadline" for a posting date) names
    a sibling meaning and is trusted, and so is a word the lexicon does not know."""
    fams = {c.family for t, _, _ in cand.texts() for c, _ in lx.concepts_of(t)} - {None}
    return bool(fams) and fam not in fams  # a word naming nothing known ("Deposit") says what it is


def column_type(values: list[Any]) -> str:
    """The ColumnSpec type values of one shape land as: integers and plain numbers typed, others text."""
    kind, share = dominant_type(values)
    if share < 1.0:
        return "string"
    return {"integer": "integer", "number": "float"}.get(kind, "string")
