"""S12 z2: daily prices' field words ("opening"), NDJSON read whole, flex rows' pieces."""

from __future__ import annotations

from prefect_autodata.agents.induction.matching import assign, name_evidence


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


def test_a_constant_column_under_a_header_row_of_div_rows_is_data() -> None:
    """One ticker's daily prices in flexbox rows: the "Sym." column holds the same symbol in every
    row. A header row names it as a table's header does, so it is the ticker asked, not template."""
    from prefect_autodata.agents.induction.dom import parse
    from prefect_autodata.agents.induction.regions import find_regions, slots

    rows = [
        ("2017-04-10", "71.73", "72.64", "BALL"),
        ("2017-04-11", "71.46", "72.29", "BALL"),
        ("2017-04-12", "71.49", "72.57", "BALL"),
        ("2017-04-13", "71.20", "72.10", "BALL"),
        ("2017-04-17", "71.66", "72.31", "BALL"),
    ]
    style = "display:flex"
    head = "".join(f"<div role='columnheader'>{w}</div>" for w in ("Day", "Lo", "Hi", "Sym."))
    body = "".join(
        f"<div role='row' style='{style}'>{''.join(f'<div role=cell>{v}</div>' for v in r)}</div>"
        for r in rows
    )
    root = parse(
        f"<html><body><main><div role='table'><div role='row' style='{style}'>{head}</div>{body}"
        "</div></main></body></html>"
    )
    got = assign(["ticker", "date", "low", "high"], slots(find_regions(root)[0]))
    assert got["ticker"].candidate.values == ["BALL"] * 5
    assert got["low"].candidate.label == "Lo"


def test_one_letter_label_is_the_initial_of_a_qualified_measure() -> None:
    """ "day low" asked, "l: 67.77" shown: the letter is the initial of the phrase's head word (a low,
    qualified by the day), as "L" is for "low"; only for a measured field and a two-word phrase."""
    assert name_evidence("day low", "l")[0] >= 0.45
    assert name_evidence("day low", "l") == name_evidence("low", "L")
    assert name_evidence("day low", "D")[0] == 0.0


def test_vol_asked_as_a_column_is_no_ticker() -> None:
    """ "... closing price, and VOL": the volume column's usual abbreviation, not a stock symbol (read as
    one, every landed row failed the allowed-ticker check once the real ticker column was found)."""
    from prefect_autodata.agents.kinds.stock import find_tickers

    text = "Please compile the daily stock prices from 2016-12-02 with ticker, open, close, and VOL."
    assert find_tickers(text, []) == []
    assert find_tickers("AAPL and MSFT prices with close and VOL", []) == ["AAPL", "MSFT"]
