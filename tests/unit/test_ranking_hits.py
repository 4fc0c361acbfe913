"""Search hits ranked by the request's own words and its field words (agents/offline/discovery.py)."""

from __future__ import annotations

import random

from prefect_autodata.agents.evidence import SearchHit
from prefect_autodata.agents.offline import discovery as d
from prefect_autodata.agents.offline.instruction import parse_request


def test_phrase_run_is_the_longest_run_in_order():
    assert d.phrase_run("a b c d".split(), "x a b c y d".split()) == 3
    assert d.phrase_run("a b".split(), "b a".split()) == 1
    assert d.phrase_run([], "a".split()) == 0


def test_a_hit_in_the_requests_words_and_fields_beats_a_topical_one():
    rng = random.Random(7)
    for _ in range(5):
        noun = rng.choice(["MLB team batting seasons", "MLB team hitting seasons"])
        fields = rng.sample(["club", "season", "games", "avg", "obp"], 4)
        req = parse_request(f"Could you compile the {noun} listed on the site?", fields=fields)
        own = SearchHit(
            url="https://data.example/docs/",
            title=f"Data Line — {noun}",
            snippet=f"43 {noun} with team, season, g, hr, avg, obp.",
            rank=2,
        )
        topical = SearchHit(
            url="https://stats.example/leaders/major-league?stats=bat",
            title="Stats MLB team batting leaderboard",
            snippet="MLB team batting leaders",
            rank=1,
        )
        ranked = d.rank_hits([topical, own], req)
        assert ranked[0] is own, [(h.url, d.hit_score(h, req)) for h in ranked]
        # the phrase and the field words widen the lead
        lead = d.hit_score(own, req) - d.hit_score(topical, req)
        assert lead > d.hit_score(own, req, bonus=False) - d.hit_score(topical, req, bonus=False)


def test_the_words_a_kind_implies_weigh_one_term_together_and_a_plural_counts_once():
    req = parse_request("Could you compile the MLB team pitching seasons listed on the site?")
    plain = SearchHit(url="https://a.example/", title="MLB team pitching seasons", snippet="", rank=1)
    # "Major League Leaderboards, Teams": words the kind adds (league, leaderboard) and a plural
    loud = SearchHit(
        url="https://b.example/leaders",
        title="Major League Leaderboards Teams MLB team pitching leaders",
        snippet="",
        rank=2,
    )
    assert d.hit_score(loud, req, bonus=False) <= d.hit_score(plain, req, bonus=False) + d.IMPLIED_MAX


def test_a_hit_about_none_of_the_named_subjects_gets_no_phrase_bonus_and_half_the_fields():
    req = parse_request(
        "Collect all regular-season pitching statistics of MLB Seattle Mariners up to 2024.",
        fields=["W", "L", "ERA"],
    )
    board = SearchHit(
        url="https://stats.example/leaders?stats=pit",
        title="Leaderboards Teams Pitching Statistics",
        snippet="MLB team pitching statistics: W, L, ERA, SV, IP, SO",
        rank=1,
    )
    plain = d.hit_score(board, req, bonus=False)
    named = board.model_copy(update={"title": board.title + " Seattle Mariners"})
    # no phrase bonus, half the fields' bonus: a board of every team may hold the one asked for as rows
    half = d.hit_score(board, req) - plain
    assert half == d.FIELDS_WEIGHT / 2  # all three fields named, none of the subjects
    assert half < d.hit_score(named, req) - d.hit_score(named, req, bonus=False)
