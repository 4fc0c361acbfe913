"""Sites a request names by name ("every camera on PixelMart", "from the Harbor Works site").

A sentence may name its source three ways: a URL (``https://...``), a bare domain (``pixelmart.com``),
or a name (``PixelMart``, ``Harbor Works``). The first two are read by the instruction parser as they
are; this module reads the third: a capitalised (or quoted) name after "on" / "at" / "listed on" /
"available at", "the X site/website", an opening "On X," and a possessive "PixelMart's cameras". The
names become ``Request.sources`` entries next to the URLs (a name is no URL: discovery searches for
it and prefers the results whose title, host or page header carry it, ``name_match``), and each
mention is read as "the site" by the rest of the parser, so a site's name is never a filter value.

A sentence that points at a site without saying which ("every paper on this site") and is given no
``--source`` asks the user which site it means (``which_site``): searching for "papers" would land a
table of some site, not of the one meant.

Nothing here knows a site: names are recognised by their form (capitalised words, quotes, a host).
"""

from __future__ import annotations

import calendar
import re
from urllib.parse import urlsplit

from prefect_autodata.agents.vocab import REQUEST_VERBS

# A word of a name: capitalised ("Harbor", "PixelMart", "Base1", "O'Neil"), or a number inside one.
_CAP = r"[A-Z][\w&'’-]*(?:\.[\w&'’-]+)*"
_WORD = rf"(?:{_CAP}|\d+[A-Za-z]*)"
_NAME = rf"{_CAP}(?:[ \t]+{_WORD}){{0,5}}"
_SITE_WORDS = r"(?:web\s?site|site|portal|homepage|home\s?page|web\s?page)"
_QUOTED = r"[\"“'‘](?P<q>[^\"”'’]{2,60})[\"”'’]"
# What may follow a bare "on X" / "at X" for X to be a whole name (a clause ends there).
_AFTER = (
    r"(?=\s*(?:[,;:!?()—–]|\.(?:\s|$)|$)|\s+(?:-\s|with|including|listing|giving|showing|containing|where|"
    r"whose|that|which|for|in|from|since|during|between|over|and\s+(?:save|store|put|write|load)|"
    r"only|(?:the\s+)?fields?)\b)"
)
_PARTICIPLE = r"(?:listed|published|posted|available|found|hosted|sold|shown|featured|advertised|offered)"
_PATTERNS = (
    # "the Harbor Works site", "the 'Pixel Mart' website"
    re.compile(rf"\bthe\s+(?:{_QUOTED}|(?P<n>{_NAME}))(?:['’]s)?\s+{_SITE_WORDS}\b"),
    # "listed on Harbor Works", "available at PixelMart"
    re.compile(rf"\b{_PARTICIPLE}\s+(?:on|at)\s+(?:{_QUOTED}|(?P<n>{_NAME}){_AFTER})"),
    # a quoted name after on/at/from: 'from "Pixel Mart"'
    re.compile(rf"\b(?:on|at|from)\s+{_QUOTED}"),
    # "On Harbor Works, get every camera": a name opening the request
    re.compile(rf"^(?:On|At)\s+(?P<n>{_NAME}),\s+"),
    # bare "on Harbor Works" / "at PixelMart" closing its clause
    re.compile(rf"(?<![A-Z][a-z]\s)(?<![A-Z][a-z][a-z]\s)\b(?:on|at)\s+(?P<n>{_NAME}){_AFTER}"),
    # "PixelMart's cameras": a possessive whose name has the form of a brand (an inner capital, a digit)
    re.compile(rf"(?<![\w'’])(?P<n>(?:{_CAP}\s+){{0,3}}[A-Z]+[a-z0-9]+[A-Z0-9][\w]*)['’]s\s+(?=\w)"),
)
_MONTHS = frozenset(m.lower() for m in (*calendar.month_name[1:], *calendar.month_abbr[1:]))
_DAYS = frozenset(d.lower() for d in (*calendar.day_name, *calendar.day_abbr))
# words that open a name but are no site: a pronoun, an article, a time word, a request verb
_NOT_NAMES = frozenset(
    "the this that these those our their its a an i we you my your each every all any some it "
    "q1 q2 q3 q4 monday tuesday today tonight".split()
)
# what a sentence says when it points at a site without naming one
_UNNAMED = re.compile(
    r"\b(?:on|from|at|of)\s+(?:this|the|that)\s+(?:web\s?)?site\b|\b(?:this|that) site\b", re.I
)


