"""Request filters that do not drop every record (#12/#13): a percent field, a label ending in "or above",
a value whose field is named after it, and a value whose field is not named at all."""

from __future__ import annotations

from prefect_autodata.agents.induction.filters import row_filter, scope_keys
from prefect_autodata.agents.offline.instruction import parse_instruction


def _run(code: str, rows: list[dict]) -> list[dict]:
    env: dict = {}
    exec(code, env)  # the spec's python step, as the runtime runs it
    return env["transform"](rows)


def test_percent_after_a_word_is_another_field_than_the_word() -> None:
    req = parse_instruction("I want the team seasons with team, wins, win %, and points.")
    by_name = {f.name: f.normalized for f in req.fields}
    assert by_name["win"] == "win_percentage"
    assert by_name["wins"] == "win"
    req = parse_instruction("I want the NBA team seasons you can find with franchise, losses, win %, PTS.")
    win = next(f for f in req.fields if f.name == "win")
    assert win.normalized == "win_percentage"
    assert "W" not in (win.aliases or [])  # not the kind's wins column


def test_label_ending_in_or_above_keeps_its_words() -> None:
    req = parse_instruction(
        "Can I get a dataset of universities whose type is Private not-for-profit- 4-year or above "
        "(name, phone, type, website)?"
    )
    assert [(f.field, f.op, f.value) for f in req.filters] == [
        ("type", "eq", "Private not-for-profit- 4-year or above")
    ]
    # a number's "or above" is still a bound
    req = parse_instruction("hotels whose rating is 4 or above, with name and city")
    assert [(f.field, f.op, f.value) for f in req.filters] == [("rating", "ge", 4)]


def test_only_the_value_then_its_field_word() -> None:
    req = parse_instruction(
        "Please fetch the universities, only the Private for-profit type, giving institution, type and website."
    )
    assert [(f.field, f.op, f.value) for f in req.filters] == [("type", "eq", "Private for-profit")]


def test_value_of_no_named_field_is_tested_on_unlanded_columns() -> None:
    req = parse_instruction("Please get all of the player seasons for MEM.", fields=["player", "year", "gp"])
    assert [(f.field, f.value) for f in req.filters] == [("*", "MEM")]
    labels = {"player": "player", "year": "year", "gp": "gp", "team": "team", "reb": "reb"}
    targets = ["player", "year", "gp"]
    scope = scope_keys(req, targets, labels, taken={"player", "year", "gp"})
    assert scope.get("team") == "team"
    code, _ = row_filter(req, targets + list(scope))
    assert code is not None
    rows = [
        {"player": "A", "year": 2010, "gp": 3, "team": "MEM", "reb": 1},
        {"player": "B", "year": 2010, "gp": 5, "team": "ATL", "reb": 2},
    ]
    assert [r["player"] for r in _run(code, rows)] == ["A"]


def test_percent_bound_written_after_its_number() -> None:
    req = parse_instruction("Which shops have a discount of 20% or more? Name, street and discount")
    assert [(f.field, f.op, f.value) for f in req.filters] == [("discount", "ge", 20)]


def test_fields_name_the_sentence_writes_with_a_percent_sign() -> None:
    req = parse_instruction(
        "Get the team seasons: team name, losses, win %, points",
        fields=["team_name", "losses", "win", "points"],
    )
    assert {f.name: f.normalized for f in req.fields}["win"] == "win_percentage"
    req = parse_instruction("Get the team seasons: team name, wins", fields=["team_name", "win"])
    assert {f.name: f.normalized for f in req.fields}["win"] == "win"
