"""Rule-based discovery heuristics for the offline web agent: observation, not memorised layouts.

Pure functions over what a page shows: which search queries a plan implies, how relevant a link or a
hit is to the plan, which API URLs an inline script names (with simple JS constants resolved), where
the record array sits in a JSON body, how an endpoint pages, and which links on a listing are the
repeated detail links. Nothing here knows any particular site.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any
from urllib.parse import parse_qsl, quote, urljoin, urlsplit

from prefect_autodata.agents import kinds, sites
from prefect_autodata.agents.evidence import Link, PaginationHint, SearchHit
from prefect_autodata.agents.offline.instruction import ParsedInstruction

_WORD = re.compile(r"[a-z]+|\d+")
_STOP = set(
    "a an and the of in on for to from with by at all up collect get daily information data statistics "
    "stats accepted papers regular season seasons team teams player players stock stocks between".split()
)
DATA_WORDS = ("api", "documentation", "docs", "download", "csv", "json", "export", "all papers", "by season")
JUNK_WORDS = (
    "login",
    "signup",
    "sign up",
    "register",
    "privacy",
    "terms",
    "cookie",
    "admin",
    "logout",
    "faq",
)


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


# ------------------------------------------------------------------------------------------- plan terms


def season_label(year: int) -> str:
    """The 'YYYY-YY' way many sports sites write the season that starts in ``year``."""
    return f"{year}-{(year + 1) % 100:02d}"


def plan_terms(plan: ParsedInstruction) -> dict[str, float]:
    """Words that identify the requested entity, weighted by how specific they are.

    Generic: years, filter values, the entity phrase; the request's record kind (if any) adds the
    words its typed scope implies (a venue, tickers, team names)."""
    t: dict[str, float] = {}

    def add(text: str, w: float) -> None:
        for x in words(text):
            if x not in _STOP and len(x) > 1:
                t[x] = max(t.get(x, 0.0), w)

    for y in plan.years[:12] or [y for y in (plan.start_year, plan.end_year) if y]:
        t[str(y)] = max(t.get(str(y), 0.0), 2.0)
    kind = kinds.get(plan.kind)
    if kind is not None:
        kind.terms(plan, add, t)
    else:
        generic_terms(plan, add)
    return t


def generic_terms(plan: ParsedInstruction, add) -> None:
    """The entity phrase and the filter values of any request (what a kind adds on top is its own)."""
    if plan.entity is not None:
        add(plan.entity.singular, 1.5)
        add(plan.entity.plural, 1.5)
    for f in plan.filters:
        for v in f.value if isinstance(f.value, list) else [f.value]:
            if isinstance(v, str):
                add(v, 2.0)


def search_queries(plan: ParsedInstruction) -> list[str]:
    """Queries that should surface the source(s) of the plan, most specific first: a site the request
    names by name (``agents.sites``) is searched by its name first, with and without the records."""
    kind = kinds.get(plan.kind)
    q: list[str] = kind.search_queries(plan) if kind is not None else []
    from_kind = bool(q)
    named = [f"{n} {plan.entity.plural}" if plan.entity is not None else n for n in sites.site_names(plan)]
    named += sites.site_names(plan)
    if named:
        q = [*named[:2], *q[:2]]
    if not q and plan.entity is not None:
        where = " ".join(
            str(v)
            for f in plan.filters
            if f.op in ("eq", "in")
            for v in ([f.value] if not isinstance(f.value, list) else f.value)
        )
        q.append(" ".join(x for x in (plan.entity.plural, where, " ".join(plan.field_names[:3])) if x))
    own = " ".join(w for w in words(plan.text) if w not in ("collect", "all", "the", "of"))
    if not from_kind:
        q.append(own)
    else:
        # the kind's queries are its guess; the user's own content words are always searched too
        # ("all NBA player seasons" is no team query, whatever the kind asks by default)
        # (a kind's four or more queries name its subjects one by one, and stay the ones searched)
        mine = " ".join(w for w in words(plan.text) if w not in _FILLER)
        if mine and len(q) < 4:
            q.append(mine)
    out: list[str] = []
    for s in q:
        s = " ".join(s.split())
        if s and s not in out:
            out.append(s)
    return out


def relevance(text: str, url: str, terms: dict[str, float]) -> float:
    """How strongly a title/anchor text plus URL speaks about the plan's terms (0 = not at all)."""
    toks = Counter(words(text) + words(urlsplit(url).path + " " + urlsplit(url).query))
    score = sum(w for term, w in terms.items() if term in toks)
    if "team" in terms and "player" not in terms and ("players" in toks or "player" in toks):
        score -= 2  # a per-player listing when team rows were asked for
    low = text.lower()
    if any(j in low or j in url.lower() for j in JUNK_WORDS):
        score -= 5
    return score


