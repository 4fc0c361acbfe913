"""Wrapper induction: from observed responses to CollectorSpec sources, with no site knowledge.

Everything here works on what a response shows: where the record array sits in a JSON body
(list-of-dicts or ``headers``/``rowSet`` tables), which keys or table headers correspond to the
target fields (by name, then by values), which URL parts are the request's scope (a ticker in the
path, dates, seasons, years, ids) and how the endpoint pages. The engineering agent
(``agents/engineering.py``) assembles these pieces into whole specs and ranks them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from pydantic import BaseModel, Field

from prefect_autodata.agents.induction.recordset import RecordSet
from prefect_autodata.agents.request import Request as ParsedInstruction
from prefect_autodata.runtime.spec import FieldRule, Pagination, ParamSpec, Transform

# ------------------------------------------------------------------------------------------- names

# General vocabulary of column-name equivalences (abbreviations used across data APIs).
SYNONYMS: dict[str, tuple[str, ...]] = {
    "w": ("wins", "win"),
    "l": ("losses", "loss"),
    "year": ("season", "seasonid", "yr", "seasonyear"),
    "date": ("day", "tradingday", "timestamp", "datetime"),
    "teamabbr": ("teamabbreviation", "abbreviation", "teamnameabb", "abbr", "teamcode"),
    "teamname": ("team", "teamfullname", "franchise", "club"),
    "playername": ("displayfirstlast", "player", "fullname", "name"),
    "hb": ("hbp", "hitbypitch"),
    "sho": ("shutouts",),
    "birthdate": ("dob", "dateofbirth", "born"),
    "title": ("papertitle", "name"),
    "authors": ("author", "authorlist", "creators"),
    "abstract": ("summary", "description"),
    "ticker": ("symbol", "code"),
    "volume": ("vol",),
}
_PREFIXES = ("player", "team", "bat", "pit", "fld", "stock", "paper")


def norm(name: str) -> str:
    """Lower-case alphanumerics only: ``TEAM_ABBREVIATION`` → ``teamabbreviation``, ``2B`` → ``2b``."""
    return re.sub(r"[^a-z0-9]", "", str(name).lower())


def _alias_score(target: str, key: str) -> float:
    """The API alias table above: exact, synonym and namespace-prefix forms of a key."""
    t, k = norm(target), norm(key)
    if not t or not k:
        return 0.0
    if t == k:
        return 1.0 if target == key else 0.97
    if k in SYNONYMS.get(t, ()):
        return 0.9
    for p in _PREFIXES:
        if k == p + t or t == p + k:
            return 0.85
    if any(t in SYNONYMS.get(s, ()) and (s == k) for s in SYNONYMS):
        return 0.8
    return 0.0


def name_score(target: str, key: str) -> float:
    """How surely a source key names the target field (1 exact … 0 unrelated).

    The one matcher (``agents/induction/matching``: names, lexicon synonyms and translations,
    abbreviations, fuzzy) or the API alias table above, whichever is surer.
    """
    return max(_alias_score(target, key), _key_evidence(target, str(key))[0])


_KEY_EVIDENCE = ("name", "synonym", "abbrev", "identity")


def _key_evidence(target: str, text: str, *, doc: bool = False) -> tuple[float, str]:
    """The one matcher's evidence for a record key, without word containment and fuzzy spelling.

    A key holding the target's word is often another measure of it (``FROM_YEAR``, ``DRAFT_YEAR``
    for ``YEAR``); keys are exact names, so only equality, the lexicon (a whole-key synonym or
    translation, not a head word) and abbreviations count. A documented meaning (``doc``) is prose: there containment counts too.
    """
    from prefect_autodata.agents.induction import matching as mt

    s, how = mt.name_evidence(target, text)
    if doc:
        return (s, how) if how != "fuzzy" else (0.0, how)
    if how == "name" and s < 1.0 or how == "fuzzy":
        return 0.0, how
    if how == "synonym" and s < 0.85:
        return 0.0, how  # a concept by a head word only ("SEASON_EXP" is no season)
    return s, how


# ------------------------------------------------------------------------------------------- values

_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$")
_SEASON = re.compile(r"^((?:18|19|20)\d{2})-(\d{2})$")
_YEAR = re.compile(r"^(18|19|20)\d{2}$")
_TAG = re.compile(r"<[^>]+>")


def value_kind(values: Iterable[Any]) -> str:
    """The common shape of sample values: integer, float, date, season, year, url, html, string, empty."""
    vals = [v for v in values if v is not None and v != ""]
    if not vals:
        return "empty"
    if all(isinstance(v, bool) for v in vals):
        return "boolean"
    if all(isinstance(v, int) and not isinstance(v, bool) for v in vals):
        return "year" if all(1850 <= v <= 2100 for v in vals) and len(set(vals)) > 0 else "integer"
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in vals):
        return "float"
    s = [str(v).strip() for v in vals]
    if all(_SEASON.match(x) for x in s):
        return "season"
    if all(_ISO_DAY.match(x) for x in s):
        return "date"
    if all(_YEAR.match(x) for x in s):
        return "year"
    if all(re.fullmatch(r"-?\d+", x) for x in s):
        return "integer"
    if all(re.fullmatch(r"-?\d*\.?\d+", x) for x in s):
        return "float"
    if all(x.startswith(("http://", "https://", "/")) for x in s):
        return "url"
    if all(_TAG.search(x) for x in s):
        return "html"
    return "string"


def target_kind(target: str) -> str | None:
    """What a target field name implies about its values (None: no opinion)."""
    t = norm(target)
    if t in ("date", "day", "tradingdate") or t.endswith("date") and t not in ("birthdate",):
        return "date"
    if t in ("year", "season", "draftyear"):
        return "year"
    return None


class FieldMatch(BaseModel):
    """One target field resolved to a source key (or a request parameter), with its cleaning."""

    target: str
    key: str | int | None = None
    from_param: str | None = None
    score: float
    type: str = "string"
    transforms: list[Transform] = Field(default_factory=list)
    why: str = ""


def _transforms_for(target: str, kind: str, sample: list[Any]) -> tuple[str, list[Transform]]:
    """Column type and cleaning steps implied by the target name and the sample values."""
    want = target_kind(target)
    if kind == "season":
        return "integer", [Transform(op="regex", pattern=r"^(\d{4})"), Transform(op="integer")]
    if kind == "date":
        return "date", [Transform(op="parse_date")]
    if kind == "html":
        return "string", [Transform(op="replace", pattern=r"<[^>]+>", value=""), Transform(op="strip")]
    if kind in ("integer", "year"):
        if want == "date":
            return "string", []
        numeric_strings = any(isinstance(v, str) for v in sample)
        return "integer", ([Transform(op="integer")] if numeric_strings else [])
    if kind == "float":
        numeric_strings = any(isinstance(v, str) for v in sample)
        return "float", ([Transform(op="number")] if numeric_strings else [])
    if kind == "boolean":
        return "boolean", []
    return "string", []


def _compatible(target: str, kind: str) -> bool:
    want = target_kind(target)
    if want == "date":
        return kind in ("date", "empty")
    if want == "year":
        return kind in ("year", "season", "integer", "empty")
    return True


def match_fields(
    targets: list[str],
    keys: list[str | int],
    rows: list[dict[Any, Any]],
    plan: ParsedInstruction | None = None,
    *,
    labels: dict[str | int, str] | None = None,
    docs: dict[str | int, str] | None = None,
    eliminate: bool = False,
) -> dict[str, FieldMatch]:
    """Map each target field to the best source key by name, meaning and values, assigned globally.

    ``keys`` are record keys (or column positions with ``labels`` naming them); ``rows`` are sample
    records keyed the same way; ``docs`` what the source's documentation says a key means. Scores
    come from the one matcher (``agents/induction/matching``) and the API alias table; a date or
    year target takes only date- or year-like values, a value the plan names (a requested ticker,
    team or player) marks its column. A key serves one target (the best total wins). With
    ``eliminate``, leftover targets take leftover opaque keys whose values have their type.
    """
    from prefect_autodata.agents.induction import matching as mt
    from prefect_autodata.agents.induction import values as vt

    labels = labels or {k: str(k) for k in keys}
    docs = docs or {}
    samples = {k: [r.get(k) for r in rows[:50]] for k in keys}
    kinds = {k: value_kind(v) for k, v in samples.items()}
    plan_values = _plan_values(plan)
    aliases = mt.aliases_of(plan)
    cands = [
        mt.Candidate(
            label=str(labels.get(k, k)),
            values=samples[k],
            rule={"key": k},
            origin="json",
            anchor=0.8,
            aliases=[str(k)] if str(k) != str(labels.get(k, k)) else [],
            doc=docs.get(k),
            position=i,
        )
        for i, k in enumerate(keys)
    ]
    profs = [vt.profile(samples[k]) for k in keys]
    header = {mt.normalise(str(labels.get(k, k))) for k in keys}
    matrix: list[list[float]] = []
    whys: dict[tuple[int, int], str] = {}
    for i, t in enumerate(targets):
        row = []
        for j, k in enumerate(keys):
            c = cands[j]
            names = mt.names_of(t, aliases)  # the user's word, then the plan's column for it
            legacy = max(nw * _alias_score(n, str(x)) for n, nw in names for x in (labels.get(k, k), k))
            ns, how, text = 0.0, "", ""
            for n, nw in names:
                for txt, w, what in c.texts():
                    e, h = _key_evidence(n, txt, doc=what == "doc")
                    if e * w * nw > ns:
                        ns, how, text = round(e * w * nw, 3), ("doc:" + h if what == "doc" else h), txt
            s, why = (
                (legacy, f"{labels[k]!r}") if legacy >= ns else (ns, f"{labels[k]!r} ({how} of {text!r})")
            )
            if s and mt._label_values(samples[k], header):
                s = 0.0
            if s and len(re.sub(r"[^a-z0-9]", "", str(text or labels[k]).lower())) <= 2 and legacy < 0.9:
                if vt.fit(mt.expected_type(t), profs[j]) <= 0:
                    s = 0.0  # a one- or two-letter key is an abbreviation only when its values fit
            if s and s < 0.8 and (profs[j].constant and len(rows) > 1):
                s = 0.0  # the same value in every record, named only vaguely: template text
            if s and not _compatible(t, kinds[k]):
                s *= 0.3
            elif s and s < 0.95 and vt.fit(mt.expected_type(t), profs[j]) <= -1.0:
                s *= 0.6
            vs = _value_overlap(t, samples[k], plan_values)
            if vs:
                s = max(s, 0.6) + 0.1 * vs
                why += "; holds a value the request names"
            row.append(round(s, 4))
            whys[(i, j)] = why
        matrix.append(row)
    out: dict[str, FieldMatch] = {}
    for i, j in sorted(mt.solve(matrix, 0.5), key=lambda p: (-matrix[p[0]][p[1]], p[0])):
        t, k = targets[i], keys[j]
        typ, tr = _transforms_for(t, kinds[k], samples[k])
        out[t] = FieldMatch(target=t, key=k, score=matrix[i][j], type=typ, transforms=tr, why=whys[(i, j)])
    if eliminate:
        used = {m.key for m in out.values()}
        got = mt._eliminate(
            targets,
            cands,
            profs,
            {t: None for t in out},
            lambda j: keys[j] not in used and cands[j].fill > 0,
            header,
            0.5,
        )
        for t, m in got.items():
            k = m.candidate.rule["key"]
            typ, tr = _transforms_for(t, kinds[k], samples[k])
            out[t] = FieldMatch(target=t, key=k, score=round(m.score, 3), type=typ, transforms=tr, why=m.why)
    return {t: out[t] for t in targets if t in out}


def _plan_values(plan: ParsedInstruction | None) -> dict[str, set[str]]:
    if plan is None:
        return {}
    vals: dict[str, set[str]] = {}
    if plan.players:
        vals["name"] = {p.lower() for p in plan.players}
    if plan.teams:
        vals["team"] = {t.name.lower() for t in plan.teams} | {t.abbr.lower() for t in plan.teams}
    if plan.tickers:
        vals["ticker"] = {t.lower() for t in plan.tickers}
    return vals


def _value_overlap(target: str, sample: list[Any], plan_values: dict[str, set[str]]) -> int:
    """1 when the sample contains a value the plan names and the target is that kind of thing."""
    t = norm(target)
    kinds = [k for k in plan_values if k in t or (k == "ticker" and t in ("symbol",))]
    for k in kinds:
        got = {str(v).strip().lower() for v in sample if v is not None}
        if got & plan_values[k]:
            return 1
    return 0


# ------------------------------------------------------------------------------------------- JSON records


# ------------------------------------------------------------------------------------------- URLs

_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
PAGE_PARAMS = ("page", "pagenum", "page_num", "pageno", "pagenumber", "p")
OFFSET_PARAMS = ("offset", "skip", "start_index")
SIZE_PARAMS = ("limit", "per_page", "perpage", "page_size", "pagesize", "pageitems", "size", "count", "num")
_START_WORDS = ("start", "from", "begin", "since", "min")
_END_WORDS = ("end", "to", "until", "max")


def season_label(year: int) -> str:
    """'2023-24' for the season starting in 2023."""
    return f"{year}-{(year + 1) % 100:02d}"


@dataclass
class GeneralRequest:
    """An example URL turned into a template: placeholders for the request's scope, constants kept."""

    base_url: str
    path: str
    query: dict[str, str]
    params: dict[str, ParamSpec]
    roles: dict[str, str] = field(default_factory=dict)
    pagination: Pagination | None = None
    server_filters: set[str] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return "{base_url}" + self.path


