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
    lines = [ln.replace(" - Green", " - Green - Matte").replace(" - Lime", " - Lime - Matte") for ln in _CAMERAS]
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
