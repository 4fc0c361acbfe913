"""Matching refuses a coin toss between equal unlabelled columns; field names say what kind of value they want."""

from __future__ import annotations

from prefect_autodata.agents.induction import lexicon as lx
from prefect_autodata.agents.induction import matching as m


def _line_columns(rows: list[list[str]]) -> list[m.Candidate]:
    return [
        m.Candidate(None, [r[k] for r in rows], {"regex": f"col{k}"}, origin="text line", position=k)
        for k in range(len(rows[0]))
    ]


ROWS = [
    ["Dallas Mavericks", "1999", "40", "8316", "1810"],
    ["Milwaukee Bucks", "1999", "42", "8300", "1852"],
    ["Miami Heat", "2001", "52", "7739", "1931"],
    ["Houston Rockets", "2001", "34", "8156", "1482"],
    ["Chicago Bulls", "2003", "17", "6952", "1645"],
    ["Indiana Pacers", "2003", "56", "8306", "1857"],
]


def test_equal_unlabelled_columns_leave_the_field_unassigned():
    out = m.assign(["team", "year", "losses", "points"], _line_columns(ROWS), entity="team season")
    # two unlabelled integer columns fit "losses" and "points" alike: no guess by their order
    assert "losses" not in out and "points" not in out
    # the team's name and the year have no equal rival and still land
    assert out["team"].candidate.rule == {"regex": "col0"}
    # the year column's rival of four digits spans centuries (1482 .. 1931): range evidence, no tie
    assert out["year"].candidate.rule == {"regex": "col1"}
    # one fitting column is no tie
    rows = [[r[0], r[1], r[2]] for r in ROWS]
    out = m.assign(["team", "year", "losses"], _line_columns(rows), entity="team season")
    assert out["losses"].candidate.rule == {"regex": "col2"}
    # labels tell equal columns apart
    cands = _line_columns(ROWS)
    cands[2].label, cands[3].label = "Losses", "Points"
    out = m.assign(["team", "year", "losses", "points"], cands, entity="team season")
    assert out["losses"].candidate.rule == {"regex": "col2"}
    assert out["points"].candidate.rule == {"regex": "col3"}


def test_count_names_want_integers():
    for name in ("number_of_posts", "number_of_comments", "num_replies", "No. of items", "Número de páginas"):
        assert lx.family(name) == "integer", name
    # a number word before one thing is a code or a phone, not a count
    assert lx.family("item number") == "code"
    assert lx.family("numero de telefono") == "phone"


def test_agent_names_want_a_person():
    for name in ("posted_by", "last post by", "started by", "user", "username", "author"):
        assert lx.family(name) == "person", name
    # a poster on its own (a film's) is still a picture
    assert lx.family("poster") == "image"
    assert lx.family("movie poster") == "image"


def test_a_label_naming_the_record_kind_is_its_title_even_when_values_repeat():
    titles = ["Business Analyst", "Software Engineer", "Business Analyst", "Sales Rep", "Software Engineer"]
    cands = [
        m.Candidate("role", titles, {"xpath": "./td[1]"}, position=0),
        m.Candidate(
            "location",
            ["US-TX-Dallas", "US-CA-Belmont", "US-NJ-Weehawken", "US-NY-Armonk", "US-WA-Seattle"],
            {"xpath": "./td[2]"},
            position=1,
        ),
        m.Candidate(
            "company",
            ["IBM USA", "Navisite", "Cengage", "UBS", "Bloomberg"],
            {"xpath": "./td[3]"},
            position=2,
        ),
    ]
    out = m.assign(["title", "company", "city"], cands, entity="job posting")
    # a role is a position, and a job is one: the column names each posting, though titles repeat
    assert out["title"].candidate.label == "role"
    assert out["company"].candidate.label == "company"
    # the same label over records of another kind names nothing of theirs
    out = m.assign(["title", "company", "city"], cands, entity="movie")
    assert "title" not in out or out["title"].candidate.label != "role"
