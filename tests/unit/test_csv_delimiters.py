"""Delimited files that are not comma-separated (``;`` with decimal commas, tab, ``|``) read like a
comma CSV: the same columns, numbers with a decimal point (runtime/csvtext)."""

from __future__ import annotations

from prefect_autodata.runtime.csvtext import comma_separated, delimiter
from prefect_autodata.runtime.extract import extract_page, parse_document
from prefect_autodata.runtime.spec import FieldRule, Selector

SEMI = (
    "Bezeichnung;Preis;Bestand;Lager\n"
    "Eichentisch;1.234,50;3;Köln, Altstadt\n"
    "Kiefernregal;89,90;12;Bonn\n"
    "Birkenhocker;35;40;Essen\n"
)


def _rules() -> list[FieldRule]:
    return [
        FieldRule(name="name", jsonpath="$['Bezeichnung']"),
        FieldRule.model_validate({"name": "price", "jsonpath": "$['Preis']", "transforms": ["number"]}),
        FieldRule.model_validate({"name": "stock", "jsonpath": "$['Bestand']", "transforms": ["integer"]}),
        FieldRule(name="where", jsonpath="$['Lager']"),
    ]


def test_a_semicolon_file_with_decimal_commas_reads_its_columns_and_numbers() -> None:
    doc = parse_document("csv", SEMI, "https://data.example/lager.csv")
    rows = extract_page(doc, _rules(), Selector(), {})
    assert [r["name"] for r in rows] == ["Eichentisch", "Kiefernregal", "Birkenhocker"]
    assert [r["price"] for r in rows] == [1234.5, 89.9, 35]
    assert [r["stock"] for r in rows] == [3, 12, 40]
    assert rows[0]["where"] == "Köln, Altstadt"  # a comma inside a cell stays in the cell


def test_tab_and_pipe_files_and_a_comma_file_left_as_it_is() -> None:
    assert delimiter("a\tb\tc\n1\t2\t3\n") == "\t"
    assert delimiter("a|b\n1|2\n") == "|"
    plain = 'name,price\n"Oak, large",12.50\n'
    assert comma_separated(plain) == plain
    doc = parse_document("csv", "name\tprice\nOak\t12.50\nPine\t7\n", "https://data.example/x.tsv")
    assert [
        r["n"] for r in extract_page(doc, [FieldRule(name="n", jsonpath="$['name']")], Selector(), {})
    ] == ["Oak", "Pine"]


def test_a_semicolon_column_of_plain_text_with_commas_is_not_a_number() -> None:
    doc = parse_document("csv", "code;note\nA;1,2 und 3\nB;4,5\n", "https://data.example/n.csv")
    rules = [FieldRule(name="note", jsonpath="$['note']")]
    # one decimal-looking cell in a text column stays as written
    assert [r["note"] for r in extract_page(doc, rules, Selector(), {})] == ["1,2 und 3", "4,5"]
