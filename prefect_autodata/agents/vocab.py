"""General English the offline instruction parser reads requests with (no kind, site, URL or task knowledge).

Request verbs, determiners, the words that end a noun phrase, container nouns ("a list of ..."), the
phrases that mean "every column", attribute nouns that name a filter's field ("the Fiction category"),
words that are usually a field of a record ("name", "price", "date"), and English plurals. Knowledge of
one kind of record (conferences, franchises, tickers) lives in ``agents/kinds/``.
"""

from __future__ import annotations

import functools
import re
from typing import Any

REQUEST_VERBS = frozenset(
    """collect get give fetch download show find pull scrape gather retrieve list compile build grab extract
    crawl harvest make create export track monitor record save store load pull obtain assemble capture
    need want like send bring produce prepare return put""".split()
)
# Words before the noun phrase that say "how many", not "what".
LEAD_MODIFIERS = frozenset(
    """all every each any the a an some of me us my our please i we you can could would to kindly just also
    available current currently existing known listed individual entire whole full complete
    following various different distinct unique""".split()
)
# ("public" is no such word: "public toilets", "public contracts" restrict the records asked for)
# A noun phrase ends at one of these (prepositions, relative pronouns, verbs of listing).
BOUNDARY_WORDS = frozenset(
    """with including include includes included containing contains showing shows that which who whom where
    whose when listed posted published shown displayed found available offered sold given featured
    appearing registered reported recorded located based held played from on in at for by of between since
    during over under until till through before after having plus along as to into across within per via
    than like such and or below above cheaper less more fewer greater higher lower""".split()
)
# "a list of X", "the table of X": the container is not the entity.
CONTAINER_NOUNS = frozenset(
    """list lists table tables dataset datasets database catalog catalogue directory index csv spreadsheet
    inventory overview collection set register roster archive feed dump export summary listing""".split()
)
# Trailing words that add nothing to the entity ("bird sighting records" → "bird sighting").
GENERIC_TAILS = frozenset("data records record information info entries entry details rows dataset".split())
# The user wants every column the source has.
ALL_FIELDS = re.compile(
    r"\b(?:all|every|each)\s+(?:of\s+)?(?:the\s+)?(?:their\s+|its\s+)?(?:available\s+|possible\s+)?"
    r"(?:columns?|fields?|attributes?|statistics?|stats|details|information|properties|data points?|metrics?)\b"
    r"|\beverything\b|\bwhatever (?:the|it) (?:site|page|source) (?:has|shows|offers)\b"
    r"|\ball (?:the )?(?:data|info)\b(?=\s*(?:$|[.,;!]|from\b|there\b|available\b|it has\b))",
    re.I,
)
# Nouns that name a filter's field when a capitalised value precedes them ("the Findings track").
ATTRIBUTE_NOUNS = frozenset(
    """category genre section track department division league state country city region province county
    language type class brand series collection topic subject field tag label status level conference
    category""".split()
)
# Verb forms that stand for a field in a comparison ("priced under 20", "rated above 4", "e-readers that
# weigh less than 200 grams", "jobs that pay over 20 dollars an hour").
VERB_FIELDS = dict(
    pair.split(":")
    for pair in """priced:price costing:price costs:price cost:price cheaper:price rated:rating paying:salary
    earning:salary weighing:weight sized:size aged:age older:age younger:age taller:height higher:height
    longer:length scoring:score weigh:weight weighs:weight earn:salary earns:salary pay:salary
    pays:salary""".split()
)
# Words that usually name a field of a record (used to split "product names and prices").
FIELD_WORDS = frozenset(
    """name names title titles price prices cost address addresses phone phones email emails url urls link
    links website websites date dates rating ratings review reviews description descriptions author authors
    year years location locations city cities country countries id ids number numbers code codes type types
    category categories brand brands model models salary salaries score scores height heights weight
    weights age ages status size sizes color colors colour colours image images photo photos time times
    duration durations capacity population area elevation latitude longitude coordinates count
    hours schedule schedules isbn sku stock availability director directors genre genres runtime""".split()
)
NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "a": 1,
    "an": 1,
}
UNCOUNTABLE = frozenset(
    """news series species data information statistics mathematics physics economics hours status
    analysis basis bus gas chaos alias canvas thesis crisis""".split()
)
# Nouns in -ics that are singular (fields of study, activities); another word in -ics is the plural of
# a noun in -ic ("webcomics", "clinics", "topics", "metrics").
_ICS_SINGULAR = frozenset(
    """statistics mathematics physics economics politics athletics ethics electronics genetics linguistics
    logistics analytics robotics acoustics gymnastics aerobics aeronautics astronautics dynamics
    thermodynamics mechanics optics phonetics semantics informatics bioinformatics ergonomics
    demographics graphics hydraulics pneumatics obstetrics pediatrics paediatrics orthopedics
    geriatrics forensics cybernetics aesthetics esthetics ceramics""".split()
)
_IRREGULAR = {
    "people": "person",
    "children": "child",
    "men": "man",
    "women": "woman",
    "mice": "mouse",
    "geese": "goose",
    "teeth": "tooth",
    "feet": "foot",
    "indices": "index",
    "matrices": "matrix",
    "vertices": "vertex",
    "analyses": "analysis",
    "theses": "thesis",
    "crises": "crisis",
    "criteria": "criterion",
    "phenomena": "phenomenon",
    "media": "medium",
    "buses": "bus",
    "aliases": "alias",
    "statuses": "status",
    "movies": "movie",
    "cookies": "cookie",
    "zombies": "zombie",
    "calories": "calorie",
    "lives": "life",
    "knives": "knife",
    "wives": "wife",
    "leaves": "leaf",
    "halves": "half",
    "shelves": "shelf",
    "volcanoes": "volcano",
    "heroes": "hero",
    "potatoes": "potato",
    "tomatoes": "tomato",
    "quizzes": "quiz",
    "lenses": "lens",
    "lens": "lens",
    "menus": "menu",
    "series": "series",
    "species": "species",
    # -ves plurals of -f/-fe nouns ("archives", "olives", "valves" are regular)
    "wolves": "wolf",
    "calves": "calf",
    "elves": "elf",
    "selves": "self",
    "thieves": "thief",
    "loaves": "loaf",
    "scarves": "scarf",
    "hooves": "hoof",
    "dwarves": "dwarf",
    "wharves": "wharf",
    # Latin and Greek plurals
    "cacti": "cactus",
    "fungi": "fungus",
    "alumni": "alumnus",
    "radii": "radius",
    "nuclei": "nucleus",
    "stimuli": "stimulus",
    "termini": "terminus",
    "syllabi": "syllabus",
    "bacteria": "bacterium",
    "curricula": "curriculum",
    "millennia": "millennium",
    "strata": "stratum",
    "larvae": "larva",
    "antennae": "antenna",
    "vertebrae": "vertebra",
    "nebulae": "nebula",
    "appendices": "appendix",
    "hypotheses": "hypothesis",
    "oases": "oasis",
    "diagnoses": "diagnosis",
}
# Irregular plurals that also end compounds ("firemen", "bookshelves", "grandchildren", "salespeople");
# "media" does not ("multimedia").
_COMPOUND_ENDS = sorted(
    (k for k in _IRREGULAR if len(k) >= 4 and k not in ("media", "series", "species")), key=len
)
# Nouns ending in -ing (a following word does not make them participles: "job listing under $50").
ING_NOUNS = frozenset(
    """listing building booking housing clothing painting meeting offering ranking recording filing opening
    posting sighting reading hearing ruling warning setting training funding parking shipping pricing
    rating spring string thing king ring wing evening morning wedding ceiling earring feeling finding
    holding landing marking mapping ending drawing screening showing timing""".split()
)


