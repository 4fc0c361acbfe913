"""The key of a spec without a verified key column: the columns that identify a record, never a typed
column that reads null where a row shows something else ("N/A" fuel economy): such a row would be
rejected for an empty key (zoo 310170/57 lost 9 of 292 cars)."""

from prefect_autodata.agents.induction.rules import key_columns

URL = "http://cars.test/"


def test_firm_columns_alone_when_they_tell_records_apart() -> None:
    values = {
        "model": ["Kia Rio", "Kia Rio", "Ford Ka"],
        "engine": ["1.4L", "1.6L", "1.2L"],
        "mpg": ["30 mpg", "28 mpg", "35 mpg"],
    }
    assert key_columns(["model", "engine", "mpg"], values, {"mpg"}) == ["model", "engine"]


def test_loose_columns_join_when_the_others_repeat() -> None:
    values = {"ticker": ["ADI", "ADI", "ADI"], "date": ["2017-10-11", "2017-10-12", "2017-10-13"]}
    assert key_columns(["ticker", "date"], values, {"date"}) == ["ticker", "date"]


def test_empty_columns_never_in_the_key() -> None:
    values = {"a": ["x", "", "z"], "b": ["1", "2", "3"]}
    assert key_columns(["a", "b"], values, set()) == ["b"]


def test_plain_numbers_stay_in_the_key() -> None:
    """One page of a paged listing shows each team once; the next repeats them (other seasons)."""
    values = {"team": ["ATL", "LAD", "CHC"], "innings": ["1,474.2", "1,449.2", "1,444.0"]}
    assert key_columns(["team", "innings"], values, set()) == ["team", "innings"]


def test_a_csv_key_the_file_repeats_is_not_the_key() -> None:
    """A team over its seasons in one file: the team is no key (zoo 310170/24 took the 8-row file of
    one season over the 19-row complete file because the complete one repeated its key)."""
    from prefect_autodata.agents.engineering import induce_csv
    from prefect_autodata.agents.evidence import Endpoint, Evidence
    from prefect_autodata.agents.plan import make_plan

    csv = "Team,H,R\nSTL,1481,887\nKCR,1644,879\nSTL,1390,801\nSFG,1535,925\n"
    url = "http://127.0.0.1:9/downloads/all.csv"
    ep = Endpoint(url_template=url, example_url=url, kind="csv", sample_cache_id="c")
    plan = make_plan("Every MLB team batting season with team, H and R", fields=["team", "h", "r"])
    cand = induce_csv(ep, plan, evidence=Evidence(plan=plan), reader=lambda _id: csv)
    assert cand is not None
    key = cand.spec.primary_key
    rows = [("STL", 1481, 887), ("KCR", 1644, 879), ("STL", 1390, 801), ("SFG", 1535, 925)]
    assert len({tuple(dict(zip(["team", "h", "r"], r, strict=True))[k] for k in key) for r in rows}) == 4
