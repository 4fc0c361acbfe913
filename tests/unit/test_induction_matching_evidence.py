"""Evidence for a requested field beyond a listed synonym: an inflected or compound label, a column
header over a value constant in one listing, values that name themselves, a label naming a property of
the field's thing, an abbreviated label of a narrower meaning, a one-letter initial over numbers, the
record's own name for a field that is a word for the record."""

from __future__ import annotations

from prefect_autodata.agents.induction import lexicon as lx
from prefect_autodata.agents.induction.matching import Candidate, assign, name_evidence

_TITLES = ["Fancy Pants", "Dead Space", "The Rose", "Humpday", "Under Siege"]
_PEOPLE = ["George Marshall", "Chuck Patton", "Mark Rydell", "Lynn Shelton", "Andrew Davis"]


def _c(label, values, origin="table", **kw):
    rule = {"xpath": f"./td[{label!r}][{values[0]!r}]"}  # one reading per column
    return Candidate(label=label, values=values, rule=rule, origin=origin, **kw)


def test_an_inflected_label_shares_its_verb_s_concept():
    assert "rating" in lx.concept_keys("Rated")  # "Rated" is a form of "rating" (and of "rate")
    assert not lx.concept_keys("Rate") & {"rating"}  # a bare word stays what it is
    cands = [
        _c("Name", _TITLES, identity=True),
        _c("Director", _PEOPLE),
        _c("Rated", ["Not Rated", "R", "PG-13", "R", "PG"]),
        _c("Category", ["Comedy", "Animation", "Drama", "Comedy", "Action"]),
    ]
    got = assign(["title", "director", "category", "certificate"], cands)
    assert got["certificate"].candidate.label == "Rated"
    assert got["category"].candidate.label == "Category"


def test_foreign_labels_of_an_age_rating_authors_and_a_conference():
    assert name_evidence("certificate", "Freigabe")[0] >= 0.8
    assert name_evidence("writers", "Autoren")[0] >= 0.8
    assert name_evidence("conference", "Konferenz")[0] >= 0.8


def test_a_closed_compound_is_read_by_its_last_part():
    assert "average" in lx.concept_keys("Schlagdurchschnitt")  # German: batting average
    assert "price" in lx.concept_keys("Kaufpreis")
    assert not lx.concept_keys("Homeruns")
    avg = _c("Schlagdurchschnitt", ["0.25", "0.268", "0.273", "0.26"], origin="sibling")
    slg = _c("SLG", ["0.39", "0.451", "0.422", "0.413"], origin="sibling")
    got = assign(["ba"], [slg, avg], aliases={"ba": ("batting average",)})
    assert got["ba"].candidate is avg


def test_a_header_naming_the_field_keeps_a_constant_column():
    """Every paper on a page of one year's table shows the same year under "Yr": data, not template."""
    cands = [
        _c("Name", ["Affinity Weighted Embedding", "Low-density Parity", "Anomaly Ranking", "A Histogram"]),
        _c("Auth.", ["Weston, Jason", "Ermon, Stefano", "Clemencon, Stephan", "Chan, Stanley"]),
        _c("Yr", ["2014"] * 4),
        _c("Session type", ["Main Conference Track"] * 4),
    ]
    got = assign(["title", "writers", "year", "track"], cands)
    assert got["year"].candidate.label == "Yr"
    assert got["track"].candidate.label == "Session type"
    # unlabelled constant text stays template
    assert "price" not in assign(["price"], [_c(None, ["$5.00"] * 4)])


def test_values_that_name_themselves_as_the_field():
    track = _c("category", ["Main Conference Track"] * 4, origin="icon")
    conf = _c(
        "conf.",
        ["21st Annual Meeting of the Association for Computational Linguistics"] * 4,
        origin="sibling",
    )
    got = assign(["track", "conference"], [track, conf])
    assert got["track"].candidate is track
    assert got["conference"].candidate is conf  # a labelled constant whose values do not contradict


def test_a_label_naming_a_property_of_the_thing_is_not_the_thing():
    assert name_evidence("institution", "institutionType")[0] < 0.3
    assert name_evidence("team", "team id")[0] < 0.3
    assert name_evidence("phone", "Phone number")[0] >= 0.8  # a phrase for the phone itself
    assert name_evidence("team", "Team name")[0] >= 0.8
    assert name_evidence("year", "Year founded")[0] >= 0.8
    kind = _c("institutionType", ["Private", "Public", "Private", "Private"], origin="structured")
    name = _c(None, ["Rhodes College", "Thunderbird", "Omega Institute", "Berkeley College"], identity=True)
    got = assign(["institution", "type"], [kind, name], entity="university")
    assert got["institution"].candidate is name and got["type"].candidate is kind


def test_an_abbreviated_label_of_a_narrower_meaning():
    cands = [
        _c("Restaurant", ["Ay Ay-Picante", "Abate Apizza", "Atlantica", "All Seasons"]),
        _c("Addr.", ["4569 N Elston Ave", "129 Wooster St", "64 Pleasant St", "44 Border St."]),
        _c("Call", ["773-427-4239", "203-776-4334", "781-397-8788", "781-383-0900"]),
    ]
    got = assign(["restaurant", "location", "telephone"], cands)
    assert got["location"].candidate.label == "Addr."


