"""The zoo's twelve record kinds and how a site draws (and displays) a set of their records.

Six kinds come from the Instruct2DS tables (``sandbox.data.load_table``), six from the SWDE ground
truth (``sandbox.records.load_records``). Both fall back to generated sample records when the
shared data is absent; ``RecordSet.generated`` says which. Each drawn set also draws a display
style (date format, thousands separators, percent form) so that two sites of one kind differ.
"""

from __future__ import annotations

import html
import math
import random
from datetime import date, datetime
from typing import Any

import pandas as pd

from prefect_autodata.sandbox.zoo.base import FieldDef, KindDef, RecordSet

F = FieldDef

PAPER = KindDef(
    name="paper",
    domain="academic",
    singular="paper",
    plural="papers",
    fields=(
        F("title", "text", ("Title", "Paper", "Paper title", "Name", "TITLE"), ("Titel",), ("Título",)),
        F("authors", "text", ("Authors", "By", "Writers", "Auth.", "Author(s)"), ("Autoren",), ("Autores",)),
        F("year", "int", ("Year", "Yr", "Published", "YEAR"), ("Jahr",), ("Año",)),
        F(
            "conference",
            "text",
            ("Conference", "Venue", "Proceedings", "Conf."),
            ("Konferenz",),
            ("Congreso",),
        ),
        F("track", "text", ("Track", "Session type", "Category"), ("Spur",), ("Sesión",)),
        F("abstract", "text", ("Abstract", "Summary", "Synopsis"), ("Zusammenfassung",), ("Resumen",)),
        F("paper_link", "url", ("PDF", "Paper link", "Download", "Full text"), ("Volltext",), ("Enlace",)),
    ),
    title_field="title",
    key=("title",),
    scope_fields=("year", "track"),
)

STOCK_DAY = KindDef(
    name="stock_day",
    domain="finance",
    singular="daily stock price",
    plural="daily stock prices",
    fields=(
        F("ticker", "text", ("Ticker", "Symbol", "Sym.", "Stock"), ("Kürzel",), ("Símbolo",)),
        F("date", "date", ("Date", "Trading day", "Day", "DATE"), ("Datum",), ("Fecha",)),
        F("open", "number", ("Open", "Opening", "Open price", "O"), ("Eröffnung",), ("Apertura",)),
        F("high", "number", ("High", "Day high", "Hi", "H"), ("Hoch",), ("Máximo",)),
        F("low", "number", ("Low", "Day low", "Lo", "L"), ("Tief",), ("Mínimo",)),
        F("close", "number", ("Close", "Closing price", "Last", "C"), ("Schluss",), ("Cierre",)),
        F("volume", "int", ("Volume", "Vol.", "Shares traded", "VOL"), ("Umsatz",), ("Volumen",)),
    ),
    title_field="date",
    key=("ticker", "date"),
    scope_fields=("date", "ticker"),
)

NBA_TEAM = KindDef(
    name="nba_team_season",
    domain="sport",
    singular="NBA team season",
    plural="NBA team seasons",
    fields=(
        F("team_name", "text", ("Team", "Franchise", "Club", "TEAM"), ("Mannschaft",), ("Equipo",)),
        F("year", "int", ("Season", "Year", "Yr"), ("Saison",), ("Temporada",)),
        F("gp", "int", ("GP", "Games", "Games played", "G"), ("Spiele",), ("Partidos",)),
        F("wins", "int", ("W", "Wins", "Won"), ("Siege",), ("Victorias",)),
        F("losses", "int", ("L", "Losses", "Lost"), ("Niederlagen",), ("Derrotas",)),
        F("win_pct", "percent", ("Win %", "PCT", "W%", "Win pct."), ("Siegquote",), ("% victorias",)),
        F("pts", "int", ("PTS", "Points", "Pts."), ("Punkte",), ("Puntos",)),
        F("reb", "int", ("REB", "Rebounds", "Reb."), ("Rebounds",), ("Rebotes",)),
        F("ast", "int", ("AST", "Assists", "Ast."), ("Vorlagen",), ("Asistencias",)),
    ),
    title_field="team_name",
    key=("team_name", "year"),
    scope_fields=("year", "team_name"),
)

