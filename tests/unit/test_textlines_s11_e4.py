"""S11 E4: unlabelled text lines whose numbers a record kind tells apart by their consistency."""

from __future__ import annotations

from types import SimpleNamespace

from prefect_autodata.agents import kinds
from prefect_autodata.agents.induction import textlines
from prefect_autodata.agents.induction.assemble import _kind_named
from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.agents.induction.matching import aliases_of, assign

_NBA = """<html><body><main><pre>Miami Heat · .659 · 1847 · 82 · 2013 · 28 · 8380 · 54
Toronto Raptors · .585 · 1737 · 82 · 2013 · 34 · 8305 · 48
San Antonio Spurs · .756 · 2064 · 82 · 2014 · 20 · 8639 · 62
Utah Jazz · .463 · 1632 · 82 · 2014 · 44 · 7801 · 38</pre></main></body></html>"""


def _cols(html: str) -> list[list[str]]:
    (block,) = textlines.blocks(parse(html))
    return block.columns


def test_nba_wins_losses_games_by_their_sum_and_share():
    got = kinds.get("nba_team").name_columns(_cols(_NBA))
    assert got == {7: "W", 5: "L", 3: "GP", 1: "W_PCT", 4: "YEAR", 6: "PTS", 2: "AST", 0: "Team"}


def test_wins_and_losses_without_the_share_stay_unnamed():
    cols = [c for k, c in enumerate(_cols(_NBA)) if k != 1]  # no win share: W and L alike
    got = kinds.get("nba_team").name_columns(cols)
    assert "W" not in got.values() and "L" not in got.values()
    assert got[2] == "GP"


def test_mlb_hits_at_bats_then_home_runs_and_runs_by_span():
    rows = [
        "ARI | 1494 | 154 | 0.414 | 0.264 | 0.324 | 5649 | 2015 | 720 | 2393",
        "ATL | 1361 | 100 | 0.359 | 0.251 | 0.314 | 5420 | 2015 | 573 | 2340",
        "ATL | 1404 | 122 | 0.384 | 0.255 | 0.321 | 5514 | 2016 | 649 | 2390",
        "WSN | 1363 | 177 | 0.403 | 0.251 | 0.321 | 5428 | 2015 | 703 | 2245",
    ]
    html = "<html><body><main><pre>" + "\n".join(rows) + "</pre></main></body></html>"
    got = kinds.get("mlb_hitting").name_columns(_cols(html))
    assert got[1] == "H" and got[6] == "AB" and got[2] == "HR" and got[8] == "R" and got[0] == "Team"


def test_text_line_fields_assigned_through_the_kind():
    plan = SimpleNamespace(
        kind="nba_team",
        fields=[
            SimpleNamespace(name=n, normalized=c, aliases=[])
            for n, c in [("team name", "TEAM_NAME"), ("games", "GP"), ("wins", "W"), ("losses", "L")]
        ],
    )
    (block,) = textlines.blocks(parse(_NBA))
    cands = _kind_named(plan, textlines.candidates(block))
    m = assign(["team name", "games", "wins", "losses"], cands, aliases=aliases_of(plan))
    assert m["wins"].candidate.values[0] == "54"
    assert m["losses"].candidate.values[0] == "28"
    assert m["games"].candidate.values[0] == "82"


def test_no_kind_leaves_the_candidates_alone():
    (block,) = textlines.blocks(parse(_NBA))
    cands = textlines.candidates(block)
    assert _kind_named(SimpleNamespace(kind=None), cands) == cands


def test_a_street_address_first_is_no_record_name():
    rows = [
        "9501 Brockbank Drive\tITALIAN\tCATHY FILEDS\t214-352-3343",
        "308 South Galloway Avenue\tCAFE\tCOUNTRY BURGER\t972-216-9997",
        "5531 Dyer Street\tCAFE\tCAFE BRAZIL\t214-696-8366",
        "3301 Conflans Road\tITALIAN\tCUISINARY FINE FOODS THE\t972-790-2004",
        "2504 Mckinney Avenue\tITALIAN\tCOCOPAZZOS\t214-871-2606",
    ]
    html = "<html><body><main><pre>" + "\n".join(rows) + "</pre></main></body></html>"
    (block,) = textlines.blocks(parse(html))
    cands = textlines.candidates(block)
    assert not cands[0].identity
    m = assign(["venue", "location", "food", "phone"], cands, entity="restaurant")
    assert m["venue"].candidate.values[0] == "CATHY FILEDS"
    assert m["location"].candidate.values[0] == "9501 Brockbank Drive"


def test_the_one_field_and_the_one_piece_left_over():
    from prefect_autodata.agents.induction.assemble import _last_left

    rows = [
        "$44,490.00 ; 13 mpg City / 18 mpg Hwy ; 2011 GMC Sierra 1500 Crew Cab ; V8, Flexible Fuel, 6.2 Liter",
        "$29,100.00 ; 17 mpg City / 25 mpg Hwy ; 2010 Chrysler 300 ; V6, HO, 3.5 Liter",
        "$35,585.00 ;  ; 2010 Chevrolet Silverado 3500 HD ; V8, 6.0 Liter",
        "$51,025.00 ; 18 mpg City / 26 mpg Hwy ; 2010 Audi A6 ; V6, Supercharged, 3.0 Liter",
    ]
    html = "<html><body><main><pre>" + "\n".join(rows) + "</pre></main></body></html>"
    (block,) = textlines.blocks(parse(html))
    cands = textlines.candidates(block)
    req = ["model", "price", "motor", "mpg"]
    m = _last_left(req, cands, assign(req, cands, entity="used car"))
    assert m["motor"].candidate.values[0] == "V8, Flexible Fuel, 6.2 Liter"
    # a price no piece shows is not given the piece left over
    req2 = ["model", "price", "mpg", "fee"]
    less = [c for c in cands if not str(c.values[0]).startswith("$")]
    m2 = _last_left(req2, less, assign(req2, less, entity="used car"))
    assert "price" not in m2 or not str(m2["price"].candidate.values[0]).startswith("V")


def test_a_win_share_in_percent():
    cols = _cols(_NBA)
    cols[1] = [f"{float(v) * 100:.1f}%" for v in cols[1]]
    got = kinds.get("nba_team").name_columns(cols)
    assert got[7] == "W" and got[5] == "L" and got[1] == "W_PCT"


def test_the_win_share_has_its_names():
    k = kinds.get("nba_team")
    for word in ("PCT", "win pct", "Win %", "winning percentage"):
        assert k.map_field(word) == "W_PCT", word
    assert k.map_field("wins") == "W"