def _years(plan: ParsedInstruction) -> list[int]:
    if plan.years:
        return list(plan.years)
    if plan.start_year and plan.end_year:
        return list(range(plan.start_year, plan.end_year + 1))
    return []


def generalise_url(
    examples: list[str],
    plan: ParsedInstruction,
    *,
    page_size: int | None = None,
    total_key: str | None = None,
    ticker_param: ParamSpec | None = None,
    known_entities: Iterable[str] = (),
) -> GeneralRequest:
    """Template the example URL(s): scope parts become parameters bound to the plan.

    - a path segment equal to a requested ticker → ``{ticker}`` over the plan's tickers;
    - dates (YYYY-MM-DD) → the plan's start/end (by the parameter's name);
    - seasons ('2023-24') and lone years → one request per requested year;
    - a start/end pair of years → the plan's first/last year (server-side filtering);
    - values that differ between several examples (ids of several players) → a values list;
    - page/offset parameters → pagination (page size raised when the API allows).
    """
    first = urlsplit(examples[0])
    base = f"{first.scheme}://{first.netloc}"
    segs = first.path.split("/")
    params: dict[str, ParamSpec] = {}
    roles: dict[str, str] = {}
    notes: list[str] = []
    server: set[str] = set()
    tickers = {t.lower(): t for t in plan.tickers}
    others = [urlsplit(u) for u in examples[1:]]
    known = {k.lower() for k in known_entities}
    for i, seg in enumerate(segs):
        dec = unquote(seg)
        if "ticker" not in params and (dec.lower() in tickers or (ticker_param and dec.lower() in known)):
            segs[i] = "{ticker}"
            params["ticker"] = ticker_param or ParamSpec(values=list(plan.tickers))
            roles["ticker"] = "ticker"
            server.add("ticker")
        elif others and any(_seg(o, i) != seg for o in others):
            name = _free_name("id", params)
            segs[i] = "{" + name + "}"
            params[name] = ParamSpec(
                values=list(dict.fromkeys([dec, *(unquote(_seg(o, i)) for o in others)]))
            )
            roles[name] = "entity"
    path = "/".join(segs)
    q = dict(parse_qsl(first.query, keep_blank_values=True))
    oq = [dict(parse_qsl(o.query, keep_blank_values=True)) for o in others]
    years = _years(plan)
    query: dict[str, str] = {}
    pagination: Pagination | None = None
    year_params = [k for k, v in q.items() if _YEAR.match(v) and _yearish(k)]
    for k, v in q.items():
        kl = k.lower()
        pname = _free_name(re.sub(r"[^a-z0-9_]", "_", kl) or "p", params)
        differs = [o.get(k) for o in oq if o.get(k) is not None and o.get(k) != v]
        if kl in PAGE_PARAMS and v.isdigit():
            start = 0 if v == "0" else 1  # page=0 in the call: 0-based; a deep link's number is no start
            pagination = Pagination(kind="page", param=k, start=start, max_pages=1000)
            continue
        if kl in OFFSET_PARAMS and v.isdigit():
            pagination = Pagination(kind="offset", param=k, start=int(v), size=page_size or 100)
            continue
        if kl in SIZE_PARAMS and v.isdigit():
            query[k] = v
            continue
        if _DAY.match(v) and plan.start_date:
            is_end = any(w in kl for w in _END_WORDS) and not any(w in kl for w in _START_WORDS)
            d = (plan.end_date or plan.start_date) if is_end else plan.start_date
            params[pname] = ParamSpec(date=d.isoformat())
            roles[pname] = "end_date" if is_end else "start_date"
            query[k] = "{" + pname + "}"
            server.add("date")
            continue
        if _SEASON.match(v) and years:
            params[pname] = ParamSpec(values=[season_label(y) for y in years])
            roles[pname] = "season"
            query[k] = "{" + pname + "}"
            server.add("year")
            continue
        if k in year_params and years:
            if len(year_params) == 2:
                lo_k = min(year_params, key=lambda x: (any(w in x.lower() for w in _END_WORDS), len(x), x))
                y = years[0] if k == lo_k else years[-1]
                params[pname] = ParamSpec(values=[y])
                roles[pname] = "start_year" if k == lo_k else "end_year"
            else:
                params[pname] = ParamSpec(values=list(years))
                roles[pname] = "year"
            query[k] = "{" + pname + "}"
            server.add("year")
            continue
        if differs:
            params[pname] = ParamSpec(values=list(dict.fromkeys([v, *differs])))
            roles[pname] = "entity"
            query[k] = "{" + pname + "}"
            continue
        query[k] = v
    if pagination is not None and pagination.kind == "offset":
        # the offset steps by the records one call returns, the size the query asks for (a step of
        # ``page_size`` past a call of 9 records skipped all but every page's first 9)
        size_k = next((k for k in query if k.lower() in SIZE_PARAMS and query[k].isdigit()), None)
        if size_k and int(query[size_k]) > 0:
            pagination = pagination.model_copy(update={"size": int(query[size_k]), "size_param": size_k})
    if pagination is not None and pagination.kind == "page":
        size_k = next((k for k in query if k.lower() in SIZE_PARAMS), None)
        if size_k and page_size:
            query[size_k] = str(page_size)
        if total_key:
            from prefect_autodata.runtime.spec import Selector

            pagination = pagination.model_copy(update={"total": Selector(jsonpath=f"$.{total_key}")})
    if "year" not in server and years and plan.kind != "stock":
        notes.append("the endpoint takes no year parameter: rows are filtered to the requested years")
    return GeneralRequest(base, path, query, params, roles, pagination, server, notes)