NBA_PLAYER = KindDef(
    name="nba_player_season",
    domain="sport",
    singular="NBA player season",
    plural="NBA player seasons",
    fields=(
        F("player_name", "text", ("Player", "Name", "PLAYER"), ("Spieler",), ("Jugador",)),
        F("season", "int", ("Season", "Year", "Yr"), ("Saison",), ("Temporada",)),
        F("team", "text", ("Team", "Tm", "Club"), ("Team",), ("Equipo",)),
        F("age", "int", ("Age", "Player age"), ("Alter",), ("Edad",)),
        F("gp", "int", ("GP", "Games", "G"), ("Spiele",), ("Partidos",)),
        F("pts", "int", ("PTS", "Points", "Pts."), ("Punkte",), ("Puntos",)),
        F("reb", "int", ("REB", "Rebounds", "Reb."), ("Rebounds",), ("Rebotes",)),
        F("ast", "int", ("AST", "Assists", "Ast."), ("Vorlagen",), ("Asistencias",)),
        F("height", "height", ("Height", "Ht.", "HT"), ("Größe",), ("Altura",)),
    ),
    title_field="player_name",
    key=("player_name", "season", "team"),
    scope_fields=("season", "team"),
)

MLB_HITTING = KindDef(
    name="mlb_team_hitting",
    domain="sport",
    singular="MLB team batting season",
    plural="MLB team batting seasons",
    fields=(
        F("team", "text", ("Team", "Tm", "Club"), ("Mannschaft",), ("Equipo",)),
        F("season", "int", ("Season", "Year", "Yr"), ("Saison",), ("Temporada",)),
        F("g", "int", ("G", "Games", "GP"), ("Spiele",), ("Juegos",)),
        F("ab", "int", ("AB", "At bats", "At-bats"), ("At Bats",), ("Turnos",)),
        F("h", "int", ("H", "Hits"), ("Hits",), ("Hits",)),
        F("hr", "int", ("HR", "Home runs", "Homers"), ("Homeruns",), ("Jonrones",)),
        F("r", "int", ("R", "Runs"), ("Runs",), ("Carreras",)),
        F("avg", "number", ("AVG", "BA", "Batting avg."), ("Schlagdurchschnitt",), ("Promedio",)),
        F("obp", "number", ("OBP", "On-base %"), ("OBP",), ("OBP",)),
        F("slg", "number", ("SLG", "Slugging"), ("SLG",), ("SLG",)),
    ),
    title_field="team",
    key=("team", "season"),
    scope_fields=("season", "team"),
)

MLB_PITCHING = KindDef(
    name="mlb_team_pitching",
    domain="sport",
    singular="MLB team pitching season",
    plural="MLB team pitching seasons",
    fields=(
        F("team", "text", ("Team", "Tm", "Club"), ("Mannschaft",), ("Equipo",)),
        F("season", "int", ("Season", "Year", "Yr"), ("Saison",), ("Temporada",)),
        F("w", "int", ("W", "Wins"), ("Siege",), ("Victorias",)),
        F("l", "int", ("L", "Losses"), ("Niederlagen",), ("Derrotas",)),
        F("era", "number", ("ERA", "Earned run avg."), ("ERA",), ("Efectividad",)),
        F("ip", "number", ("IP", "Innings", "Innings pitched"), ("Innings",), ("Entradas",)),
        F("so", "int", ("SO", "K", "Strikeouts"), ("Strikeouts",), ("Ponches",)),
        F("sv", "int", ("SV", "Saves"), ("Saves",), ("Salvados",)),
        F("whip", "number", ("WHIP",), ("WHIP",), ("WHIP",)),
    ),
    title_field="team",
    key=("team", "season"),
    scope_fields=("season", "team"),
)

AUTO = KindDef(
    name="auto",
    domain="auto",
    singular="used car",
    plural="used cars",
    fields=(
        F("model", "text", ("Model", "Vehicle", "Car", "Make & model"), ("Modell",), ("Modelo",)),
        F("price", "money", ("Price", "Our price", "Cost", "MSRP", "Asking"), ("Preis",), ("Precio",)),
        F("engine", "text", ("Engine", "Motor", "Eng."), ("Motor",), ("Motor",)),
        F("fuel_economy", "text", ("Fuel economy", "MPG", "Mileage", "Fuel"), ("Verbrauch",), ("Consumo",)),
    ),
    title_field="model",
    key=("model",),
)

CAMERA = KindDef(
    name="camera",
    domain="camera",
    singular="camera",
    plural="cameras",
    fields=(
        F("model", "text", ("Model", "Product", "Camera", "Item"), ("Modell",), ("Modelo",)),
        F(
            "manufacturer",
            "text",
            ("Manufacturer", "Brand", "Maker", "Mfr."),
            ("Hersteller",),
            ("Fabricante",),
        ),
        F("price", "money", ("Price", "Our price", "Cost", "Sale price"), ("Preis",), ("Precio",)),
    ),
    title_field="model",
    key=("model",),
    scope_fields=("manufacturer",),
)

