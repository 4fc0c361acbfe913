"""NBA team seasons and player seasons: franchises (with former names and fan nicknames), box-score columns."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from prefect_autodata.agents.kinds import AddTerm, Check, Context, RecordKind, register
from prefect_autodata.agents.kinds._sport import (
    PLAYER_WORDS,
    SPORT_WORDS,
    Franchise,
    PlayerScope,
    Relation,
    TeamScope,
    TeamSeasonKind,
    franchise,
    franchise_patterns,
    league,
    name_columns,
    name_team,
    players,
    register_teams,
    seasons_template,
)
from prefect_autodata.agents.request import ExpectedSize, Filter

if TYPE_CHECKING:
    from prefect_autodata.agents.request import Request

_f = franchise
NBA_TEAMS: list[Franchise] = [
    _f("NBA", "Atlanta", "Hawks", "ATL"),
    _f("NBA", "Boston", "Celtics", "BOS", aliases=("Celts",)),
    _f("NBA", "Brooklyn", "Nets", "BKN", ("BRK", "NJN"), ("New Jersey Nets",)),
    _f("NBA", "Charlotte", "Hornets", "CHA", ("CHO",), ("Charlotte Bobcats",)),
    _f("NBA", "Chicago", "Bulls", "CHI"),
    _f("NBA", "Cleveland", "Cavaliers", "CLE", aliases=("Cavs",)),
    _f("NBA", "Dallas", "Mavericks", "DAL", aliases=("Mavs",)),
    _f("NBA", "Denver", "Nuggets", "DEN"),
    _f("NBA", "Detroit", "Pistons", "DET"),
    _f("NBA", "Golden State", "Warriors", "GSW", ("GS",), ("Dubs",)),
    _f("NBA", "Houston", "Rockets", "HOU"),
    _f("NBA", "Indiana", "Pacers", "IND"),
    _f("NBA", "Los Angeles", "Clippers", "LAC", aliases=("LA Clippers", "Clips")),
    _f("NBA", "Los Angeles", "Lakers", "LAL", aliases=("LA Lakers",)),
    _f("NBA", "Memphis", "Grizzlies", "MEM", ("VAN",), ("Vancouver Grizzlies", "Grizz")),
    _f("NBA", "Miami", "Heat", "MIA"),
    _f("NBA", "Milwaukee", "Bucks", "MIL"),
    _f("NBA", "Minnesota", "Timberwolves", "MIN", aliases=("Wolves", "T-Wolves")),
    _f("NBA", "New Orleans", "Pelicans", "NOP", ("NO", "NOH"), ("New Orleans Hornets", "Pels")),
    _f("NBA", "New York", "Knicks", "NYK", ("NY",)),
    _f("NBA", "Oklahoma City", "Thunder", "OKC", ("SEA",), ("Seattle SuperSonics", "Sonics", "OKC Thunder")),
    _f("NBA", "Orlando", "Magic", "ORL"),
    _f("NBA", "Philadelphia", "76ers", "PHI", aliases=("Sixers", "Philadelphia Sixers")),
    _f("NBA", "Phoenix", "Suns", "PHX", ("PHO",)),
    _f("NBA", "Portland", "Trail Blazers", "POR", aliases=("Blazers", "Portland Blazers")),
    _f("NBA", "Sacramento", "Kings", "SAC"),
    _f("NBA", "San Antonio", "Spurs", "SAS", ("SA",)),
    _f("NBA", "Toronto", "Raptors", "TOR", aliases=("Raps",)),
    _f("NBA", "Utah", "Jazz", "UTA"),
    _f("NBA", "Washington", "Wizards", "WAS", ("WSH",), ("Washington Bullets",)),
]
NBA_PATTERNS = franchise_patterns(NBA_TEAMS)
register_teams("NBA", NBA_PATTERNS)

_BOX = {
    "games played": "GP",
    "games": "GP",
    "g": "GP",
    "wins": "W",
    "win": "W",
    "losses": "L",
    # the share of games won, by every name a standings table prints it under
    "pct": "W_PCT",
    "win pct": "W_PCT",
    "win %": "W_PCT",
    "win%": "W_PCT",
    "w pct": "W_PCT",
    "w%": "W_PCT",
    "win percentage": "W_PCT",
    "winning percentage": "W_PCT",
    "win rate": "W_PCT",
    "win share": "W_PCT",
    "loss": "L",
    "minutes": "MIN",
    "minute": "MIN",
    "points": "PTS",
    "point": "PTS",
    "rebounds": "REB",
    "rebound": "REB",
    "assists": "AST",
    "assist": "AST",
    "steals": "STL",
    "steal": "STL",
    "blocks": "BLK",
    "block": "BLK",
    "turnovers": "TOV",
    "turnover": "TOV",
    "fouls": "PF",
    "foul": "PF",
    "field goals made": "FGM",
    "field goals attempted": "FGA",
    "three pointers made": "FG3M",
    "free throws made": "FTM",
    "free throws attempted": "FTA",
    "season": "YEAR",
    "year": "YEAR",
    # the same columns as box scores abroad print them (Spanish, German, French)
    "temporada": "YEAR",
    "saison": "YEAR",
    "partidos jugados": "GP",
    "partidos": "GP",
    "pj": "GP",
    "spiele": "GP",
    "matchs joues": "GP",
    "minutos": "MIN",
    "minuten": "MIN",
    "minutes played": "MIN",
    "mp": "MIN",
    "puntos": "PTS",
    "punkte": "PTS",
    "rebotes": "REB",
    "rebonds": "REB",
    "total rebounds": "REB",
    "trb": "REB",
    "asistencias": "AST",
    "passes decisives": "AST",
    "robos": "STL",
    "balones robados": "STL",
    "interceptions": "STL",
    "tapones": "BLK",
    "bloqueos": "BLK",
    "contres": "BLK",
    "blocked shots": "BLK",
    "perdidas": "TOV",
    "balones perdidos": "TOV",
    "ballverluste": "TOV",
    "balles perdues": "TOV",
    "to": "TOV",
    "personal fouls": "PF",
    "faltas": "PF",
    "fautes": "PF",
}


def _nba_score(ctx: Context) -> float:
    lg = league(ctx)
    if lg.nba_ctx:
        return 85.0
    if lg.nba_teams:
        return 82.0
    if (
        players(ctx)
        and ctx.has(SPORT_WORDS)
        and ctx.entity_is("stat", "statistic", "season", "number", "career", "player")
    ):
        return 60.0
    return 0.0


def _is_player(ctx: Context) -> bool:
    ps, teams, pw = players(ctx), league(ctx).nba_teams, ctx.has(PLAYER_WORDS)
    # "NBA player seasons ... with team PHI": the records are players' even when a team is named
    asked = bool(ctx.entity) and "player" in re.findall(r"[a-z]+", str(ctx.entity).lower())
    return bool((ps and (pw or not teams)) or (pw and (not teams or asked)))


class NbaTeamKind(TeamSeasonKind):
    name = "nba_team"
    domain = "sport"
    league_name = "NBA"
    default_fields = (
        "TEAM_NAME YEAR GP W L MIN FGM FGA FG3M FG3A FTM FTA OREB DREB REB AST TOV STL BLK BLKA PF PFD PTS"
    ).split()
    vocabulary = {**_BOX, "team": "TEAM_NAME", "team name": "TEAM_NAME", "name": "TEAM_NAME"}
    field_types = {"TEAM_NAME": "string", "YEAR": "integer"}
    scope_model = TeamScope
    # wins and losses add up to the games, the win share is wins over games; a season's year, its
    # points (a team scores more points than any other count it totals, minutes aside), its rebounds
    # and assists stand alone
    relations = (Relation("sum", ("W", "L", "GP")), Relation("ratio", ("W", "GP", "W_PCT")))
    spans = {"GP": (1, 90), "W": (0, 90), "L": (0, 90), "W_PCT": (0, 100)}
    alone = {"YEAR": (1946, 2100), "PTS": (1000, 12000), "REB": (2500, 5000), "AST": (1000, 2500)}
    largest = ("PTS",)

    def detect(self, ctx: Context) -> float:
        return _nba_score(ctx) if not _is_player(ctx) else 0.0

    def chosen(self, ctx: Context):
        return league(ctx).nba_teams

    def template(self, req: Request, scope: TeamScope) -> str | None:
        if scope.all_teams:
            return "T9"
        return seasons_template(req, 7, False)

    def checks(self, req: Request) -> list[Check]:
        return _box_checks()


class NbaPlayerKind(RecordKind):
    name = "nba_player"
    domain = "sport"
    singular = "player season"
    plural = "player seasons"
    default_fields = (
        "PLAYER_NAME YEAR BIRTHDATE COUNTRY HEIGHT WEIGHT DRAFT_YEAR DRAFT_ROUND DRAFT_NUMBER TEAM_ABBR "
        "GP GS MIN FGM FGA FG3M FG3A FTM FTA OREB DREB REB AST STL BLK TOV PF PTS"
    ).split()
    vocabulary = {
        **_BOX,
        "name": "PLAYER_NAME",
        "player": "PLAYER_NAME",
        "player name": "PLAYER_NAME",
        "jugador": "PLAYER_NAME",
        "spieler": "PLAYER_NAME",
        "joueur": "PLAYER_NAME",
        "birthdate": "BIRTHDATE",
        "birthday": "BIRTHDATE",
        "date of birth": "BIRTHDATE",
        "country": "COUNTRY",
        "height": "HEIGHT",
        "weight": "WEIGHT",
        "team": "TEAM_ABBR",
        "club": "TEAM_ABBR",
        "tm": "TEAM_ABBR",
        "draft year": "DRAFT_YEAR",
    }
    field_types = {"PLAYER_NAME": "string", "YEAR": "integer", "BIRTHDATE": "date"}
    scope_model = PlayerScope
    location_filters = False
    # a player season's unlabelled numbers by their spans, in this order: the year, the age (a grown
    # man's), the games (at most a season's 82 and some), the points (above every other count he
    # totals on nearly every record); rebounds and assists stay unnamed, nothing tells them apart
    alone = {"YEAR": (1946, 2100), "AGE": (18, 45), "GP": (0, 85), "PTS": (0, 4100)}

    def name_columns(self, columns: list[list[object]]) -> dict[int, str]:
        """This kind's column names for unlabelled columns (index -> name), by span and by the one
        column of the league's franchise codes (the player's team that season)."""
        named = name_columns(columns, [], {}, self.alone, ("PTS",))
        return name_team(columns, "NBA", named, "TEAM_ABBR")

    def detect(self, ctx: Context) -> float:
        return _nba_score(ctx) if _is_player(ctx) else 0.0

    def refine(self, req: Request, ctx: Context) -> None:
        scope = PlayerScope(players=players(ctx))
        scope.all_players = not scope.players and ctx.has(
            r"\b(?:all|every|each)\s+(?:(?:the|nba)\s+)*players?\b"
        )
        req.kind_scope = scope
        if scope.players:
            req.filters = [f for f in req.filters if f.field != "player"]
            req.filters.append(Filter(field="player", op="in", value=list(scope.players)))
        elif scope.all_players or ctx.has_source:
            scope.all_players = True
            req.assumptions.append("no player named: collect every player the source lists")
        else:
            req.unresolved.append("no NBA player named: which player(s) (or 'all players')?")
        if not req.years and not req.all_history and req.is_resolved:
            req.assumptions.append("no season named: collect every season the source lists")
        if req.is_resolved:
            if len(scope.players) > 1:
                scope.template = "T12"
            else:
                scope.template = "T10" if req.all_history else "T11"

    def expected_size(self, req: Request) -> ExpectedSize | None:
        s = req.kind_scope
        if isinstance(s, PlayerScope) and req.years:
            n = len(req.years) * len(s.players)
            return ExpectedSize(
                rows=n, basis="one row per player season (missed seasons fewer, trades add rows)"
            )
        return None

    def checks(self, req: Request) -> list[Check]:
        return _box_checks()

    def who(self, req: Request) -> list[str]:
        s = req.kind_scope
        return list(s.players) if isinstance(s, PlayerScope) else []

    def terms(self, req: Request, add: AddTerm, t: dict[str, float]) -> None:
        s = req.kind_scope
        if not isinstance(s, PlayerScope):
            return
        import re

        for p in s.players:
            for i, w_ in enumerate(re.findall(r"[a-z]+|\d+", p.lower())):
                t[w_] = max(t.get(w_, 0.0), 3.0 if i else 1.5)
        t["nba"] = 2.0
        for w_ in ("player", "players"):
            t[w_] = 1.5

    def search_queries(self, req: Request) -> list[str]:
        s = req.kind_scope
        if not isinstance(s, PlayerScope):
            return []
        q = [f"{n} stats" for n in s.players[:4]]
        if not q:
            years = req.years or [y for y in (req.start_year, req.end_year) if y]
            q.append("NBA player stats by season" + (f" {years[0]}" if years else ""))
        return q


def _box_checks() -> list[Check]:
    return [
        Check("FGM <= FGA", "compare", ("FGM", "FGA"), op="<="),
        Check("FG3M <= FG3A", "compare", ("FG3M", "FG3A"), op="<="),
        Check("FTM <= FTA", "compare", ("FTM", "FTA"), op="<="),
    ]


register(NbaTeamKind())
register(NbaPlayerKind())
