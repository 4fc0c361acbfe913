"""The test agent judges what a column holds, not only its type and fill (issue #13): records that are
groups of records, a column that holds another field's value too, a label constant over the records,
column headers read as data. Each layout is generated from a random seed; right tables stay clean."""

from __future__ import annotations

import random

from prefect_autodata.agents import ranking
from prefect_autodata.agents.test import FAILING_FINDINGS, Requested, TestReport, field_findings
from prefect_autodata.runtime.runner import DryRunReport
from prefect_autodata.runtime.spec import CollectorSpec

SEED = random.randrange(1_000_000)
RNG = random.Random(SEED)
URL = "http://127.0.0.1:9/index.html"
WORDS = "alpha bravo cedar delta ember fjord grove harbor island jasper kettle lumen".split()


class _Page:
    def __init__(self, text: str) -> None:
        self.text = text


class _Fetcher:
    def __init__(self, html: str) -> None:
        self.html = html

    def get(self, url: str, **_kw):
        return _Page(self.html)


def _spec(fields, records):
    return CollectorSpec.model_validate(
        {
            "name": "t",
            "primary_key": [fields[0]["name"]],
            "sources": [
                {"kind": "html", "request": {"url": URL}, "records": {"xpath": records}, "fields": fields}
            ],
        }
    )


def _name() -> str:
    return " ".join(w.capitalize() for w in RNG.sample(WORDS, 2))


def _forum() -> tuple[str, list[list[tuple[str, int, int]]]]:
    """A board index: categories (a heading above a table), each holding two to four board rows."""
    cats = [
        [(_name(), RNG.randint(10, 9000), RNG.randint(1, 900)) for _ in range(RNG.randint(2, 4))]
        for _ in range(3)
    ]
    blocks = []
    for c, boards in enumerate(cats):
        rows = "".join(
            f"<tr><td><img src='i.png'/></td><td><a href='?b={c}{i}'>{b}</a><p>about {b.lower()}</p></td>"
            f"<td><p>{p:,} Posts <br/>{t} Topics</p></td><td><p><strong>Last post</strong> by <a>u{i}</a></p></td></tr>"
            for i, (b, p, t) in enumerate(boards)
        )
        blocks.append(
            f"<div class='group'><div class='bar'><h3>Category {_name()}</h3></div>"
            f"<div class='frame'><table><tbody>{rows}</tbody></table></div></div>"
        )
    return f"<html><body><div id='index'>{''.join(blocks)}</div></body></html>", cats


def _report(spec, fetcher, rows, requested):
    rep = DryRunReport(
        ok=True,
        rows=len(rows),
        requests=1,
        issues=[],
        sample=rows,
        fill_rates={k: 1.0 for k in rows[0]},
    )
    return field_findings(spec, rep, requested, fetcher=fetcher), rep


def test_records_that_hold_lists_of_records_are_refused():
    html, cats = _forum()
    wanted = Requested(["board", "category", "posts", "topics"])
    wanted.required = list(wanted)
    grouped = _spec(
        [
            {"name": "category", "xpath": ".//h3"},
            {"name": "board", "xpath": "./div[2]/table/tbody/tr[1]/td[2]/a"},
            {"name": "topics", "xpath": "./div[2]/table/tbody/tr[2]/td[3]/p"},
        ],
        "//div[@id='index']/div",
    )
    rows = [{"category": "c", "board": b[0][0], "topics": f"{b[1][2]}"} for b in cats]
    found, rep = _report(grouped, _Fetcher(html), rows, wanted)
    nested = [i for i in found if i.kind == "nested_records"]
    assert nested and "nested_records" in FAILING_FINDINGS, SEED
    m = ranking.measure(
        TestReport(ok=False, rows=3, requests=1, issues=found, fill_rates=rep.fill_rates), wanted
    )
    assert not m.honest and "nested_records" in m.table, SEED
    # the same page read one board per row: no such finding
    flat = _spec(
        [{"name": "board", "xpath": "./td[2]/a"}, {"name": "topics", "xpath": "./td[3]/p"}],
        "//div[@id='index']//tr",
    )
    rows = [{"board": b[0], "topics": str(b[2])} for c in cats for b in c]
    found, _ = _report(flat, _Fetcher(html), rows, ["board", "topics"])
    assert [i for i in found if i.kind == "nested_records"] == [], SEED


