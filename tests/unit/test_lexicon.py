"""The general lexicon: accents, plurals, synonyms and translations, abbreviations, value families."""

from __future__ import annotations

import pytest

from prefect_autodata.agents.induction import lexicon as lx


@pytest.mark.parametrize(
    ("raw", "want"),
    [
        ("Título", "titulo"),
        ("Straße", "strasse"),
        ("Géneros", "genero"),
        ("unitPrice", "unit price"),
        ("CITIES", "city"),
        ("Status", "status"),
    ],
)
def test_normalise_folds_accents_case_and_plurals(raw, want):
    assert lx.normalise(raw) == want


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("price", "Preis"),
        ("cost", "Precio"),
        ("phone", "Téléphone"),
        ("telephone", "Tel."),
        ("kind", "Género"),
        ("category", "Tipo"),
        ("style", "Küche"),
        ("date", "Fecha"),
        ("writer", "Verfasser"),
        ("fuel economy", "MPG"),
        ("address", "Indirizzo"),
        ("year", "Année"),
    ],
)
def test_words_sharing_a_concept(a, b):
    assert lx.concept_keys(a) & lx.concept_keys(b), (a, b)


@pytest.mark.parametrize(("a", "b"), [("price", "Autor"), ("phone", "Fecha"), ("city", "salary")])
def test_words_of_different_concepts(a, b):
    assert not lx.concept_keys(a) & lx.concept_keys(b)


def test_head_word_gives_the_concept_of_a_phrase():
    got = dict((c.key, w) for c, w in lx.concepts_of("IMDb user rating"))
    assert got.get("rating") == pytest.approx(0.8)
    assert "date" in lx.concept_keys("fecha de publicación")  # head first, as Romance languages write it


@pytest.mark.parametrize(
    ("name", "family"),
    [
        ("price", "money"),
        ("Precio de venta", "money"),
        ("release date", "date"),
        ("phone number", "phone"),
        ("Genre", "category"),
        ("height", "height"),
        ("number of pages", "integer"),
        ("directed by", "person"),
        ("Jahr", "year"),
        ("frobnicator", None),
    ],
)
def test_family(name, family):
    assert lx.family(name) == family


def test_abbreviations_are_listed_by_concept():
    assert "games" in {c.key for c in lx.abbrev_concepts("g")}
    assert "quantity" not in {c.key for c in lx.abbrev_concepts("g")}
    assert "count" in {c.key for c in lx.abbrev_concepts("qty")}


def test_months_in_several_languages():
    assert lx.MONTHS["marz"] == lx.MONTHS["march"] == lx.MONTHS["mars"] == 3
    assert lx.MONTHS["dezembro"] == 12