def _seg(parts: Any, i: int) -> str:
    segs = parts.path.split("/")
    return segs[i] if i < len(segs) else ""


def _yearish(key: str) -> bool:
    k = key.lower()
    return any(w in k for w in ("season", "year", "yr", "from", "to", "start", "end")) or k in (
        "y",
        "y1",
        "y2",
    )


def _free_name(name: str, taken: dict[str, Any]) -> str:
    name = re.sub(r"^[^a-z_]+", "", name) or "p"
    if name in ("base_url", "cursor"):
        name = f"{name}_"
    out, i = name, 2
    while out in taken:
        out, i = f"{name}{i}", i + 1
    return out


# ------------------------------------------------------------------------------------------- rows


def year_filter_code(column: str, plan: ParsedInstruction) -> str | None:
    """A python step keeping rows whose ``column`` (a year or 'YYYY-YY' season) is in the plan's years."""
    years = _years(plan)
    lo, hi = (years[0], years[-1]) if years else (None, plan.end_year)
    if lo is None and hi is None:
        return None
    allowed = sorted(set(years)) if years else None
    return (
        "import re\n"
        f"ALLOWED = {allowed!r}\n"
        f"HI = {hi!r}\n"
        "def _year(v):\n"
        "    m = re.match(r'\\s*(\\d{4})', str(v)) if v is not None else None\n"
        "    return int(m.group(1)) if m else None\n"
        "def transform(rows):\n"
        "    out = []\n"
        "    for r in rows:\n"
        f"        y = _year(r.get({column!r}))\n"
        "        if y is None:\n"
        "            continue\n"
        "        if (ALLOWED is not None and y in ALLOWED) or (ALLOWED is None and y <= HI):\n"
        "            out.append(r)\n"
        "    return out\n"
    )