def rank_hits(hits: list[SearchHit], plan: ParsedInstruction) -> list[SearchHit]:
    """Search hits re-ranked by agreement with the plan (a year or name mismatch sinks a hit)."""

    def key(h: SearchHit) -> tuple[float, int]:
        return (-hit_score(h, plan), h.rank)

    uniq: dict[str, SearchHit] = {}
    for h in hits:
        uniq.setdefault(h.url, h)
    return sorted(uniq.values(), key=key)


# Words of a request that ask rather than describe ("could you compile ... listed on this site").
_FILLER = frozenset(
    """a an the of in on at to for from with by and or all every each any some me my i we you your our
    can could would will please need want like get grab fetch collect compile build make create send
    download scrape give find show list listed table dataset data set csv spreadsheet site this that
    there here website page pages including include their its one every only just also""".split()
)
#: weight of the longest run of the user's own words a hit repeats in order, per word beyond the first
PHRASE_WEIGHT = 2.0
#: weight of the share of the requested fields a hit names (a snippet listing "team, season, hr, avg")
FIELDS_WEIGHT = 4.0
#: a term the request's record kind adds but the user did not write weighs at most this
IMPLIED_MAX = 1.0


def _stems(text: str) -> list[str]:
    from prefect_autodata.agents.induction.lexicon import singular

    return [singular(w) for w in words(text)]


def _content_words(text: str) -> list[str]:
    return [w for w in _stems(text) if w not in _FILLER]


def phrase_run(user: list[str], other: list[str]) -> int:
    """The longest run of consecutive words of ``user`` that ``other`` holds in the same order."""
    best = 0
    prev = [0] * (len(other) + 1)
    for a in user:
        cur = [0] * (len(other) + 1)
        for j, b in enumerate(other, 1):
            if a == b:
                cur[j] = prev[j - 1] + 1
                best = max(best, cur[j])
        prev = cur
    return best


def field_coverage(plan: Any, text: str) -> float:
    """Share of the fields the user named (``--fields``, the sentence, a schema) that ``text`` names,
    by the one matcher (a word, a synonym, an abbreviation; the plan's column for the word counts)."""
    from prefect_autodata.agents.induction import matching as mt

    fields = [f for f in getattr(plan, "fields", None) or [] if getattr(f, "origin", "") != "kind_default"]
    if not fields:
        return 0.0
    toks = words(text)
    grams = set(toks) | {f"{a} {b}" for a, b in zip(toks, toks[1:], strict=False)}
    aliases = mt.aliases_of(plan)
    hit = 0
    for f in fields:
        names = [n for n, _ in mt.names_of(f.name, aliases)]
        if any(mt.name_score(n, g) >= 0.8 for n in names for g in grams):
            hit += 1
    return hit / len(fields)


def named_subjects(plan: Any) -> list[str]:
    """What the request names by value: its record kind's subjects (teams, players, tickers) and the
    text values of its filters ("Nikon", "Mediterranean")."""
    out: list[str] = []
    kind = kinds.get(getattr(plan, "kind", None))
    if kind is not None:
        try:
            out += [str(x) for x in kind.who(plan) or []]
        except Exception:  # a kind that cannot name its subjects for this plan names none
            pass
    for f in getattr(plan, "filters", None) or []:
        for v in f.value if isinstance(f.value, list) else [f.value]:
            if isinstance(v, str) and v.strip():
                out.append(v)
    return [x for x in out if _stems(x)]


