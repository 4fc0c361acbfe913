"""The test agent catches wrong columns without the truth (issue #13 item 3, trust), S12: a field named
for one number that reads the number inside the same text in every row ("#3 of 87 hotels in Port
Ellery" as the rank, "4.5 of 5 stars" as the rating) fails the dry run, the test derives the spec that
reads the number alone, and the engineering repair takes it. Plain numbers, numbers with one unit word
and text fields stay clean. Values are drawn from a random seed."""

from __future__ import annotations

import random

from prefect_autodata.agents import ranking
from prefect_autodata.agents.engineering import repair
from prefect_autodata.agents.test import (
    FAILING_FINDINGS,
    FLAG_FINDINGS,
    TestReport,
    derive,
    field_findings,
    fields_report,
    number_in_text,
)
from prefect_autodata.runtime.extract import extract_page, parse_document
from prefect_autodata.runtime.runner import DryRunReport
from prefect_autodata.runtime.spec import CollectorSpec

SEED = random.randrange(1_000_000)
RNG = random.Random(SEED)
URL = "http://127.0.0.1:9/index.html"
WORDS = "alpha bravo cedar delta ember fjord grove harbor island jasper kettle lumen".split()


def _spec(fields, records="//div[@class='item']"):
    return CollectorSpec.model_validate(
        {
            "name": "t",
            "primary_key": [fields[0]["name"]],
            "sources": [
                {"kind": "html", "request": {"url": URL}, "records": {"xpath": records}, "fields": fields}
            ],
        }
    )


def _rep(rows):
    return DryRunReport(
        ok=True, rows=len(rows), requests=1, issues=[], sample=rows, fill_rates={k: 1.0 for k in rows[0]}
    )


def _name() -> str:
    return " ".join(w.capitalize() for w in RNG.sample(WORDS, 2))


def _rows(n):
    town = _name()
    total = RNG.randint(40, 200)
    stars = RNG.choice([5, 10])
    return [
        {
            "hotel name": f"{_name()} {k}",
            "rank in the city": f"#{k} of {total} hotels in {town}",
            "rating": f"{RNG.randint(2, 2 * stars) / 2} of {stars} stars",
            "lowest price": f"${RNG.randint(60, 400)}*",
            "points": f"{RNG.randint(80, 99)} pts {RNG.choice(['WS', 'WA', 'WE'])}",
            "number of reviews": f"{RNG.randint(1, 3000):,} reviews",
        }
        for k in range(1, n + 1)
    ]


def _fields(rows):
    return [{"name": k, "xpath": f"./span[{i + 1}]"} for i, k in enumerate(rows[0])]


def test_numbers_inside_template_text_fail_and_the_plain_ones_stay_clean(seed=SEED):
    rows = _rows(RNG.randint(6, 12))
    found = field_findings(_spec(_fields(rows)), _rep(rows), list(rows[0]))
    got = sorted(i.field for i in found if i.kind == "number_in_text")
    assert got == ["lowest price", "points", "rank in the city", "rating"], (seed, found)
    assert "number_in_text" in FAILING_FINDINGS


def test_what_is_no_number_in_text_is_left_alone(seed=SEED):
    n = RNG.randint(6, 12)
    plain = [f"${RNG.randint(5, 90)}.{RNG.randint(10, 99)}" for _ in range(n)]
    assert number_in_text("price", plain) is None, seed  # an amount as it is written
    assert number_in_text("votes", [f"{RNG.randint(1, 9000):,} votes" for _ in range(n)]) is None, seed
    assert (
        number_in_text("price", [f"{RNG.randint(5, 90)},{RNG.randint(10, 99)} € *" for _ in range(n)]) is None
    )
    titles = [f"{_name()} {RNG.randint(1, 9)} of {RNG.randint(10, 99)}" for _ in range(n)]
    assert number_in_text("title", titles) is None, seed  # a title is no number
    ranges = [f"${RNG.randint(5, 40)} - ${RNG.randint(50, 90)}" for _ in range(n)]
    assert number_in_text("price", ranges) is None, seed  # a range: the text around differs per row
    other = [f"num ratings{RNG.randint(100, 90000):,}" for _ in range(n)]
    assert number_in_text("average rating", other) is None, seed  # a label naming another number
    assert number_in_text("rank", [f"Rank: #{k + 1}" for k in range(n)]), seed  # its own label
    same = [f"#{3} of 87 hotels"] * n
    assert number_in_text("rank", same) is None, seed  # one constant: nothing varies


