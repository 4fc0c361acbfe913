"""S12 w1: a time scope restricts dates, never a column of counts; a compound word cut to its first
part's initial and its head names the field ("T-Meter"); percents read as their number."""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace as NS

from prefect_autodata.agents.induction.filters import row_filter
from prefect_autodata.agents.induction.matching import Candidate, name_evidence
from prefect_autodata.agents.induction.rules import typed_rule
from prefect_autodata.runtime.extract import apply_transforms


def _scope():
    return NS(
        start_date=date(2026, 11, 28), end_date=date(2026, 12, 4), start_year=None, end_year=None, years=[]
    )


def test_a_time_scope_is_not_put_on_a_column_of_counts():
    # the plan typed "weeks released" a date; its values are 1, 2, 8: counts, no time to restrict
    plan = NS(
        filters=[], time_scope=_scope(), fields=[NS(name="weeks_released", normalized="weeks", type="date")]
    )
    code, notes = row_filter(plan, ["title", "weeks_released"], frozenset({"weeks_released"}))
    assert code is None and notes == ["time scope not applied: no date or year column"]
    code, _ = row_filter(plan, ["title", "weeks_released"])  # without the values, the plan's typing holds
    assert code is not None and "weeks_released" in code


def test_an_initial_and_the_head_word_abbreviate_one_compound_word():
    assert name_evidence("tomatometer", "T-Meter") == (0.8, "abbrev")
    assert name_evidence("tomatometer", "Meter")[0] < 0.8
    assert name_evidence("tomatometer", "X-Meter")[0] == 0.0


def test_percents_read_as_their_number_with_the_unit():
    rule = typed_rule("score", Candidate(label="Score", values=["93%", "71 %", "8%"], rule={"xpath": "."}))
    assert rule.type == "float" and rule.unit == "%"
    assert [apply_transforms(v, rule.transforms) for v in ["93%", "71 %", "-0.5%"]] == [93, 71, -0.5]
    mixed = typed_rule(
        "score", Candidate(label="Score", values=["93%", "about 90", "8%"], rule={"xpath": "."})
    )
    assert mixed.type == "string"


def test_a_unit_in_a_header_is_a_unit_not_a_name():
    from prefect_autodata.agents.induction import lexicon as lx
    from prefect_autodata.agents.induction.matching import assign

    assert [
        lx.header_unit(h) for h in ["Height (m)", "Height\n(ft)", "Weight [kg]", "Area, sq ft", "Name"]
    ] == [
        "m",
        "ft",
        "kg",
        "sq ft",
        None,
    ]
    assert lx.unit_symbol("metres") == lx.unit_symbol("m") == "m" and lx.unit_symbol("Paris") is None
    metres = Candidate(label="Height (m)", values=["412", "398", "356"], rule={"xpath": "./td[2]"})
    feet = Candidate(label="Height (ft)", values=["1,352", "1,306", "1,168"], rule={"xpath": "./td[3]"})
    for unit, col in (("feet", feet), ("metres", metres)):
        m = assign(["height"], [metres, feet], units={"height": unit})
        assert m["height"].candidate is col
    rule = typed_rule("height", metres)
    assert rule.type == "integer" and rule.unit == "m"


def test_the_wild_bench_reads_a_field_in_a_unit_as_the_column_in_that_unit():
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_wild.py"
    spec = importlib.util.spec_from_file_location("bench_wild", path)
    bench = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_wild", bench)  # its dataclasses look their module up
    spec.loader.exec_module(bench)
    fields = ["name", "height in metres"]
    assert bench.name_lenient(["name", "height"], fields, {"height": "m"}) == {"height": "height in metres"}
    assert bench.name_lenient(["name", "height"], fields, {"height": "ft"}) == {}
    assert bench.name_lenient(["name", "height"], fields) == {}


def test_a_lone_dash_among_values_is_no_value():
    est = typed_rule("estimated", Candidate(label="Est", values=["13:05", "—", "13:20"], rule={"xpath": "."}))
    assert [apply_transforms(v, est.transforms) for v in ["13:05", "—", "13:20"]] == ["13:05", None, "13:20"]
    gate = typed_rule("floors", Candidate(label="Floors", values=["12", "-", "7", "3"], rule={"xpath": "."}))
    assert gate.type == "integer" and apply_transforms("-", gate.transforms) is None
    dashes = typed_rule("mark", Candidate(label="Mark", values=["-", "-", "5"], rule={"xpath": "."}))
    assert apply_transforms("-", dashes.transforms) == "-"  # mostly dashes: the column's own data


def test_a_column_with_no_value_marks_is_no_key_column():
    from prefect_autodata.agents.induction.assemble import _spec
    from prefect_autodata.agents.induction.matching import Match

    cands = {
        "title": Candidate(label="Title", values=["Pilot", "Undertow", "Gull"], rule={"xpath": "./td[1]"}),
        "viewers": Candidate(label="Viewers", values=["7.41", "N/A", "6.52"], rule={"xpath": "./td[2]"}),
    }
    spec, _ = _spec(
        name="t",
        description="",
        url="http://127.0.0.1:9/e",
        records_xpath="//tr[td]",
        requested=["title", "viewers"],
        matches={r: Match(r, c, 1.0, "label") for r, c in cands.items()},
        detail_link=None,
        pages=None,
    )
    assert spec.primary_key == ["title"]  # the episode without viewers lands, its viewers null