#: weight of a hit that carries the site the request names (title, host): it outranks every hit
#: that only matches the kind of records
NAME_WEIGHT = 12.0
#: a name matches a title, host or page header at this rapidfuzz similarity or above
NAME_MIN = 0.9


def names_site(plan: Any, title: str, url: str = "") -> float:
    """How well a hit's (or a page's) title and host carry a site the request names (0 when it names
    none, or when the match is under ``NAME_MIN``); a host the request gives ("pixelmart.com") counts
    on the hit's host."""
    best = 0.0
    host = sites.host_words(url) if url else ""
    for name in sites.site_names(plan):
        best = max(best, sites.name_match(name, title), sites.name_match(name, host) if host else 0.0)
    for h in sites.site_hosts(plan):
        core = " ".join(h.split(".")[:-1]) or h
        best = max(best, sites.name_match(core, host) if host else 0.0)
    return best if best >= NAME_MIN else 0.0


def hit_score(h: SearchHit, plan: ParsedInstruction, *, bonus: bool = True) -> float:
    """Agreement of one hit with the plan; a hit about other years than the plan's is pushed down.

    The plan's terms (``relevance``; a word and its plural once) count, the terms the record kind
    implies but the user did not write at most ``IMPLIED_MAX`` together; then the user's own phrase
    repeated in order ("MLB team batting seasons") and the share of the requested fields the hit
    names: a site described in the request's own words over one that only shares its topic. A hit
    whose title or host carries the site the request names (``names_site``) adds ``NAME_WEIGHT``. ``bonus=False`` leaves those two out (the plain
    relevance a caller compares hits by to drop the clearly weaker ones)."""
    said = set(_stems(getattr(plan, "text", "") or ""))
    terms: dict[str, float] = {}
    implied: dict[str, float] = {}
    for k, w in plan_terms(plan).items():
        # a word and its plural are one term ("team", "teams"): a hit naming both says it once more
        stem = k if k.isdigit() else (_stems(k) or [k])[0]
        into = terms if stem in said or k in said or k.isdigit() else implied
        into[stem] = max(into.get(stem, 0.0), w)
    text, url = " ".join(_stems(f"{h.title} {h.snippet}")), _stem_url(h.url)
    # the words the request's kind implies but the user did not write weigh IMPLIED_MAX together
    s = relevance(text, url, terms)
    if implied:
        s += min(IMPLIED_MAX, max(0.0, relevance(text, url, implied)))
    text = f"{h.title} {h.snippet}"
    subjects = named_subjects(plan)
    toks = set(_stems(f"{text} {urlsplit(h.url).path} {urlsplit(h.url).query}"))
    about = not subjects or any(set(_stems(x)) & toks for x in subjects)
    if bonus and about:
        # a hit about none of the request's named subjects (a team, a filter value) gets no phrase bonus
        run = phrase_run(_content_words(getattr(plan, "text", "") or ""), _content_words(text))
        s += PHRASE_WEIGHT * max(0, min(run, 5) - 1)
    if bonus:
        # and half the fields' (a listing of every team may still hold the one asked for, as rows)
        s += FIELDS_WEIGHT * field_coverage(plan, text) * (1.0 if about else 0.5)
    s += NAME_WEIGHT * names_site(plan, h.title, h.url)
    years = {str(y) for y in plan.years}
    hit_years = {w for w in words(f"{h.title} {h.url}") if re.fullmatch(r"(19|20)\d\d", w)}
    if years and hit_years and not (hit_years & years) and len(years) < 6:
        s -= 2.5
    return s


def _stem_url(url: str) -> str:
    """``url`` with the words of its path and query in their singular form (for ``relevance``)."""
    parts = urlsplit(url)
    return "/" + "/".join(_stems(f"{parts.path} {parts.query}"))


def clearly_weaker(score: float, scores: list[float]) -> bool:
    """Whether a hit's ``score`` is clearly below the best of ``scores``: another entity, another year."""
    top = max(scores, default=score)
    return score < max(top * 0.75, top - 1.0)


def link_score(link: Link, terms: dict[str, float]) -> float:
    s = relevance(link.text, link.url, terms)
    low = f"{link.text} {link.url}".lower()
    if any(w in low for w in DATA_WORDS):
        s += 1.5
    return s


