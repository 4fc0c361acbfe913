"""What the NBA and MLB kinds share: franchises, finding them in a sentence, league context, names."""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Literal

from pydantic import BaseModel, Field

from prefect_autodata.agents.kinds import AddTerm, Context, RecordKind
from prefect_autodata.agents.request import ExpectedSize, Filter, KindScope

if TYPE_CHECKING:
    from prefect_autodata.agents.request import Request


@dataclass(frozen=True)
class Franchise:
    """One franchise: the name a person reads, its code, and every other way people say it."""

    league: str
    city: str
    nickname: str
    abbr: str
    abbrs: tuple[str, ...] = ()
    aliases: tuple[str, ...] = field(default=())

    @property
    def name(self) -> str:
        return f"{self.city} {self.nickname}"


def franchise(league, city, nick, abbr, abbrs=(), aliases=()) -> Franchise:
    return Franchise(league, city, nick, abbr, tuple(abbrs), tuple(aliases))


class TeamRef(BaseModel):
    league: Literal["NBA", "MLB"]
    name: str
    abbr: str


NBA_CTX = r"\b(?:nba|basketball)\b"
MLB_CTX = r"\b(?:mlb|baseball|major league)\b"
SPORT_WORDS = r"\b(?:stats|statistics|season|seasons|regular[- ]season|box scores?|numbers)\b"
PLAYER_WORDS = r"\b(?:players?|career)\b"
ALL_TEAMS = re.compile(
    r"\b(?:all|every|each)\s+(?:(?:nba|mlb|the)\s+)*teams?\b|\bleague[- ]wide\b|\bteam statistics of\b", re.I
)


def franchise_patterns(teams: list[Franchise]) -> list[tuple[re.Pattern[str], Franchise, str]]:
    """(pattern, franchise, kind) longest first; full names case-insensitive, nicknames capitalised."""
    pats: list[tuple[int, re.Pattern[str], Franchise, str]] = []
    for t in teams:
        for full in (t.name, *[a for a in t.aliases if " " in a or "'" in a]):
            pats.append((len(full), re.compile(rf"(?<!\w){re.escape(full)}(?!\w)", re.I), t, "name"))
        for nick in (t.nickname, *[a for a in t.aliases if " " not in a and "'" not in a]):
            pats.append((len(nick), re.compile(rf"(?<!\w){re.escape(nick)}(?!\w)"), t, "nickname"))
        for ab in (t.abbr, *t.abbrs):
            pats.append((len(ab), re.compile(rf"(?<![\w$]){ab}(?![\w])"), t, "abbr"))
    pats.sort(key=lambda p: -p[0])
    return [(p, t, k) for _, p, t, k in pats]


def find_teams(
    text: str, pats: list[tuple[re.Pattern[str], Franchise, str]], allow_abbr: bool
) -> list[tuple[Franchise, tuple[int, int]]]:
    found: list[tuple[Franchise, tuple[int, int]]] = []
    taken: list[tuple[int, int]] = []
    for pat, team, kind in pats:
        if kind == "abbr" and not allow_abbr:
            continue
        for m in pat.finditer(text):
            a, b = m.span()
            if any(not (b <= x or a >= y) for x, y in taken):
                continue
            taken.append((a, b))
            found.append((team, (a, b)))
    found.sort(key=lambda x: x[1])
    seen: set[str] = set()
    unique = []
    for t, span in found:
        if t.name not in seen:
            seen.add(t.name)
            unique.append((t, span))
    return unique


@dataclass
class League:
    """League context of a sentence: explicit league words and the franchises named."""

    nba_ctx: bool
    mlb_ctx: bool
    nba_teams: list[tuple[Franchise, tuple[int, int]]]
    mlb_teams: list[tuple[Franchise, tuple[int, int]]]

    @property
    def team_spans(self) -> list[tuple[int, int]]:
        return [s for _, s in self.nba_teams + self.mlb_teams]


_TEAMS: dict[str, list[tuple[re.Pattern[str], Franchise, str]]] = {}


def register_teams(league_name: str, patterns: list[tuple[re.Pattern[str], Franchise, str]]) -> None:
    """A league's kind module hands its franchise patterns to the shared league context (``league``),
    so that this module needs not import the kinds built on it."""
    _TEAMS[league_name] = patterns


