"""S12 W2: values run together in one link text, a value set off by brackets, a label that is only a
CSS class, and the words of rented homes (rent, neighbourhood, bedrooms)."""

from __future__ import annotations

from prefect_autodata.agents.induction import regions
from prefect_autodata.agents.induction import values as vt
from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.agents.induction.matching import Candidate, assign, expected_type
from prefect_autodata.runtime.extract import apply_transforms
from prefect_autodata.runtime.spec import Transform

ROWS = [
    ("Jun 14", "$1450 / 1br - Sunny flat near the park", "Lower Haight"),
    ("Jun 14", "$2195 / 2br - HUGE 2BR/1BA w/ parking - cats ok", "Inner Sunset"),
    ("Jun 13", "$1095 / studio - studio, utilities incl, laundry", "Tenderloin"),
    ("Jun 13", "$3650 / 3br - Remodeled Victorian flat, deck", "Noe Valley"),
    ("Jun 12", "$1275 / 1br - In-law unit with a private entrance", "Excelsior"),
]
ADS = "<html><body><blockquote>{}</blockquote></body></html>".format(
    "".join(
        f'<p class="row"><span class="itemdate"> {d}</span> <span class="itemsep"> - </span>'
        f'<a href="/apa/{i}.html">{t}</a> <span class="itemsep"> - </span>'
        f'<span class="itempn"><font size="-1"> ({n})</font></span></p>'
        for i, (d, t, n) in enumerate(ROWS)
    )
)


def _read(cand: Candidate, raw: str) -> object:
    return apply_transforms(raw, [Transform.model_validate(t) for t in cand.rule["transforms"]])


def test_link_text_of_several_values_is_cut_into_each() -> None:
    region = regions.find_regions(parse(ADS))[0]
    cands = regions.slots(region)
    m = assign(["title", "monthly rent", "bedrooms", "neighborhood"], cands)
    assert m["monthly rent"].candidate.values == ["$1450", "$2195", "$1095", "$3650", "$1275"]
    assert m["bedrooms"].candidate.values == ["1br", "2br", "studio", "3br", "1br"]
    # the rest after the first separator, the separator inside the title kept
    assert m["title"].candidate.values[1] == "HUGE 2BR/1BA w/ parking - cats ok"
    assert _read(m["title"].candidate, ROWS[1][1]) == "HUGE 2BR/1BA w/ parking - cats ok"
    assert m["neighborhood"].candidate.values[0] == "Lower Haight"
    assert _read(m["neighborhood"].candidate, " (Lower Haight) ") == "Lower Haight"


def test_bracketed_values_read_inside_their_brackets() -> None:
    vals = ["(Lower Haight)", "(Inner Sunset)", "[Tenderloin]", "(Noe Valley)"]
    assert regions.bracketed(vals) == ["Lower Haight", "Inner Sunset", "Tenderloin", "Noe Valley"]
    assert regions.bracketed(["Nob Hill (north)", "SOMA", "Soma (east)"]) is None
    parts, main = regions.slot_pieces(vals)
    assert main == 0 and parts[0][1][0] == "Lower Haight"
    # a record shown without brackets reads whole, an aside at its end included
    step = Transform(op="regex", pattern=regions.BRACKETS, group="v")
    assert apply_transforms("Nob Hill (north)", [step]) == "Nob Hill (north)"
    assert apply_transforms("(Nob Hill)", [step]) == "Nob Hill"


def test_lead_and_rest_needs_a_short_lead_in_every_record() -> None:
    long_lead = ["a long first part here - rest - one", "another long lead - x y z", "third one - a b c d"]
    assert regions.slot_pieces(long_lead) == ([], None)
    no_sep = ["1br - Sunny flat near the park", "2br Huge flat", "studio - small but bright"]
    assert regions.slot_pieces(no_sep) == ([], None)


def test_label_only_a_css_class_naming_nothing_is_opaque() -> None:
    region = regions.find_regions(parse(ADS))[0]
    by_class = [c for c in regions.slots(region) if c.label == "itempn"]
    assert by_class and all(c.opaque() for c in by_class)
    shown = Candidate(label="Deposit", values=["$500", "$700"], rule={"xpath": "."})
    assert not shown.opaque()


def test_a_number_in_every_value_is_no_place_name() -> None:
    assert vt.fit("place", vt.profile(["Jun 14", "Jun 13", "Jun 12"])) == 0.0
    assert vt.fit("place", vt.profile(["Lower Haight", "Inner Sunset", "Tenderloin"])) > 0


def test_words_of_rented_homes() -> None:
    assert expected_type("monthly_rent") == "money"
    assert expected_type("neighborhood") == "place"
    assert expected_type("bedrooms") == "integer"


def test_a_participle_label_names_the_date_of_its_verb() -> None:
    from prefect_autodata.agents.induction.matching import name_evidence

    assert name_evidence("filing date", "Filed")[0] >= 0.6
    assert name_evidence("filing", "Filed")[0] >= 0.8
    assert name_evidence("filing date", "Field")[0] < 0.6
    assert name_evidence("date", "Filed")[0] < 0.6