# ------------------------------------------------------------------------------------------- scripts

_JS_CONST = re.compile(r"""(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(['"`])([^'"`\n]{0,300})\2""")
_JS_NUM = re.compile(r"""(?:const|let|var|,)\s*([A-Za-z_$][\w$]*)\s*=\s*(-?\d+)\b""")
_WIN_ASSIGN = re.compile(r"""window\.([A-Za-z_$][\w$]*)\s*=\s*(['"])([^'"\n]{1,500})\2""")
_STRING = re.compile(r"""(['"`])((?:\\.|(?!\1)[^\\\n]){2,600})\1""")
_TPL_VAR = re.compile(r"\$\{\s*([^}]+?)\s*\}")


def _looks_endpoint(s: str) -> bool:
    if s.startswith(("http://", "https://")):
        p = urlsplit(s)
        return bool(p.query) or "/api" in p.path or p.path.endswith((".json", ".csv"))
    if not s.startswith("/") or " " in s or s.startswith("//"):
        return False
    path = s.split("?")[0]
    if path.endswith((".js", ".css", ".png", ".jpg", ".svg", ".ico", ".woff", ".woff2", ".html")):
        return False
    return "?" in s or "/api" in path or path.endswith((".json", ".csv")) or "/stats/" in path


def script_endpoints(scripts: list[str], base_url: str) -> list[str]:
    """Absolute API URLs named in inline scripts; ``${NAME}`` in template literals is resolved from
    string/number constants declared in the same scripts (``encodeURIComponent(X)`` too)."""
    consts: dict[str, str] = {}
    for code in scripts:
        for name, _q, value in _JS_CONST.findall(code):
            consts.setdefault(name, value)
        for name, value in _JS_NUM.findall(code):
            consts.setdefault(name, value)
        for name, _q, value in _WIN_ASSIGN.findall(code):
            consts.setdefault(f"window.{name}", value)
    found: list[str] = []

    def resolve(expr: str) -> str | None:
        expr = expr.strip()
        m = re.fullmatch(r"encodeURIComponent\((.+)\)", expr)
        if m:
            v = resolve(m.group(1))
            return None if v is None else quote(v, safe="")
        m = re.fullmatch(r"([\w$.]+)\s*\+\s*(\d+)", expr)
        if m and m.group(1) in consts and consts[m.group(1)].lstrip("-").isdigit():
            return str(int(consts[m.group(1)]) + int(m.group(2)))
        return consts.get(expr)

    for code in scripts:
        candidates = [m.group(2) for m in _STRING.finditer(code)]
        candidates += list(consts.values())
        for raw in candidates:
            s = raw
            if "${" in s:
                parts_ok = True

                def sub(m: re.Match[str]) -> str:
                    nonlocal parts_ok
                    v = resolve(m.group(1))
                    if v is None:
                        parts_ok = False
                        return ""
                    return v

                s = _TPL_VAR.sub(sub, s)
                if not parts_ok:
                    continue
            if _looks_endpoint(s):
                url = urljoin(base_url, s)
                if url not in found:
                    found.append(url)
    # A bare API root (const API = '/api...') is only useful once combined; keep URLs with a query first.
    return sorted(found, key=lambda u: (not urlsplit(u).query, found.index(u)))


def inline_scripts(doc: Any) -> list[str]:
    return [s.text_content() for s in doc.iter("script") if not s.get("src") and s.text_content().strip()]


def loads_data_with_js(scripts: list[str]) -> bool:
    """True when inline scripts fetch data at run time (the page is a shell around an API)."""
    code = "\n".join(scripts)
    return bool(re.search(r"\bfetch\s*\(|XMLHttpRequest|\$\.(?:get|ajax|getJSON)\s*\(|axios\.", code))


# ------------------------------------------------------------------------------------------- JSON records


