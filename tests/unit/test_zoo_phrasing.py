"""The zoo's paraphrase generator: deterministic by seed, faithful to the request, and varied."""

from __future__ import annotations

import datetime as dt
import random
import re

import pytest

from prefect_autodata.sandbox.zoo.base import FieldDef, KindDef
from prefect_autodata.sandbox.zoo.phrasing import Filter, field_words, instruction, scope_phrase

BOOK = KindDef(
    name="book",
    domain="books",
    singular="book",
    plural="books",
    fields=(
        FieldDef("title", "text", ("Title", "Name", "Book")),
        FieldDef("author", "text", ("Author", "By", "Writer", "Auth.")),
        FieldDef("price", "money", ("Price", "Cost", "Our price")),
        FieldDef("year", "int", ("Year", "Published")),
    ),
    title_field="title",
    key=("title",),
    scope_fields=("year",),
)
PAPER = KindDef(
    name="paper",
    domain="academic",
    singular="paper",
    plural="papers",
    fields=(
        FieldDef("title", "text", ("Title",)),
        FieldDef("authors", "text", ("Authors", "By")),
        FieldDef("year", "int", ("Year",)),
        FieldDef("track", "text", ("Track", "Session")),
    ),
    title_field="title",
    key=("title",),
    scope_fields=("year", "track"),
)
TEAM = KindDef(
    name="nba_team_season",
    domain="sport",
    singular="team season",
    plural="team seasons",
    fields=(
        FieldDef("team", "text", ("Team", "Franchise")),
        FieldDef("year", "int", ("Season", "Year")),
        FieldDef("pts", "int", ("PTS", "Points")),
        FieldDef("fg3m", "int", ("3PM", "FG3M")),
    ),
    title_field="team",
    key=("team", "year"),
    scope_fields=("team", "year"),
)
STOCK = KindDef(
    name="stock_day",
    domain="finance",
    singular="trading day",
    plural="daily stock prices",
    fields=(
        FieldDef("ticker", "text", ("Ticker", "Symbol")),
        FieldDef("date", "date", ("Date", "Day")),
        FieldDef("close", "number", ("Close", "Closing price")),
    ),
    title_field="date",
    key=("ticker", "date"),
    scope_fields=("ticker", "date"),
)
TODAY = dt.date(2025, 3, 1)

CASES = [
    (BOOK, ["title", "author", "price"], [Filter("year", "eq", 2019)]),
    (BOOK, None, [Filter("year", "ge", 2015)]),
    (PAPER, ["title", "authors"], [Filter("year", "range", (2003, 2006))]),
    (PAPER, None, [Filter("year", "eq", 2023), Filter("track", "eq", "Findings")]),
    (TEAM, ["team", "year", "pts", "fg3m"], [Filter("team", "eq", "Lakers")]),
    (TEAM, None, [Filter("year", "range", (2022, 2024))]),
    (
        STOCK,
        ["date", "close"],
        [Filter("ticker", "eq", "AAPL"), Filter("date", "range", ("2023-01-01", "2023-03-31"))],
    ),
    (STOCK, None, [Filter("ticker", "in", ["AAPL", "MSFT", "GOOGL"]), Filter("date", "eq", "2024-03-15")]),
    (STOCK, None, [Filter("date", "range", (dt.date(2023, 1, 3), dt.date(2023, 2, 14)))]),
]


def _covers(sentence: str, flt: Filter) -> bool:
    """The filter is stated: its values written out, or an exact equivalent (quarter, past N years)."""
    low = sentence.lower()
    if flt.op == "range":
        lo, hi = (str(v) for v in flt.value)
        if lo in sentence and hi in sentence:
            return True
        if re.fullmatch(r"\d{4}", lo):  # "the past three years" = the calendar years before today's
            n = int(hi) - int(lo) + 1
            words = {2: "two", 3: "three", 4: "four", 5: "five"}
            return int(hi) == TODAY.year - 1 and f"{words.get(n, n)} years" in low
        y, m = int(lo[:4]), int(lo[5:7])
        q = (m - 1) // 3 + 1
        quarter = ["first", "second", "third", "fourth"][q - 1]
        return str(y) in sentence and (f"q{q} {y}" in low or f"{quarter} quarter of {y}" in low)
    if flt.op == "in":
        return all(str(v) in sentence for v in flt.value)
    return str(flt.value) in sentence


@pytest.mark.parametrize("kind,fields,filters", CASES)
def test_same_seed_same_sentence(kind, fields, filters):
    a = instruction(kind, fields, filters, random.Random(7), today=TODAY)
    b = instruction(kind, fields, filters, random.Random(7), today=TODAY)
    assert a == b