PATENT = """<html><head><title>Patent: {n}</title></head><body>
<table width="100%"><tr><td><b>United States Patent</b></td><td><b>{num}</b></td></tr>
<tr><td><b>{who}, et al.</b></td><td><b>{issued}</b></td></tr></table>
<table><tr><th>Inventors:</th><td>{who}; Ann</td></tr><tr><th>Filed:</th><td>{filed}</td></tr></table>
</body></html>"""


def test_rows_after_a_labelled_row_are_read_by_their_place() -> None:
    from prefect_autodata.agents.induction.selectors import detail_candidates

    data = [
        ("8,042,117", "Halvorsen", "October 25, 2011", "March 3, 2009"),
        ("7,841,615", "Ferreira", "November 30, 2010", "September 19, 2007"),
        ("8,033,560", "Okafor", "October 11, 2011", "November 17, 2008"),
    ]
    pages = []
    for i, (num, who, issued, filed) in enumerate(data):
        html = PATENT.format(n=i, num=num, who=who, issued=issued, filed=filed)
        pages.append((f"http://x/p{i}", parse(html), html))
    cands = detail_candidates(pages)
    after = [c for c in cands if "following-sibling::tr[1]" in c.rule["xpath"]]
    assert [c.values for c in after] == [
        ["Halvorsen, et al.", "Ferreira, et al.", "Okafor, et al."],
        ["October 25, 2011", "November 30, 2010", "October 11, 2011"],
    ]
    m = assign(["filing date", "issue date"], cands)
    assert m["filing date"].candidate.label == "Filed"
    assert m["issue date"].candidate is after[1]


def _contest(office: str, rows: list[tuple[str, str, str, str]], total: str) -> str:
    body = "".join(f"<tr><td>{c}</td><td>{p}</td><td>{v}</td><td>{pct}</td></tr>" for c, p, v, pct in rows)
    return (
        f'<table class="contest"><tr><td colspan="4"><b>{office}</b> (Vote for 1)</td></tr>'
        '<tr><td colspan="4">Precincts Reporting: 14 of 14</td></tr>'
        "<tr><td><b>Candidate</b></td><td><b>Party</b></td><td><b>Votes</b></td><td><b>Percent</b></td></tr>"
        f'{body}<tr><td colspan="2"><b>Total</b></td><td>{total}</td><td>100.00%</td></tr>'
        '<tr><td colspan="4">Under Votes: 420</td></tr></table>'
    )


CONTESTS = "<html><body>{}{}</body></html>".format(
    _contest(
        "SHERIFF",
        [
            ("Calvin Stroud", "REP", "21,907", "53.38%"),
            ("Mae Ortiz", "DEM", "19,101", "46.54%"),
            ("Al Dunn", "LBT", "301", "0.08%"),
        ],
        "41,008",
    ),
    _contest(
        "COUNTY CLERK",
        [
            ("Bernadette Lyle", "DEM", "22,310", "55.34%"),
            ("Tom Reyes", "REP", "17,950", "44.52%"),
            ("Ida Small", "GRN", "420", "0.14%"),
        ],
        "40,260",
    ),
)


def test_labels_under_title_rows_and_the_title_as_each_rows_group() -> None:
    from prefect_autodata.agents.induction import tables
    from prefect_autodata.agents.induction.assemble import _table_candidates

    found = tables.tables(parse(CONTESTS))
    assert len(found) == 1  # one header over both contests: one record set
    t = found[0]
    assert t.rows == 6 and t.labels[:4] == ["Candidate", "Party", "Votes", "Percent"]
    cands = tables.with_parts(t, _table_candidates(t))
    m = assign(["candidate", "office", "party", "votes", "percentage"], cands)
    assert m["office"].candidate.values == ["SHERIFF"] * 3 + ["COUNTY CLERK"] * 3
    root = parse(CONTESTS)
    from prefect_autodata.runtime.extract import extract_field
    from prefect_autodata.runtime.spec import FieldRule

    rows = root.xpath(t.records_xpath)
    rule = FieldRule(name="office", **m["office"].candidate.rule)
    got = [extract_field(r, rule, page_url="http://x/", params={}) for r in rows]
    assert got == ["SHERIFF"] * 3 + ["COUNTY CLERK"] * 3


def test_shares_with_a_percent_sign_read_as_numbers() -> None:
    from prefect_autodata.agents.induction.rules import typed_rule

    cand = Candidate(label="Percent", values=["53.38%", "46.54%", "+2.5 %"], rule={"xpath": "."})
    rule = typed_rule("percentage", cand)
    assert rule.type == "float" and rule.unit == "%"
    assert [apply_transforms(v, rule.transforms) for v in cand.values] == [53.38, 46.54, 2.5]
    words = Candidate(label="Chance", values=["10% precip", "80% precip"], rule={"xpath": "."})
    assert typed_rule("chance", words).type == "string"


