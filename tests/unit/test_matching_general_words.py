"""General words for a column that its source names otherwise: "mileage" for a fuel-economy column
("MPG"), "item"/"product" for the column that names each thing sold ("Model", "Name"), "role" for a
job title, and a plural abbreviated with its s ("wns" for wins, "rbs" for rebounds)."""

from __future__ import annotations

from prefect_autodata.agents.induction.matching import Candidate, assign, name_score

ECON = ["City: 18 Highway: 25", "City: 22 Highway: 25", "City: 13 – 18 Highway: 19 – 26"]
ENGINE = ["3.5L V6", "2.0L I4", "5.7L V8"]


def _c(label, values, key):
    return Candidate(label, values, {"key": key}, origin="json")


def test_mileage_is_the_fuel_economy_a_file_calls_mpg() -> None:
    cands = [_c("model", ["2011 Kia Sedona", "2011 Lexus GS", "2010 Honda Ridgeline"], "model")]
    cands += [_c("engine", ENGINE, "engine"), _c("mpg", ECON, "mpg")]
    got = assign(["car", "mileage"], cands)
    assert got["mileage"].candidate.rule == {"key": "mpg"}
    # a column the page itself calls mileage (an odometer) still goes first
    cands = [_c("MPG", ["18", "22", "30"], "a"), _c("Mileage", ["45,000", "12,300", "3,000"], "b")]
    assert assign(["mileage"], cands)["mileage"].candidate.rule == {"key": "b"}


def test_the_item_is_the_column_naming_each_thing_sold() -> None:
    names = ["Coolpix S3000 compact camera", "FinePix Z70 digital camera", "TL110 camera, black"]
    cands = [_c("Model", names, "m"), _c("Mfr.", ["Nikon", "Fuji", "Samsung"], "f")]
    cands.append(_c("Our price", ["$158.99", "$116.99", "$184.99"], "p"))
    got = assign(["item", "maker", "price"], cands)
    assert got["item"].candidate.rule == {"key": "m"}
    assert got["maker"].candidate.rule == {"key": "f"}
    assert name_score("product", "Name") >= 0.5


def test_a_role_is_a_job_title() -> None:
    assert name_score("role", "Job title") >= 0.55
    # but not every word for a job: "emp" abbreviates the employer, not the Spanish "empleo"
    tl = _c("tl", ["> JUNOS Certification", "> Java Engineer", "> Systems Analyst"], "tl")
    emp = _c("emp", ["Juniper Networks", "CyberCoders", "Acme Corp"], "emp")
    got = assign(["role", "company"], [tl, emp])
    assert got["company"].candidate.rule == {"key": "emp"}
    assert "role" not in got or got["role"].candidate.rule != {"key": "emp"}


def test_a_plural_abbreviated_with_its_s() -> None:
    assert name_score("wins", "wns") >= 0.6
    assert name_score("rebounds", "rbs") >= 0.6
    cands = [_c("wns", [48, 34, 23], "w"), _c("win_pct", ["60.0%", "42.5%", "28.8%"], "p")]
    assert assign(["wins"], cands)["wins"].candidate.rule == {"key": "w"}


def test_the_stock_of_a_price_series_is_its_ticker_even_when_one_stock_only() -> None:
    cands = [
        _c("ticker", ["XOM"] * 5, "t"),
        _c("close", ["117.58", "115.63", "115.83", "111.50", "108.99"], "c"),
    ]
    assert assign(["stock", "close"], cands)["stock"].candidate.rule == {"key": "t"}
