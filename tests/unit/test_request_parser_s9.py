"""Parser causes found on unseen phrasings (issue #12, session S9 P): each test's sentences are its own."""

from __future__ import annotations

import importlib.util
from datetime import date
from pathlib import Path

from prefect_autodata.agents.offline.instruction import parse_request

TODAY = date(2025, 6, 1)


def _p(text: str):
    return parse_request(text, today=TODAY)


def _filters(r):
    return [(f.field, f.op, f.value) for f in r.filters]


def test_a_kind_keeps_the_users_words_as_the_normalised_name_and_its_column_as_alias():
    r = _p("Every Knicks season since 2012 with wins, losses and rebounds")
    assert r.kind == "nba_team"
    assert [f.normalized for f in r.fields] == ["win", "loss", "rebound"]
    assert [f.aliases[0] for f in r.fields] == ["W", "L", "REB"]
    # a --fields name still reads as the kind's column
    r = parse_request("Every Knicks season since 2012", fields=["wins"], today=TODAY)
    assert [f.normalized for f in r.fields] == ["w"]


def test_baseball_words_claim_a_players_stats_for_the_mlb_kind():
    r = _p("Mookie Betts's batting numbers from 2019 to 2021 with hits and doubles")
    assert r.kind == "mlb_hitting" and ("player", "in", ["Mookie Betts"]) in _filters(r)
    assert r.is_resolved and r.entity.singular == "player hitting season"
    r = _p("pitching stats of Clayton Kershaw in 2016: ERA and saves")
    assert r.kind == "mlb_pitching" and ("player", "in", ["Clayton Kershaw"]) in _filters(r)
    # team seasons on a site with a capitalised name read no player; a team named stays a team
    # season; an NBA player stays the NBA's
    r = _p("MLB team batting seasons listed on Harbor Works 2010 or later (team, season, hits)")
    assert r.kind == "mlb_hitting" and not [f for f in r.filters if f.field == "player"]
    assert _p("Boston Red Sox hitting stats in 2018 with hits").kind == "mlb_hitting"
    assert _p("Kevin Durant season stats in 2020 with points").kind == "nba_player"


def test_a_track_named_before_the_word_track_keeps_the_users_words():
    r = _p("papers in the Main Conference track of EMNLP 2022 with title")
    track = next(f for f in r.filters if f.field == "track")
    assert track.value == "Main Conference" and track.aliases == ["Main Conference Track"]
    # the proceedings' label when the user writes no lower-case "track" after the name
    r = _p("Collect all accepted papers of EMNLP 2022 Main Conference Track.")
    assert ("track", "eq", "Main Conference Track") in _filters(r)
    assert ("track", "eq", "Long Paper Track") in _filters(_p("Every ACL 2023 long paper with title"))


def test_fields_written_before_for_and_named_values_are_the_field_list():
    r = _p("get the weekly opening price and volume for NVDA since 2021")
    assert r.kind == "stock" and [f.normalized for f in r.fields] == ["opening_price", "volume"]


def test_a_misspelt_field_word_reads_as_the_word_it_slips_from():
    r = _p("Every dentist in Leeds with adress, phone and specialty")
    assert [f.normalized for f in r.fields] == ["address", "phone", "specialty"]
    assert [f.normalized for f in _p("All diners in Ohio with cusine and ratign").fields] == [
        "cuisine",
        "rating",
    ]
    # a real word a letter longer or a letter different stays itself
    assert [f.normalized for f in _p("Royal families with prince, scorer and weigh").fields] == [
        "prince",
        "scorer",
        "weigh",
    ]


def test_spelled_reads_only_keyboard_slips_of_one_known_word():
    from prefect_autodata.agents.vocab import spelled

    vocab = frozenset({"address", "cuisine", "price", "height", "weight", "rating"})
    assert spelled("adress", vocab) == "address" and spelled("hieght", vocab) == "height"
    assert spelled("cusine", vocab) == "cuisine" and spelled("pricce", vocab) == "price"
    assert spelled("prince", vocab) is None  # an added letter that doubles no neighbour
    assert spelled("weigth", vocab) == "weight" and spelled("raging", vocab) is None
    assert spelled("Adress", vocab) == "address" and spelled("addr", vocab) is None