@pytest.mark.parametrize("kind,fields,filters", CASES)
def test_every_field_word_and_filter_value_appears(kind, fields, filters):
    for seed in range(60):
        rng = random.Random(seed)
        words = field_words(kind, fields or [], random.Random(seed + 1000))
        s = instruction(kind, fields, filters, rng, today=TODAY, field_words=words)
        for f in fields or []:
            assert words[f] in s, (seed, s, words)
        for flt in filters:
            assert _covers(s, flt), (seed, s, flt)
        assert s[0].isupper() and s[-1] in ".?", s
        assert "  " not in s and " ," not in s and ",," not in s, s


def test_variety_across_seeds():
    sentences = {
        instruction(
            BOOK, ["title", "author", "price"], [Filter("year", "eq", 2019)], random.Random(s), today=TODAY
        )
        for s in range(200)
    }
    assert len(sentences) > 120
    openings = {" ".join(s.split()[:2]) for s in sentences}
    assert len(openings) >= 15, openings
    # imperatives, questions, "I need ..." and dataset requests all occur
    assert any(s.endswith("?") for s in sentences)
    assert any(s.startswith("I need") for s in sentences)
    assert any(
        s.startswith(("Build me a dataset", "Create a dataset", "I need a dataset")) for s in sentences
    )
    assert any(s.startswith(("Collect", "Get", "Scrape")) for s in sentences)


def test_field_words_are_labels_or_names_and_distinct():
    seen: dict[str, set[str]] = {}
    for seed in range(100):
        words = field_words(BOOK, ["title", "author", "price"], random.Random(seed))
        assert len({w.lower() for w in words.values()}) == 3
        for f, w in words.items():
            allowed = {f} | {lbl.lower() for lbl in BOOK.field(f).labels}
            assert w.lower() in allowed, (f, w)
            assert w.lower() not in {"by", "auth.", "our price"}  # not nouns a person writes in a list
            seen.setdefault(f, set()).add(w)
    assert seen["author"] == {"author", "writer"}
    assert seen["price"] == {"price", "cost"}


def test_abbreviated_fields_keep_their_case():
    for seed in range(30):
        words = field_words(TEAM, ["pts", "fg3m"], random.Random(seed))
        assert words["pts"] in {"PTS", "points"}
        assert words["fg3m"] in {"FG3M", "3PM"}


def test_scope_phrasings_are_many_and_exact():
    rng = random.Random(3)
    year_range = {
        scope_phrase(PAPER, Filter("year", "range", (2003, 2006)), "year", rng, TODAY) for _ in range(80)
    }
    assert {"from 2003 through 2006", "between 2003 and 2006"} <= year_range
    quarter = {
        scope_phrase(STOCK, Filter("date", "range", ("2023-01-01", "2023-03-31")), "date", rng, TODAY)
        for _ in range(80)
    }
    assert {"in Q1 2023", "in the first quarter of 2023"} <= quarter
    past = {
        scope_phrase(TEAM, Filter("year", "range", (2022, 2024)), "season", rng, TODAY) for _ in range(80)
    }
    assert "over the past three years" in past
    # a range that does not end last year is never called "the past N years"
    other = {
        scope_phrase(TEAM, Filter("year", "range", (2020, 2022)), "season", rng, TODAY) for _ in range(80)
    }
    assert not any("past" in p or "last" in p for p in other)
    since = {scope_phrase(BOOK, Filter("year", "ge", 2015), "year", rng, TODAY) for _ in range(40)}
    assert "since 2015" in since
    track = {scope_phrase(PAPER, Filter("track", "eq", "Findings"), "track", rng, TODAY) for _ in range(80)}
    assert "only the Findings track" in track
    team = {scope_phrase(TEAM, Filter("team", "eq", "Lakers"), "team", rng, TODAY) for _ in range(80)}
    assert {"Lakers only", "for the Lakers"} <= team


def test_the_zoo_kinds_are_worded_naturally():
    from prefect_autodata.sandbox.zoo.kinds import KINDS

    assert field_words(KINDS["movie"], ["mpaa_rating"], random.Random(0))["mpaa_rating"] in {
        "MPAA rating",
        "rating",
        "MPAA",
        "certificate",
    }
    for kind in KINDS.values():
        names = [f.name for f in kind.fields]
        for seed in range(25):
            words = field_words(kind, names, random.Random(seed))
            s = instruction(kind, names, [], random.Random(seed), today=TODAY, field_words=words)
            for name, word in words.items():
                assert word in s, (kind.name, s)
                letters = re.sub(r"[^A-Za-z]", "", word)
                assert len(letters) > 1 or "%" in word or word == name.upper(), (
                    kind.name,
                    name,
                    word,
                )  # no "O"
                assert not (word.isupper() and word.lower() in {"year", "date", "title"}), word
