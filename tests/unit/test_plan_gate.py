"""The plan gate (issue #12): a Request is unresolved only when no entity or no source can be
identified. A record-kind plug-in refines a Request and is never required: a known kind that lacks its
subject (which player, which team, which ticker, which conference) is searched for like an unknown kind,
and the kind's question is kept as an assumption."""

from __future__ import annotations

from datetime import date

import pytest

from prefect_autodata.agents.plan import Unresolvable, make_plan, require_resolved

TODAY = date(2024, 6, 1)


def plan(text: str, **kw):
    return make_plan(text, today=TODAY, **kw)


@pytest.mark.parametrize(
    ("text", "question"),
    [
        ("Make a table of NBA player seasons with player name, age, games and assists", "player"),
        ("I'd like the NBA team seasons.", "team"),
        ("MLB team batting seasons with team, season, games and home runs", "team"),
        ("Give me stock prices", "ticker"),
        ("Collect all accepted papers from 2020", "conference"),
    ],
)
def test_a_known_kind_without_its_subject_is_searched_not_refused(text, question):
    r = plan(text)
    assert r.kind is not None, r.to_json()
    assert r.is_resolved, r.unresolved
    assert require_resolved(r) is r
    said = " ".join(r.assumptions)
    assert question in said and "searches" in said, r.assumptions


def test_an_unknown_kind_and_a_known_kind_pass_the_gate_alike():
    unknown = plan("every volcano with name, country and elevation")
    known = plan("every NBA player season with name, team and points")
    assert unknown.kind is None and unknown.is_resolved
    assert known.kind is not None and known.is_resolved


def test_with_a_source_the_kind_collects_what_the_source_lists():
    r = plan("NBA player seasons of 2019 on this site", sources=["http://127.0.0.1:9/league/"])
    assert r.is_resolved and r.time_scope is not None and r.time_scope.years == [2019]
    assert not any("searches" in a for a in r.assumptions)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty"),
        ("Collect stats", "cannot tell what records are wanted"),
        ("stock prices of MSFT from 2020 to 2018", "before it starts"),
        ("MLB statistics of the Yankees in 2020", "hitting or pitching"),
    ],
)
def test_what_truly_blocks_collection_still_refuses_with_a_question(text, fragment):
    r = plan(text)
    assert not r.is_resolved
    assert fragment in " ".join(r.unresolved)
    assert all(q.endswith("?") for q in r.unresolved)
    with pytest.raises(Unresolvable):
        require_resolved(r)


def test_a_named_subject_is_still_a_filter():
    r = plan("stock prices of MSFT in 2020")
    assert r.is_resolved
    assert any(f.field == "ticker" and "MSFT" in f.value for f in r.filters)
    assert not any("searches for the source" in a for a in r.assumptions)


# Output side of the plan: the dataset's columns are named as the user named the fields.


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("every movie with the title, director and age rating of each", ["title", "director", "age_rating"]),
        ("Build a table of lamps: model, maker, sale price?", ["model", "maker", "sale_price"]),
        (
            "Gather the lamps you can find (model, maker, wattage, shop)",
            ["model", "maker", "wattage", "shop"],
        ),
        ("A list of lamps, listing model, maker and games won", ["model", "maker", "games_won"]),
    ],
)
def test_sentence_fields_become_snake_case_columns_of_the_users_words(text, names):
    r = plan(text)
    assert r.is_resolved and r.field_names == names, r.field_names


def test_a_kind_maps_the_users_word_but_the_column_keeps_it():
    r = plan("every NBA player season with player name, season, club and games")
    assert r.kind is not None
    assert r.field_names == ["player_name", "season", "club", "games"]
    # the column keeps the user's word; the kind's reading of it travels as an alias for matching
    assert r.fields[1].normalized == "season"
    assert "YEAR" in r.fields[1].aliases  # the kind knows what the word means


def test_flag_fields_are_kept_verbatim():
    r = plan("every lamp", fields=["Model No", "maker"])
    assert r.field_names == ["Model No", "maker"]


def test_a_field_word_with_a_value_is_a_filter_not_a_column():
    r = plan("lamps with style Art Deco, giving model, maker and style")
    assert r.field_names == ["model", "maker", "style"]
    assert [(f.field, f.op, f.value) for f in r.filters] == [("style", "eq", "Art Deco")]


def test_a_requested_field_word_is_not_also_a_value_to_keep_rows_by():
    r = plan("each daily stock price with symbol, trading day, open, close and VOL")
    assert "VOL" in r.field_names
    assert not any(isinstance(f.value, list) and "VOL" in f.value for f in r.filters), r.filters