def singular(word: str) -> str:
    """English singular of one word (lower case in, lower case out)."""
    w = word.lower()
    if re.fullmatch(r"[A-Z]{2,}s", word):
        return w[:-1]  # an acronym plural: "GPUs", "CPUs", "ATMs" (not the "-us" of "campus")
    if w in _IRREGULAR:
        return _IRREGULAR[w]
    for end in reversed(_COMPOUND_ENDS):
        if w.endswith(end) and len(w) - len(end) >= 3:
            return w[: -len(end)] + _IRREGULAR[end]
    # "firemen", "batsmen", "chairwomen": a compound in -men (not "specimen", "abdomen", "stamen")
    if re.fullmatch(r"[a-z]{3,}(?<![aiou])men", w):
        return w[:-3] + "man"
    if w in UNCOUNTABLE or len(w) <= 3 or w.endswith(("ss", "us", "is")) or w in _ICS_SINGULAR:
        return w
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("ches", "shes", "xes", "zes", "sses")):
        return w[:-2]
    if w.endswith("oes"):
        return w[:-2]
    if w.endswith("s") and not w.endswith("'s"):
        return w[:-1]
    return w


def plural(word: str) -> str:
    """English plural of one word (for the plural form of an entity phrase)."""
    w = word
    for pl, sg in _IRREGULAR.items():
        if sg == w:
            return pl
    for end in reversed(_COMPOUND_ENDS):
        sg = _IRREGULAR[end]
        if w.endswith(sg) and len(w) - len(sg) >= 3:
            return w[: -len(sg)] + end
    if re.fullmatch(r"[a-z]{3,}(?<![aiou])man", w):
        return w[:-3] + "men"
    if w in UNCOUNTABLE:
        return w
    if re.search(r"[^aeiou]y$", w):
        return w[:-1] + "ies"
    if w.endswith(("s", "x", "z", "ch", "sh")):
        return w + "es"
    return w + "s"