def test_a_one_letter_initial_over_numbers():
    cands = [
        _c("DATE", ["March 15, 2017", "March 16, 2017", "March 17, 2017", "March 20, 2017"]),
        _c("L", ["54.13", "54.12", "54.38", "54.52"]),
        _c("OPEN", ["54.23", "54.47", "54.43", "54.61"]),
        _c("HI", ["55.02", "54.62", "55.28", "55.23"]),
        _c("LAST", ["54.79", "54.35", "55.05", "54.69"]),
    ]
    got = assign(["day", "open", "high", "low", "close"], cands)
    assert got["low"].candidate.label == "L"
    assert got["high"].candidate.label == "HI" and got["close"].candidate.label == "LAST"
    # an initial names only a measured field
    assert name_evidence("location", "L")[0] == 0.0


def test_a_field_that_is_a_word_for_the_record_takes_the_record_s_name():
    heading = _c(
        None,
        [
            "Games Software Design Engineer, C#",
            "SQL Server Developer/Team Lead",
            "Application Developer - Business Intelligence",
            "Senior Windows Platform Development Manager",
        ],
        origin="heading",
        identity=True,
    )
    cands = [
        heading,
        _c("Date", ["9/24/2010", "10/26/2010", "10/7/2010", "9/9/2010"], origin="inline"),
        _c("Employer", ["Excell Data", "Ajilon", "Enclipse Corp.", "JDC Group"], origin="inline"),
    ]
    got = assign(["position", "employer", "date"], cands, entity="job posting")
    assert got["position"].candidate is heading
    assert lx.family("position") == "category"  # a player's position is still a category


def test_a_year_is_read_from_a_labelled_date():
    title = _c("Title", ["Parsing as Deduction", "D-Theory", "Situation Semantics", "Quantification"], "dl")
    dates = ["March 5, 2019", "June 2, 2018", "May 1, 2017", "Jan 3, 2019"]
    got = assign(["title", "year"], [title, _c("Published", dates, "dl")])
    assert got["year"].candidate.label == "Published"
    both = assign(["title", "year", "date"], [title, _c("Published", dates, "dl")])
    assert both["date"].candidate.label == "Published" and "year" not in both  # the date's own field first


def test_constant_pieces_of_text_lines_that_say_what_they_are():
    """Every line of a one-year listing ends "· Main Conference Track · 2013": no header, but no template
    text sits between separators; the values name the track, and the year has a year's shape."""
    titles = ["Matrix factorization", "Sequential Transfer", "Fast Algorithms", "Real-Time Inference"]
    cands = [
        _c(None, titles, "text line", identity=True),
        _c(None, ["Main Conference Track"] * 4, "text line"),
        _c(None, ["2013"] * 4, "text line"),
        _c(None, ["82"] * 4, "text line"),
    ]
    got = assign(["title", "year", "track", "games"], cands)
    assert got["year"].candidate is cands[2] and got["track"].candidate is cands[1]
    assert "games" not in got  # a constant count is no evidence of itself
    slots = [_c(None, titles, "slot", identity=True), _c(None, ["2013"] * 4, "slot")]
    assert "year" not in assign(
        ["title", "year"], slots
    )  # outside a delimited line, constant text is template


def test_a_record_name_may_carry_a_model_year():
    """A used-car listing names each car "2010 Honda Civic EX Sedan" under a "Modell" header: the
    record's name for the "vehicle" asked, though a year is in it; a measure in words is not a name."""
    cands = [
        _c(
            "verbrauch",
            ["25 MPG city / 36 MPG hwy", "16 MPG city / 23 MPG hwy", "14 MPG city / 20 MPG hwy"] * 2,
        ),
        _c(
            "modell",
            [
                "2010 Honda Civic EX",
                "2010 Lexus LS460",
                "2011 Nissan Pathfinder SV",
                "2011 GMC Terrain",
                "2010 Lexus LS600h L",
                "2009 Ford Focus SE",
            ],
        ),
        _c("motor", ["1.8L L4", "4.6L V8", "4.0L V6", "2.4L L4", "5.0L V8", "2.0L L4"]),
    ]
    got = assign(["vehicle", "engine", "fuel_economy"], cands, entity="used car")
    assert got["vehicle"].candidate.label == "modell"
    assert got["fuel_economy"].candidate.label == "verbrauch"


def test_a_short_abbreviation_of_one_meaning_of_the_word():
    """ "open" is opening hours or an opening price; "O" is the usual abbreviation of the price, and the
    values are prices: the column serves "open". A rival with the word's first meaning still wins."""
    cands = [
        _c("Date", ["Apr 15, 2019", "Apr 16, 2019", "Apr 17, 2019", "Apr 18, 2019"]),
        _c("O", ["156.66", "156.05", "158.07", "156.59"]),
        _c("High", ["156.91", "157.80", "158.69", "158.18"]),
    ]
    got = assign(["trading_day", "open", "high"], cands)
    assert got["open"].candidate.label == "O"
    rank = _c("Rk", ["1", "2", "3", "4", "5"])
    pos = _c("Pos", ["G", "F", "C", "G", "F"])
    assert assign(["position"], [rank, pos])["position"].candidate is pos