def find_records(obj: Any, path: str = "") -> tuple[str | None, int, list[str]]:
    """The largest record collection in a JSON body: (dotted path, count, field names).

    Recognises arrays of objects and ``{headers: [...], rowSet: [[...]]}`` tables; ``''`` is the root."""
    best: tuple[str | None, int, list[str]] = (None, 0, [])

    def visit(node: Any, p: str, depth: int) -> None:
        nonlocal best
        if depth > 6:
            return
        if isinstance(node, list):
            dicts = [x for x in node[:50] if isinstance(x, dict)]
            if node and len(dicts) == min(len(node), 50):
                keys: list[str] = []
                for d in dicts[:5]:
                    keys += [k for k in d if k not in keys]
                    for k, v in d.items():  # one nested level: {"content": {"title": ...}} -> content.title
                        if isinstance(v, dict):
                            keys += [f"{k}.{k2}" for k2 in v if f"{k}.{k2}" not in keys]
                if len(node) > best[1] or (len(node) == best[1] and best[0] is None):
                    best = (p, len(node), keys)
                for i, d in enumerate(node[:1]):
                    visit(d, f"{p}.{i}" if p else str(i), depth + 1)
            return
        if isinstance(node, dict):
            headers = node.get("headers")
            rows = node.get("rowSet") or node.get("rows")
            if (
                isinstance(headers, list)
                and isinstance(rows, list)
                and all(isinstance(r, list) for r in rows)
            ):
                rp = f"{p}.rowSet" if p else "rowSet"
                if "rows" in node and "rowSet" not in node:
                    rp = f"{p}.rows" if p else "rows"
                if len(rows) > best[1]:
                    best = (rp, len(rows), [str(h) for h in headers])
            for k, v in node.items():
                if isinstance(v, (dict, list)):
                    visit(v, f"{p}.{k}" if p else str(k), depth + 1)

    visit(obj, "", 0)
    return best


_PAGE_PARAMS = ("page", "pagenum", "page_num", "pageno", "p")
_OFFSET_PARAMS = ("offset", "start", "skip", "from")
_SIZE_PARAMS = ("limit", "per_page", "perpage", "page_size", "pagesize", "pageitems", "size", "count", "rows")
_TOTAL_KEYS = ("total", "totalcount", "total_count", "count", "totalresults", "total_results", "hits")


def json_pagination(url: str, obj: Any) -> PaginationHint | None:
    """Paging as an endpoint shows it: page/offset parameters in the URL, totals or next links in the body."""
    params = {k.lower(): (k, v) for k, v in parse_qsl(urlsplit(url).query, keep_blank_values=True)}
    total = None
    next_key = None
    if isinstance(obj, dict):
        for k, v in obj.items():
            kl = k.lower()
            if kl in _TOTAL_KEYS and isinstance(v, int) and not isinstance(v, bool):
                total = v
            if kl in ("next", "next_url", "nextpage", "next_page", "cursor", "next_cursor") and v:
                next_key = k
    size_param = next((params[s][0] for s in _SIZE_PARAMS if s in params), None)
    size = None
    if size_param:
        try:
            size = int(dict(parse_qsl(urlsplit(url).query))[size_param])
        except ValueError:
            size = None
    for p in _OFFSET_PARAMS:
        if p in params:
            return PaginationHint(
                style="offset", param=params[p][0], size_param=size_param, page_size=size, total=total
            )
    for p in _PAGE_PARAMS:
        if p in params:
            return PaginationHint(
                style="page", param=params[p][0], size_param=size_param, page_size=size, total=total
            )
    if next_key:
        style = "cursor" if "cursor" in next_key.lower() else "next_link"
        return PaginationHint(style=style, param=next_key, total=total)
    if size_param and total is not None:
        return PaginationHint(
            style="offset", param="offset", size_param=size_param, page_size=size, total=total
        )
    return None


