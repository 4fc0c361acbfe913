"""Papers accepted at a conference: venue names and tracks, the proceedings' default columns."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pydantic import BaseModel

from prefect_autodata.agents.kinds import AddTerm, Context, RecordKind, register
from prefect_autodata.agents.request import Filter, KindScope

if TYPE_CHECKING:
    from prefect_autodata.agents.request import Request

# abbreviation → (canonical full name, extra aliases matched case-insensitively)
CONFERENCES: dict[str, tuple[str, tuple[str, ...]]] = {
    "NeurIPS": (
        "Conference on Neural Information Processing Systems",
        ("NIPS", "Neural Information Processing Systems"),
    ),
    "ICML": ("International Conference on Machine Learning", ()),
    "ICLR": ("International Conference on Learning Representations", ()),
    "NAACL": (
        "Conference of the North American Chapter of the Association for Computational Linguistics",
        ("NAACL-HLT", "North American Chapter of the Association for Computational Linguistics"),
    ),
    "ACL": (
        "Annual Meeting of the Association for Computational Linguistics",
        ("Association for Computational Linguistics",),
    ),
    "EMNLP": (
        "Conference on Empirical Methods in Natural Language Processing",
        ("Empirical Methods in Natural Language Processing",),
    ),
    "EACL": ("Conference of the European Chapter of the Association for Computational Linguistics", ()),
    "COLING": ("International Conference on Computational Linguistics", ()),
    "CVPR": (
        "IEEE/CVF Conference on Computer Vision and Pattern Recognition",
        ("Computer Vision and Pattern Recognition",),
    ),
    "ICCV": (
        "IEEE/CVF International Conference on Computer Vision",
        ("International Conference on Computer Vision",),
    ),
    "ECCV": ("European Conference on Computer Vision", ()),
    "AAAI": ("AAAI Conference on Artificial Intelligence", ()),
    "IJCAI": ("International Joint Conference on Artificial Intelligence", ()),
    "KDD": ("ACM SIGKDD Conference on Knowledge Discovery and Data Mining", ("SIGKDD",)),
    "SIGIR": ("ACM SIGIR Conference on Research and Development in Information Retrieval", ()),
    "AISTATS": ("International Conference on Artificial Intelligence and Statistics", ()),
    "UAI": ("Conference on Uncertainty in Artificial Intelligence", ()),
    "COLT": ("Conference on Learning Theory", ()),
    "WACV": ("IEEE/CVF Winter Conference on Applications of Computer Vision", ()),
}

# Track phrases (regex, case-insensitive) → the track label used by proceedings.
TRACKS: list[tuple[str, str]] = [
    (r"\bfindings\b", "Findings Track"),
    (r"\blong[- ]papers?\b|\blong track\b", "Long Paper Track"),
    (r"\bshort[- ]papers?\b|\bshort track\b", "Short Paper Track"),
    (r"\bmain[- ](?:conference|track|proceedings|papers?)\b", "Main Conference Track"),
    (r"\bposters?(?: track| papers?)?\b", "Poster Track"),
    (r"\bcompanion\b", "Companion Conference Track"),
    (r"\bdemo(?:nstration)?s?(?: track| papers?)?\b", "Demo Track"),
    (r"\bworkshops?\b", "Workshop Track"),
    (r"\bdatasets and benchmarks\b", "Datasets and Benchmarks Track"),
]

# Upper-case words of this kind that are not stock tickers (used by the stock kind).
ACRONYMS = frozenset(CONFERENCES) | frozenset(
    a for _, (_, al) in CONFERENCES.items() for a in al if a.isupper()
)

# A track the user names before the lower-case noun "track" ("in the Datasets and Benchmarks track").
_SAID_TRACK = re.compile(r"\b([A-Z][\w-]*(?:\s+(?:and|&|[A-Z][\w-]*))*)\s+track\b")
_PAPER_WORDS = r"\b(?:papers?|accepted|proceedings|publications?|articles?|conference|venue)\b"
_PAPER_HEADS = (
    "paper",
    "publication",
    "article",
    "proceeding",
    "proceedings",
    "submission",
    "statistic",
    "record",
)


class Venue(BaseModel):
    abbr: str
    name: str


class PaperScope(KindScope):
    venue: Venue | None = None
    track: str | None = None


def find_venue(text: str) -> tuple[Venue | None, tuple[int, int] | None]:
    """The longest conference name, alias or abbreviation in ``text``."""
    candidates: list[tuple[int, str, tuple[int, int]]] = []
    for abbr, (full, aliases) in CONFERENCES.items():
        for alias in (full, *aliases):
            for m in re.finditer(rf"(?<!\w){re.escape(alias)}(?!\w)", text, re.I):
                candidates.append((len(alias), abbr, m.span()))
        for m in re.finditer(rf"(?<![\w-]){re.escape(abbr)}(?![\w])", text, re.I):
            candidates.append((len(abbr), abbr, m.span()))
    if not candidates:
        return None, None
    _, abbr, span = max(candidates, key=lambda c: c[0])
    return Venue(abbr=abbr, name=CONFERENCES[abbr][0]), span


def venue_aliases(abbr: str) -> list[str]:
    """Every way of writing the venue ``abbr`` (abbreviation, full name, aliases)."""
    full, aliases = CONFERENCES.get(abbr, (abbr, ()))
    return [abbr, full, *aliases]


class PaperKind(RecordKind):
    name = "paper"
    domain = "academic"
    singular = "paper"
    plural = "papers"
    default_fields = "TITLE AUTHORS ABSTRACT CONFERENCE ABBR TRACK PAPER_LINK BIBTEX_LINK SUPP_LINK".split()
    vocabulary = {
        "title": "TITLE",
        "paper title": "TITLE",
        "author": "AUTHORS",
        "authors": "AUTHORS",
        "author list": "AUTHORS",
        "abstract": "ABSTRACT",
        "summary": "ABSTRACT",
        "conference": "CONFERENCE",
        "venue": "CONFERENCE",
        "track": "TRACK",
        "pdf": "PAPER_LINK",
        "pdf link": "PAPER_LINK",
        "paper link": "PAPER_LINK",
        "link": "PAPER_LINK",
        "bibtex": "BIBTEX_LINK",
        "bibtex link": "BIBTEX_LINK",
        "supplementary material": "SUPP_LINK",
        "supplement": "SUPP_LINK",
    }
    field_types = {"PAPER_LINK": "url", "BIBTEX_LINK": "url", "SUPP_LINK": "url"}
    scope_model = PaperScope
    location_filters = False

    def detect(self, ctx: Context) -> float:
        venue, span = find_venue(ctx.text)
        ctx.memo["paper.venue"] = (venue, span)
        if venue is not None:
            return 100.0
        if ctx.has(_PAPER_WORDS) and ctx.entity_is(*_PAPER_HEADS):
            return 75.0
        return 0.0

    def refine(self, req: Request, ctx: Context) -> None:
        venue, _ = ctx.memo.get("paper.venue") or find_venue(ctx.text)
        scope = PaperScope(venue=venue)
        pat = ""
        for pat, label in TRACKS:
            if re.search(pat, ctx.text, re.I):
                scope.track = label
                break
        req.kind_scope = scope
        filters = []
        if venue is not None:
            filters.append(Filter(field="conference", op="eq", value=venue.abbr))
        else:
            if not ctx.has_source:
                req.unresolved.append("no conference named: which conference (e.g. NeurIPS, ACL, CVPR)?")
        if scope.track:
            # "the Datasets and Benchmarks track": the user named the track before the word "track" (as
            # "the Fiction category" names a category): the filter keeps the user's words, the
            # proceedings' label an alias; "Findings papers", "ACL 2023 Findings Track" read the label
            said = _SAID_TRACK.search(ctx.text)
            value = said.group(1) if said and re.search(pat, said.group(1), re.I) else scope.track
            aliases = [scope.track] if value != scope.track else []
            filters.append(Filter(field="track", op="eq", value=value, aliases=aliases))
        req.filters = [f for f in req.filters if f.field not in {x.field for x in filters}] + filters
        if not req.years and req.is_resolved:
            req.assumptions.append("no year named: collect every year the source lists")
        if req.is_resolved:
            scope.template = "T2" if scope.track else ("T1" if len(req.years) == 1 else "T3")

    def who(self, req: Request) -> list[str]:
        s = req.kind_scope
        if isinstance(s, PaperScope) and s.venue:
            return [s.venue.abbr + (f" ({s.track})" if s.track else "")]
        return []

    def terms(self, req: Request, add: AddTerm, t: dict[str, float]) -> None:
        s = req.kind_scope
        if isinstance(s, PaperScope):
            if s.venue:
                add(s.venue.abbr, 3.0)
                add(s.venue.name, 0.5)
            if s.track:
                add(s.track.replace("Track", ""), 3.0)

    def search_queries(self, req: Request) -> list[str]:
        s = req.kind_scope
        if not isinstance(s, PaperScope) or not s.venue:
            return []
        years = req.years or [y for y in (req.start_year, req.end_year) if y]
        out = []
        for y in (years[:1] + years[-1:]) if years else [None]:
            base = f"{s.venue.abbr} {y} accepted papers" if y else f"{s.venue.abbr} accepted papers"
            out.append(f"{base} {s.track}" if s.track else base)
        return out


register(PaperKind())
