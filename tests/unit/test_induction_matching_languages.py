"""The one matcher on made-up sources: other languages, abbreviated keys with documented meanings,
unlabelled columns placed by elimination, short labels that need their values, global assignment."""

from __future__ import annotations

import pytest

from prefect_autodata.agents.induction.matching import Candidate, assign, name_evidence, name_score, solve


def _c(label, values, **kw):
    return Candidate(label=label, values=values, rule={"xpath": f"./td[{label!r}]"}, **kw)


@pytest.mark.parametrize(
    ("requested", "label"),
    [
        ("type", "Género"),
        ("category", "Kategorie"),
        ("cost", "Prix"),
        ("telephone", "Teléfono"),
        ("phone", "Tel."),
        ("release date", "Fecha de estreno"),
        ("author", "Autore"),
        ("year", "Anno"),
        ("fuel economy", "MPG"),
        ("MPAA rating", "Rating"),
        ("population", "Einwohner"),
    ],
)
def test_labels_in_other_languages_and_words(requested, label):
    assert name_score(requested, label) >= 0.7, (requested, label, name_evidence(requested, label))


@pytest.mark.parametrize(
    ("requested", "label"), [("rating", "Ranking"), ("price", "Prize winner"), ("city", "Capacity")]
)
def test_look_alike_words_of_other_meanings_do_not_match(requested, label):
    assert name_score(requested, label) < 0.45, name_evidence(requested, label)


def test_a_german_table():
    cands = [
        _c("Bezeichnung", ["Lampe Orbit", "Stuhl Kiel", "Tisch Rhein", "Regal Nord"], identity=True),
        _c("Hersteller", ["Lumo", "Holzwerk", "Holzwerk", "Lumo"]),
        _c("Kategorie", ["Licht", "Möbel", "Möbel", "Möbel"]),
        _c("Preis", ["49,90 €", "129,00 €", "349,00 €", "89,50 €"]),
    ]
    got = assign(["name", "brand", "category", "cost"], cands)
    assert {r: m.candidate.label for r, m in got.items()} == {
        "name": "Bezeichnung",
        "brand": "Hersteller",
        "category": "Kategorie",
        "cost": "Preis",
    }
    assert "synonym" in got["cost"].why and got["cost"].evidence == "synonym"


def test_abbreviated_keys_with_documented_meanings():
    cands = [
        _c("mk", ["Vexa", "Orin", "Tamo"], doc="Manufacturer"),
        _c("pw", ["210", "145", "330"], doc="Horsepower (hp)"),
        _c("yr", ["2019", "2021", "2017"]),
        _c("qx", ["a1", "b2", "c3"]),
    ]
    got = assign(["brand", "power", "year"], cands)
    assert got["brand"].candidate.label == "mk" and "doc" in got["brand"].why
    assert got["power"].candidate.label == "pw"
    assert got["year"].candidate.label == "yr" and got["year"].evidence == "abbrev"


def test_one_letter_labels_need_values_of_the_field_type():
    games = _c("G", ["82", "79", "64", "81"])
    assert assign(["games"], [games])["games"].candidate is games
    assert assign(["games"], [_c("G", ["Lakers", "Bulls", "Heat", "Nets"])]) == {}


def test_unlabelled_columns_by_elimination():
    # a text line "name · phone · address · style" cut into columns, no labels at all
    cands = [
        _c(
            None,
            ["Blue Door Cafe", "Old Mill Grill", "Saffron House", "Harbor Noodle", "Green Fig"],
            position=0,
        ),
        _c(
            None,
            ["(401) 555-0134", "(401) 555-0178", "(401) 555-0101", "(401) 555-0155", "(401) 555-0190"],
            position=1,
        ),
        _c(
            None,
            [
                "12 Elm St, Newport",
                "4 Bay Road, Bristol",
                "90 Main St, Warren",
                "7 Dock Lane, Newport",
                "3 Hope St, Bristol",
            ],
            position=2,
        ),
        _c(None, ["Thai", "Diner", "Thai", "Indian", "Diner"], position=3),
    ]
    got = assign(["name", "telephone", "address", "cuisine"], cands)
    assert {r: m.candidate.position for r, m in got.items()} == {
        "name": 0,
        "telephone": 1,
        "address": 2,
        "cuisine": 3,
    }
    assert all(m.evidence == "elimination" for m in got.values())
    assert "phone" in got["telephone"].why


def test_constant_values_and_header_texts_are_not_fields():
    cands = [
        _c(None, ["Book a table"] * 5),
        _c("Phone", ["Phone", "Phone", "Phone", "(401) 555-0101"]),
    ]
    assert assign(["phone"], cands) == {}


def test_a_label_that_names_another_concept_is_not_taken_by_type():
    cands = [_c("Deposit", ["$100", "$250", "$80"]), _c("Auteur", ["A. Roy", "B. Sol", "C. Ito"])]
    got = assign(["price", "author"], cands)
    assert "price" not in got  # a deposit is money, but the label says what it is
    assert got["author"].candidate.label == "Auteur"


def test_one_reading_serves_one_field():
    a = Candidate(label="Title", values=["x", "y", "z"], rule={"xpath": "./h2"})
    b = Candidate(label="Name", values=["x", "y", "z"], rule={"xpath": "./h2"})
    got = assign(["title", "name"], [a, b])
    assert len(got) == 1


def test_solve_is_a_global_assignment():
    # greedy would give row 0 column 0 (0.9) and leave row 1 without a column
    assert sorted(solve([[0.9, 0.85], [0.88, 0.0]], 0.5)) == [(0, 1), (1, 0)]


def test_the_api_key_matcher_uses_the_same_evidence():
    from prefect_autodata.agents.offline.induction import match_fields, name_score

    rows = [
        {"mdl": "Orin 5", "eng": "2.0L I4", "fe": "31 mpg", "qz": 1},
        {"mdl": "Tamo X", "eng": "3.5L V6", "fe": "22 mpg", "qz": 2},
        {"mdl": "Vexa S", "eng": "1.6L I4", "fe": "35 mpg", "qz": 3},
    ]
    got = match_fields(["model", "engine", "fuel economy"], list(rows[0]), rows, docs={"fe": "Fuel economy"})
    assert {t: m.key for t, m in got.items()} == {"model": "mdl", "engine": "eng", "fuel economy": "fe"}
    assert "doc" in got["fuel economy"].why and "abbrev" in got["engine"].why
    assert name_score("W", "WINS") > 0 and name_score("PTS", "AST") == 0  # the API alias table still counts