def league(ctx: Context) -> League:
    """Computed once per sentence and shared by the NBA and MLB kinds."""
    if "sport.league" in ctx.memo:
        return ctx.memo["sport.league"]
    t = ctx.text
    nba_ctx, mlb_ctx = ctx.has(NBA_CTX), ctx.has(MLB_CTX)
    nba_teams = find_teams(t, _TEAMS.get("NBA", []), allow_abbr=nba_ctx and not mlb_ctx)
    mlb_teams = find_teams(t, _TEAMS.get("MLB", []), allow_abbr=mlb_ctx and not nba_ctx)
    if not (nba_ctx or mlb_ctx or ctx.entity is None or ctx.has(_TEAM_EVIDENCE)):
        # "Albums in the Jazz genre", "hotels near the Magic Kingdom", "wolves in Yellowstone": a
        # nickname alone names a franchise only where the sentence speaks of sport
        nba_teams = [x for x in nba_teams if not _nickname_only(t, *x)]
        mlb_teams = [x for x in mlb_teams if not _nickname_only(t, *x)]
    if nba_ctx and not mlb_ctx:
        mlb_teams = [x for x in mlb_teams if x[1] not in [s for _, s in nba_teams]]
    out = League(nba_ctx, mlb_ctx, nba_teams, mlb_teams)
    ctx.memo["sport.league"] = out
    return out


_TEAM_EVIDENCE = (
    SPORT_WORDS
    + r"|\b(?:teams?|games?|matchups?|standings|rosters?|franchises?|playoffs?|league|wins|losses|players?|"
    r"points|rebounds|assists|runs|hits|innings|box|hitting|batting|pitching|bullpen|offen[cs]e|defen[cs]e)\b"
)


def _nickname_only(text: str, team: Franchise, span: tuple[int, int]) -> bool:
    said = text[span[0] : span[1]].lower()
    return said in {team.nickname.lower(), *(a.lower() for a in team.aliases if " " not in a)}


_MONTHS = {m.lower() for m in calendar.month_name if m} | {m.lower() for m in calendar.month_abbr if m}
_NAME_WORD = r"[A-ZÀ-Þ][\w'’.\-]*"
_NAME_SEQ = re.compile(
    rf"(?<![\w'’])({_NAME_WORD}(?:\s+(?:{_NAME_WORD}|de|da|van|von|der|del|la|le)){{1,3}})"
)
_LEADING_NOISE = set(
    """collect get give fetch download show find pull scrape gather retrieve list i please need want compile
    build grab all every the regular-season season stats statistics career player players nba and""".split()
)


def find_players(text: str, blocked: list[tuple[int, int]]) -> list[str]:
    """Person names (two to four capitalised words) outside the spans already explained."""
    names = []
    for m in _NAME_SEQ.finditer(text):
        a, b = m.span()
        if any(not (b <= x or a >= y) for x, y in blocked):
            continue
        words = re.sub(r"(?:'s|’s)$", "", m.group(1)).split()
        while words and (words[0].lower() in _LEADING_NOISE or words[0].isupper()):
            words.pop(0)
        while words and (words[-1].lower() in _LEADING_NOISE or words[-1].isupper()):
            words.pop()
        if words:
            words[-1] = re.sub(r"(?:'s|’s|'|’)$", "", words[-1])  # "Nikola Jokic's NBA stats"
        if len(words) >= 2 and not any(w.lower().rstrip(".") in _MONTHS for w in words):
            names.append(" ".join(words))
    return list(dict.fromkeys(names))


def players(ctx: Context) -> list[str]:
    if "sport.players" not in ctx.memo:
        from prefect_autodata.agents.kinds.paper import find_venue

        _, venue_span = ctx.memo.get("paper.venue") or find_venue(ctx.text)
        blocked = ctx.date_spans + league(ctx).team_spans + ([venue_span] if venue_span else [])
        ctx.memo["sport.players"] = find_players(ctx.text, blocked)
    return ctx.memo["sport.players"]


# ---------------------------------------------------------------- team-season kinds (NBA and MLB)


