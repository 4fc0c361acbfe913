"""MLB team hitting and team pitching seasons: franchises (with former names), batting and pitching columns."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from prefect_autodata.agents.kinds import Check, Context, register
from prefect_autodata.agents.kinds._sport import (
    Franchise,
    Relation,
    TeamScope,
    TeamSeasonKind,
    franchise,
    franchise_patterns,
    league,
    players,
    register_teams,
    seasons_template,
)
from prefect_autodata.agents.request import EntityName, Filter

if TYPE_CHECKING:
    from prefect_autodata.agents.request import Request

_f = franchise
MLB_TEAMS: list[Franchise] = [
    _f("MLB", "Arizona", "Diamondbacks", "ARI", ("AZ",), ("D-backs", "Dbacks")),
    _f("MLB", "Atlanta", "Braves", "ATL"),
    _f("MLB", "Baltimore", "Orioles", "BAL", aliases=("O's",)),
    _f("MLB", "Boston", "Red Sox", "BOS", aliases=("BoSox",)),
    _f("MLB", "Chicago", "Cubs", "CHC"),
    _f("MLB", "Chicago", "White Sox", "CHW", ("CWS",), ("ChiSox",)),
    _f("MLB", "Cincinnati", "Reds", "CIN"),
    _f("MLB", "Cleveland", "Guardians", "CLE", aliases=("Cleveland Indians",)),
    _f("MLB", "Colorado", "Rockies", "COL"),
    _f("MLB", "Detroit", "Tigers", "DET"),
    _f("MLB", "Houston", "Astros", "HOU", aliases=("Stros",)),
    _f("MLB", "Kansas City", "Royals", "KCR", ("KC",)),
    _f("MLB", "Los Angeles", "Angels", "LAA", ("ANA",), ("Anaheim Angels", "Halos")),
    _f("MLB", "Los Angeles", "Dodgers", "LAD"),
    _f("MLB", "Miami", "Marlins", "MIA", ("FLA",), ("Florida Marlins",)),
    _f("MLB", "Milwaukee", "Brewers", "MIL", aliases=("Brew Crew",)),
    _f("MLB", "Minnesota", "Twins", "MIN"),
    _f("MLB", "New York", "Mets", "NYM"),
    _f("MLB", "New York", "Yankees", "NYY", aliases=("Yanks", "Bronx Bombers")),
    _f("MLB", "Oakland", "Athletics", "OAK", ("ATH",), ("A's", "Oakland A's")),
    _f("MLB", "Philadelphia", "Phillies", "PHI", aliases=("Phils",)),
    _f("MLB", "Pittsburgh", "Pirates", "PIT", aliases=("Bucs",)),
    _f("MLB", "San Diego", "Padres", "SDP", ("SD",), ("Friars",)),
    _f("MLB", "San Francisco", "Giants", "SFG", ("SF",)),
    _f("MLB", "Seattle", "Mariners", "SEA", aliases=("M's",)),
    _f(
        "MLB",
        "St. Louis",
        "Cardinals",
        "STL",
        aliases=("Saint Louis Cardinals", "St Louis Cardinals", "Cards"),
    ),
    _f("MLB", "Tampa Bay", "Rays", "TBR", ("TB",), ("Tampa Bay Devil Rays", "Devil Rays")),
    _f("MLB", "Texas", "Rangers", "TEX"),
    _f("MLB", "Toronto", "Blue Jays", "TOR", aliases=("Jays",)),
    _f("MLB", "Washington", "Nationals", "WSN", ("WSH", "WAS"), ("Nats", "Montreal Expos")),
]
MLB_PATTERNS = franchise_patterns(MLB_TEAMS)
register_teams("MLB", MLB_PATTERNS)

_HITTING = r"\b(?:hitting|batting|hitters?|batters?|offen[cs]e|offensive)\b"
_PITCHING = r"\b(?:pitching|pitchers?|bullpen|staff era)\b"
_COMMON = {
    "team": "TEAM_NAME",
    "team name": "TEAM_NAME",
    "name": "TEAM_NAME",
    "club": "TEAM_NAME",
    "franchise": "TEAM_NAME",
    "equipo": "TEAM_NAME",
    "season": "YEAR",
    "year": "YEAR",
    "temporada": "YEAR",
    "saison": "YEAR",
    "games": "G",
    "games played": "G",
    "gp": "G",
    "juegos": "G",
    "juegos jugados": "G",
    "jj": "G",
    "partidos": "G",
    "spiele": "G",
}


def _mlb_score(ctx: Context) -> float:
    lg = league(ctx)
    if lg.mlb_ctx:
        return 88.0
    if lg.mlb_teams and not lg.nba_teams and not lg.nba_ctx:
        return 86.0
    if _players(ctx) and not lg.nba_ctx and not lg.nba_teams and ctx.has(_HITTING + "|" + _PITCHING):
        return 70.0  # "Gerrit Cole's pitching stats": baseball's words weigh over the NBA's "stats"
    return 0.0


def _players(ctx: Context) -> list[str]:
    """The players a request without a team names ("hitting stats for Shohei Ohtani and Aaron Judge");
    none where it asks for team seasons (a capitalised site name there is no player)."""
    return [] if league(ctx).mlb_teams or ctx.has(r"\bteams?\b") else players(ctx)


class _MlbKind(TeamSeasonKind):
    domain = "sport"
    league_name = "MLB"
    base: ClassVar[int] = 0

    def detect(self, ctx: Context) -> float:
        score = _mlb_score(ctx)
        hit, pit = ctx.has(_HITTING), ctx.has(_PITCHING)
        mine = hit if self.stat == "hitting" else pit
        other = pit if self.stat == "hitting" else hit
        if mine and not other:
            return score
        if self.stat == "hitting" and hit == pit:
            return score - 1.0 if score else 0.0  # claims the ambiguous case, then asks (see refine)
        return 0.0

    def refine(self, req: Request, ctx: Context) -> None:
        if named := _players(ctx):
            # player seasons: the players named are the scope (no team, no sandbox template)
            req.kind_scope = TeamScope()
            req.entity = EntityName(
                singular=f"player {self.stat} season", plural=f"player {self.stat} seasons"
            )
            req.filters = [f for f in req.filters if f.field != "player"]
            req.filters.append(Filter(field="player", op="in", value=named))
        else:
            super().refine(req, ctx)
        hit, pit = ctx.has(_HITTING), ctx.has(_PITCHING)
        if hit == pit:
            req.unresolved.append(
                "the MLB request does not say whether hitting or pitching statistics are wanted: which?"
                if not hit
                else "the MLB request asks for both hitting and pitching: which one (or make it two requests)?"
            )
            if isinstance(req.kind_scope, TeamScope):
                req.kind_scope.template = None

    def chosen(self, ctx: Context):
        return league(ctx).mlb_teams

    def template(self, req: Request, scope: TeamScope) -> str | None:
        return seasons_template(req, self.base, scope.all_teams)


class MlbHittingKind(_MlbKind):
    name = "mlb_hitting"
    stat = "hitting"
    base = 13
    singular = "team hitting season"
    plural = "team hitting seasons"
    default_fields = "TEAM_NAME TEAM_ABBR YEAR AB R HR H 2B 3B RBI BB SO SB CS".split()
    # hits over at-bats is the batting average; a season's year, home runs and runs by their spans
    relations = (Relation("ratio", ("H", "AB", "AVG")),)
    spans = {"H": (0, 2000), "AB": (0, 6500), "AVG": (0, 1)}
    # on-base and slugging shares beside the average: slugging is above on-base on nearly every record
    alone = {
        "YEAR": (1876, 2100),
        "HR": (0, 320),
        "R": (150, 1250),
        "SLG": (0.2, 0.7),
        "OBP": (0.2, 0.5),
    }
    largest = ("SLG",)
    fractional = ("SLG", "OBP")
    vocabulary = {
        **_COMMON,
        "at bats": "AB",
        "turnos al bate": "AB",
        "turnos": "AB",
        "veces al bate": "AB",
        "runs": "R",
        "runs scored": "R",
        "carreras": "R",
        "carreras anotadas": "R",
        "home runs": "HR",
        "homers": "HR",
        "homeruns": "HR",
        "jonrones": "HR",
        "cuadrangulares": "HR",
        "batting average": "AVG",
        "batting avg": "AVG",
        "average": "AVG",
        "ba": "AVG",
        "promedio": "AVG",
        "promedio de bateo": "AVG",
        "on base percentage": "OBP",
        "on base pct": "OBP",
        "on base": "OBP",
        "porcentaje de embasado": "OBP",
        "slugging": "SLG",
        "slugging percentage": "SLG",
        "slugging pct": "SLG",
        "slg pct": "SLG",
        "hits": "H",
        "base hits": "H",
        "imparables": "H",
        "doubles": "2B",
        "dobles": "2B",
        "triples": "3B",
        "runs batted in": "RBI",
        "rbis": "RBI",
        "carreras impulsadas": "RBI",
        "impulsadas": "RBI",
        "carreras empujadas": "RBI",
        "walks": "BB",
        "bases on balls": "BB",
        "base on balls": "BB",
        "bases por bolas": "BB",
        "boletos": "BB",
        "strikeouts": "SO",
        "strike outs": "SO",
        "k": "SO",
        "ponches": "SO",
        "stolen bases": "SB",
        "bases robadas": "SB",
        "caught stealing": "CS",
    }

    def checks(self, req: Request) -> list[Check]:
        return [
            Check("H <= AB", "compare", ("H", "AB"), op="<="),
            Check("HR <= H", "compare", ("HR", "H"), op="<="),
        ]


class MlbPitchingKind(_MlbKind):
    name = "mlb_pitching"
    stat = "pitching"
    base = 16
    singular = "team pitching season"
    plural = "team pitching seasons"
    default_fields = "TEAM_NAME TEAM_ABBR YEAR W L ERA G GS CG SHO SV IP H R ER HR HB BB SO".split()
    # a staff's season by spans, in this order: the year, its strikeouts (hundreds, whole), its innings
    # (hundreds, in thirds: 1469.1), its earned run average (above its walks and hits per inning on
    # nearly every record), that WHIP, and its saves (a save is in a game won: below the wins, and
    # below the losses on nearly every record); wins and losses themselves nothing tells apart
    alone = {
        "YEAR": (1876, 2100),
        "SO": (250, 1900),
        "IP": (700, 1700),
        "ERA": (1.0, 10.0),
        "WHIP": (0.5, 2.5),
        "SV": (0, 90),
    }
    largest = ("ERA",)
    smallest = ("SV",)
    fractional = ("IP", "ERA", "WHIP")
    vocabulary = {
        **_COMMON,
        "wins": "W",
        "won": "W",
        "ganados": "W",
        "victorias": "W",
        "juegos ganados": "W",
        "losses": "L",
        "lost": "L",
        "perdidos": "L",
        "derrotas": "L",
        "juegos perdidos": "L",
        "earned run average": "ERA",
        "earned run avg": "ERA",
        "era": "ERA",
        "efectividad": "ERA",
        "promedio de carreras limpias": "ERA",
        "games started": "GS",
        "starts": "GS",
        "aperturas": "GS",
        "complete games": "CG",
        "juegos completos": "CG",
        "shutouts": "SHO",
        "blanqueos": "SHO",
        "saves": "SV",
        "salvados": "SV",
        "juegos salvados": "SV",
        "rescates": "SV",
        "innings pitched": "IP",
        "innings": "IP",
        "entradas lanzadas": "IP",
        "entradas": "IP",
        "hits allowed": "H",
        "hits": "H",
        "imparables permitidos": "H",
        "runs allowed": "R",
        "runs": "R",
        "carreras permitidas": "R",
        "earned runs": "ER",
        "carreras limpias": "ER",
        "home runs allowed": "HR",
        "home runs": "HR",
        "jonrones permitidos": "HR",
        "hit batsmen": "HB",
        "hit by pitch": "HB",
        "strikeouts": "SO",
        "strike outs": "SO",
        "k": "SO",
        "ponches": "SO",
        "walks": "BB",
        "bases on balls": "BB",
        "boletos": "BB",
        "bases por bolas": "BB",
        "whip": "WHIP",
    }

    def checks(self, req: Request) -> list[Check]:
        return [
            Check("ER <= R", "compare", ("ER", "R"), op="<="),
            Check("ERA >= 0", "range", ("ERA",), min=0),
        ]


register(MlbHittingKind())
register(MlbPitchingKind())