def json_next_link(obj: Any, url: str) -> str | None:
    """JSONPath of a value in a response body that is the URL of the next page of the same endpoint.

    Why: many APIs hand out the next page's full URL (``{"links": {"next": "…?page=2"}}``) whatever their
    parameters are called; following it needs no knowledge of the paging scheme.
    """
    here = urlsplit(url)

    def visit(node: Any, path: str, depth: int) -> str | None:
        if depth > 4 or not isinstance(node, dict):
            return None
        for k, v in node.items():
            kp = f"{path}.{k}" if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", str(k)) else f"{path}['{k}']"
            if isinstance(v, str) and v.strip() and (v.startswith(("http://", "https://", "/", "?"))):
                nxt = urlsplit(urljoin(url, v.strip()))
                if nxt.path.rstrip("/") == here.path.rstrip("/") and nxt.query and nxt.query != here.query:
                    return kp
            elif isinstance(v, dict):
                found = visit(v, kp, depth + 1)
                if found:
                    return found
        return None

    return visit(obj, "$", 0)


def html_pagination(links: list[Link], page_url: str) -> PaginationHint | None:
    """A 'next' link or numbered page links on an HTML listing."""
    for link in links:
        t = link.text.strip().lower()
        if t in ("next", "next »", "next page", "»", "›", ">", "next >") or t.startswith("next "):
            if "month" in t or "year" in t:
                continue
            q = dict(parse_qsl(urlsplit(link.url).query))
            param = next((k for k in q if k.lower() in _PAGE_PARAMS + _OFFSET_PARAMS), None)
            return PaginationHint(style="next_link", param=param)
    own = urlsplit(page_url)
    page_like = Counter()
    for link in links:
        u = urlsplit(link.url)
        if u.path != own.path:
            continue
        for k, v in parse_qsl(u.query):
            if k.lower() in _PAGE_PARAMS + _OFFSET_PARAMS and v.isdigit():
                page_like[k] += 1
    if page_like:
        k, n = page_like.most_common(1)[0]
        if n >= 2:
            return PaginationHint(style="page", param=k, pages_seen=n)
    return None


# ------------------------------------------------------------------------------------------- links


_SLUG = re.compile(r"(?=.*[^\W\d_])[^\W_]+(?:[-_][^\W_]+)+")


def url_family(url: str) -> str:
    """A URL with its variable parts collapsed: digits, long hex/hashes and the last slug segment."""
    p = urlsplit(url)
    segs = p.path.split("/")
    out = []
    # "/recipe/lemon-ricotta-pancakes/": a trailing slash after a multi-word slug names a record too
    slug = len(segs) - 2 if len(segs) > 2 and not segs[-1] and _SLUG.fullmatch(segs[-2]) else None
    for i, s in enumerate(segs):
        s2 = re.sub(r"[0-9a-f]{12,}", "H", s)
        s2 = re.sub(r"\d+", "N", s2)
        if i == slug:
            s2 = "S"
        if i == len(segs) - 1 and s2 and "." in s2:
            stem, ext = s2.rsplit(".", 1)
            s2 = ("S" if not re.fullmatch(r"[A-Z_N-]*", stem) else stem) + "." + ext
        out.append(s2)
    q = "&".join(sorted(k for k, _ in parse_qsl(p.query)))
    return f"{p.netloc}{'/'.join(out)}?{q}"


_PAGER_TEXT = re.compile(
    r"^(?:\d{1,3}|next|prev(?:ious)?|first|last|older|newer|more|[»«›‹<>]+|(?:next|prev(?:ious)?|older|newer)"
    r"\s+(?:page|posts|entries|results)?\s*[»«›‹<>]*|[»«›‹<>]+\s*(?:next|prev(?:ious)?|first|last))$",
    re.I,
)
_PAGE_STEP = re.compile(r"(?:^|/)(?:page|p|seite|pagina)/\d+/?$|(?:^|/)\d{1,3}/?$", re.I)
_NAMED_STEP = re.compile(r"(?:^|/)(?:page|p|seite|pagina)/\d+/?$", re.I)


def _no_page(u: Any) -> tuple[str, list[tuple[str, str]]]:
    """A URL's path and query without its page/offset/page-size parameters and a trailing page step."""
    path = _PAGE_STEP.sub("", u.path.rstrip("/")) or "/"
    skip = _PAGE_PARAMS + _OFFSET_PARAMS + _SIZE_PARAMS
    q = sorted((k, v) for k, v in parse_qsl(u.query) if k.lower() not in skip)
    return path.rstrip("/") or "/", q


