"""Cross-record behaviour and name evidence (issue 13): the same text wherever a record shows it
("Source code" under most releases) is template text, never a field by elimination; and a word of
another meaning ("auto", a car) abbreviates no requested name ("author", Spanish "autor")."""

from __future__ import annotations

from prefect_autodata.agents.induction import matching as m

TAGS = ["v3.0.0-rc1", "v2.4.1", "v2.4.0", "v2.3.2", "v2.3.1", "v2.3.0"]
SOURCE = ["Source code", "Source code", None, "Source code", "Source code", None]


def _cols(*columns: list) -> list[m.Candidate]:
    return [
        m.Candidate(None, list(vals), {"xpath": f"./x[{k}]"}, origin="slot", position=k)
        for k, vals in enumerate(columns)
    ]


def test_one_text_shown_on_most_records_is_no_field():
    out = m.assign(["tag", "category"], _cols(TAGS, SOURCE), entity="release")
    assert "category" not in out  # "Source code" is the same under every release that shows it
    # a column whose values differ is still placed by its type
    kinds = ["Bugfix", "Feature", "Bugfix", "Security", "Feature", "Bugfix"]
    out = m.assign(["tag", "category"], _cols(TAGS, kinds), entity="release")
    assert out["category"].candidate.values == kinds


def test_a_word_of_another_meaning_abbreviates_nothing():
    assert m.name_evidence("author", "flex-auto")[0] == 0.0
    assert m.name_evidence("author", "auto")[0] < 0.45
    # abbreviations still count
    assert m.name_evidence("author", "Auth.")[0] >= 0.8
    assert m.name_evidence("vehicle", "vhc")[0] >= 0.6
    assert m.name_evidence("author", "athr")[0] >= 0.6
