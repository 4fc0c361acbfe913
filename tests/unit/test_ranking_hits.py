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
        # without the bonus the topical hit leads: the phrase and the field words made the difference
        assert d.hit_score(topical, req, bonus=False) > d.hit_score(own, req, bonus=False)


def test_a_hit_about_none_of_the_named_subjects_gets_no_bonus():
    req = parse_request("Collect all regular-season pitching statistics of MLB Seattle Mariners up to 2024.")
    board = SearchHit(
        url="https://stats.example/leaders?stats=pit",
        title="Leaderboards Teams Pitching Statistics",
        snippet="MLB team pitching statistics: W, L, ERA, SV, IP, SO",
        rank=1,
    )
    assert d.hit_score(board, req) == d.hit_score(board, req, bonus=False)