class TeamScope(KindScope):
    teams: list[TeamRef] = Field(default_factory=list)
    all_teams: bool = False


class PlayerScope(KindScope):
    players: list[str] = Field(default_factory=list)
    all_players: bool = False


class TeamSeasonKind(RecordKind):
    """One row per team and season; subclasses name the league and which teams to read."""

    league_name: ClassVar[str] = ""
    stat: ClassVar[str] = ""  # "" | "hitting" | "pitching"
    singular = "team season"
    plural = "team seasons"
    scope_model = TeamScope
    location_filters = False

    # what tells the kind's unlabelled numbers apart (see ``name_columns``)
    relations: ClassVar[tuple[Relation, ...]] = ()
    spans: ClassVar[dict[str, tuple[float, float]]] = {}
    alone: ClassVar[dict[str, tuple[float, float]]] = {}
    largest: ClassVar[tuple[str, ...]] = ()
    smallest: ClassVar[tuple[str, ...]] = ()
    fractional: ClassVar[tuple[str, ...]] = ()

    def chosen(self, ctx: Context) -> list[tuple[Franchise, tuple[int, int]]]:
        raise NotImplementedError

    def name_columns(self, columns: list[list[object]]) -> dict[int, str]:
        """This kind's column names for unlabelled columns of values (index -> name), where their
        consistency with each other and their spans tell them apart (see ``name_columns``)."""
        named = (
            name_columns(
                columns,
                list(self.relations),
                self.spans,
                self.alone,
                self.largest,
                fractional=self.fractional,
                smallest=self.smallest,
            )
            if self.relations or self.alone
            else {}
        )
        return name_team(columns, self.league_name, named, "Team")

    def refine(self, req: Request, ctx: Context) -> None:
        chosen = self.chosen(ctx)
        teams = [TeamRef(league=f.league, name=f.name, abbr=f.abbr) for f, _ in chosen]
        # the spellings a page may show instead of the full name: abbreviations and the nickname
        spellings = [a for f, _ in chosen for a in (f.abbr, *f.abbrs, f.nickname, *f.aliases) if a]
        scope = TeamScope(teams=teams)
        scope.all_teams = not teams and (bool(ALL_TEAMS.search(ctx.text)) or len(req.years) == 1)
        req.kind_scope = scope
        if teams:
            req.filters = [f for f in req.filters if f.field != "team"]
            req.filters.append(
                Filter(
                    field="team",
                    op="in",
                    value=[t.name for t in teams],
                    aliases=list(dict.fromkeys(spellings)),
                )
            )
        if not teams and not scope.all_teams:
            if ctx.has_source:
                scope.all_teams = True
                req.assumptions.append("no team named: collect every team the source lists")
            else:
                req.unresolved.append(f"no {self.league_name} team named: which team (or 'all teams')?")
        if not req.years and not req.all_history and req.is_resolved:
            req.assumptions.append("no season named: collect every season the source lists")
        if req.is_resolved:
            scope.template = self.template(req, scope)

    def template(self, req: Request, scope: TeamScope) -> str | None:
        return None

    def expected_size(self, req: Request) -> ExpectedSize | None:
        s = req.kind_scope
        if not isinstance(s, TeamScope):
            return None
        if s.all_teams:
            return ExpectedSize(
                rows=30 * len(req.years), basis="30 teams per modern season (fewer in early eras)"
            )
        if req.years:
            return ExpectedSize(
                rows=len(req.years) * len(s.teams),
                basis="one row per team season, if the team existed every season",
            )
        return None

    def who(self, req: Request) -> list[str]:
        s = req.kind_scope
        if not isinstance(s, TeamScope):
            return []
        return [t.name for t in s.teams] + (["all teams"] if s.all_teams else [])

    def terms(self, req: Request, add: AddTerm, t: dict[str, float]) -> None:
        s = req.kind_scope
        if not isinstance(s, TeamScope):
            return
        team_terms(s.teams, add, t)
        t[self.league_name.lower()] = 2.0
        for w_ in ("team", "teams"):
            t[w_] = 1.5
        if s.all_teams:
            for w_, wt in (
                ("leaderboard", 2.0),
                ("leaders", 1.5),
                ("league", 1.0),
                ("every", 1.0),
                ("all", 0.5),
            ):
                t[w_] = wt
        if self.stat:
            t[self.stat] = 2.0
            t[{"hitting": "batting"}.get(self.stat, self.stat)] = 2.0

    def search_queries(self, req: Request) -> list[str]:
        s = req.kind_scope
        if not isinstance(s, TeamScope):
            return []
        names = [t.name for t in s.teams[:3]]
        q = [f"{n} {self.stat} stats".replace("  ", " ") for n in names]
        if not names:
            years = req.years or [y for y in (req.start_year, req.end_year) if y]
            y = f" {years[0]}" if years else ""
            q.append(f"{self.league_name} team {self.stat} stats by season{y}".replace("  ", " "))
        return q


