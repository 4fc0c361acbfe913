"""S12 Z: text lines -- the separator, how a line splits into pieces."""

from __future__ import annotations

from prefect_autodata.agents.induction.textlines import find_separator

_CAMERAS = [
    "Nikon Coolpix S1100pj 14.1 Megapixel Compact Camera - 5 mm-25 mm - Green\t$349.95\tNikon",
    "Pentax Optio RZ10 14 Megapixel Compact Camera - 5 mm-50 mm - Lime\t$201.77\tPentax",
    "Fujifilm FinePix XP10 12.2 Megapixel Compact Camera - 6.40 mm-32 mm - Black\t$179.39\tFujifilm",
]


def test_a_mark_also_written_inside_words_is_no_separator():
    # ' - ' twice per line like the tab, but '-' also joins "5 mm-25 mm": the values' own punctuation
    assert find_separator(_CAMERAS) == "\t"


def test_a_tie_goes_to_the_tab_in_every_order():
    lines = [ln.replace("mm-", "mm to ") for ln in _CAMERAS]
    assert find_separator(lines) == "\t"
    assert find_separator(list(reversed(lines))) == "\t"


def test_a_mark_inside_words_loses_even_when_more_frequent():
    lines = [
        ln.replace(" - Green", " - Green - Matte").replace(" - Lime", " - Lime - Matte") for ln in _CAMERAS
    ]
    lines[2] = lines[2].replace(" - Black", " - Black - Matte")
    assert find_separator(lines) == "\t"


_MLB = """<html><body><main><pre>LAD ; 780 ; 2009 ; 2352 ; 0.346 ; 0.27 ; 145 ; 1511 ; 0.412 ; 5592
TEX ; 784 ; 2009 ; 2158 ; 0.32 ; 0.26 ; 224 ; 1436 ; 0.445 ; 5526
COL ; 804 ; 2009 ; 2352 ; 0.343 ; 0.261 ; 190 ; 1408 ; 0.441 ; 5398
NYY ; 915 ; 2009 ; 2369 ; 0.362 ; 0.283 ; 244 ; 1604 ; 0.478 ; 5660</pre></main></body></html>"""


def test_a_column_the_kind_named_is_left_over_for_no_other_field():
    from types import SimpleNamespace

    from prefect_autodata.agents.induction import textlines
    from prefect_autodata.agents.induction.assemble import _kind_named
    from prefect_autodata.agents.induction.dom import parse
    from prefect_autodata.agents.induction.matching import aliases_of, assign

    plan = SimpleNamespace(
        kind="mlb_hitting",
        fields=[
            SimpleNamespace(name=n, normalized=c, aliases=[])
            for n, c in [("club", "TEAM_NAME"), ("season", "YEAR"), ("GP", "G"), ("HR", "HR"), ("BA", "AVG")]
        ],
    )
    (block,) = textlines.blocks(parse(_MLB))
    cands = _kind_named(plan, textlines.candidates(block))
    assert cands[1].label == "R"  # runs, by their span beside hits / at-bats = average
    m = assign(["club", "season", "GP", "HR", "BA"], cands, aliases=aliases_of(plan))
    assert m["GP"].candidate.values[0] == "2352"  # not the runs column, though it is the integer left
    assert m["BA"].candidate.values[0] == "0.27"


_PLAYERS = [
    "PJ Hall ; 19 ; 22 ; DEN ; 4 ; 2024 ; 33 ; 6-10 ; 23",
    "Moses Brown ; 13 ; 44 ; TOT ; 2 ; 2024 ; 76 ; 7-2 ; 25",
    "Pat Spencer ; 39 ; 46 ; GSW ; 48 ; 2024 ; 98 ; 6-3 ; 28",
    "Naz Reid ; 80 ; 480 ; MIN ; 181 ; 2024 ; 1138 ; 6-9 ; 25",
    "Ben Simmons ; 33 ; 172 ; BKN ; 229 ; 2024 ; 204 ; 6-10 ; 28",
    "T.J. McConnell ; 79 ; 193 ; IND ; 351 ; 2024 ; 720 ; 6-1 ; 33",
    "Gradey Dick ; 54 ; 193 ; TOR ; 98 ; 2024 ; 777 ; 6-6 ; 21",
    "Cole Swider ; 8 ; 25 ; TOR ; 2 ; 2024 ; 59 ; 6-8 ; 25",
    "Drew Eubanks ; 37 ; 168 ; UTA ; 45 ; 2024 ; 215 ; 6-10 ; 28",
    "Lonnie Walker IV ; 20 ; 63 ; PHI ; 50 ; 2024 ; 247 ; 6-4 ; 26",
]


def _player_cols(rows: list[str]) -> list[list[str]]:
    from prefect_autodata.agents.induction import textlines
    from prefect_autodata.agents.induction.dom import parse

    html = "<html><body><main><pre>" + "\n".join(rows) + "</pre></main></body></html>"
    (block,) = textlines.blocks(parse(html))
    return block.columns


def test_a_player_season_named_by_spans_and_the_team_codes():
    from prefect_autodata.agents import kinds

    got = kinds.get("nba_player").name_columns(_player_cols(_PLAYERS))
    # points above every other count on nearly every record (Simmons' assists top his points once)
    assert got == {5: "YEAR", 8: "AGE", 1: "GP", 6: "PTS", 3: "TEAM_ABBR"}


def test_team_codes_of_a_former_era_still_name_the_team():
    from prefect_autodata.agents import kinds

    old = {"DEN": "SAN", "TOT": "UTH", "GSW": "SAN", "MIN": "KCK", "BKN": "UTH", "IND": "KCK"}
    rows = [" ; ".join(old.get(p, p) for p in r.split(" ; ")) for r in _PLAYERS]
    got = kinds.get("nba_player").name_columns(_player_cols(rows))
    assert got[3] == "TEAM_ABBR"