def _is_name(name: str) -> bool:
    words = name.split()
    if not words or words[0].lower() in _NOT_NAMES or words[0].lower() in _MONTHS | _DAYS:
        return False
    if len(words) == 1 and (name.isupper() or re.fullmatch(r"\d+", name)):
        return False  # "on NBA", "at 2024": an acronym names a league, a venue or a ticker
    if re.fullmatch(r"(?:19|20)\d\d", words[-1]):
        return False  # "on Machine Learning 2021": a name of a venue with its year, not a site
    return True


def _distinct(name: str) -> bool:
    """Whether a bare "on X" reads as a site: a name of several words or one of a brand's form
    (an inner capital, a digit); "books on History" names a topic."""
    return len(name.split()) > 1 or bool(re.search(r"[a-z][A-Z]|[A-Za-z]\d", name))


# Nouns after which "on X" says what they are about ("papers on Machine Learning", "books on Art").
_ABOUT_NOUNS = frozenset(
    """paper papers book books article articles course courses lecture lectures talk talks video videos
    post posts report reports study studies thesis theses document documents essay essays tutorial
    tutorials question questions news story stories podcast podcasts review reviews workshop workshops
    conference conferences session sessions chapter chapters survey surveys publication publications""".split()
)


def _about(before: str, match: str) -> bool:
    """Whether a bare "on X" follows a noun of writing or talk (then X is a topic)."""
    prev = re.findall(r"[A-Za-z]+", before)[-1:]
    return match.lower().startswith("on") and bool(prev) and prev[0].lower() in _ABOUT_NOUNS


def find_site_names(text: str, known: list[str] | None = None) -> tuple[list[str], str]:
    """The names of sites ``text`` names and the text with each mention read as "the site" (also for
    the names already ``known``, e.g. those the parser found after "listed on")."""
    found: list[str] = []
    spans: list[tuple[int, int, str]] = []  # (start, end, replacement)

    def free(a: int, b: int) -> bool:
        return not any(x < b and a < y for x, y, _ in spans)

    for i, pat in enumerate(_PATTERNS):
        for m in pat.finditer(text):
            gd = m.groupdict()
            name = (gd.get("q") or gd.get("n") or "").strip().rstrip(".,;:")
            lead = 0
            while i == 5 and len(name.split()) > 1 and name.split()[0].lower() in REQUEST_VERBS:
                lead += len(name.split()[0]) + 1  # "Pull Silash Desk13's": the verb opens the sentence
                name = name.split(None, 1)[1]
            if not name or not _is_name(name) or (i == 4 and not _distinct(name)):
                continue
            if i == 4 and _about(text[: m.start()], m.group(0)):
                continue  # "papers on Machine Learning": a topic
            if i == 5 and re.match(r"(?:Mc|Mac)[A-Z]", name.split()[-1]):
                continue  # "McDonald's restaurants": a surname's capital, not a brand's
            key = "q" if gd.get("q") else "n"
            a, b = m.span(key)
            a += lead
            if gd.get("q"):
                a, b = a - 1, b + 1  # the quotes go with the name
            if i == 0:
                a, b, repl = m.start(), m.end(), "the site"  # "the Harbor Works site"
            elif i == 3:
                a, b, repl = m.start(), m.end(), ""  # "On Harbor Works, get ...": the request follows
            elif i == 5:
                b, repl = m.end(), "the site's "  # "PixelMart's cameras"
            else:
                repl = "the site"
            if free(a, b):
                spans.append((a, b, repl))
                found.append(name)
    for name in known or []:
        for m in re.finditer(re.escape(name), text):
            if free(m.start(), m.end()):
                spans.append((m.start(), m.end(), "the site"))
    out = text
    for a, b, repl in sorted(spans, reverse=True):
        out = out[:a] + repl + out[b:]
    if spans and out[:1].islower():
        out = out[:1].upper() + out[1:]
    return list(dict.fromkeys(found)), out