def _side(rows: list[tuple[str, str, str]]) -> str:
    return "<table>{}</table>".format(
        "".join(f"<tr><td>{a}</td><td>{b}</td><td><b>{c}</b></td></tr>" for a, b, c in rows)
    )


ROLL = "<html><body><table><tr><td>{}</td><td>{}</td></tr></table></body></html>".format(
    _side(
        [
            ("Abernathy", "(R-Ozark-2)", "Yea"),
            ("Baptiste", "(D-Riverside-5)", "Nay"),
            ("Castellano", "(D-Lakeshore-1)", "Nay"),
            ("Dunleavy", "(R-Pine Bluff-4)", "Yea"),
        ]
    ),
    _side(
        [
            ("Gunderson", "(R-Northfield-6)", "Yea"),
            ("Haverford", "(I-Cedar-2)", "Present"),
            ("Isenberg", "(D-Riverside-1)", "Yea"),
            ("Jablonski", "(R-Ozark-4)", "Nay"),
        ]
    ),
)


def test_tables_side_by_side_are_one_list_and_a_joined_code_is_cut() -> None:
    from prefect_autodata.agents.induction import tables
    from prefect_autodata.agents.induction.assemble import _table_candidates

    root = parse(ROLL)
    found = [t for t in tables.tables(root) if t.rows == 8]
    assert len(found) == 1
    t = found[0]
    assert len(root.xpath(t.records_xpath)) == 8
    assert "Yea" not in t.records_xpath  # located by place, not by a record's text
    cands = tables.with_parts(t, _table_candidates(t))
    m = assign(["surname", "party", "district", "vote"], cands)
    assert m["party"].candidate.values[:3] == ["R", "D", "D"]
    assert m["district"].candidate.values[3] == "Pine Bluff-4"
    assert m["vote"].candidate.values[:2] == ["Yea", "Nay"]
    assert _read(m["district"].candidate, "(R-Pine Bluff-4)") == "Pine Bluff-4"


def test_a_count_is_named_in_the_plural() -> None:
    assert expected_type("votes") == "integer"
    assert expected_type("number of votes") == "integer"
    assert expected_type("vote") == "category"  # the one cast: Yea, Nay
    assert expected_type("game") != "integer" and expected_type("games") == "integer"
    assert expected_type("party") == "category"


def test_a_title_holding_the_whole_date_of_a_shown_partial_date() -> None:
    from prefect_autodata.agents.induction import attrs

    html = "<html><body><div>{}</div></body></html>".format(
        "".join(
            f'<div class="day"><h3 title="{full}"><span>{d}</span></h3><p>{w}</p></div>'
            for full, d, w in [
                ("Thursday, March 6, 2014", "Mar 6", "Rain"),
                ("Friday, March 7, 2014", "Mar 7", "Sunny"),
                ("Saturday, March 8, 2014", "Mar 8", "Snow"),
            ]
        )
    )
    region = regions.find_regions(parse(html))[0]
    got = attrs.candidates(regions.sample_items(region.items))
    assert [c.values for c in got if c.rule.get("attr") == "title"] == [
        ["Thursday, March 6, 2014", "Friday, March 7, 2014", "Saturday, March 8, 2014"]
    ]
    shown = html.replace('title="Thursday, March 6, 2014"', 'title="Mar 6"')
    region = regions.find_regions(parse(shown))[0]
    assert not [c for c in attrs.candidates(regions.sample_items(region.items)) if c.values[0] == "Mar 6"]


def test_degrees_are_a_number_with_its_unit() -> None:
    assert vt.kind_of("38°") == "decimal" and vt.kind_of("12 °C") == "decimal"
    assert vt.kind_of("45°N") != "decimal"
    assert expected_type("chance of rain") == "percent"


def test_a_key_of_listing_columns_when_they_tell_records_apart() -> None:
    from prefect_autodata.agents.induction.assemble import _listing_key
    from prefect_autodata.agents.induction.matching import Match

    def m(values: list[str], where: str) -> Match:
        return Match("f", Candidate(label=None, values=values, rule={"xpath": "."}, where=where), 1.0, "", "")

    matches = {
        "number": m(["8,042,117", "7,841,615", "8,033,560"], "listing"),
        "title": m(["Frame", "Stem", "Pedal"], "listing"),
        "assignee": m(["Velocraft", "Ciclo"], "detail"),  # four detail pages sampled, all with one
    }
    assert _listing_key(["number", "title", "assignee"], matches) == ["number", "title"]
    matches["title"] = m(["Frame", "Frame", "Frame"], "listing")
    matches["number"] = m(["1", "1", "1"], "listing")
    assert _listing_key(["number", "title", "assignee"], matches) == []  # they do not: the sample's key
    assert _listing_key(["number", "title"], matches) == []  # no detail column: nothing to leave out