_IDENT_WORDS = ("ticker", "symbol", "date", "year", "season", "name", "title", "abbr", "id")


def is_identifying(f: str) -> bool:
    """Fields that name a record (dates, years, names, symbols), as opposed to measurements."""
    n = norm(f)
    return any(w in n for w in _IDENT_WORDS) and n not in ("birthdate", "draftyear")


def choose_primary_key(fields: list[str], rows: list[dict[str, Any]], *, extra: list[str] = ()) -> list[str]:
    """Every identifying field that is always present in the sample, time first.

    Broad on purpose: a key that is unique in one sample request (one player's seasons) may collide
    across requests (several players, a traded player's per-team rows), and a collision loses rows.
    ``extra`` are identifying fields known only later (detail pages); they join the key as well.
    """
    ident = [f for f in fields if is_identifying(f)]
    order = sorted(ident, key=lambda f: 0 if any(w in norm(f) for w in ("date", "year", "season")) else 1)
    if rows:
        order = [k for k in order if all(r.get(k) not in (None, "") for r in rows)]
    order += [f for f in extra if is_identifying(f) and f not in order]
    if not order:
        return fields[:1]
    if rows:
        seen = {tuple(str(r.get(k)) for k in order if k in r) for r in rows}
        if len(seen) < len(rows):  # identifying fields do not separate the sample: use every field
            return [f for f in fields if all(r.get(f) not in (None, "") for r in rows)] or order
    return order


