"""The paraphrase generator for zoo instructions: one request, worded the many ways people word it.

Why: agents tuned to one sentence shape ("Collect all accepted papers of X Y.") prove nothing about
the sentences users write. Each zoo task gets a sentence drawn at random (by the task's rng) from
imperatives, questions, "I need ..." and "Build me a dataset of ..." openings, with or without the
field list, fields named by synonyms taken from the kind's labels, and scopes phrased several ways
("in 2019", "from 2003 through 2006", "Q1 2023", "the past three years", "Lakers only").

Relative scopes are exact: "the past N years" means the N calendar years before ``today``'s year
(in 2025: 2022-2024), "since Y" an open-ended ``ge`` filter. Every other filter value is written out.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from prefect_autodata.sandbox.zoo.base import FieldDef, KindDef

Op = Literal["eq", "in", "range", "ge", "le"]


@dataclass(frozen=True)
class SiteMention:
    """The site a sentence names (its display name) and the random stream its wording is drawn from
    (apart from the task's, so naming the site changes no other draw)."""

    name: str
    rng: random.Random


@dataclass(frozen=True)
class Filter:
    """One restriction of the request: ``Filter("year", "range", (2003, 2006))``."""

    field: str
    op: Op
    value: Any


# Labels that are not nouns a person would use for a field ("By" for author, "@" for address).
_NOT_NOUNS = {"by", "at", "in", "on", "of", "from", "for", "to", "via", "with", "where", "when", "no", "#"}
# Labels that are verbs or asides on a page but no name for a field in a request.
_NOT_FIELD_WORDS = {"call", "download", "asking", "won", "lost", "web", "more", "details", "info", "view"}
_NUMBER_WORDS = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
}
_QUARTER_WORDS = {1: "first", 2: "second", 3: "third", 4: "fourth"}
_MONTHS = ("January February March April May June July August September October November December").split()


# ---------------------------------------------------------------- field words


def _is_acronym(text: str) -> bool:
    """'PTS', '3PM', 'FG%', 'ERA': upper-case tokens a person types as they are."""
    letters = re.sub(r"[^A-Za-z]", "", text)
    return bool(letters) and letters.isupper() and " " not in text.strip()


def _shouted(label: str, fd: FieldDef) -> bool:
    """'YEAR' beside 'Year': a casing variant of a word, not an acronym like 'PTS' or 'WHIP'."""
    low = label.strip().lower()
    return any(other.strip().lower() == low and not _is_acronym(other) for other in fd.labels)


def _natural(label: str, fd: FieldDef) -> str | None:
    """The label as a person would write it in a sentence, or None when it is no usable noun."""
    text = re.sub(r"\s+", " ", label.strip().rstrip(":").strip())
    if not text or text.endswith(".") or text.lower() in _NOT_NOUNS:
        return None
    if re.search(r"[^\w\s%/'&+-]", text):  # icons, arrows, brackets
        return None
    low = text.lower()
    words = low.split()
    if words[0] in {"our", "your", "my", "the", "a", "an"}:  # "Our price" reads badly in a list
        return None
    if len(words) > 1 and words[-1] in _NOT_NOUNS:  # "Listed on", "Directed by": not nouns
        return None
    if _is_acronym(text) and not _shouted(text, fd):
        return text if len(re.sub(r"[^A-Za-z]", "", text)) > 1 or "%" in text else None  # not "O", "H", "L"
    if len(words) == 1 and (low.endswith("ed") or low in _NOT_FIELD_WORDS):  # "Published", "Rated", "Call"
        return None
    if len(re.sub(r"[^a-z]", "", low)) <= 2:  # "Yr", "Hi": abbreviations nobody types in a request
        return None
    return low


def _name_word(fd: FieldDef) -> str:
    """The canonical field name as a word: ``fuel_economy`` → "fuel economy", ``pts`` → "PTS"."""
    plain = fd.name.replace("_", " ").strip()
    squeezed = fd.name.replace("_", "").lower()
    for label in fd.labels:
        same = label.replace(" ", "").replace("_", "").lower() == squeezed
        if same and _is_acronym(label) and not _shouted(label, fd):
            return label.strip()
    if not re.search(r"[aeiouy]", plain) or re.search(r"\d", plain):
        return plain.upper()
    acronyms = {t for label in fd.labels for t in label.split() if _is_acronym(t) and not _shouted(t, fd)}
    return " ".join(t.upper() if t.upper() in acronyms else t for t in plain.split())  # "MPAA rating"


def _candidates(fd: FieldDef) -> list[str]:
    out = [_name_word(fd)]
    for label in fd.labels:
        word = _natural(label, fd)
        if word and word.lower() not in {w.lower() for w in out}:
            out.append(word)
    return out


