"""The offline instruction parser on every catalog task, on hand-written paraphrases, and on requests
that cannot be resolved (it must say what is missing instead of guessing). ``entity`` in the older
paraphrase file names the record kind (``Request.kind``)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
import yaml

from prefect_autodata.agents import kinds
from prefect_autodata.agents.offline.instruction import parse_instruction
from prefect_autodata.sandbox.tasks import catalog

CASES = yaml.safe_load((Path(__file__).parents[1] / "data" / "paraphrases.yaml").read_text())
TODAY = date.fromisoformat(CASES["today"])
_ENTITY_OF_TEMPLATE = {
    **dict.fromkeys(["T1", "T2", "T3"], "paper"),
    **dict.fromkeys(["T4", "T5", "T6"], "stock"),
    **dict.fromkeys(["T7", "T8", "T9"], "nba_team"),
    **dict.fromkeys(["T10", "T11", "T12"], "nba_player"),
    **dict.fromkeys(["T13", "T14", "T15"], "mlb_hitting"),
    **dict.fromkeys(["T16", "T17", "T18"], "mlb_pitching"),
}


@pytest.mark.parametrize("task", catalog(), ids=lambda t: t.id)
def test_catalog_instruction_parses_to_its_template_and_scope(task):
    r = parse_instruction(task.instruction, today=TODAY)
    p = task.params
    assert r.is_resolved, r.missing
    assert r.template == task.template
    assert r.kind == _ENTITY_OF_TEMPLATE[task.template]
    assert r.field_names == kinds.get(r.kind).fields_for(r) and r.fields_source == "default"
    assert r.domain == task.domain
    if "conference" in p:
        assert r.venue is not None and r.venue.abbr == p["conference"]
        assert r.track == p.get("track")
    if "start_year" in p:
        assert (r.start_year, r.end_year) == (p["start_year"], p["end_year"])
    elif "year" in p:
        assert r.years == [p["year"]]
    elif "end_year" in p:  # "up to 2024"
        assert r.all_history and r.end_year == p["end_year"]
    if "ticker" in p:
        assert r.all_sp500 if p["ticker"] == "*" else r.tickers == [p["ticker"]]
    if "tickers" in p:
        assert r.tickers == p["tickers"] and r.dates == [date.fromisoformat(p["date"])]
    if "start_date" in p:
        assert (r.start_date, r.end_date) == tuple(
            date.fromisoformat(p[k]) for k in ("start_date", "end_date")
        )
    if "team" in p:
        assert [t.name for t in r.teams] == [p["team"]]
    if task.template in ("T9", "T15", "T18"):
        assert r.all_teams and not r.teams
    if "player" in p or "players" in p:
        assert r.players == p.get("players", [p.get("player")])


@pytest.mark.parametrize("case", CASES["resolved"], ids=lambda c: c["text"])
def test_paraphrase(case):
    r = parse_instruction(case["text"], today=TODAY)
    assert r.is_resolved, r.missing
    for key, want in case["expect"].items():
        got = getattr(r, "kind" if key == "entity" else key)
        if key == "venue":
            got = got.abbr
        elif key == "teams":
            got = [t.name for t in got]
        elif key in ("start_date", "end_date"):
            got = got.isoformat()
        elif key == "dates":
            got = [d.isoformat() for d in got]
        assert got == want, (key, got, want)


@pytest.mark.parametrize("case", CASES["unresolved"], ids=lambda c: c["text"] or "<empty>")
def test_unresolvable_says_what_is_missing(case):
    r = parse_instruction(case["text"], today=TODAY)
    assert not r.is_resolved
    assert r.template is None and r.expected_size is None
    joined = " | ".join(r.missing)
    for fragment in case["missing"]:
        assert fragment in joined, joined


def test_paraphrase_set_is_big_enough():
    assert len(CASES["resolved"]) >= 30


def test_fields_default_to_the_target_schema_or_follow_the_user():
    r = parse_instruction("Get me every NeurIPS 2019 paper")
    assert r.field_names == kinds.get("paper").default_fields and r.fields_source == "default"
    r = parse_instruction("Get me every NeurIPS 2019 paper", fields=["TITLE", "PAPER_LINK"])
    assert r.field_names == ["TITLE", "PAPER_LINK"] and r.fields_source == "user"
    many = parse_instruction("MSFT, GOOGL and AMZN on 2024-03-15")
    assert many.field_names[0] == "Ticker"
    assert "Ticker" not in parse_instruction("AAPL in 2024").field_names


def test_expected_size_is_approximate_where_it_cannot_be_known():
    r = parse_instruction("Collect the daily stock information of AAPL in 2024.")
    assert r.expected_size is not None and r.expected_size.approx
    assert r.expected_size.rows == 262  # weekdays in 2024; the exchange traded 252 days
    sp = parse_instruction("all S&P 500 companies on 2024-03-15")
    assert sp.expected_size.rows == 503
    assert parse_instruction("Get me every NeurIPS 2019 paper").expected_size is None


def test_since_is_anchored_on_today():
    r = parse_instruction("Yankees pitching since 2019", today=date(2022, 1, 5))
    assert r.years == [2019, 2020, 2021, 2022]
    assert any("2022" in a for a in r.assumptions)


def test_ambiguous_numeric_date_is_flagged():
    r = parse_instruction("AAPL and MSFT on 03/04/2024")
    assert r.dates == [date(2024, 3, 4)]
    assert any("month-first" in a for a in r.assumptions)
    assert not parse_instruction("AAPL and MSFT on 29/03/2024").assumptions


def test_abbreviations_need_league_context():
    assert [t.abbr for t in parse_instruction("NBA team stats of LAL from 2010 to 2012").teams] == ["LAL"]
    stock = parse_instruction("daily prices of MIA and BOS in 2024")
    assert stock.kind == "stock" and not stock.teams


# ---------------------------------------------------------------- issue #12, heldout6 causes (S7 H9)
_TODAY = date(2025, 6, 1)


def _p(text: str):
    return parse_instruction(text, today=_TODAY)


def _ent(text: str) -> str | None:
    r = _p(text)
    return r.entity.singular if r.entity else None


def _filters(text: str) -> list[tuple]:
    return sorted((f.field, f.op, str(f.value)) for f in _p(text).filters)


def test_a_finite_verb_or_particle_ends_the_entity():
    assert _ent("Which tunnels are longer than 5 km? I need the name and country") == "tunnel"
    assert _ent("What craft fairs take place in Ohio? Give me name and town") == "craft fair"
    assert _ent("List all rabbits up for adoption with name and age") == "rabbit"
    assert _ent("Collect the rockets first flown after 2000, with name and maker") == "rocket"
    assert (
        _ent("Could we have the licences on the site whose holder contains Li? number and holder")
        == "licence"
    )


def test_a_leading_scope_clause_is_skipped():
    r = _p("In Q2 2023, which banks closed branches? name, city, assets")
    assert r.entity.singular == "bank" and r.field_names == ["name", "city", "assets"]
    assert (r.time_scope.start_date, r.time_scope.end_date) == (date(2023, 4, 1), date(2023, 6, 30))
    assert _ent("From this district results page, give me each school with name and grade") == "school"
    assert _ent("Turn this search page into a list of ships with name and tonnage") == "ship"


def test_all_columns_for_the_records_named_after_for():
    r = _p("Download every column the site has for the comets on https://c.example.org")
    assert r.all_fields and r.entity.singular == "comet" and r.is_resolved


def test_a_list_after_a_dash_and_an_aside_in_a_list():
    assert _p("Get all the museums listed on https://m.example.org — name, city, founded").field_names == [
        "name",
        "city",
        "founded",
    ]
    assert _p("Collect the bikes sold on https://b.example.com - brand, frame, price").field_names == [
        "brand",
        "frame",
        "price",
    ]
    assert _p("Scrape the bars on the site with name, price level ($ to $$$) and street").field_names == [
        "name",
        "price_level",
        "street",
    ]
    assert _p("Get all wind farms with name, output in MW and opening year").field_names == [
        "name",
        "output",
        "opening_year",
    ]


def test_money_goes_to_the_field_it_names():
    assert _filters("Get all bridges with an estimated cost over 2 million dollars, with name") == [
        ("estimated_cost", "ge", "2000000")
    ]


def test_by_and_from_filters():
    assert _filters("Collect every board game published by Hasbro with title and year") == [
        ("publisher", "eq", "Hasbro")
    ]
    assert _filters("Get every poem by Emily Dickinson with title and year") == [
        ("author", "eq", "Emily Dickinson")
    ]
    assert _filters("List all nurses from Ghana or Peru with name and ward") == [
        ("location", "in", "['Ghana', 'Peru']")
    ]
    assert not [
        f for f in _p("Collect all papers from ICML 2022 with title").filters if f.field == "location"
    ]


def test_plurals_in_ics():
    assert _ent("Scrape the mosaics on https://x.example.org with name and site") == "mosaic"
    assert _ent("Collect all economics lectures with title") == "economics lecture"


def test_the_stock_kind_needs_stock_evidence_beyond_prices():
    assert _p("Collect the daily diesel prices in Italy with station and price").kind != "stock"
    assert _p("From this search page for kettles, collect product name, price and rating").kind != "stock"
    assert _p("Get the daily closing prices of AAPL in 2024").kind == "stock"


def test_a_possessor_with_its_determiner_is_a_determiner():
    assert _ent("Make a table of this channel's 2019 videos: title, views and date") == "video"
    assert _ent("Get the zoo's animals with name and species") == "animal"
    assert _ent("Collect McDonald's restaurants in Ohio with address") == "mcdonald's restaurant"


def test_an_equality_value_runs_to_the_end_of_its_clause():
    # a named value keeps its inner comma, "&" and hyphen; a place list still splits
    assert _filters("Get all colleges with institution type Public, 4-Year or Above, with name and city") == [
        ("institution_type", "eq", "Public, 4-Year or Above")
    ]
    assert _filters("Get all shops with category Home & Garden including name and phone") == [
        ("category", "eq", "Home & Garden")
    ]
    assert _filters("Films, Mystery & Suspense only: title and director") == [
        ("*", "eq", "Mystery & Suspense")
    ]
    assert _filters("Fetch each college whose institution type is Private for-profit: name, website") == [
        ("institution_type", "eq", "Private for-profit")
    ]
    assert _filters("List the breweries in Oregon, Maine and Vermont with name and city") == [
        ("location", "in", "['Oregon', 'Maine', 'Vermont']")
    ]


def test_an_acronym_after_a_quantifier_is_no_ticker():
    assert _p("Every CPU launched in 2023 with name, cores and base clock").kind != "stock"
    assert _p("Find every ATM in Lisbon with bank and address").kind != "stock"
    assert _p("Collect all REITs with a dividend yield above 5% with ticker, name and sector").kind != "stock"
    assert _p("Get AAPL and MSFT ticker daily closing prices for 2024").kind == "stock"


def test_a_counted_noun_after_the_number_is_the_field():
    assert _filters("Which bowlers took more than 300 wickets? List bowler and country") == [
        ("wicket", "ge", "300")
    ]
    assert _filters("Which goalkeepers kept more than 100 clean sheets? List name and club") == [
        ("clean_sheet", "ge", "100")
    ]
    assert _filters("Which index funds have a five-year return above 8%? Fund name and issuer") == [
        ("five_year_return", "ge", "8")
    ]
    assert _filters("Get every football player from Brazil with name and club") == [
        ("location", "eq", "Brazil")
    ]


def test_an_acronym_plural_is_singularised():
    assert _ent("I'm looking for GPUs under 500 dollars: model, memory, TDP") == "gpu"
    assert _ent("List the CPUs from 2020 with name") == "cpu"
    assert _ent("Get all campus events with name") == "campus event"


def _fields(text: str) -> list[str]:
    return [f.normalized for f in _p(text).fields]


def test_a_letter_grade_or_named_level_is_a_filter_value():
    assert _filters("Get all washing machines with an energy class of C, with brand and price") == [
        ("energy_class", "eq", "C")
    ]
    assert _filters("Which cafes got a food safety grade of B? Name and street") == [
        ("food_safety_grade", "eq", "B")
    ]
    assert _filters("Find used cameras with a condition of Mint, with model and price") == [
        ("condition", "eq", "Mint")
    ]


def test_a_bare_noun_after_under_or_by_closes_a_field_name():
    assert _fields("Collect every hedge fund with name, manager and assets under management") == [
        "name",
        "manager",
        "assets_under_management",
    ]
    assert _fields("Get each cyclist with name, team and points by stage") == [
        "name",
        "team",
        "points_by_stage",
    ]
    # a number after "under" is still a bound ("with a price under 20")
    assert _filters("Get all books with title and price under 20") == [("price", "le", "20")]


def test_a_self_correction_keeps_the_restarted_list():
    assert _fields("List the phones with price, sorry, with model, storage and price") == [
        "model",
        "storage",
        "price",
    ]
    assert _filters("List the phones with price, sorry, with model, storage and price") == []
    assert _fields("Get the flights with gate, I mean, with departure time and gate") == [
        "departure_time",
        "gate",
    ]


def test_a_restricting_adjective_stays_in_the_entity():
    assert _ent("Get the public pools in Oslo with name and address") == "public pool"


def test_irregular_plurals_are_singularised():
    assert _ent("List the postmen of the district with name and route") == "postman"
    assert _ent("Get all fungi recorded in Wales with species and date") == "fungus"
    assert _ent("Find the wolves tracked in Montana with pack and age") == "wolf"
    assert _ent("List all penknives on shop.example.com with brand and price") == "penknife"
    assert _ent("Collect every specimen in the archive with label") == "specimen"


def test_a_value_before_a_dash_opened_list_is_a_filter():
    assert _filters("Every college with control Private — fields: name, city, fees") == [
        ("control", "eq", "Private")
    ]


def test_a_franchise_nickname_alone_needs_sport_evidence():
    assert _p("Get every vinyl record in the Jazz bin with title, artist and price").kind is None
    assert _p("List the resorts near the Magic Kingdom with name and price").kind is None
    assert _p("Get the Utah Jazz stats for 2019").kind == "nba_team"


def test_nineteenth_century_years_are_years():
    r = _p("Collect every painting from 1874 with title and artist")
    assert r.time_scope is not None and r.time_scope.years == [1874]


def test_places_after_a_field_item_qualify_the_field():
    r = _p("Get the songs as a table: title, year, rank in Chile, Peru and Mexico, and the album")
    assert r.filters == []
    assert [f.normalized for f in r.fields] == [
        "title",
        "year",
        "rank_in_chile",
        "rank_in_peru",
        "rank_in_mexico",
        "album",
    ]


def test_a_list_after_a_number_and_a_dash_is_read():
    assert _fields("all watches with a water resistance between 50 and 200 - name, brand, case size") == [
        "name",
        "brand",
        "case_size",
    ]


def test_a_source_opening_the_request_is_no_entity():
    assert _ent("From https://peaks.example.org/list get every mountain with name and height") == "mountain"


def test_a_participle_between_a_modifier_and_its_noun_is_part_of_it():
    assert _ent("Collect every 15-year fixed loan offer on rates.example.com with lender and rate") == (
        "15-year fixed loan offer"
    )


def test_a_membership_list_after_whose_is():
    assert _filters("Restaurants whose cuisine is Greek, Turkish or Lebanese: name, address") == [
        ("cuisine", "in", "['Greek', 'Turkish', 'Lebanese']")
    ]


def test_a_rate_for_a_class_is_a_field_name():
    assert _fields("Every zoo with name, ticket price and price per child under 5") == [
        "name",
        "ticket_price",
        "price_per_child_under_5",
    ]
    assert _filters("Every zoo with name, ticket price and price per child under 5") == []


def test_an_acronym_inside_a_field_name_is_no_value():
    assert _filters("Collect all airports, including name, annual PAX volume and runways") == []


def test_a_wish_after_for_each_lists_fields():
    assert _fields(
        "Which issues are open? For each I need the issue title, labels and the user who opened it"
    ) == [
        "issue_title",
        "label",
        "user",
    ]


def test_a_participle_after_a_determiner_is_still_a_verb():
    assert _filters("Collect every flat for rent on the site priced under $900 with address") == [
        ("price", "le", "900")
    ]


def test_the_field_word_before_an_only_value_names_its_field():
    assert _filters("Get the films in the genre Film Noir only, with title and year") == [
        ("genre", "eq", "Film Noir")
    ]


def test_the_copula_before_a_comparison_in_a_question_adds_nothing():
    assert _filters("Which volcanoes in the Andes are higher than 5000 m? Name and country") == [
        ("height", "ge", "5000"),
        ("location", "eq", "Andes"),
    ]


def test_a_dated_feature_before_the_field_list_is_the_time_scope():
    r = _p("Collect each car with a model year of 1990 or later, with make, model and price")
    assert r.filters == []
    assert r.time_scope is not None and r.time_scope.start_year == 1990


def test_a_bare_looking_for_opens_the_request():
    assert _ent("Looking for every climbing gym in Leeds with name and price") == "climbing gym"


def test_a_short_verb_after_the_plural_of_a_question_is_its_verb():
    assert _ent("Which ferries ply the route to Capri? operator, departure time, price") == "ferry"


def test_a_wish_after_a_place_opens_the_list_and_ends_the_place():
    r = _p("For every pharmacy in Turin I need the name, address and phone")
    assert [f.normalized for f in r.fields] == ["name", "address", "phone"]
    assert [(f.field, f.value) for f in r.filters] == [("location", "Turin")]


def test_please_closing_the_list_is_no_part_of_a_field():
    assert _fields("All the abbeys of Ireland with name, county and founding date please") == [
        "name",
        "county",
        "founding_date",
    ]


def test_a_single_feature_before_a_later_field_list_is_a_filter():
    r = _p("List each campground with free parking in Utah, including name and fee")
    assert [f.normalized for f in r.fields] == ["name", "fee"]
    assert ("free_parking", "eq", True) in [(f.field, f.op, f.value) for f in r.filters]