@functools.cache
def _english() -> Any:
    from spellchecker import SpellChecker

    return SpellChecker(language="en", distance=1)


def is_english_word(word: str) -> bool:
    """A word of the English dictionary pyspellchecker keeps: such a word is what the user meant, never
    a slip for a field word one letter away ("funded" stays "funded", not "founded")."""
    return word.lower() in _english()


def spelled(word: str, vocabulary: frozenset[str]) -> str | None:
    """The one word of ``vocabulary`` (5+ letters) that ``word`` is a slip of the keyboard for: two
    neighbouring letters swapped ("adderss"), a doubled letter written once ("adress") or a single one
    twice ("pricce"), a vowel left out ("cusine"); else None. A slip that adds a letter is read only
    when the letter doubles its neighbour, so a real word a letter longer stays itself ("prince" is no
    "price", "scorer" no "score"), and a word of the English dictionary is never a slip ("funded" is no
    "founded"); the caller keeps the words it knows."""
    from rapidfuzz.distance import OSA

    w = word.lower()
    if len(w) < 5 or not w.isalpha() or w in vocabulary or is_english_word(w):
        return None
    hits = {v for v in vocabulary if len(v) >= 5 and OSA.distance(w, v, score_cutoff=1) == 1 and _slip(w, v)}
    return hits.pop() if len(hits) == 1 else None


def _slip(w: str, v: str) -> bool:
    i = next((k for k, (a, b) in enumerate(zip(w, v, strict=False)) if a != b), min(len(w), len(v)))
    if len(w) == len(v):  # swapped neighbours
        return w[i + 2 :] == v[i + 2 :] and w[i : i + 2] == v[i : i + 2][::-1]
    if len(w) < len(v):  # a letter left out: a vowel, or one of a double
        x = v[i]
        return w[i:] == v[i + 1 :] and (x in "aeiou" or x in v[max(0, i - 1) : i] + v[i + 1 : i + 2])
    x = w[i]  # a letter written twice
    return w[i + 1 :] == v[i:] and x in w[max(0, i - 1) : i] + w[i + 1 : i + 2]


def respelled_noun(word: str) -> str | None:
    """The dictionary word a record noun that is no English word slips from ("dentsts" → "dentists",
    "shipwreks" → "shipwrecks", "campgruonds" → "campgrounds"): the one word of the dictionary a single
    letter left out or two neighbours swapped away, else None. A word of six letters or more only, and
    only a longer or equal one, so a short coinage ("ebook", "repo") or a spelling the dictionary lacks
    with several neighbours ("centre") stays as written."""
    w = word.lower()
    if len(w) < 6 or not w.isalpha() or is_english_word(w):
        return None
    hits = {c for c in _english().candidates(w) or () if len(c) >= len(w) and c.isalpha() and c != w}
    return hits.pop() if len(hits) == 1 else None
