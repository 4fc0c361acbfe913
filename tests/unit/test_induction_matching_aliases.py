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
    assert al["strikeouts"] == ("so",) and "era" not in al  # only names that differ
    assert mt.aliases_of(None) == {} and mt.aliases_of(object()) == {}
