"""Record pieces run together in one listing slot (S10): a code before the record's name, a year after
it, a place and its region split by a comma; a count in parentheses with its unit; a value written as a
sentence after its label read without the sentence's full stop. Invented records, no site's markup."""

from __future__ import annotations

import random

from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.agents.induction.labels import pairs
from prefect_autodata.agents.induction.matching import assign
from prefect_autodata.agents.induction.regions import find_regions, slot_pieces, slots
from prefect_autodata.agents.induction.values import profile

WORDS = "amber birch cedar delta ember fjord grove harbor iris juniper kelp lumen".split()


def _courses(n=8, seed=3):
    rng = random.Random(seed)
    return [
        {
            "code": f"{rng.choice(['GEOL', 'PHIL'])} {100 + 37 * i}",
            "title": " ".join(rng.sample(WORDS, 3)).title(),
            "units": rng.choice([1, 2, 3, 4]),
            "needs": f"{rng.choice(WORDS)} standing" if i % 3 else None,
        }
        for i in range(n)
    ]


def _catalog(courses):
    blocks = []
    for c in courses:
        need = f" <i>Needs:</i> {c['needs'].capitalize()}." if c["needs"] else ""
        blocks.append(
            f"<p><b>{c['code']}.&nbsp;&nbsp;{c['title']}.</b> <span>({c['units']} units)</span><br/>"
            f"Some words about the course.{need} <span>Offered: Fall.</span></p>"
        )
    return f"<html><body><h1>Catalog</h1><div>{''.join(blocks)}</div></body></html>"


def _best(html):
    root = parse(html)
    region = find_regions(root)[0]
    return region, slots(region, "http://127.0.0.1:9/c")


def test_code_before_name_is_a_piece_of_its_own():
    courses = _courses()
    _, cands = _best(_catalog(courses))
    m = assign(["code", "title", "units"], cands)
    assert m["code"].candidate.values == [c["code"] for c in courses]
    assert m["title"].candidate.values == [c["title"] for c in courses]
    assert m["units"].candidate.values == [str(c["units"]) for c in courses]


def test_sentence_value_after_label_drops_the_full_stop():
    courses = _courses()
    root = parse(_catalog(courses))
    got = [
        p.value for b in root.iter("p") for p in pairs(b, scope=".//") if p.label.lower().startswith("needs")
    ]
    assert got == [c["needs"].capitalize() for c in courses if c["needs"]]
    one = parse("<p><b>Maker:</b> Acme Inc.</p>")
    assert [p.value for p in pairs(one, scope=".//") if p.label == "Maker"] == ["Acme Inc."]


def test_year_after_name_and_comma_pieces():
    names = ["Cedar Hill Reserve 2009", "Iris Vale Blend 2011", "Kelp Point Red 2006", "Lumen Grove NV"]
    parts, main = slot_pieces(names)
    assert main == 0 and len(parts) == 2
    assert parts[0][1] == ["Cedar Hill Reserve", "Iris Vale Blend", "Kelp Point Red", "Lumen Grove NV"]
    assert parts[1][1] == ["2009", "2011", "2006", None]
    places = ["Rioja, Spain", "Lodi, USA", "Wachau, Austria"]
    parts, main = slot_pieces(places)
    assert main is None and [p[1] for p in parts] == [
        ["Rioja", "Lodi", "Wachau"],
        ["Spain", "USA", "Austria"],
    ]
    # prose and plain names are not split
    assert slot_pieces(["Amber Birch", "Cedar Delta", "Ember Fjord"]) == ([], None)
    assert slot_pieces(["A long sentence, " * 10] * 3) == ([], None)


def test_year_piece_unused_reads_the_name_whole():
    items = "".join(
        f"<li><h3><a href='/w/{i}'>Grove Estate No {i} {2000 + i}</a></h3><span class='p'>${10 + i}.50</span></li>"
        for i in range(6)
    )
    _, cands = _best(f"<html><body><ul>{items}</ul></body></html>")
    m = assign(["name", "price"], cands)
    assert m["name"].candidate.values[0] == "Grove Estate No 0 2000"
    m = assign(["name", "year", "price"], cands)
    assert m["name"].candidate.values[0] == "Grove Estate No 0"
    assert m["year"].candidate.values[:2] == ["2000", "2001"]


def test_catalogue_code_with_a_space_is_a_code():
    assert profile(["HIST 101", "CS 2410H", "MATH 220"]).kind == "code"
    assert profile(["Amber 101 Birch", "Hist"]).kind != "code"


def test_quoted_titles_read_without_their_quotation_marks():
    from prefect_autodata.agents.induction.assemble import _table_candidates
    from prefect_autodata.agents.induction.tables import tables, with_parts

    titles = ["Pilot", "Slack Water", "The Lantern Room", "Undertow"]
    rows = "".join(
        f"<tr><td>{i + 1}</td><td>\"<a href='/w/{i}'>{t}</a>\"</td><td>{7 - i}.1</td></tr>"
        for i, t in enumerate(titles)
    )
    root = parse(
        f"<html><body><table><tr><th>No.</th><th>Title</th><th>Viewers</th></tr>{rows}</table></body></html>"
    )
    t = tables(root)[0]
    cands = with_parts(t, _table_candidates(t))
    m = assign(["title", "viewers"], cands)
    assert m["title"].candidate.values == titles
    parts, main = slot_pieces(["“Undertow”", '"Fathom"', None, "„Gull Island“"])
    assert main == 0 and parts[0][1] == ["Undertow", "Fathom", None, "Gull Island"]
    assert slot_pieces(['"Fathom" and more', "Gull", "Island"]) == ([], None)


def _papers():
    groups = {2013: 3, 2012: 2}
    items = []
    for year, k in groups.items():
        for i in range(k):
            authors = ", ".join(
                f"<span itemprop='author'><a href='/p/{j}'>{WORDS[j].title()} {WORDS[j + 1].title()}</a></span>"
                for j in range(i + 1)
            )
            items.append(
                f"<li class='entry'><div>{authors}:<br> <span class='t'>{WORDS[i + 3].title()} for GPUs {year}{i}.</span>"
                f" <a href='/v/{year}'>SPARW {year}</a>: <span itemprop='pagination'>{10 * i + 1}-{10 * i + 8}</span>"
                "</div></li>"
            )
    return f"<html><body><ul>{''.join(items)}</ul></body></html>"


def test_paper_entries_year_of_the_venue_pages_by_property_title_without_stop():
    _, cands = _best(_papers())
    pages = [c for c in cands if c.label == "pagination"]
    assert pages and pages[0].rule["xpath"] == ".//span[@itemprop='pagination']"
    assert pages[0].values == ["1-8", "11-18", "21-28", "1-8", "11-18"]  # after one author or three
    m = assign(["year", "pages"], cands)
    assert m["year"].candidate.values == ["2013", "2013", "2013", "2012", "2012"]
    assert m["pages"].candidate is pages[0]
    titles = [c for c in cands if c.rule["xpath"] == ".//span[@class='t']" and c.whole is not None]
    assert titles and titles[0].values[0] == "Delta for GPUs 20130"


def test_dates_are_not_cut_into_pieces():
    assert slot_pieces(["March 16, 2010", "March 15, 2010", "March 12, 2010"]) == ([], None)
    lines = [f"by Ann Lee at March {d}, 2010 09:12 PM" for d in (12, 15, 16)]
    assert slot_pieces(lines) == ([], None)