def test_cards_with_label_rows_are_not_groups():
    """A card whose values sit in alike label/value rows (one field per row) is one record."""
    n = RNG.randint(3, 6)
    cards = "".join(
        f"<div class='card'><h2>{_name()}</h2><div class='meta'>"
        f"<div><span>Author</span><span>{_name()}</span></div>"
        f"<div><span>Price</span><span>${RNG.randint(5, 90)}.00</span></div></div></div>"
        for _ in range(n)
    )
    html = f"<html><body>{cards}</body></html>"
    spec = _spec(
        [
            {"name": "title", "xpath": "./h2"},
            {"name": "author", "xpath": "./div[1]/div[1]/span[2]"},
            {"name": "price", "xpath": "./div[1]/div[2]/span[2]"},
        ],
        "//div[@class='card']",
    )
    rows = [{"title": f"t{i}", "author": f"a{i}", "price": f"${i}.00"} for i in range(n)]
    found, _ = _report(spec, _Fetcher(html), rows, ["title", "author", "price"])
    assert not [i for i in found if i.kind in FAILING_FINDINGS], (SEED, found)


def test_a_column_holding_another_fields_value_too_is_bad():
    spec = _spec([{"name": "board", "xpath": "./a"}, {"name": "topics", "xpath": "./p"}], "//li")
    n = RNG.randint(3, 8)
    rows = [
        {"board": f"b{i}", "topics": f"{RNG.randint(10, 9999):,} Posts {RNG.randint(1, 99)} Topics"}
        for i in range(n)
    ]
    found, rep = _report(spec, None, rows, ["board", "posts", "topics"])
    assert ("merged_fields", "topics") in {(i.kind, i.field) for i in found}, SEED
    m = ranking.measure(
        TestReport(ok=False, rows=n, requests=1, issues=found, fill_rates={"board": 1.0, "topics": 1.0}),
        ["board", "posts", "topics"],
    )
    assert m.bad.get("topics") == "merged_fields"
    # two numbers with their own units that name no other requested field: the field, not yet clean
    rows = [
        {"board": f"b{i}", "topics": f"{RNG.randint(10, 30)} city / {RNG.randint(20, 40)} hwy"}
        for i in range(n)
    ]
    found, _ = _report(spec, None, rows, ["board", "posts", "topics"])
    assert "merged_fields" not in {i.kind for i in found}, SEED


def test_a_label_constant_over_the_records_and_column_headers_are_label_text():
    spec = _spec([{"name": "board", "xpath": "./a"}, {"name": "number_of_posts", "xpath": "./b"}], "//li")
    n = RNG.randint(3, 8)
    rows = [{"board": f"b{i}", "number_of_posts": "Last post"} for i in range(n)]
    found, _ = _report(spec, None, rows, ["board", "number_of_posts", "last_poster"])
    assert ("label_text", "number_of_posts") in {(i.kind, i.field) for i in found}, SEED
    # the same text when it names no other requested field is left alone
    rows = [{"board": f"b{i}", "number_of_posts": "Last post"} for i in range(n)]
    found, _ = _report(spec, None, rows, ["board", "number_of_posts"])
    assert "label_text" not in {i.kind for i in found}, SEED
    # a constant value naming no requested field (a venue of every paper) is a value
    rows = [{"board": f"b{i}", "number_of_posts": "Lumen Harbor"} for i in range(n)]
    found, _ = _report(spec, None, rows, ["board", "number_of_posts", "last_poster"])
    assert "label_text" not in {i.kind for i in found}, SEED
    # values that are the page's column headers: the header row read as records
    heads = RNG.sample(["Board", "Moderator", "Status", "Region"], 2)
    html = (
        "<html><body><table><thead><tr>"
        + "".join(f"<th>{h}</th>" for h in heads)
        + "</tr></thead><tbody><tr><td>x</td><td>y</td></tr></tbody></table></body></html>"
    )
    spec = _spec([{"name": "board", "xpath": "./a"}, {"name": "posts", "xpath": "./b"}], "//li")
    rows = [{"board": f"b{i}", "posts": RNG.choice(heads)} for i in range(n)]
    found, _ = _report(spec, _Fetcher(html), rows, ["board", "posts"])
    assert ("label_text", "posts") in {(i.kind, i.field) for i in found}, SEED