JOB = KindDef(
    name="job",
    domain="job",
    singular="job posting",
    plural="job postings",
    fields=(
        F("title", "text", ("Job title", "Position", "Role", "Title"), ("Stelle",), ("Puesto",)),
        F(
            "company",
            "text",
            ("Company", "Employer", "Hiring org.", "Organization"),
            ("Firma",),
            ("Empresa",),
        ),
        F("location", "text", ("Location", "Where", "City", "Loc."), ("Ort",), ("Ubicación",)),
        F("date_posted", "date", ("Posted", "Date posted", "Listed on", "Date"), ("Datum",), ("Publicado",)),
    ),
    title_field="title",
    key=("title", "company", "location"),
)

MOVIE = KindDef(
    name="movie",
    domain="movie",
    singular="movie",
    plural="movies",
    fields=(
        F("title", "text", ("Title", "Film", "Movie", "Name"), ("Titel",), ("Título",)),
        F("director", "text", ("Director", "Directed by", "Dir."), ("Regie",), ("Director",)),
        F("genre", "text", ("Genre", "Category", "Type"), ("Genre",), ("Género",)),
        F(
            "mpaa_rating",
            "text",
            ("Rating", "MPAA", "Rated", "Certificate"),
            ("Freigabe",),
            ("Clasificación",),
        ),
    ),
    title_field="title",
    key=("title",),
    scope_fields=("genre",),
)

RESTAURANT = KindDef(
    name="restaurant",
    domain="restaurant",
    singular="restaurant",
    plural="restaurants",
    fields=(
        F("name", "text", ("Name", "Restaurant", "Venue"), ("Name",), ("Nombre",)),
        F("address", "text", ("Address", "Location", "Addr.", "Where"), ("Adresse",), ("Dirección",)),
        F("cuisine", "text", ("Cuisine", "Food", "Type of food", "Style"), ("Küche",), ("Cocina",)),
        F("phone", "text", ("Phone", "Tel.", "Telephone", "Call"), ("Telefon",), ("Teléfono",)),
    ),
    title_field="name",
    key=("name", "address"),
    scope_fields=("cuisine",),
)

UNIVERSITY = KindDef(
    name="university",
    domain="university",
    singular="university",
    plural="universities",
    fields=(
        F("name", "text", ("Name", "Institution", "School", "College"), ("Hochschule",), ("Institución",)),
        F("phone", "text", ("Phone", "Tel.", "Contact number"), ("Telefon",), ("Teléfono",)),
        F("type", "text", ("Type", "Control", "Sector", "Institution type"), ("Art",), ("Tipo",)),
        F("website", "text", ("Website", "Web", "Homepage", "URL"), ("Webseite",), ("Sitio web",)),
    ),
    title_field="name",
    key=("name",),
    scope_fields=("type",),
)

KINDS: dict[str, KindDef] = {
    k.name: k
    for k in (
        PAPER,
        STOCK_DAY,
        NBA_TEAM,
        NBA_PLAYER,
        MLB_HITTING,
        MLB_PITCHING,
        AUTO,
        CAMERA,
        JOB,
        MOVIE,
        RESTAURANT,
        UNIVERSITY,
    )
}

# Fields a request asks for when it does not pick its own (≈3-8 per kind).
DEFAULT_FIELDS: dict[str, tuple[str, ...]] = {
    "paper": ("title", "authors", "year", "track"),
    "stock_day": ("ticker", "date", "open", "high", "low", "close", "volume"),
    "nba_team_season": ("team_name", "year", "gp", "wins", "losses", "pts"),
    "nba_player_season": ("player_name", "season", "team", "gp", "pts"),
    "mlb_team_hitting": ("team", "season", "g", "hr", "avg"),
    "mlb_team_pitching": ("team", "season", "w", "l", "era", "so"),
    "auto": ("model", "price", "engine", "fuel_economy"),
    "camera": ("model", "manufacturer", "price"),
    "job": ("title", "company", "location", "date_posted"),
    "movie": ("title", "director", "genre", "mpaa_rating"),
    "restaurant": ("name", "address", "cuisine", "phone"),
    "university": ("name", "phone", "type", "website"),
}

