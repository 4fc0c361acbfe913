"""The matcher reads a requested field's other names: the plan's column for the user's word."""

from __future__ import annotations

import random

from prefect_autodata.agents.induction import matching as mt


def _cands(rng: random.Random) -> list[mt.Candidate]:
    n = rng.randint(5, 12)
    return [
        mt.Candidate(label="SV", values=[rng.randint(20, 60) for _ in range(n)], rule={"key": "sv"}),
        mt.Candidate(label="SO", values=[rng.randint(700, 1500) for _ in range(n)], rule={"key": "so"}),
        mt.Candidate(label="BB", values=[rng.randint(300, 700) for _ in range(n)], rule={"key": "bb"}),
    ]


def test_an_alias_names_the_column_the_users_word_does_not():
    for seed in range(5):
        cands = _cands(random.Random(seed))
        rng = random.Random(seed)
        rng.shuffle(cands)
        assert "strikeouts" not in mt.assign(["strikeouts"], cands, eliminate=False)
        m = mt.assign(["strikeouts"], cands, eliminate=False, aliases={"strikeouts": ("so",)})
        assert m["strikeouts"].candidate.rule == {"key": "so"}


def test_aliases_come_from_the_plans_normalised_field_names():
    from prefect_autodata.agents.offline.instruction import parse_request

    req = parse_request(
        "Fetch all the MLB team pitching seasons.", fields=["team", "wins", "strikeouts", "era"]
    )
    al = mt.aliases_of(req)
    assert [f.name for f in req.fields] == ["team", "wins", "strikeouts", "era"]  # the user's words stay
    assert al["strikeouts"][0] == "so"  # the kind's column first, then its other words for it
    assert "strikeouts" not in al["strikeouts"] and "k" in al["strikeouts"]  # only names that differ
    # the kind's other words for a column travel too: "era" has no other column name, but a page may
    # spell it out, or print it in Spanish
    assert al["era"][0] == "earned run average" and "efectividad" in al["era"]
    assert mt.aliases_of(None) == {} and mt.aliases_of(object()) == {}


def test_a_kinds_other_words_for_a_column_are_aliases():
    """ "h" is the kind's H, and the kind also calls that column "hits": a page labelled "Hits" answers."""
    from prefect_autodata.agents.offline.instruction import parse_request

    req = parse_request("Fetch all the MLB team batting seasons.", fields=["team", "h", "avg"])
    al = mt.aliases_of(req)
    assert "hits" in al["h"]
    assert {"batting average", "ba"} <= set(al["avg"])
    assert next(f for f in req.fields if f.name == "h").aliases[:1] == ["H"]