def team_terms(teams: list[TeamRef], add: AddTerm, t: dict[str, float]) -> None:
    for team in teams:
        add(team.name, 1.5)
        t[team.abbr.lower()] = max(t.get(team.abbr.lower(), 0.0), 1.0)
        for w_ in re.findall(r"[a-z]+|\d+", team.name.lower())[-1:]:
            t[w_] = 3.0


def seasons_template(req: Request, base: int, all_teams: bool) -> str:
    """Instruct2DS template families of team-season requests: all history, a range, all teams."""
    if all_teams:
        return f"T{base + 2}"
    return f"T{base}" if req.all_history else f"T{base + 1}"


# -- unlabelled numbers told apart by their consistency ---------------------------------------------------
# A page that prints a team season as bare numbers ("Miami Heat · .659 · 82 · 2013 · 28 · 8380 · 54")
# names none of them. What the kind knows of its columns does: wins and losses add up to the games,
# the win share is wins over games, hits over at-bats is the batting average; a season total lies in a
# known span. A column is named only when every reading that holds on the records gives it the same
# column; two that fit alike leave it unnamed (the matcher's honest refusal stands).


@dataclass(frozen=True)
class Relation:
    """``a + b = c`` (op "sum") or ``a / b = c`` (op "ratio", the share shown as .659 or 65.9) on
    nearly every record, each column in its span."""

    op: Literal["sum", "ratio"]
    cols: tuple[str, str, str]


_MIN_ROWS = 3
_HOLDS = 0.9  # share of the records a relation must hold on


def _numbers(values: list[object]) -> list[float | None] | None:
    """The column's numbers (None where a value is empty); None unless 90% of its values are numbers."""
    out: list[float | None] = []
    bad = 0
    for v in values:
        s = str(v if v is not None else "").strip().replace(",", "").removesuffix("%")
        if not s:
            out.append(None)
            continue
        try:
            out.append(float(s))
        except ValueError:
            bad += 1
            out.append(None)
    filled = [x for x in out if x is not None]
    if len(filled) < _MIN_ROWS or bad > 0.1 * len(values):
        return None
    return out


def _within(col: list[float | None], span: tuple[float, float], whole: bool = True) -> bool:
    lo, hi = span
    return all(lo <= x <= hi and (not whole or x == int(x)) for x in col if x is not None)


def _above(a: list[float | None], b: list[float | None]) -> bool:
    """``a`` above ``b`` on nearly every record (a player's assists may top his points one season)."""
    pairs = [(x, y) for x, y in zip(a, b, strict=True) if x is not None and y is not None]
    return len(pairs) >= _MIN_ROWS and sum(1 for x, y in pairs if x > y) >= _HOLDS * len(pairs)


def teams_of(values: list[object], league_name: str) -> bool:
    """True when nearly every value is one of the league's franchises, whole (name, nickname or code)."""
    pats = _TEAMS.get(league_name) or []
    filled = [str(v).strip() for v in values if v is not None and str(v).strip()]
    if len(filled) < 3 or not pats:
        return False
    hit = sum(1 for v in filled if any(p.fullmatch(v) for p, _, _ in pats))
    return hit >= 0.9 * len(filled)