# Instruct2DS table and column per field (SWDE kinds read their columns under the field names).
_I2DS: dict[str, tuple[str, dict[str, str]]] = {
    "paper": (
        "papers",
        {
            "title": "title",
            "authors": "authors",
            "year": "year",
            "conference": "conference",
            "track": "track",
            "abstract": "abstract",
            "paper_link": "paper_link",
        },
    ),
    "stock_day": (
        "stocks",
        {c: c for c in ("ticker", "date", "open", "high", "low", "close", "volume")},
    ),
    "nba_team_season": (
        "nba_teams",
        {
            "team_name": "TEAM_NAME",
            "year": "YEAR",
            "gp": "GP",
            "wins": "WINS",
            "losses": "LOSSES",
            "win_pct": "WIN_PCT",
            "pts": "PTS",
            "reb": "REB",
            "ast": "AST",
        },
    ),
    "nba_player_season": (
        "nba_players",
        {
            "player_name": "PLAYER_NAME",
            "season": "SEASON_ID",
            "team": "TEAM_ABBREVIATION",
            "age": "PLAYER_AGE",
            "gp": "GP",
            "pts": "PTS",
            "reb": "REB",
            "ast": "AST",
            "height": "PLAYER_HEIGHT",
        },
    ),
    "mlb_team_hitting": (
        "mlb_teams",
        {
            "team": "Team",
            "season": "Season",
            "g": "BAT_G",
            "ab": "BAT_AB",
            "h": "BAT_H",
            "hr": "BAT_HR",
            "r": "BAT_R",
            "avg": "BAT_AVG",
            "obp": "BAT_OBP",
            "slg": "BAT_SLG",
        },
    ),
    "mlb_team_pitching": (
        "mlb_teams",
        {
            "team": "Team",
            "season": "Season",
            "w": "PIT_W",
            "l": "PIT_L",
            "era": "PIT_ERA",
            "ip": "PIT_IP",
            "so": "PIT_SO",
            "sv": "PIT_SV",
            "whip": "PIT_WHIP",
        },
    ),
}
SWDE_KINDS = ("auto", "camera", "job", "movie", "restaurant", "university")

DATE_FORMATS = ("%Y-%m-%d", "%b %d, %Y", "%B %d, %Y", "%d %B %Y", "%Y/%m/%d", "%m/%d/%Y")


def _frame(kind: KindDef) -> tuple[pd.DataFrame, bool]:
    """The kind's source frame with columns named after its fields, and whether it is generated."""
    if kind.name in _I2DS:
        from prefect_autodata.sandbox import data

        table, cols = _I2DS[kind.name]
        df = data.load_table(table)
        present = {f: c for f, c in cols.items() if c in df.columns}
        out = df[list(present.values())].rename(columns={c: f for f, c in present.items()})
        return out, data.is_generated()
    from prefect_autodata.sandbox import records

    df = records.load_records(kind.name)
    keep = [f for f in kind.field_names if f in df.columns] + (["site"] if "site" in df.columns else [])
    return df[keep], records.is_generated(kind.name)


def _clean_text(v: Any) -> str | None:
    """SWDE values: HTML entities decoded, several values (joined with ' | ') cut to the first."""
    if v is None or (isinstance(v, float) and math.isnan(v)) or v is pd.NA:
        return None
    s = html.unescape(str(v)).replace("\xa0", " ")
    parts = [p.strip() for p in s.split(" | ") if p.strip()]
    s = " ".join(parts[0].split()).lstrip(":;,- ").strip() if parts else ""
    return s or None


def _pick_rows(kind: KindDef, df: pd.DataFrame, rng: random.Random, n: int) -> pd.DataFrame:
    """A coherent subset of about n rows: one venue's years, one ticker's days, a span of seasons."""
    name = kind.name
    if name == "paper" and len(df):
        groups = df.groupby(["conference", "year"]).size()
        groups = groups[groups >= min(n, 15)]
        if len(groups):
            conf, _year = groups.index[rng.randrange(len(groups))]
            sub = df[df["conference"] == conf]
            return sub.sample(n=min(n, len(sub)), random_state=rng.randrange(2**31)).sort_values("year")
    if name == "stock_day" and len(df):
        tickers = sorted(df["ticker"].dropna().unique())
        tick = tickers[rng.randrange(len(tickers))]
        sub = df[df["ticker"] == tick].sort_values("date")
        if len(sub) > n:
            start = rng.randrange(len(sub) - n + 1)
            sub = sub.iloc[start : start + n]
        return sub
    season = {"nba_team_season": "year", "nba_player_season": "season"}.get(name) or (
        "season" if name.startswith("mlb_") else None
    )
    if season and len(df):
        seasons = sorted(df[season].dropna().unique())
        if name.startswith("mlb_"):
            seasons = [s for s in seasons if s >= 1960] or seasons  # modern stats have every column
        sub = df
        for _ in range(60):
            lo = seasons[rng.randrange(len(seasons))]
            span = [s for s in seasons if lo <= s < lo + rng.randint(1, 12)]
            sub = df[df[season].isin(span)]
            if len(sub) >= min(n, 15):
                break
        return sub.sample(n=min(n, len(sub)), random_state=rng.randrange(2**31)).sort_values(season)
    if "site" in df.columns and len(df):
        sites = sorted(df["site"].dropna().unique())
        site = sites[rng.randrange(len(sites))]
        sub = df[df["site"] == site]
        if len(sub) >= 15:
            df = sub
    return df.sample(n=min(n, len(df)), random_state=rng.randrange(2**31))


