"""Value typing: one value's kind in several languages and formats, and column profiles."""

from __future__ import annotations

import pytest

from prefect_autodata.agents.induction.values import coarse, distinctive, fit, kind_of, profile


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ("$1,299.00", "money"),
        ("1.299,00 €", "money"),
        ("CHF 45", "money"),
        ("¥12,000", "money"),
        ("$60k - $80k", "money"),
        ("7.25%", "percent"),
        ("5-11", "height"),
        ("6'2\"", "height"),
        ("1.92 m", "height"),
        ("2021-11-30", "date"),
        ("30.11.2021", "date"),
        ("Nov 30, 2021", "date"),
        ("30 de noviembre de 2021", "date"),
        ("30. November 2021", "date"),
        ("2021-11-30T08:15:00Z", "datetime"),
        ("1987", "year"),
        ("2015-16", "year"),
        ("14:45", "time"),
        ("95 min", "duration"),
        ("1 234 567", "integer"),
        ("12,345", "integer"),
        ("-42", "integer"),
        ("0.375", "decimal"),
        ("2,5", "decimal"),
        ("(617) 555-0199", "phone"),
        ("+33 1 42 68 53 00", "phone"),
        ("919.555.0142", "phone"),
        ("info@example.org", "email"),
        ("https://example.net/a?b=1", "url"),
        ("/item/17", "url"),
        ("XK-2210", "code"),
        ("TV-MA", "code"),
        ("77 Harbour Road, Portsmouth", "address"),
        ("Calle Mayor 5, Madrid", "address"),
        ("Ada Lovelace", "name"),
        ("Maria de la Cruz", "name"),
        ("Thriller", "text"),
        ("yes", "bool"),
        ("", "empty"),
        (None, "empty"),
        (2020, "year"),
        (3.5, "decimal"),
    ],
)
def test_kind_of(value, kind):
    assert kind_of(value) == kind, value


def test_coarse_keeps_the_old_vocabulary():
    assert coarse("decimal") == "number" and coarse("name") == "text" and coarse("money") == "money"


def test_profile_repeats_constant_and_shares():
    p = profile(["Drama", "Comedy", "Drama", "Horror", "Comedy", "Drama"])
    assert p.kind == "text" and p.repeats and p.short and not p.constant
    assert profile(["Buy now"] * 4).constant
    assert not profile(["a", "a"]).constant  # two records are too few to tell
    q = profile(["$3", "$4", "n/a", None])
    assert q.kind == "money" and q.share == pytest.approx(2 / 3) and q.filled == 3


def test_fit_by_family():
    phones = profile(["(617) 555-0199", "(617) 555-0142", "(508) 555-0100"])
    assert fit("phone", phones) == 1.0
    assert fit("money", phones) == -1.0
    assert fit("person", phones) == -1.0
    assert distinctive(phones)
    cats = profile(["Thai", "Greek", "Thai", "Diner", "Greek", "Thai"])
    assert fit("category", cats) > 0.5
    long_text = profile(["one long sentence of many words about this record here"] * 2 + ["x y"])
    assert fit("category", long_text) == 0.0  # unlike a category, yet no contradiction
    assert fit("rating", profile(["TV-14", "TV-MA", "TV-PG"])) > 0
    assert fit(None, cats) == 0.0


def test_numbers_inside_words_are_not_a_contradiction():
    assert (
        fit("number", profile(["31 mpg city, 38 hwy", "24 mpg city, 30 hwy", "19 mpg city, 25 hwy"])) == 0.0
    )
    assert fit("money", profile(["List: $19,990", "List: $23,100", "List: $31,450"])) > 0
    assert fit("number", profile(["red", "blue", "green"])) == -1.0
