"""Requested fields → API record keys by documented meaning, leaf names and value shapes."""

from __future__ import annotations

import random

from prefect_autodata.agents.engineering import match_records
from prefect_autodata.agents.induction.recordset import RecordSet

MONTHS = ["January", "March", "May", "July", "October"]


def _rs(rows: list[dict]) -> RecordSet:
    keys = list(rows[0])
    return RecordSet(path="$.out[*]", keys=keys, labels={k: k for k in keys}, rows=rows, count=len(rows))


def test_abbreviated_keys_by_their_documented_meaning_and_dates_in_words():
    rng = random.Random()
    rows = [
        {
            "q1": f"Model {rng.randint(1, 999)}",
            "q2": f"{rng.randint(1, 28):02d} {rng.choice(MONTHS)} 20{rng.randint(10, 24)}",
            "grp.eng": f"V{rng.choice([4, 6, 8])}",
            "info.datePosted": f"Date Posted: {rng.randint(1, 12):02d}/{rng.randint(1, 28):02d}/2011",
        }
        for _ in range(12)
    ]
    names = {"q1": "Make & model", "q2": "Trading day"}
    m = match_records(["model", "date", "engine", "posted"], _rs(rows), None, names)
    assert m["model"].key == "q1"
    assert m["date"].key == "q2" and m["date"].type == "date"  # "04 January 2018" parsed, not dropped
    assert m["engine"].key == "grp.eng"  # the last path part, an abbreviation of the field
    assert m["posted"].key == "info.datePosted"  # a strong name keeps label-prefixed values


def test_a_meaning_unrelated_to_any_field_matches_nothing():
    rows = [{"zz": f"x{i}", "yy": i} for i in range(5)]
    assert match_records(["author"], _rs(rows), None, {"zz": "Record id", "yy": "Rank"}) == {}


def test_a_nested_key_under_a_display_label_still_answers_its_own_name():
    rows = [{"team": f"T{i}", "meta.avg": 0.2 + i / 100, "slg": 0.4 + i / 100} for i in range(6)]
    rs = _rs(rows)
    rs.labels.update({"team": "Mannschaft", "meta.avg": "Schlagdurchschnitt", "slg": "SLG"})
    m = match_records(["team", "avg"], rs, None)
    assert m["avg"].key == "meta.avg"  # the page's label says nothing to the word; the key's leaf does