def test_the_derived_spec_reads_the_numbers_and_the_repair_takes_it(seed=SEED):
    rows = _rows(RNG.randint(6, 10))
    spec = _spec(_fields(rows))
    found = field_findings(spec, _rep(rows), list(rows[0]))
    derived = derive(spec, found, _rep(rows), None, list(rows[0]))
    assert derived, (seed, found)
    why, new = derived[0]
    html = "".join("<div class='item'>" + "".join(f"<span>{r[k]}</span>" for k in r) + "</div>" for r in rows)
    src = new.sources[0]
    got = extract_page(
        parse_document("html", "<html><body>" + html + "</body></html>", URL), src.fields, src.records, {}
    )
    want_rank = list(range(1, len(rows) + 1))
    assert [g["rank in the city"] for g in got] == want_rank, (seed, got[:2])
    assert [g["lowest price"] for g in got] == [int(r["lowest price"][1:-1]) for r in rows], seed
    assert [g["rating"] for g in got] == [float(r["rating"].split()[0]) for r in rows], seed
    assert [g["hotel name"] for g in got] == [r["hotel name"] for r in rows], seed
    report = TestReport(ok=False, rows=len(rows), requests=1, issues=found, derived=derived)
    fixed = repair(spec, report)
    assert fixed is not None and fixed.spec == new, seed


def test_a_number_inside_text_costs_the_candidate_a_little(seed=SEED):
    rows = _rows(6)
    spec = _spec(_fields(rows))
    found = field_findings(spec, _rep(rows), list(rows[0]))
    bad = TestReport(ok=False, rows=6, requests=1, issues=found, fill_rates={k: 1.0 for k in rows[0]})
    clean = TestReport(ok=True, rows=6, requests=1, issues=[], fill_rates={k: 1.0 for k in rows[0]})
    mb, mc = ranking.measure(bad, list(rows[0])), ranking.measure(clean, list(rows[0]))
    assert mb.honest and mc.score > mb.score, (seed, mb, mc)


# ------------------------------------------------------------------------------------------ doubtful columns


def test_a_measure_constant_over_the_records_is_flagged_not_failed(seed=SEED):
    n = RNG.randint(6, 12)
    widget = "".join(str(k) for k in range(1, RNG.choice([6, 11])))  # a star widget's labels
    rows = [{"title": f"{_name()} {k}", "year": 1950 + k, "rating": widget} for k in range(n)]
    fields = [{"name": k, "xpath": f"./td[{i + 1}]"} for i, k in enumerate(rows[0])]
    spec = _spec(fields, records="//tr[td]")
    found = field_findings(spec, _rep(rows), list(rows[0]))
    assert [i.field for i in found if i.kind == "template_values"] == ["rating"], (seed, found)
    assert "template_values" in FLAG_FINDINGS and "template_values" not in FAILING_FINDINGS
    report = TestReport(ok=True, rows=n, requests=1, issues=found, fill_rates={k: 1.0 for k in rows[0]})
    info = fields_report(spec, report, list(rows[0]))
    assert info["rating"]["finding"].startswith("template_values"), (seed, info)
    assert "finding" not in info["title"] and "finding" not in info["year"], (seed, info)
    # a rating that differs per record, or a text field that is one constant (a venue), is no template
    rows2 = [{**r, "rating": round(RNG.uniform(1, 10), 1), "venue": "Main Hall"} for r in rows]
    rows2[0]["rating"], rows2[1]["rating"] = 3.5, 7.5
    fields2 = [{"name": k, "xpath": f"./td[{i + 1}]"} for i, k in enumerate(rows2[0])]
    found2 = field_findings(_spec(fields2, records="//tr[td]"), _rep(rows2), list(rows2[0]))
    assert not [i for i in found2 if i.kind == "template_values"], (seed, found2)


def test_a_date_holding_another_fields_value_is_flagged(seed=SEED):
    n = RNG.randint(5, 10)
    people = [f"{_name()} {k}" for k in range(n)]
    rows = [
        {"author": p, "post title": f"{_name()} notes {k}", "date": f"by {p} at March {k + 1}, 2010 09:12 PM"}
        for k, p in enumerate(people)
    ]
    fields = [{"name": k, "xpath": f"./td[{i + 1}]"} for i, k in enumerate(rows[0])]
    found = field_findings(_spec(fields, records="//tr[td]"), _rep(rows), list(rows[0]))
    assert [i.field for i in found if i.kind == "merged_values"] == ["date"], (seed, found)
    # a text field holding another (an address and its town) is left alone
    rows2 = [{"venue": _name(), "town": t, "address": f"{k + 10} Elm St, {t}"} for k, t in enumerate(people)]
    fields2 = [{"name": k, "xpath": f"./td[{i + 1}]"} for i, k in enumerate(rows2[0])]
    found2 = field_findings(_spec(fields2, records="//tr[td]"), _rep(rows2), list(rows2[0]))
    assert not [i for i in found2 if i.kind == "merged_values"], (seed, found2)