def name_team(
    columns: list[list[object]], league_name: str, named: dict[int, str], name: str
) -> dict[int, str]:
    """``named`` with the one column left whose values are the league's franchises named ``name``."""
    teams = [j for j, col in enumerate(columns) if j not in named and teams_of(col, league_name)]
    if not teams:  # codes of a former era (SAN, UTH) no list of today's franchises holds
        teams = [j for j, col in enumerate(columns) if j not in named and _codes(col)]
    if len(teams) == 1:  # the league's franchises, by name or code: the record's team
        named[teams[0]] = name
    return named


def _codes(values: list[object]) -> bool:
    """Every value a code of two to four capitals, some repeated (a team's code, not a record's own)."""
    filled = [str(v).strip() for v in values if v is not None and str(v).strip()]
    return (
        len(filled) >= _MIN_ROWS
        and all(re.fullmatch(r"[A-Z]{2,4}", v) for v in filled)
        and len(set(filled)) < len(filled)
    )


def _holds(rel: Relation, a: list[float | None], b: list[float | None], c: list[float | None]) -> bool:
    ok = n = 0
    for x, y, z in zip(a, b, c, strict=True):
        if x is None or y is None or z is None:
            continue
        n += 1
        if rel.op == "sum":
            ok += abs(x + y - z) <= 0.5
        elif y > 0:
            q = x / y
            ok += abs(q - z) <= 0.0015 or abs(100 * q - z) <= 0.15
    return n >= _MIN_ROWS and ok >= _HOLDS * n


def name_columns(
    columns: list[list[object]],
    relations: list[Relation],
    spans: dict[str, tuple[float, float]],
    alone: dict[str, tuple[float, float]],
    largest: tuple[str, ...] = (),
    fractional: tuple[str, ...] = (),
    smallest: tuple[str, ...] = (),
) -> dict[int, str]:
    """Kind columns for unlabelled columns (index -> column name), told by consistency, never guessed.

    1. The relations: every way of placing their columns on the page's numeric columns (each a count
       in its ``spans`` span; the share of a ratio any number) under which every relation that can
       hold at all does; a column is named where all those ways agree.
    2. Then a span ``alone``: a kind count whose span exactly one column left fits. Among several, a
       ``largest`` column (a season's points) is the one above every other on nearly every record, a
       ``smallest`` one (a staff's saves, a share of its wins) below every other. A span is of whole
       numbers unless the name is ``fractional`` (an earned run average, innings pitched).
    """
    nums = {j: n for j, col in enumerate(columns) if (n := _numbers(col)) is not None}
    shares = {r.cols[2] for r in relations if r.op == "ratio"}
    fits = {
        name: [j for j, n in nums.items() if _within(n, span, whole=name not in shares)]
        for name, span in spans.items()
    }
    solutions: list[dict[str, int]] = [{}]
    for rel in relations:
        grown: list[dict[str, int]] = []
        for sol in solutions:
            busy = {j for c, j in sol.items() if c not in rel.cols}
            opts = [[sol[c]] if c in sol else fits.get(c, list(nums)) for c in rel.cols]
            for a in opts[0]:
                for b in opts[1]:
                    for c in opts[2]:
                        if len({a, b, c}) < 3 or {a, b, c} & busy:
                            continue
                        if _holds(rel, nums[a], nums[b], nums[c]):
                            grown.append({**sol, **dict(zip(rel.cols, (a, b, c), strict=True))})
        if grown:  # a relation no placing satisfies says nothing (its columns are not all shown)
            solutions = grown
    named: dict[int, str] = {}
    placed = {j for s in solutions for j in s.values()}
    for name in solutions[0]:
        picks = {s.get(name) for s in solutions}
        if len(picks) == 1 and (j := picks.pop()) is not None:
            named[j] = name
    for name, span in alone.items():
        if name in named.values():
            continue
        whole = name not in fractional
        left = [j for j, n in nums.items() if j not in placed and j not in named and _within(n, span, whole)]
        if len(left) > 1 and name in largest:
            left = [j for j in left if all(_above(nums[j], nums[o]) for o in left if o != j)]
        elif len(left) > 1 and name in smallest:
            left = [j for j in left if all(_above(nums[o], nums[j]) for o in left if o != j)]
        if len(left) == 1:
            named[left[0]] = name
    return named
