"""Value typing: what one value looks like, and the profile of a column of sample values.

Kinds of one value: ``empty bool url email phone datetime date time year money percent height
duration integer decimal code name address text long``. A column profile adds the share of its
dominant kind, how many distinct values it has, their length, and whether it repeats (a short
category) or stays constant (template text). Formats in several languages: day/month names, decimal
commas, thousands separators (``1,234`` ``1.234`` ``1 234``), currency symbols before or after the
amount, heights ``6-10`` / ``6'10"`` / ``1.85 m``. Nothing here knows a record kind.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from prefect_autodata.agents.induction import lexicon as lx

KINDS = (
    "empty bool url host level email phone datetime date time year money percent height duration integer decimal "
    "code place name address text long"
).split()

_MON = "|".join(sorted((re.escape(m) for m in lx.MONTHS), key=len, reverse=True))
_CUR = lx.CURRENCY_SIGN_RE
_CODES = lx.CURRENCY_CODE_RE
_NUM = r"\d{1,3}(?:[,.\s\u202f\u00a0']\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?"

_URL = re.compile(r"^(?:https?://|www\.)\S+$|^/[^\s/][^\s]*$|^/$", re.I)
# A host name as pages print a link's site ("github.com", "blog.example.co.uk"): lower-case labels
# and a final label of letters that is no file extension ("index.html", "report.pdf" are files).
_HOST = re.compile(r"^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+([a-z]{2,12})$")
_FILE_EXT = frozenset(
    "html htm xhtml php asp aspx jsp cgi pdf doc docx xls xlsx ppt pptx txt csv tsv json xml yaml yml js css "
    "jpg jpeg png gif svg webp bmp tif tiff ico mp3 mp4 wav avi mov mkv zip gz tgz bz2 rar exe dmg iso py rb".split()
)
# A price level written as a run of one currency sign ("$$", "€€€"): how dear, not an amount.
_LEVEL = re.compile(rf"^([{_CUR}])\1{{0,4}}$")
_EMAIL = re.compile(r"^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$")
_PERCENT = re.compile(r"^[-+]?\d+(?:[.,]\d+)?\s?%$|^%\s?\d+(?:[.,]\d+)?$")
_MONEY = re.compile(
    rf"^[-+]?(?:(?:[A-Z]{{1,3}})?[{_CUR}]|(?:{_CODES})\s?|R\$\s?)\s?(?:{_NUM})(?:\s?[kKmMbB](?:n|illion)?)?"
    rf"(?:\s?[-–]\s?(?:[{_CUR}])?\s?(?:{_NUM})(?:\s?[kKmM])?)?(?:\s?/\s?\w+)?$"
    rf"|^[-+]?(?:{_NUM})\s?(?:[{_CUR}]|(?:{_CODES})\b|€)(?:\s?/\s?\w+)?$",
    re.I,
)
_HEIGHT = re.compile(
    r"^[4-8]-(?:\d|1[01])$|^\d'\s?\d{1,2}(?:\"|''|”)?$|^\d\s?ft\.?\s?\d{1,2}\s?in\.?$"
    r"|^\d(?:[.,]\d{1,2})\s?m$|^\d{2,3}\s?cm$",
    re.I,
)
_DURATION = re.compile(
    r"^\d+\s?(?:min|mins|minutes|minuten|minutos|minuti|m)\.?$|^\d+\s?h(?:r|rs|ours?)?\.?\s?\d{1,2}\s?m(?:in)?\.?$"
    r"|^\d+\s?(?:h|hr|hrs|hours|stunden|horas)\.?$|^PT(?:\d+H)?(?:\d+M)?(?:\d+S)?$",
    re.I,
)
_TIME = re.compile(
    r"^\d{1,2}(?::\d{2}){1,2}\s?(?:[ap]\.?m\.?)?$|^\d{1,2}\s?[ap]\.?m\.?$"
    r"|^\d{1,2}(?::\d{2})?\s?(?:[ap]\.?m\.?)?\s?[-–]\s?\d{1,2}(?::\d{2})?\s?(?:[ap]\.?m\.?)?$",
    re.I,
)
_ISO_DT = re.compile(r"^\d{4}-\d{1,2}-\d{1,2}[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$")
_DATE = re.compile(
    rf"^\d{{4}}-\d{{1,2}}-\d{{1,2}}$|^\d{{1,2}}[/.-]\d{{1,2}}[/.-]\d{{2,4}}$|^\d{{4}}[/.]\d{{1,2}}[/.]\d{{1,2}}$"
    rf"|^(?:[a-z]+\.?,?\s)?(?:{_MON})\.?\s\d{{1,2}}(?:st|nd|rd|th)?,?\s\d{{4}}$"
    rf"|^(?:[a-z]+\.?,?\s)?\d{{1,2}}(?:st|nd|rd|th|er|\.|º)?\s(?:de\s)?(?:{_MON})\.?,?\s(?:de\s)?\d{{4}}$"
    rf"|^(?:{_MON})\.?\s\d{{4}}$|^\d{{4}}-\d{{2}}$|^\d{{8}}$",
    re.I,
)
_YEAR = re.compile(r"^(?:1[5-9]|20)\d{2}$|^(?:1[89]|20)\d{2}[-–/](?:\d{2}|(?:1[89]|20)\d{2})$")
_INTEGER = re.compile(r"^[-+]?[1-9]\d{0,2}(?:[,\s.\u202f\u00a0']\d{3})+$|^[-+]?\d+$")
_DECIMAL = re.compile(
    r"^[-+]?\d{1,3}(?:,\d{3})*\.\d+$|^[-+]?\d{1,3}(?:\.\d{3})*,\d+$|^[-+]?\d*[.,]\d+$"
    r"|^[-+]?\d+(?:\.\d+)?[eE][-+]?\d+$"
)
_PHONE = re.compile(r"^(?:\+|00)?[\d\s().\-/]{7,22}(?:\s?(?:x|ext\.?)\s?\d{1,5})?$", re.I)
_CODE = re.compile(
    r"^(?=[^\s]*[A-Za-z])(?=[^\s]*\d)[A-Za-z0-9][\w\-./#:]{0,19}$|^[A-Z]{1,5}(?:[-+/.][A-Z0-9]{1,4})?$"
    # a subject's capitals and a number ("HIST 101", "CS 2410H"): a catalogue code written with a space
    r"|^[A-Z]{2,5}\s\d{2,5}[A-Z]?$"
)
_BOOL = lx.TRUE_FALSE
_NAME_WORD = re.compile(
    r"^(?:[A-Z][a-z'’\-]+(?:-[A-Z][a-z'’]+)?|[A-Z]\.|[A-Z][a-z]?\.|O'[A-Z][a-z]+|Mc[A-Z][a-z]+)$"
)
_POSTAL = re.compile(
    r"\b(?:[A-Z]{2}\s\d{5}(?:-\d{4})?|\d{5}(?:-\d{4})?|[A-Z]\d[A-Z]\s?\d[A-Z]\d|[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2})\b"
)


# A town with its region's postal code ("Baltimore MD", "San Antonio, TX", "Toronto, ON M5V"): a place.
_PLACE = re.compile(
    r"^(?:[A-Z][\w'’.-]*|St\.)(?:\s(?:[A-Z][\w'’.-]*|de|la|du|of|upon|on|del|el))*,?\s(?P<r>[A-Z]{2})"
    r"(?:\s(?:\d{5}(?:-\d{4})?|[A-Z]\d[A-Z](?:\s?\d[A-Z]\d)?))?$"
)


def _place(s: str) -> bool:
    m = _PLACE.match(s)
    return bool(m) and m.group("r") in lx.REGION_CODES and len(s.split()) <= 6


_CUR_INSIDE = re.compile(rf"[{_CUR}]\s?\d|\d\s?[{_CUR}]|\b(?:{_CODES})\s?\d", re.I)
_MEASURES = frozenset("money integer number percent height weight length duration year".split())


def _numeric_after_units(s: str) -> str | None:
    """``"120 min"`` stays a duration; ``"2,450 kg"``, ``"35 mpg"``: a number with a unit is a decimal."""
    m = re.fullmatch(rf"([-+]?(?:{_NUM}))\s?([A-Za-z/.%²³]{{1,8}}|°[CFK]?)", s)  # "38°", "12 °C": degrees
    if m and not re.fullmatch(r"(?:st|nd|rd|th)", m.group(2), re.I):
        return "decimal"
    return None


def _address(s: str) -> bool:
    words = [lx.fold(w).strip(".,#") for w in s.split()]
    if len(words) < 2 or not any(c.isdigit() for c in s):
        return False
    street = any(w in lx.STREET_WORDS for w in words)
    lead_no = bool(re.match(r"^\d{1,6}[a-z]?\s+\S", s, re.I)) or bool(re.search(r"\s\d{1,5}[a-z]?(?:,|$)", s))
    return (street and (lead_no or "," in s)) or (lead_no and bool(_POSTAL.search(s)) and "," in s)


def _person(s: str) -> bool:
    words = s.replace(",", " ").split()
    if not 2 <= len(words) <= 5 or len(s) > 48 or any(c.isdigit() for c in s):
        return False
    caps = [w for w in words if lx.fold(w).strip(".") not in lx.NAME_PARTICLES]
    return len(caps) >= 2 and all(_NAME_WORD.match(_unaccented(w)) for w in caps)


def _unaccented(word: str) -> str:
    """The word without its accents, its case kept: "Müller" -> "Muller", "Éric" -> "Eric"."""
    s = unicodedata.normalize("NFKD", word)
    return "".join(c for c in s if not unicodedata.combining(c))


def _people(s: str) -> bool:
    """A list of persons' names: "Grover, Claire and Lascarides, Alex" (surname first, the persons
    parted by "and" or ";"), or "Claire Grover, Alex Lascarides, Bo Li" (parted by commas too)."""
    for parts in (_AND.split(s), _AND_COMMA.split(s)):
        parts = [p.strip() for p in parts if p.strip()]
        if len(parts) >= 2 and all(len(p.replace(",", " ").split()) >= 2 and _person(p) for p in parts):
            return True
    return False


_AND = re.compile(r"\s+(?:and|&)\s+|\s*;\s*")
_AND_COMMA = re.compile(r"\s+(?:and|&)\s+|\s*[;,]\s*(?:and\s+)?")


def kind_of(value: Any) -> str:
    """The kind of one value (see KINDS)."""
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "year" if 1500 <= value <= 2099 else "integer"
    if isinstance(value, float):
        return "decimal"
    if isinstance(value, dict | list):
        return "text" if value else "empty"
    return _kind_str(str(value))


@functools.lru_cache(maxsize=65536)
def _kind_str(value: str) -> str:
    s = " ".join(value.split())
    if not s:
        return "empty"
    low = s.lower()
    if low in _BOOL and len(s) > 1:
        return "bool"
    if _URL.match(s):
        return "url"
    if _EMAIL.match(s):
        return "email"
    if _LEVEL.match(s):
        return "level"
    host = _HOST.match(s)
    if host and host.group(1) not in _FILE_EXT:
        return "host"
    if _PERCENT.match(s):
        return "percent"
    if _MONEY.match(s):
        return "money"
    if _ISO_DT.match(s):
        return "datetime"
    if _HEIGHT.match(s):
        return "height"
    season = re.fullmatch(r"((?:1[89]|20)\d{2})[-–/](\d{2})", s)
    if season and (int(season.group(1)) + 1) % 100 == int(season.group(2)):
        return "year"  # a season spanning two years: "2023-24"
    if _DATE.match(s) or (not s.isascii() and _DATE.match(lx.fold(s))):
        if re.fullmatch(r"\d{8}", s) and not (1800 <= int(s[:4]) <= 2100 and 1 <= int(s[4:6]) <= 12):
            return "integer"
        return "date"
    if _YEAR.match(s):
        return "year"
    if _DURATION.match(s):
        return "duration"
    if _TIME.match(s):
        return "time"
    if _INTEGER.match(s):
        return "integer"
    if _DECIMAL.match(s):
        return "decimal"
    if _PHONE.match(s) and 7 <= sum(c.isdigit() for c in s) <= 15 and re.search(r"[\s().\-/+]", s):
        return "phone"
    unit = _numeric_after_units(s)
    if unit:
        return unit
    if _CODE.match(s):
        return "code"
    if _place(s):
        return "place"
    if _address(s):
        return "address"
    if _person(s) or _people(s):
        return "name"
    if len(s) >= 100 or len(s.split()) >= 14:
        return "long"
    return "text"


# The coarse vocabulary the rest of the package types columns with.
COARSE = {
    "datetime": "date",
    "decimal": "number",
    "bool": "text",
    "host": "text",
    "level": "text",
    "time": "text",
    "duration": "text",
    "code": "text",
    "name": "text",
    "address": "text",
    "place": "text",
    "long": "text",
}


def coarse(kind: str) -> str:
    return COARSE.get(kind, kind)


NUMERIC = frozenset({"integer", "decimal", "year", "money", "percent"})
TEXTUAL = frozenset({"text", "name", "code", "address", "place", "long", "host"})
# What a kind of value is called when a page gives it no label of its own: a column of host names
# ("github.com" beside each story) is the records' domain (a class name "sitestr" says nothing).
KIND_NAMES: dict[str, tuple[str, ...]] = {"host": ("domain", "host")}


@dataclass
class Profile:
    """What a column of sample values looks like."""

    kind: str  # dominant non-empty kind ("empty" when none)
    share: float  # share of the non-empty values having it
    kinds: Counter = field(default_factory=Counter)
    n: int = 0  # values
    filled: int = 0  # non-empty values
    distinct: int = 0
    avg_len: float = 0.0
    avg_words: float = 0.0
    digits: float = 0.0  # share of the non-empty values holding a digit ("16 mpg city", "MSRP: $9")
    currency: float = 0.0  # share holding a currency sign or code beside a digit
    # words written after a number in most values ("mpg", "hp", "comment")
    units: frozenset[str] = frozenset()

    @property
    def constant(self) -> bool:
        return self.filled >= 3 and self.filled == self.n and self.distinct == 1

    @property
    def repeats(self) -> bool:
        """Values recur across records (a short category: genre, status, city), not one per record."""
        return self.filled >= 4 and self.distinct <= max(1, int(0.75 * self.filled))

    @property
    def short(self) -> bool:
        return self.avg_words <= 4 and self.avg_len <= 40

    def share_of(self, kinds: Iterable[str]) -> float:
        ks = set(kinds)
        return sum(v for k, v in self.kinds.items() if k in ks) / max(self.filled, 1)


def profile(values: Iterable[Any]) -> Profile:
    vals = list(values)
    kinds = [kind_of(v) for v in vals]
    ne = [(v, k) for v, k in zip(vals, kinds, strict=True) if k != "empty"]
    if not ne:
        return Profile("empty", 0.0, Counter(), len(vals), 0, 0)
    c = Counter(k for _, k in ne)
    (k, cnt), *_ = c.most_common(1)
    texts = [" ".join(str(v).split()) for v, _ in ne]
    return Profile(
        kind=k,
        share=cnt / len(ne),
        kinds=c,
        n=len(vals),
        filled=len(ne),
        distinct=len(set(texts)),
        avg_len=sum(len(t) for t in texts) / len(texts),
        avg_words=sum(len(t.split()) for t in texts) / len(texts),
        digits=sum(1 for t in texts if re.search(r"\d", t)) / len(texts),
        currency=sum(1 for t in texts if _CUR_INSIDE.search(t)) / len(texts),
        units=units(texts),
    )


_UNIT_AFTER = re.compile(r"\d(?:[.,]\d+)?\s?([A-Za-z][A-Za-z.]{0,11})(?![A-Za-z])")


def units(texts: list[str]) -> frozenset[str]:
    """The words most values write right after a number, normalised: ``"17 mpg City, 23 mpg Hwy"`` →
    ``{"mpg"}``; ``"3 Comments"`` / ``"1 Comment"`` → ``{"comment"}``; ``"385 HP"`` → ``{"hp"}``. A unit
    says what the column measures when its label does not (or names another thing). A word after a
    number in fewer than 60% of the values (a year before a name) is no unit."""
    seen: Counter = Counter()
    n = 0
    for t in texts:
        if not t or len(t) > 80:
            continue
        n += 1
        seen.update({lx.normalise(m.group(1)) for m in _UNIT_AFTER.finditer(t)} - {""})
    if n < 2:
        return frozenset()
    return frozenset(u for u, c in seen.items() if c >= 0.6 * n and not u.isdigit())


def org_share(values: Iterable[Any]) -> float:
    """The share of filled values written as an organisation's name: a word of ``lexicon.ORG_WORDS``
    among its words ("Harrison Reed Computer Consulting", "Acme Inc."). A column of employers has
    many; a column of job titles or people almost none."""
    filled = [" ".join(str(v).split()) for v in values if v not in (None, "") and str(v).strip()]
    if not filled:
        return 0.0

    def org(t: str) -> bool:
        words = [lx.fold(w).strip(".,()&") for w in t.split()]
        # a short legal form counts at the end only ("Volvo AB", not "Ab Initio Developers")
        return bool(words) and any(
            w in lx.ORG_WORDS and (len(w) > 3 or k == len(words) - 1) for k, w in enumerate(words)
        )

    return sum(1 for t in filled if org(t)) / len(filled)


# ------------------------------------------------------------------------------------------ fit

# Per value family (lexicon.family of a field name): how well each kind serves it. Kinds not listed
# count against the field when they are distinctive (a number, a date, a link for a person's name).
_FIT: dict[str, dict[str, float]] = {
    "money": {"money": 1.0, "decimal": 0.5, "integer": 0.5, "level": 0.6},
    "date": {"date": 1.0, "datetime": 1.0, "year": 0.4},
    "datetime": {"datetime": 1.0, "date": 0.8},
    "year": {"year": 1.0, "date": 0.5, "integer": 0.3},
    "percent": {"percent": 1.0, "decimal": 0.5, "integer": 0.4},
    "height": {"height": 1.0, "decimal": 0.4, "integer": 0.3},
    "weight": {"decimal": 0.8, "integer": 0.7},
    "length": {"decimal": 0.8, "integer": 0.7, "height": 0.6, "duration": 0.8},
    "url": {"url": 1.0, "host": 0.8},
    "image": {"url": 1.0},
    "email": {"email": 1.0},
    "phone": {"phone": 1.0, "integer": 0.3},
    "integer": {"integer": 1.0, "decimal": 0.7, "year": 0.6},
    "number": {"decimal": 1.0, "integer": 1.0, "percent": 0.5, "money": 0.4},
    "rating": {"decimal": 0.8, "integer": 0.6, "code": 0.8, "percent": 0.5, "text": 0.2},
    "person": {"name": 1.0, "text": 0.5, "long": 0.1},
    "title": {"text": 0.5, "name": 0.5, "code": 0.2, "long": 0.3},
    "address": {"address": 1.0, "place": 0.6, "text": 0.3},
    "place": {"place": 1.0, "text": 0.5, "name": 0.5, "code": 0.3, "address": 0.6},
    "category": {"text": 0.5, "code": 0.4, "name": 0.2},
    "long": {"long": 1.0, "text": 0.4},
    "text": {"text": 0.5, "name": 0.4, "long": 0.5, "code": 0.4, "address": 0.3, "place": 0.3},
    "code": {"code": 1.0, "integer": 0.6, "text": 0.2},
    "duration": {"duration": 1.0, "integer": 0.5, "time": 0.4, "decimal": 0.3},
    "time": {"time": 1.0},
    "bool": {"bool": 1.0},
}
# Families whose values have a shape: anything else is wrong for them.
_STRICT = frozenset(
    "money date datetime year percent height weight length url image email phone integer number duration time bool".split()
)
_DISTINCT = frozenset(
    "url email phone date datetime money percent height year integer decimal duration time".split()
)


def fit(fam: str | None, prof: Profile, *, own_name: bool = True) -> float:
    """+1 when the values look like what the family needs, -1 when clearly not, 0 when it does not say.

    ``own_name=False``: the field is a title of something the record has (a member's "user title", a
    rank everyone of a level shares), not the record's own name, so its values may repeat."""
    if fam is None or prof.kind == "empty":
        return 0.0
    kind = prof.kind
    if prof.share < 0.6:
        if prof.share_of(TEXTUAL) < 0.8:
            return 0.0
        kind = "text"  # words of several shapes ("Southern", "New American", "TAPAS"): text
    table = _FIT.get(fam)
    if table is None:
        return 0.0
    s = table.get(kind)
    if s is not None:
        if fam == "category":
            # a category repeats and is short; a value per record of many words is not one
            if kind == "text" and not prof.short:
                return 0.0  # not what a category looks like, but no contradiction either
            return min(1.0, s + (0.4 if prof.repeats else 0.0))
        if fam in ("place", "person") and kind == "text" and prof.digits >= 0.8:
            return 0.0  # a number in every value ("Jun 14", "Unit 4"): no name of a place or a person
        if fam in ("title", "person") and kind in ("text", "name") and prof.repeats and prof.filled >= 6:
            if fam == "title" and not own_name:
                return s  # "Senior Member" shown by many members: a title they hold, not their name
            return s - 0.2  # names are mostly one per record
        return s
    if fam in _MEASURES and kind in TEXTUAL and prof.digits >= 0.8:
        # a number inside words ("16 mpg city / 23 hwy", "MSRP: $9,990"): the field, not yet clean
        return 0.3 if fam == "money" and prof.currency >= 0.8 else 0.0
    if fam in _STRICT:
        return -1.0
    if kind in _DISTINCT:
        if fam == "rating" and kind in ("integer", "decimal", "percent"):
            return 0.6
        if fam == "code" and kind in ("integer",):
            return 0.6
        return -1.0
    return 0.0


def distinctive(prof: Profile) -> bool:
    """Values with a shape of their own (a phone, a date, money...): enough to place a column without a label."""
    return prof.share >= 0.8 and prof.kind in (_DISTINCT | {"address", "name", "long"})