def possessive_owner(text: str, entity: str | None) -> str | None:
    """The capitalised name of several words owning the records when the entity phrase the parser read
    starts with it ("Please collect Cobalt Point's job postings" read as "cobalt point's job posting"):
    a name of several capitalised words before "'s" and the record noun is the site that lists them.
    The records themselves stay the noun after it. A single word ("Shakespeare's plays") or a surname's
    capital ("McDonald's restaurants") stays what it was; so does a name a record kind already read as
    its subject (a player, a company: the parser asks only when no kind claims the sentence). Web
    discovery then searches for the name and visits only the results whose title or host carry it
    (``discovery.names_site``), or all results, with a note, when none does."""
    if not entity:
        return None
    head = re.match(r"([^']+?)['’]s\s+\S", entity)
    if head is None:
        return None
    for m in re.finditer(rf"(?<![\w'’])(?P<n>{_CAP}(?:[ \t]+{_WORD}){{1,4}})['’]s\s+(?=\w)", text):
        name = m.group("n")
        words = name.split()
        while len(words) > 1 and words[0].lower() in REQUEST_VERBS:
            words = words[1:]  # "Pull Summit Base's ...": the verb opens the sentence
        name = " ".join(words)
        if len(words) < 2 or not _is_name(name) or re.match(r"(?:Mc|Mac)[A-Z]", words[-1]):
            continue
        if name.lower() == head.group(1).strip().lower():
            return name
    return None


def which_site(text: str, sources: list[str]) -> str | None:
    """The question to ask when ``text`` points at a site ("on this site") that neither the sentence
    nor ``--source`` names; None otherwise."""
    if sources or not _UNNAMED.search(text):
        return None
    return "which site? (give --source URL)"


def read_sites(
    text: str, named: list[str], given: list[str] | None, unresolved: list[str]
) -> tuple[list[str], str]:
    """The parser's one call: site names added to the ``named`` sources, the text with each read as
    "the site", and the "which site?" question appended to ``unresolved`` when it must be asked."""
    names, out = find_site_names(text, [n for n in named if not _is_address(n)])
    if (q := which_site(text, [*named, *names, *(given or [])])) is not None:
        unresolved.append(q)
    return list(dict.fromkeys([*named, *names])), out


def _is_address(source: str) -> bool:
    return bool(urlsplit(source).scheme) or bool(re.fullmatch(r"[\w.-]+\.[a-z]{2,}(?:/\S*)?", source, re.I))


def site_names(request: object) -> list[str]:
    """The sources of a request that are names, not URLs or hosts."""
    return [s for s in getattr(request, "sources", None) or [] if not _is_address(s)]


def site_hosts(request: object) -> list[str]:
    """The hosts of a request's sources that are addresses ("pixelmart.com", "https://x.org/a")."""
    out = []
    for s in getattr(request, "sources", None) or []:
        if _is_address(s):
            host = urlsplit(s if "://" in s else f"//{s}").hostname or ""
            out.append(host.removeprefix("www."))
    return [h for h in out if h]


# ---------------------------------------------------------------- matching a name


def _squeeze(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def _tokens(text: str) -> list[str]:
    return [t for t in re.split(r"[^a-z0-9]+", text.lower()) if t]


def host_words(url: str) -> str:
    """The words of a URL's host, and of a mirrored host in its first path segment
    (``http://mirror/www.pixel-mart.com/x`` -> "pixel mart"), without www and the top-level domain."""
    parts = urlsplit(url)
    hosts = [parts.hostname or ""]
    first = parts.path.lstrip("/").split("/", 1)[0]
    if re.fullmatch(r"[a-z0-9-]+(?:\.[a-z0-9-]+)+", first, re.I):
        hosts.append(first)
    out = []
    for h in hosts:
        labels = [x for x in h.lower().split(".") if x and x != "www"]
        if len(labels) > 1:
            labels = labels[:-1]
        out.append(" ".join(labels))
    return " ".join(out)


def name_match(name: str, text: str) -> float:
    """How well ``text`` (a title, a host's words, a page header) carries the site ``name``, 0..1: the
    name's words in a row, or the same letters in a run of words ("PixelMart" = "pixel-mart"), or
    nearly so (rapidfuzz ratio over runs of as many words)."""
    from rapidfuzz import fuzz

    target = _squeeze(name)
    toks = _tokens(text)
    if not target or not toks:
        return 0.0
    n = max(1, len(_tokens(name)))
    best = 0.0
    for size in {n, n + 1, max(1, n - 1), 1, 2}:
        for i in range(0, max(1, len(toks) - size + 1)):
            window = "".join(toks[i : i + size])
            if window == target:
                return 1.0
            best = max(best, fuzz.ratio(target, window) / 100.0)
    return best
