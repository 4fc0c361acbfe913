"""S12 z2: daily prices' field words ("opening"), NDJSON read whole, flex rows' pieces."""

from __future__ import annotations

from prefect_autodata.agents.induction.matching import name_evidence


def test_opening_names_the_open_column() -> None:
    """A user asking for the "opening" (price) means the page's "Open" column: "opening" also names a
    job vacancy, which must not keep it from the price it names in a day's prices."""
    score, _how = name_evidence("opening", "Open")
    assert score >= 0.7
    assert name_evidence("opening", "Open") > name_evidence("opening", "Lo")
    assert name_evidence("opening", "Open") > name_evidence("opening", "High")


def _cand(label, values, **kw):
    from prefect_autodata.agents.induction.matching import Candidate

    return Candidate(label, values, {"xpath": f"./x{abs(hash(label)) % 97}"}, **kw)


def test_a_record_headed_by_its_date_answers_the_date_field() -> None:
    """Cards of a day's prices headed by their date ("04/03/2017" as each card's link text) and
    labelled only by their prices: the heading is the date asked, as a name heading is a title."""
    from prefect_autodata.agents.induction.matching import assign

    days = ["04/03/2017", "04/04/2017", "04/05/2017", "04/06/2017", "04/07/2017", "04/10/2017"]
    cands = [
        _cand(None, days, identity=True, origin="heading"),
        _cand("Tief", ["134.12", "133.61", "133.80", "132.84", "132.58", "132.96"]),
        _cand("Eröffnung", ["135.13", "134.51", "135.22", "134.27", "133.13", "133.21"]),
    ]
    out = assign(["date", "open price", "low"], cands, entity="daily stock price", eliminate=False)
    assert out["date"].candidate.values == days
    assert out["low"].candidate.label == "Tief"


def test_a_heading_of_words_is_no_date_nor_a_price() -> None:
    """The typed reading needs values of the type: a heading of names answers no date, and a number
    heading (a rank) is never taken as a price or a count by being the heading."""
    from prefect_autodata.agents.induction.matching import assign

    names = ["Moon Cafe", "Sun Diner", "Rain Bar", "Snow Grill", "Wind Pub", "Fog Inn"]
    out = assign(["date"], [_cand(None, names, identity=True, origin="heading")], eliminate=False)
    assert "date" not in out
    ranks = ["1", "2", "3", "4", "5", "6"]
    out = assign(["price"], [_cand(None, ranks, identity=True, origin="heading")], eliminate=False)
    assert "price" not in out