def test_a_unit_written_in_a_field_item_is_the_fields_unit():
    r = _p("Every glacier with name, length in km and thickness in metres")
    assert [(f.normalized, f.unit) for f in r.fields] == [
        ("name", None),
        ("length", "km"),
        ("thickness", "metres"),
    ]
    r = _p("Every forest fire with name and area burned in hectares and cause")
    assert [(f.normalized, f.unit) for f in r.fields] == [
        ("name", None),
        ("area_burned", "hectares"),
        ("cause", None),
    ]


def test_a_capitalised_label_before_a_bound_names_the_field():
    assert _filters(_p("Storms of Category 3 or higher with name and date")) == [("category", "ge", 3)]
    r = _p("Pupils in Year 4 or above with name and class")
    assert _filters(r) == [("year", "ge", 4)]
    assert ("least", "eq", 5) not in _filters(_p("Boats with a length of at least 5 m and name"))


def test_a_field_list_goes_on_after_a_chain_of_comparisons():
    r = _p("Ciders with an alcohol content of at least 5% and a price under 10: name, maker, taste")
    assert [f.normalized for f in r.fields] == ["name", "maker", "taste"]
    assert _filters(r) == [("alcohol_content", "ge", 5), ("price", "le", 10)]
    r = _p("Find drones with a flight time of over 30 minutes and a weight under 250 g; list brand, model")
    assert [f.normalized for f in r.fields] == ["brand", "model"]


def test_purpose_clauses_and_wishes_open_the_request():
    r = _p("For our newsletter we need every bookshop in Leeds with name and address")
    assert r.entity.singular == "bookshop" and [f.normalized for f in r.fields] == ["name", "address"]
    r = _p("I'm after every ferry in Greece with route and operator")
    assert r.entity.singular == "ferry"
    r = _p("For each province in Spain give capital, area and population")
    assert [f.normalized for f in r.fields] == ["capital", "area", "population"]


def test_a_dash_after_an_aside_opens_the_list_and_with_after_a_participle_is_no_list():
    r = _p("Ski huts in the Tatras (Poland) - name, altitude and beds")
    assert [f.normalized for f in r.fields] == ["name", "altitude", "bed"]
    r = _p("Breads from Germany baked with rye flour: name, region, weight")
    assert [f.normalized for f in r.fields] == ["name", "region", "weight"]


def test_relative_years_follow_one_convention():
    ts = _p("festivals in the past year with name").time_scope
    assert ts.years == [2025] and ts.start_date is None  # the past N years: N calendar years
    assert _p("festivals in the past 2 years with name").time_scope.years == [2024, 2025]
    ts = _p("festivals last year with name").time_scope
    assert (ts.start_date, ts.end_date) == (date(2024, 1, 1), date(2024, 12, 31))  # the year before
    ts = _p("festivals in the last 10 days with name").time_scope
    assert (ts.start_date, ts.end_date) == (date(2025, 5, 23), TODAY)  # N days, today included


def _bench():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_parser_accuracy.py"
    spec = importlib.util.spec_from_file_location("bench_parser_accuracy_s9", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_scorer_takes_a_kinds_column_through_the_fields_aliases():
    bench = _bench()
    case = {"kind": "t", "text": "Every Knicks season since 2012 with wins and losses", "plugin": "nba_team"}
    assert bench.judge({**case, "fields": ["w", "l"]}, TODAY)["fields"]  # the kind's columns
    assert bench.judge({**case, "fields": ["wins", "losses"]}, TODAY)["fields"]  # the user's words
    assert not bench.judge({**case, "fields": ["w", "losses", "pts"]}, TODAY)["fields"]
    assert not bench.judge({**case, "fields": ["w", "win"]}, TODAY)["fields"]  # one field, two labels
    got = [{"a", "b"}, {"a"}]
    assert bench._matched(got, {"a", "b"}) and not bench._matched([{"a"}, {"a"}], {"a", "b"})


def test_a_preposition_after_the_copula_opens_no_value():
    assert _filters(_p("Every fair whose date is in May with name and town")) == []
    assert _filters(_p("Every fair whose entry is free with name")) == [("entry", "eq", "free")]