def is_pager_link(link: Link, page_url: str) -> bool:
    """A link to another page of the same listing (``?page=2``, ``/page/3/``, ``?start=20``), not a record:
    the URL equals the page's own once page numbers and offsets are taken away, and the link says so
    (its text a page number or next/previous, or a page parameter or step in its URL). Followed as a
    record link it starts the crawl mid-listing."""
    own, u = urlsplit(page_url), urlsplit(link.url)
    if u.netloc != own.netloc or _no_page(u) != _no_page(own):
        return False
    paged = any(k.lower() in _PAGE_PARAMS + _OFFSET_PARAMS for k, _ in parse_qsl(u.query))
    # a bare number ending the path (/list/12) is a page only when the link says so: it may be a record id
    return paged or bool(_NAMED_STEP.search(u.path)) or bool(_PAGER_TEXT.match(link.text.strip()))


def repeated_links(links: list[Link], page_url: str, *, min_count: int = 5) -> list[list[Link]]:
    """Groups of links sharing a URL family (the record links of a listing), largest first; links to
    other pages of the same listing (``is_pager_link``) are pagination, not records."""
    own = urlsplit(page_url)
    groups: dict[str, list[Link]] = {}
    for link in links:
        u = urlsplit(link.url)
        if u.netloc != own.netloc or link.url.split("#")[0] == page_url.split("#")[0]:
            continue
        if is_pager_link(link, page_url):
            continue
        groups.setdefault(url_family(link.url), []).append(link)
    binary = (".pdf", ".zip", ".gz", ".bib", ".tar", ".mp4", ".jpg", ".png")
    big = [g for g in groups.values() if len(g) >= min_count and not g[0].url.lower().endswith(binary)]
    return sorted(big, key=len, reverse=True)


def is_data_link(link: Link) -> bool:
    """Links that name an API, a data file or an example request (worth fetching as an endpoint)."""
    u = urlsplit(link.url)
    path = u.path.lower()
    if path.endswith((".csv", ".json", ".xlsx", ".tsv", ".ndjson", ".jsonl")):
        return True
    if "/api/" in path or path.startswith("/api") or ".api." in u.netloc or u.netloc.startswith("api."):
        return True
    q = dict(parse_qsl(u.query))
    return q.get("format", "").lower() in ("json", "csv")


def is_docs_link(link: Link) -> bool:
    low = f"{link.text} {link.url}".lower()
    return bool(re.search(r"documentation|/docs\b|api reference|developers?\b|\bapi\b(?!\.)", low))


def is_docs_text(text: str) -> bool:
    """A page whose title/text speaks of an API (endpoints, parameters, requests): an API documentation page."""
    low = text.lower()
    hits = sum(
        bool(re.search(p, low))
        for p in (
            r"\bapi\b",
            r"\bendpoints?\b",
            r"\bparameters?\b",
            r"\bcurl\b",
            r"\brequests?\b",
            r"\bjson\b",
        )
    )
    return hits >= 2


def entity_link(groups: list[list[Link]], plan: ParsedInstruction) -> Link | None:
    """The record link of a listing that names the requested team/player (text, code or URL slug).

    A listing's first record is someone else's more often than not; the requested entity's own page
    holds the links (per-entity leaderboards, tabs) the development squad needs.
    """
    names: list[tuple[str, str]] = [(t.name, t.abbr) for t in plan.teams] + [(p, "") for p in plan.players]
    if not names:
        return None
    best: tuple[float, Link | None] = (0.0, None)
    for group in groups:
        for link in group:
            text = " ".join(link.text.split()).lower()
            url_words = set(words(urlsplit(link.url).path))
            for name, abbr in names:
                nw = words(name)
                s = 0.0
                if text == name.lower():
                    s = 4.0
                elif abbr and text == abbr.lower():
                    s = 3.0
                elif nw and text and text.split()[-1:] == nw[-1:] and set(text.split()) <= set(nw):
                    s = 2.0
                if nw and nw[-1] in url_words:
                    s += 1.0 + 0.5 * sum(w in url_words for w in nw[:-1])
                if s > best[0]:
                    best = (s, link)
    return best[1] if best[0] >= 1.0 else None