def field_rules(matches: dict[str, FieldMatch], rs: RecordSet | None) -> list[FieldRule]:
    """FieldRules for matched targets, in target order."""
    out = []
    for m in matches.values():
        if m.from_param is not None:
            out.append(
                FieldRule(name=m.target, from_param=m.from_param, type=m.type, transforms=m.transforms)
            )
        elif rs is not None and m.key is not None:
            out.append(
                FieldRule(
                    name=m.target, jsonpath=rs.jsonpath_for(m.key), type=m.type, transforms=m.transforms
                )
            )
    return out


def today_clamp(d: date | None, today: date | None = None) -> date | None:
    t = today or date.today()
    return min(d, t) if d else d


# ------------------------------------------------------------------------------------------- HTML tables


@dataclass
class TableCandidate:
    """A data table on an HTML page: how to select its rows and what each column is called."""

    records_xpath: str
    labels: dict[int, str]
    rows: list[dict[int, str]]
    count: int
    links: dict[int, list[str]] = field(default_factory=dict)
    row_headers: bool = False  # each row led by its own header cell (``<th scope=row>``), a column too

    def field_xpath(self, col: int) -> str:
        if self.row_headers:
            return f"./*[self::td or self::th][{col + 1}]"
        return f"./td[{col + 1}]"