def test_a_field_naming_part_of_what_the_unit_measures():
    from prefect_autodata.agents.induction import textlines
    from prefect_autodata.agents.induction.dom import parse
    from prefect_autodata.agents.induction.matching import assign

    rows = [
        "MODEL ~ PRICE ~ MILEAGE ~ ENG.",
        "2011 Ford Fusion ~ $22,265.00 ~ 22 mpg City / 29 mpg Hwy ~ 4-Cyl, 2.5 Liter",
        "2010 Hyundai Genesis Coupe ~ $27,250.00 ~ 17 mpg City / 27 mpg Hwy ~ V6, 3.8 Liter",
        "2010 Ford F250 Super Duty ~ $43,110.00 ~  ~ V8, 5.4 Liter",
        "2011 Mazda Tribute ~ $28,250.00 ~ 20 mpg City / 26 mpg Hwy ~ 4-Cyl, 2.5 Liter",
    ]
    html = "<html><body><main><div><p>" + "<br>\n".join(rows) + "<br></p></div></main></body></html>"
    (block,) = textlines.blocks(parse(html))
    m = assign(["model", "price", "engine", "fuel"], textlines.candidates(block), entity="used car")
    # "fuel" is a word of "fuel economy", which the values' unit (mpg) measures
    assert m["fuel"].candidate.label == "MILEAGE"


_PITCHING = [
    "1971 · CHC · 13 · 79 · 1444.00 · 3.61 · 900 · 83 · 1.29",
    "1971 · OAK · 36 · 60 · 1469.10 · 3.06 · 999 · 101 · 1.18",
    "1971 · NYM · 22 · 79 · 1466.10 · 3.00 · 1157 · 83 · 1.20",
    "1971 · MIL · 32 · 92 · 1416.10 · 3.38 · 795 · 69 · 1.32",
    "1971 · BAL · 22 · 57 · 1472.00 · 2.99 · 1045 · 101 · 1.15",
]


def test_a_pitching_staff_named_by_spans_order_and_thirds():
    from prefect_autodata.agents import kinds

    got = kinds.get("mlb_pitching").name_columns(_player_cols(_PITCHING))
    # W and L (79/83, 60/101 ...) stay unnamed: nothing tells them apart
    assert got == {0: "YEAR", 6: "SO", 4: "IP", 5: "ERA", 8: "WHIP", 2: "SV", 1: "Team"}


def test_on_base_and_slugging_beside_the_average():
    from prefect_autodata.agents import kinds
    from prefect_autodata.agents.induction import textlines
    from prefect_autodata.agents.induction.dom import parse

    (block,) = textlines.blocks(parse(_MLB))
    got = kinds.get("mlb_hitting").name_columns(block.columns)
    assert got[4] == "OBP" and got[8] == "SLG" and got[5] == "AVG"


def test_a_list_of_persons_is_names_accents_and_all():
    from prefect_autodata.agents.induction import values as vt

    for s in (
        "Grover, Claire and Lascarides, Alex",
        "Claire Grover, Alex Lascarides, Bo Li",
        "Rossi, José and Garcia, Nadia and Brennan, Emma",
        "Müller, Karin",
    ):
        assert vt.kind_of(s) == "name", s
    for s in ("Sales and Marketing", "Proceedings of the 39th Annual Meeting", "XML-Based Data Preparation"):
        assert vt.kind_of(s) != "name", s


def test_unlabelled_author_lists_and_titles_told_apart():
    from prefect_autodata.agents.induction import textlines
    from prefect_autodata.agents.induction.dom import parse
    from prefect_autodata.agents.induction.matching import assign

    rows = [
        "Main Conference Track | Ramos, Beatriz and Quinn, Liam and Müller, Ben | When Do Features Help Domain Adaptation? | 2023",
        "Main Conference Track | Rossi, José and Garcia, Nadia | ZubaNet: Unsupervised Prompts for Question Answering | 2023",
        "Poster Track | Brennan, Emma and Iyer, Sofia and Zhou, Omar | Learning Structured Priors via Contrastive Pretraining | 2023",
        "Main Conference Track | Janssen, Anna and Ivanova, Noor | Towards Hierarchical Time Series Forecasting | 2023",
    ]
    html = "<html><body><main><div><p>" + "<br>\n".join(rows) + "<br></p></div></main></body></html>"
    (block,) = textlines.blocks(parse(html))
    m = assign(["title", "authors", "year", "track"], textlines.candidates(block), entity="paper")
    assert m["title"].candidate.values[0] == "When Do Features Help Domain Adaptation?"
    assert m["authors"].candidate.values[0].startswith("Ramos, Beatriz")


def test_a_filter_field_finds_the_column_the_kind_named():
    from types import SimpleNamespace

    from prefect_autodata.agents.induction import textlines
    from prefect_autodata.agents.induction.assemble import _kind_named
    from prefect_autodata.agents.induction.dom import parse
    from prefect_autodata.agents.induction.matching import assign
    from prefect_autodata.agents.induction.scoped import filter_matches

    plan = SimpleNamespace(
        kind="nba_player",
        fields=[],
        filters=[SimpleNamespace(field="club", op="eq", value="TOR")],
        time_scope=None,
    )
    html = "<html><body><main><pre>" + "\n".join(_PLAYERS) + "</pre></main></body></html>"
    (block,) = textlines.blocks(parse(html))
    cands = _kind_named(plan, textlines.candidates(block))
    req = ["player name", "season", "games"]
    m = assign(req, cands)
    got = filter_matches(plan, req, m, cands)
    assert got["club"].candidate.values[0] == "DEN"  # the column named TEAM_ABBR by its codes
