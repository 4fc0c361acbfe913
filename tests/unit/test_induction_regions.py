"""Record regions by repeated structure: card grids with obfuscated classes, lists, dl blocks, noise."""

from __future__ import annotations

import random

from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.agents.induction.matching import assign
from prefect_autodata.agents.induction.regions import find_regions, slots

WORDS = "amber birch cedar delta ember fjord grove harbor iris juniper kelp lumen".split()


def _records(n, seed=7):
    rng = random.Random(seed)
    return [
        {
            "name": " ".join(rng.sample(WORDS, 2)).title() + f" {i}",
            "maker": rng.choice(["Ona Vale", "Rui Sato", "Mia Holt", "Ken Obi"]),
            "cost": f"${rng.randint(5, 900)}.{rng.randint(0, 99):02d}",
        }
        for i in range(n)
    ]


def _noise():
    return (
        "<nav><ul><li><a href='/'>Home</a></li><li><a href='/a'>About</a></li><li><a href='/c'>Contact</a></li>"
        "<li><a href='/h'>Help</a></li></ul></nav><div class='k3'>We use cookies. <button>OK</button></div>"
    )


def test_card_grid_with_obfuscated_classes():
    recs = _records(12)
    cards = "".join(
        f"<div class='css-1x9fz'><h3 class='css-q81'><a href='/item/{i}'>{r['name']}</a></h3>"
        f"<div class='css-7ab'>{r['maker']}</div><div class='css-zz2'>{r['cost']}</div>"
        f"<span class='css-b0'>Add to basket</span></div>"
        for i, r in enumerate(recs)
    )
    root = parse(
        f"<html><body>{_noise()}<main><div class='css-grid'>{cards}</div></main><footer>(c)</footer></body></html>"
    )
    best = find_regions(root)[0]
    assert best.count == 12
    assert root.xpath(best.records_xpath) == best.items
    cands = slots(best, "http://127.0.0.1/")
    values = [c.values for c in cands]
    assert [r["cost"] for r in recs] in values
    assert ["Add to basket"] * 12 not in values  # constant: template text
    assert best.detail_link is not None and best.detail_link.values[0] == "/item/0"
    got = assign(["name", "cost"], cands)
    assert got["name"].candidate.values == [r["name"] for r in recs]
    assert got["cost"].candidate.values == [r["cost"] for r in recs]


def test_plain_list_with_label_value_text_inside_items():
    recs = _records(8, seed=3)
    items = "".join(
        f"<li><a href='/b/{i}'>{r['name']}</a> Writer: {r['maker']} | <b>Cost:</b> {r['cost']}</li>"
        for i, r in enumerate(recs)
    )
    root = parse(f"<html><body>{_noise()}<ol>{items}</ol></body></html>")
    best = find_regions(root)[0]
    assert best.count == 8 and best.items[0].tag == "li"
    got = assign(["title", "author", "price"], slots(best))
    assert got["price"].candidate.values == [r["cost"] for r in recs]
    assert got["title"].candidate.values == [r["name"] for r in recs]


def test_dl_blocks_as_records():
    recs = _records(5, seed=9)
    blocks = "".join(
        f"<dl><dt>Name</dt><dd>{r['name']}</dd><dt>Maker</dt><dd>{r['maker']}</dd></dl>" for r in recs
    )
    root = parse(f"<html><body><section>{blocks}</section></body></html>")
    best = find_regions(root)[0]
    assert best.count == 5
    got = assign(["name", "maker"], slots(best))
    assert got["maker"].candidate.values == [r["maker"] for r in recs]
    assert got["maker"].candidate.label == "Maker"


def test_navigation_alone_is_not_preferred_over_records():
    recs = _records(4, seed=1)
    rows = "".join(f"<div><p>{r['name']}</p><p>{r['cost']}</p></div>" for r in recs)
    root = parse(f"<html><body>{_noise()}<div id='results'>{rows}</div></body></html>")
    best = find_regions(root)[0]
    assert best.items[0].tag == "div" and best.count == 4
    assert "results" in best.records_xpath  # anchored on the id


def test_records_repeating_their_text_are_told_apart_by_their_links():
    """One team over many seasons: the cards read alike and differ in the page they link to."""
    teams = ["LAD", "ATL", "BOS"]
    cards = "".join(
        f"<div class='k{i % 4}'><h4><a href='/view?id={i}'>{teams[i % 3]}</a></h4></div>" for i in range(12)
    )
    html = f"<html><body><nav><a href='/'>Home</a> <a href='/about'>About</a></nav><main><h1>Teams</h1><div>{cards}</div></main></body></html>"
    found = find_regions(parse(html))
    assert found and found[0].count == 12
    slots(found[0], "http://127.0.0.1/")
    assert found[0].detail_link is not None
    assert found[0].detail_link.values[:2] == ["/view?id=0", "/view?id=1"]