def _row_headers(head: list[Any], rows: list[Any]) -> bool:
    """The rows lead with a header cell of their own (``<th scope="row">2004-05</th>`` before the ``<td>``s)
    that the header row labels too: the header has as many cells as most rows have ``th`` and ``td``
    together, not as many as their ``td``s. Then column k is the k-th cell of either kind; read as the
    k-th ``td``, every label would name its right neighbour's values."""
    if not rows or not any(tr.xpath("./th") for tr in rows):
        return False
    both = sorted(len(tr.xpath("./th | ./td")) for tr in rows)[len(rows) // 2]
    tds = sorted(len(tr.xpath("./td")) for tr in rows)[len(rows) // 2]
    return len(head) == both != tds


def html_tables(html_text: str, *, min_rows: int = 2, max_rows: int = 50) -> list[TableCandidate]:
    """Tables with a header row and at least ``min_rows`` data rows, largest first (the page read by the
    one parse, ``dom.parse``: a ``rowspan`` cell is in every row it covers, so ``td[k]`` is column k)."""
    from prefect_autodata.agents.induction.dom import parse

    root = parse(html_text)
    if root is None:  # an unparsable page simply has no tables
        return []
    out: list[TableCandidate] = []
    for n, table in enumerate(root.iter("table"), start=1):
        head = table.xpath("./thead/tr[1]/th | ./thead/tr[1]/td")
        body_rows = table.xpath("./tbody/tr[td]") or table.xpath("./tr[td]")
        if not head:
            first = table.xpath("./tr[th] | ./tbody/tr[th]")
            head = first[0].xpath("./th") if first else []
        if not head or len(body_rows) < min_rows:
            continue
        labels = {i: " ".join(h.text_content().split()) for i, h in enumerate(head)}
        rows = []
        links: dict[int, list[str]] = {}
        led = _row_headers(head, body_rows)
        for tr in body_rows[:max_rows]:
            cells = tr.xpath("./th | ./td") if led else tr.xpath("./td")
            rows.append({i: " ".join(c.text_content().split()) for i, c in enumerate(cells)})
            for i, c in enumerate(cells):
                hrefs = c.xpath(".//a/@href")
                if hrefs:
                    links.setdefault(i, []).append(str(hrefs[0]))
        tid = table.get("id")
        if tid and re.fullmatch(r"[A-Za-z][\w-]*", tid):
            xp = (
                f"//table[@id='{tid}']/tbody/tr[td]"
                if table.xpath("./tbody")
                else f"//table[@id='{tid}']/tr[td]"
            )
        else:
            xp = f"(//table)[{n}]/tbody/tr[td]" if table.xpath("./tbody") else f"(//table)[{n}]/tr[td]"
        out.append(TableCandidate(xp, labels, rows, len(body_rows), links, led))
    # Tables of one header (a table per division, per letter) are one record set split for display,
    # unless a row shows in two of them (a "top 5" above the full list).
    for labs, led in dict.fromkeys((tuple(t.labels.items()), t.row_headers) for t in out):
        same = [t for t in out if tuple(t.labels.items()) == labs and t.row_headers == led]
        keys = [tuple(r.items()) for t in same for r in t.rows]
        if len(same) > 1 and len(set(keys)) == len(keys):
            rows = [r for t in same for r in t.rows]
            links = {i: [v for t in same for v in t.links.get(i, [])] for i in dict(labs)}
            xp = " | ".join(t.records_xpath for t in same)
            n = sum(t.count for t in same)
            out = [t for t in out if t not in same] + [TableCandidate(xp, dict(labs), rows, n, links, led)]
    return sorted(out, key=lambda t: -t.count)


def next_link_selector(html_text: str) -> str | None:
    """A CSS selector for the page's 'next page' link, when it has one."""
    from prefect_autodata.agents.induction.dom import parse

    root = parse(html_text)
    if root is None:
        return None
    for a in root.iter("a"):
        text = " ".join(a.text_content().split()).lower()
        rel = (a.get("rel") or "").lower()
        if rel == "next":
            return "a[rel=next]"
        if text in ("next", "next »", "next ›", "next page", "»", "›") or text.startswith("next "):
            if "month" in text or "year" in text:
                continue
            cls = (a.get("class") or "").split()
            if cls:
                return "a." + ".".join(cls)
            return None
    return None