def field_words(kind: KindDef, fields: list[str], rng: random.Random) -> dict[str, str]:
    """The word the user says for each canonical field: its own name or one of its labels, distinct
    across the fields (a sentence never names two fields alike)."""
    used: set[str] = set()
    out: dict[str, str] = {}
    for name in fields:
        cands = _candidates(kind.field(name))
        rng.shuffle(cands)
        # keep the canonical name likely: it is what most people would say
        if rng.random() < 0.4:
            cands.insert(0, _name_word(kind.field(name)))
        word = next((c for c in cands if c.lower() not in used), None) or name
        used.add(word.lower())
        out[name] = word
    return out


# ---------------------------------------------------------------- scope phrases


def _as_date(value: Any) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        return dt.date.fromisoformat(value)
    return None


def _as_year(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and 1000 <= value <= 2999:
        return value
    if isinstance(value, str) and re.fullmatch(r"\d{4}", value):
        return int(value)
    return None


def _text(value: Any) -> str:
    d = _as_date(value)
    return d.isoformat() if d else str(value)


def _join(items: Sequence[str], rng: random.Random, conj: str = "and") -> str:
    items = list(items)
    if len(items) == 1:
        return items[0]
    oxford = "," if len(items) > 2 and rng.random() < 0.5 else ""
    return ", ".join(items[:-1]) + f"{oxford} {conj} " + items[-1]


def _year_range(lo: int, hi: int, rng: random.Random, today: dt.date, sport: bool) -> str:
    n = hi - lo + 1
    if hi == today.year - 1 and n in _NUMBER_WORDS and rng.random() < 0.35:
        return rng.choice(
            [f"over the past {_NUMBER_WORDS[n]} years", f"for the last {_NUMBER_WORDS[n]} years"]
        )
    if lo == hi:
        return _year_eq(lo, rng, sport)
    forms = [
        f"from {lo} through {hi}",
        f"from {lo} to {hi}",
        f"between {lo} and {hi}",
        f"for {lo}-{hi}",
        f"for the years {lo} to {hi}",
        f"from {lo} until {hi}",
    ]
    if sport:
        forms.append(f"for the {lo} to {hi} seasons")
    return rng.choice(forms)


def _year_eq(year: int, rng: random.Random, sport: bool) -> str:
    forms = [f"in {year}", f"for {year}", f"from {year}", f"during {year}"]
    if sport:
        forms += [f"for the {year} season", f"in the {year} season"]
    return rng.choice(forms)


def _date_range(lo: dt.date, hi: dt.date, rng: random.Random) -> str:
    if lo.month == 1 and lo.day == 1 and hi == dt.date(lo.year, 12, 31):
        return rng.choice([f"in {lo.year}", f"for all of {lo.year}", f"during {lo.year}"])
    q_start = {1: 1, 4: 2, 7: 3, 10: 4}.get(lo.month)
    if q_start and lo.day == 1 and lo.year == hi.year:
        q_end = _month_end(lo.year, lo.month + 2)
        if hi == q_end:
            return rng.choice(
                [
                    f"in Q{q_start} {lo.year}",
                    f"for Q{q_start} {lo.year}",
                    f"in the {_QUARTER_WORDS[q_start]} quarter of {lo.year}",
                    f"during the {_QUARTER_WORDS[q_start]} quarter of {lo.year}",
                ]
            )
    if lo.day == 1 and lo.year == hi.year and lo.month == hi.month and hi == _month_end(lo.year, lo.month):
        return rng.choice([f"in {_MONTHS[lo.month - 1]} {lo.year}", f"for {_MONTHS[lo.month - 1]} {lo.year}"])
    a, b = lo.isoformat(), hi.isoformat()
    return rng.choice(
        [f"between {a} and {b}", f"from {a} to {b}", f"from {a} through {b}", f"for the period {a} to {b}"]
    )


def _month_end(year: int, month: int) -> dt.date:
    nxt = dt.date(year + month // 12, month % 12 + 1, 1)
    return nxt - dt.timedelta(days=1)


def _value_phrase(word: str, value: Any, rng: random.Random) -> str:
    """An equality on a text field: "for the Lakers", "only the Findings track", "Canon only"."""
    v = _text(value)
    ends_with_word = v.lower().endswith(word.lower())
    short = len(v.split()) <= 3
    forms = [f"whose {word} is {v}", f"with {word} {v}", f"where the {word} is {v}"]
    if short:
        plural_name = v[:1].isupper() and v.endswith("s") and not ends_with_word  # "the Lakers"
        forms += [f"{v} only", f"for the {v}" if plural_name else f"for {v}", f"only {v}"]
        forms.append(f"only the {v}" if ends_with_word else f"only the {v} {word}")
    return rng.choice(forms)


def _bound(word: str, value: Any, op: str, rng: random.Random, *, is_year: bool, is_date: bool) -> str:
    v = _text(value)
    if op == "ge":
        if is_year or is_date:
            return rng.choice([f"since {v}", f"from {v} on", f"from {v} onwards", f"{v} or later"])
        return rng.choice(
            [f"with {word} of at least {v}", f"whose {word} is {v} or more", f"with {word} >= {v}"]
        )
    if is_year or is_date:
        return rng.choice([f"up to {v}", f"through {v}", f"until {v}", f"{v} or earlier"])
    return rng.choice([f"with {word} of at most {v}", f"whose {word} is {v} or less", f"with {word} <= {v}"])


def scope_phrase(kind: KindDef, flt: Filter, word: str, rng: random.Random, today: dt.date) -> str:
    """One filter as words ("from 2003 through 2006", "only the Findings track")."""
    fd = next((f for f in kind.fields if f.name == flt.field), None)
    ftype = fd.type if fd else "text"
    sport = kind.domain == "sport"
    if flt.op == "range":
        lo, hi = flt.value
        ylo, yhi = _as_year(lo), _as_year(hi)
        if ylo is not None and yhi is not None:
            return _year_range(ylo, yhi, rng, today, sport)
        dlo, dhi = _as_date(lo), _as_date(hi)
        if dlo and dhi:
            return _date_range(dlo, dhi, rng)
        a, b = _text(lo), _text(hi)
        return rng.choice([f"with {word} between {a} and {b}", f"whose {word} is from {a} to {b}"])
    if flt.op == "in":
        vals = [_text(v) for v in flt.value]
        if len(vals) == 1:
            return scope_phrase(kind, Filter(flt.field, "eq", flt.value[0]), word, rng, today)
        years = [_as_year(v) for v in flt.value]
        if all(y is not None for y in years):
            return rng.choice([f"in {_join(vals, rng)}", f"for the years {_join(vals, rng)}"])
        return rng.choice(
            [
                f"for {_join(vals, rng)}",
                f"only {_join(vals, rng, 'or')}",
                f"whose {word} is {_join(vals, rng, 'or')}",
                f"with {word} {_join(vals, rng, 'or')}",
            ]
        )
    is_year = _as_year(flt.value) is not None and ftype in ("int", "date", "text")
    is_date = _as_date(flt.value) is not None
    if flt.op in ("ge", "le"):
        return _bound(word, flt.value, flt.op, rng, is_year=is_year, is_date=is_date)
    if is_year:
        return _year_eq(int(flt.value), rng, sport)
    if is_date:
        return rng.choice(
            [f"on {_text(flt.value)}", f"for {_text(flt.value)}", f"for the day {_text(flt.value)}"]
        )
    if ftype in ("int", "number", "money", "percent"):
        return rng.choice([f"with {word} {flt.value}", f"whose {word} is {flt.value}"])
    return _value_phrase(word, flt.value, rng)


# ---------------------------------------------------------------- the sentence


def _field_list(words: list[str], rng: random.Random) -> str:
    """How the requested fields follow the entity."""
    joined = _join(words, rng)
    return rng.choice(
        [
            f" with {joined}",
            f", including their {joined}",
            f" — fields: {', '.join(words)}",
            f" ({', '.join(words)})",
            f" with the {joined} of each",
            f", giving {joined} for each one",
            f": {', '.join(words)}",
            f", listing {joined}",
        ]
    )


def _entity(kind: KindDef, rng: random.Random) -> tuple[str, str]:
    """(phrase, determiner style), e.g. "every paper", "all the used cars"."""
    forms = [
        (f"every {kind.singular}", "every"),
        (f"all {kind.plural}", "all"),
        (f"all the {kind.plural}", "all the"),
        (f"all of the {kind.plural}", "all of"),
        (f"the {kind.plural}", "the"),
        (f"each {kind.singular}", "each"),
    ]
    return rng.choice(forms)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def instruction(
    kind: KindDef,
    fields: list[str] | None,
    filters: list[Filter],
    rng: random.Random,
    *,
    today: dt.date,
    field_words: dict[str, str] | None = None,
    site: SiteMention | None = None,
) -> str:
    """A sentence asking for the kind's records under ``filters``, naming ``fields`` when given
    (by ``field_words`` when given, else words drawn from the kind's labels). With ``site`` the sentence
    names that site ("on Harbor Works", "from the Harbor Works site", "Harbor Works's ...") where it
    would say "on this site" or nothing; the task's ``rng`` makes exactly the draws it makes without."""
    words_by_field = dict(field_words or {})
    wanted = list(fields or [])
    missing = [
        f for f in wanted + [flt.field for flt in filters] if f not in words_by_field and _has(kind, f)
    ]
    if missing:
        drawn = _draw_words(kind, list(dict.fromkeys(missing)), rng)
        words_by_field.update({k: v for k, v in drawn.items() if k not in words_by_field})
    scopes = [scope_phrase(kind, f, words_by_field.get(f.field, f.field), rng, today) for f in filters]
    flist = ""
    if wanted:
        flist = _field_list([words_by_field.get(f, f) for f in wanted], rng)
    ent, det = _entity(kind, rng)
    listed = rng.choice(["", "", "", " listed on the site", " on this site", " you can find"])
    front_site = ""
    plural = kind.plural
    if site is not None:
        listed, ent, plural, front_site = _site_words(site, kind, ent, det)
    scopes.sort(key=_appositive)  # "in 2019, only the Findings track": the aside comes last
    scope_text = "".join((", " if _appositive(s) else " ") + s for s in scopes)
    if scopes and flist.startswith(" with") and _appositive(scopes[-1]):
        flist = "," + flist
    front_scope = len(scopes) == 1 and scopes[0].startswith(_FRONTABLE) and rng.random() < 0.2
    if front_scope and front_site:  # the scope opens the sentence: the site follows the records
        listed, front_site = f" on {site.name}", ""
    body = f"{ent}{listed}{'' if front_scope else scope_text}{flist}"
    noun_body = f"{plural}{listed}{'' if front_scope else scope_text}{flist}"

    kinds_of_sentence = [
        ("imperative", lambda: f"{rng.choice(_VERBS)} {body}."),
        ("please", lambda: f"Please {rng.choice(_VERBS).lower()} {body}."),
        ("question", lambda: f"{rng.choice(_ASKS)} {rng.choice(_VERBS).lower()} {body}?"),
        ("need", lambda: f"{rng.choice(_NEEDS)} {body}."),
        ("dataset", lambda: f"{rng.choice(_DATASETS)} {noun_body}."),
        ("want-question", lambda: f"{rng.choice(_WANT_Q)} {noun_body}?"),
    ]
    _, make = rng.choice(kinds_of_sentence)
    sentence = make()
    if front_scope:
        sentence = _capital(scopes[0]) + ", " + sentence[:1].lower() + sentence[1:]
    elif front_site:
        keep = re.match(r"I\b", sentence) is not None  # "I'd like", "I need": the pronoun stays upper-case
        sentence = front_site + ", " + (sentence if keep else sentence[:1].lower() + sentence[1:])
    sentence = re.sub(r"\s+", " ", sentence).replace(" ,", ",").replace(" .", ".").replace(" ?", "?")
    return _capital(sentence.strip())


def _site_words(site: SiteMention, kind: KindDef, ent: str, det: str) -> tuple[str, str, str, str]:
    """How a sentence names its site: (the words after the records, the records phrase, the bare plural,
    an opening "On X"), drawn from the site's own stream: "on X", "from the X site", "X's cameras"...
    A bare "from X" is not among them: "used cars from Norlumros Data3" reads as a place as much."""
    r, x = site.rng, site.name
    after = [
        f" on {x}",
        f" at {x}",
        f" listed on {x}",
        f" from the {x} site",
        f" on the {x} website",
        f" available on {x}",
        f" published on {x}",
    ]
    style = r.choice(["after"] * 5 + ["possessive", "front"])
    if style == "possessive" and not x.endswith("s") and det in ("all", "all the", "all of", "the"):
        owner = f"{x}'s {kind.plural}"
        return "", ("all of " if det.startswith("all") else "") + owner, owner, ""
    if style == "front":
        return "", ent, kind.plural, r.choice([f"On {x}", f"At {x}", f"From the {x} site"])
    return r.choice(after), ent, kind.plural, ""


def _appositive(scope: str) -> bool:
    """ "Lakers only" / "only the Findings track" follow a comma; "in 2019" follows the noun directly."""
    return scope.startswith("only ") or scope.endswith(" only")


def _has(kind: KindDef, name: str) -> bool:
    return any(f.name == name for f in kind.fields)


_FRONTABLE = ("in ", "from ", "for ", "between ", "during ", "since ", "over ")
_VERBS = ["Collect", "Get", "Scrape", "Gather", "Fetch", "Pull", "Download", "Extract", "Grab", "Compile"]
_ASKS = ["Can you", "Could you", "Would you", "Can you please"]
_NEEDS = ["I need", "I'd like", "I want", "We need", "I'm looking for", "Send me"]
_DATASETS = [
    "Build me a dataset of",
    "Make a table of",
    "Put together a spreadsheet of",
    "Create a dataset of",
    "I need a dataset of",
    "Give me a CSV of",
    "Compile a list of",
]
_WANT_Q = ["Can I get a dataset of", "Could you build a table of", "Is it possible to get a list of"]


_draw_words = field_words  # instruction() takes a parameter of the same name