def test_unnest_reads_the_members_of_the_lists_as_records():
    from lxml import html as lhtml

    from prefect_autodata.agents.test import unnest

    html, cats = _forum()
    grouped = _spec(
        [
            {"name": "category", "xpath": "./div[1]/h3"},
            {"name": "board", "xpath": "./div[2]/table/tbody/tr[1]/td[2]/a"},
            {"name": "topics", "xpath": "./div[2]/table/tbody/tr[2]/td[3]/p"},
        ],
        "//div[@id='index']/div",
    )
    spec = unnest(grouped, _Fetcher(html))
    assert spec is not None, SEED
    src = spec.sources[0]
    root = lhtml.document_fromstring(html)
    rules = {f.name: f.xpath for f in src.fields}
    got = [
        {k: " ".join(r.xpath(x)[0].text_content().split()) for k, x in rules.items()}
        for r in root.xpath(src.records.xpath)
    ]
    want = [
        {"category": c, "board": b, "topics": f"{p:,} Posts {t} Topics"}
        for c, boards in zip([h.text_content() for h in root.xpath("//h3")], cats, strict=True)
        for b, p, t in boards
    ]
    assert got == want, SEED
    assert unnest(spec, _Fetcher(html)) is None  # its records are the boards: nothing nested is left


def test_derive_splits_merged_values_by_their_units_and_exchanges_swapped_rules():
    from prefect_autodata.agents.test import derive, swapped_fields

    spec = _spec(
        [
            {"name": "board_name", "xpath": "./ancestor::div[1]/h3"},
            {"name": "category", "xpath": "./a"},
            {"name": "posts", "xpath": "./strong"},
            {"name": "topics", "xpath": "./p"},
        ],
        "//li",
    )
    cats = [w.capitalize() for w in RNG.sample(WORDS, 2)]
    rows = []
    for i in range(RNG.randint(6, 10)):
        p, t = RNG.randint(100, 9999), RNG.randint(1, 99)
        # the heading every board of a category repeats, read as the board; the board as its category
        rows.append(
            {
                "board_name": cats[i % 2],
                "category": f"{RNG.choice(WORDS).capitalize()} & {WORDS[i]}",
                "posts": "Last post",
                "topics": f"{p:,} Posts {t} Topics",
            }
        )
    wanted = ["board_name", "category", "posts", "topics"]
    found, rep = _report(spec, None, rows, wanted)
    kinds = {(i.kind, i.field) for i in found}
    assert {
        ("swapped_fields", "board_name"),
        ("swapped_fields", "category"),
        ("merged_fields", "topics"),
    } <= kinds, SEED
    ((why, fixed),) = derive(spec, found, rep, None, wanted)
    rules = {f.name: f for f in fixed.sources[0].fields}
    assert rules["board_name"].xpath == "./a" and rules["category"].xpath == "./ancestor::div[1]/h3", SEED
    assert rules["topics"].xpath == rules["posts"].xpath == "./p", SEED
    from prefect_autodata.runtime.extract import apply_transforms

    r = rows[0]
    want_p, want_t = r["topics"].split(" Posts ")
    assert apply_transforms(r["topics"], rules["posts"].transforms) == want_p, SEED
    assert apply_transforms(r["topics"], rules["topics"].transforms) == want_t.split()[0], SEED
    # a right table: names one per record, categories repeating: nothing swapped
    right = [{**r, "board_name": r["category"], "category": r["board_name"]} for r in rows]
    assert swapped_fields(spec, _report(spec, None, right, wanted)[1], wanted) == [], SEED
    # two columns read inside the record (a table row's cells): their values alone do not tell a swap
    inside = _spec(
        [{"name": "board_name", "xpath": "./td[1]"}, {"name": "category", "xpath": "./td[2]"}], "//tr"
    )
    assert swapped_fields(inside, _report(inside, None, rows, wanted)[1], wanted) == [], SEED