def test_a_unit_word_naming_another_field_swaps_the_rules(seed=SEED):
    n = RNG.randint(5, 10)
    rows = [
        {
            "item": f"{_name()} camera {k}",
            "current price": f"+${RNG.randint(5, 30)}.{RNG.choice([0, 50, 95]):02d} shipping",
            "shipping cost": float(RNG.randint(20, 900)),
        }
        for k in range(n)
    ]
    fields = [
        {"name": "item", "xpath": "./td[1]"},
        {"name": "current price", "xpath": "./td[2]"},
        {"name": "shipping cost", "xpath": "./td[3]", "type": "float", "transforms": [{"op": "number"}]},
    ]
    data = {
        "name": "t",
        "primary_key": ["item"],
        "columns": [{"name": "item"}, {"name": "current price"}, {"name": "shipping cost", "type": "float"}],
        "sources": [
            {"kind": "html", "request": {"url": URL}, "records": {"xpath": "//tr[td]"}, "fields": fields}
        ],
    }
    spec = CollectorSpec.model_validate(data)
    found = field_findings(spec, _rep(rows), list(rows[0]))
    assert sorted(i.field for i in found if i.kind == "swapped_fields") == [
        "current price",
        "shipping cost",
    ], (
        seed,
        found,
    )
    (_, new), *_ = derive(spec, found, _rep(rows), None, list(rows[0]))
    rules = {f.name: f for f in new.sources[0].fields}
    assert rules["shipping cost"].xpath == "./td[2]" and rules["current price"].xpath == "./td[3]", seed
    types = {c.name: c.type for c in new.columns}
    assert types["current price"] == "float" and types["shipping cost"] in (None, "string"), (seed, types)
    # a price written with its own unit word, beside bare numbers, is no swap
    own = [{**r, "current price": f"{RNG.randint(5, 30)} dollars"} for r in rows]
    found2 = field_findings(spec, _rep(own), list(rows[0]))
    assert not [i for i in found2 if i.kind == "swapped_fields"], (seed, found2)


def test_reference_marks_are_removed_from_the_values(seed=SEED):
    n = RNG.randint(6, 10)
    marked = set(RNG.sample(range(n), RNG.randint(2, 4)))
    names = [f"{_name()} Tower {k}" for k in range(n)]
    rows = [
        {"name": nm + (f"[{RNG.randint(1, 40)}]" if k in marked else ""), "floors": RNG.randint(40, 99)}
        for k, nm in enumerate(names)
    ]
    spec = _spec([{"name": "name", "xpath": "./td[1]"}, {"name": "floors", "xpath": "./td[2]"}], "//tr[td]")
    found = field_findings(spec, _rep(rows), ["name", "floors"])
    assert [i.field for i in found if i.kind == "footnote_marks"] == ["name"], (seed, found)
    assert "footnote_marks" in FAILING_FINDINGS
    (_, new), *_ = derive(spec, found, _rep(rows), None, ["name", "floors"])
    html = "".join(f"<tr><td>{r['name']}</td><td>{r['floors']}</td></tr>" for r in rows)
    src = new.sources[0]
    got = extract_page(
        parse_document("html", f"<html><body><table>{html}</table></body></html>", URL),
        src.fields,
        src.records,
        {},
    )
    assert [g["name"] for g in got] == names, (seed, got)
    # one mark alone, or brackets that are the value's own ("Array[T]"), are left alone
    one = [{**r, "name": nm} for r, nm in zip(rows, names, strict=True)]
    one[0]["name"] += "[3]"
    assert not [i for i in field_findings(spec, _rep(one), ["name"]) if i.kind == "footnote_marks"], seed
    own = [{**r, "name": f"List[{_name()}] of {RNG.choice('TKV')}[{RNG.choice('TKV')}]"} for r in rows]
    assert not [i for i in field_findings(spec, _rep(own), ["name"]) if i.kind == "footnote_marks"], seed


def test_dates_written_as_text_are_parsed(seed=SEED):
    import datetime as dt

    n = RNG.randint(4, 9)
    days = [dt.date(RNG.randint(1995, 2020), RNG.randint(1, 12), RNG.randint(1, 28)) for _ in range(n)]
    rows = [
        {"episode": f"Episode {k}", "date posted": d.strftime("%A, %B %d, %Y")} for k, d in enumerate(days)
    ]
    spec = _spec(
        [{"name": "episode", "xpath": "./td[1]"}, {"name": "date posted", "xpath": "./td[2]"}], "//tr[td]"
    )
    found = field_findings(spec, _rep(rows), ["episode", "date posted"])
    assert [i.field for i in found if i.kind == "date_text"] == ["date posted"], (seed, found)
    (_, new), *_ = derive(spec, found, _rep(rows), None, ["episode", "date posted"])
    html = "".join(f"<tr><td>{r['episode']}</td><td>{r['date posted']}</td></tr>" for r in rows)
    src = new.sources[0]
    got = extract_page(
        parse_document("html", f"<html><body><table>{html}</table></body></html>", URL),
        src.fields,
        src.records,
        {},
    )
    assert [g["date posted"] for g in got] == days, (seed, got)
    # without a year, with a time of day, or in numbers only, the text is left as it is
    for fmt in ("%A, %B %d", "%B %d, %Y %H:%M", "%m/%d/%Y"):
        other = [{**r, "date posted": d.strftime(fmt)} for r, d in zip(rows, days, strict=True)]
        assert not [i for i in field_findings(spec, _rep(other), ["date posted"]) if i.kind == "date_text"], (
            seed,
            fmt,
        )
