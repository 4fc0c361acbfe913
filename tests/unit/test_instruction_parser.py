"""The offline instruction parser on every catalog task, on hand-written paraphrases, and on requests
that cannot be resolved (it must say what is missing instead of guessing). ``entity`` in the older
paraphrase file names the record kind (``Request.kind``)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
import yaml

from prefect_autodata.agents import kinds
from prefect_autodata.agents.offline.instruction import parse_instruction
from prefect_autodata.sandbox.tasks import catalog

CASES = yaml.safe_load((Path(__file__).parents[1] / "data" / "paraphrases.yaml").read_text())
TODAY = date.fromisoformat(CASES["today"])
_ENTITY_OF_TEMPLATE = {
    **dict.fromkeys(["T1", "T2", "T3"], "paper"),
    **dict.fromkeys(["T4", "T5", "T6"], "stock"),
    **dict.fromkeys(["T7", "T8", "T9"], "nba_team"),
    **dict.fromkeys(["T10", "T11", "T12"], "nba_player"),
    **dict.fromkeys(["T13", "T14", "T15"], "mlb_hitting"),
    **dict.fromkeys(["T16", "T17", "T18"], "mlb_pitching"),
}


@pytest.mark.parametrize("task", catalog(), ids=lambda t: t.id)
def test_catalog_instruction_parses_to_its_template_and_scope(task):
    r = parse_instruction(task.instruction, today=TODAY)
    p = task.params
    assert r.is_resolved, r.missing
    assert r.template == task.template
    assert r.kind == _ENTITY_OF_TEMPLATE[task.template]
    assert r.field_names == kinds.get(r.kind).fields_for(r) and r.fields_source == "default"
    assert r.domain == task.domain
    if "conference" in p:
        assert r.venue is not None and r.venue.abbr == p["conference"]
        assert r.track == p.get("track")
    if "start_year" in p:
        assert (r.start_year, r.end_year) == (p["start_year"], p["end_year"])
    elif "year" in p:
        assert r.years == [p["year"]]
    elif "end_year" in p:  # "up to 2024"
        assert r.all_history and r.end_year == p["end_year"]
    if "ticker" in p:
        assert r.all_sp500 if p["ticker"] == "*" else r.tickers == [p["ticker"]]
    if "tickers" in p:
        assert r.tickers == p["tickers"] and r.dates == [date.fromisoformat(p["date"])]
    if "start_date" in p:
        assert (r.start_date, r.end_date) == tuple(
            date.fromisoformat(p[k]) for k in ("start_date", "end_date")
        )
    if "team" in p:
        assert [t.name for t in r.teams] == [p["team"]]
    if task.template in ("T9", "T15", "T18"):
        assert r.all_teams and not r.teams
    if "player" in p or "players" in p:
        assert r.players == p.get("players", [p.get("player")])


@pytest.mark.parametrize("case", CASES["resolved"], ids=lambda c: c["text"])
def test_paraphrase(case):
    r = parse_instruction(case["text"], today=TODAY)
    assert r.is_resolved, r.missing
    for key, want in case["expect"].items():
        got = getattr(r, "kind" if key == "entity" else key)
        if key == "venue":
            got = got.abbr
        elif key == "teams":
            got = [t.name for t in got]
        elif key in ("start_date", "end_date"):
            got = got.isoformat()
        elif key == "dates":
            got = [d.isoformat() for d in got]
        assert got == want, (key, got, want)


@pytest.mark.parametrize("case", CASES["unresolved"], ids=lambda c: c["text"] or "<empty>")
def test_unresolvable_says_what_is_missing(case):
    r = parse_instruction(case["text"], today=TODAY)
    assert not r.is_resolved
    assert r.template is None and r.expected_size is None
    joined = " | ".join(r.missing)
    for fragment in case["missing"]:
        assert fragment in joined, joined


def test_paraphrase_set_is_big_enough():
    assert len(CASES["resolved"]) >= 30


def test_fields_default_to_the_target_schema_or_follow_the_user():
    r = parse_instruction("Get me every NeurIPS 2019 paper")
    assert r.field_names == kinds.get("paper").default_fields and r.fields_source == "default"
    r = parse_instruction("Get me every NeurIPS 2019 paper", fields=["TITLE", "PAPER_LINK"])
    assert r.field_names == ["TITLE", "PAPER_LINK"] and r.fields_source == "user"
    many = parse_instruction("MSFT, GOOGL and AMZN on 2024-03-15")
    assert many.field_names[0] == "Ticker"
    assert "Ticker" not in parse_instruction("AAPL in 2024").field_names


def test_expected_size_is_approximate_where_it_cannot_be_known():
    r = parse_instruction("Collect the daily stock information of AAPL in 2024.")
    assert r.expected_size is not None and r.expected_size.approx
    assert r.expected_size.rows == 262  # weekdays in 2024; the exchange traded 252 days
    sp = parse_instruction("all S&P 500 companies on 2024-03-15")
    assert sp.expected_size.rows == 503
    assert parse_instruction("Get me every NeurIPS 2019 paper").expected_size is None


def test_since_is_anchored_on_today():
    r = parse_instruction("Yankees pitching since 2019", today=date(2022, 1, 5))
    assert r.years == [2019, 2020, 2021, 2022]
    assert any("2022" in a for a in r.assumptions)


def test_ambiguous_numeric_date_is_flagged():
    r = parse_instruction("AAPL and MSFT on 03/04/2024")
    assert r.dates == [date(2024, 3, 4)]
    assert any("month-first" in a for a in r.assumptions)
    assert not parse_instruction("AAPL and MSFT on 29/03/2024").assumptions


def test_abbreviations_need_league_context():
    assert [t.abbr for t in parse_instruction("NBA team stats of LAL from 2010 to 2012").teams] == ["LAL"]
    stock = parse_instruction("daily prices of MIA and BOS in 2024")
    assert stock.kind == "stock" and not stock.teams