def draw_style(kind: KindDef, rng: random.Random) -> dict[str, Any]:
    """How one site prints its values."""
    return {
        "date": rng.choice(DATE_FORMATS),
        "thousands": rng.random() < 0.5,
        "percent": rng.choice(("fraction", "leading_dot", "percent")),
        "decimals": rng.choice((2, 2, 3)),
    }


def _raw(v: Any) -> Any:
    if v is None or v is pd.NA:
        return None
    if isinstance(v, float) and math.isnan(v):
        return None
    if hasattr(v, "item") and not isinstance(v, (str, bytes)):
        v = v.item()
    if isinstance(v, pd.Timestamp):
        v = v.date()
    return v


def display(fd: FieldDef, v: Any, style: dict[str, Any]) -> str | None:
    """A raw value as this site shows it ("$23,495", "Mar 03, 2021", "1,204", ".453")."""
    if v is None:
        return None
    if fd.type == "date":
        if isinstance(v, str):
            try:
                v = datetime.fromisoformat(v[:10]).date()
            except ValueError:
                return _clean_text(v)
        if isinstance(v, datetime):
            v = v.date()
        if isinstance(v, date):
            return v.strftime(style["date"])
        return _clean_text(v)
    if fd.type == "int":
        if isinstance(v, str):
            return _clean_text(v)
        i = int(round(float(v)))
        return f"{i:,}" if style.get("thousands") and abs(i) >= 10000 else str(i)
    if fd.type == "number":
        if isinstance(v, str):
            return _clean_text(v)
        f = float(v)
        text = f"{f:.4f}".rstrip("0").rstrip(".") if abs(f) < 1 else f"{f:.{style['decimals']}f}"
        if style.get("thousands") and abs(f) >= 1000:
            whole, _, frac = text.partition(".")
            text = f"{int(whole):,}" + (f".{frac}" if frac else "")
        return text
    if fd.type == "percent":
        f = float(v)
        if style["percent"] == "percent":
            return f"{f * 100:.1f}%"
        text = f"{f:.3f}"
        return text[1:] if style["percent"] == "leading_dot" and text.startswith("0.") else text
    return _clean_text(v)


def record_set(kind: KindDef | str, rng: random.Random, n: int) -> RecordSet:
    """About ``n`` records of ``kind`` (fewer when the source has fewer), deduplicated on the key."""
    kind = KINDS[kind] if isinstance(kind, str) else kind
    df, generated = _frame(kind)
    rows = _pick_rows(kind, df, rng, max(n * 2, n + 10))
    style = draw_style(kind, rng)
    fields = [f for f in kind.fields if f.name in rows.columns]
    records: list[dict[str, Any]] = []
    raws: list[dict[str, Any]] = []
    seen: set[tuple] = set()
    for row in rows.itertuples(index=False):
        raw = {f.name: _raw(getattr(row, f.name)) for f in fields}
        if isinstance(raw.get("date"), str):
            try:
                raw["date"] = date.fromisoformat(raw["date"][:10])
            except ValueError:
                pass
        shown = {f.name: display(f, raw[f.name], style) for f in fields}
        if kind.name in SWDE_KINDS:
            raw = dict(shown)
        if shown.get(kind.title_field) is None:
            continue
        k = tuple(str(shown.get(x)).casefold() for x in kind.key)
        if k in seen:
            continue
        seen.add(k)
        records.append(shown)
        raws.append(raw)
        if len(records) >= n:
            break
    return RecordSet(kind=kind, records=records, generated=generated, raw=raws, style=style)
