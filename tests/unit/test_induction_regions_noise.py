"""Record regions on noisy pages: furniture left out, header rows naming div-grid cells, split values.

Every page is generated from a random seed (class names, field order, sizes), so the assertions
hold for the mechanism and not for one layout.
"""

from __future__ import annotations

import random
import string

import pytest

from prefect_autodata.agents.induction.dom import is_furniture, parse, value_text
from prefect_autodata.agents.induction.matching import assign
from prefect_autodata.agents.induction.regions import find_regions, slots

SEEDS = [11, 202, 3030]


def _cls(rng: random.Random) -> str:
    return "css-" + "".join(rng.choices(string.ascii_lowercase + string.digits, k=6))


def _rows(rng: random.Random, n: int) -> list[dict[str, str]]:
    return [
        {
            "name": f"{rng.choice(['Alder', 'Birch', 'Cedar', 'Larch'])} {rng.choice(['Works', 'Lane', 'Hall'])} {i}",
            "price": f"{rng.randint(10, 99)}.{rng.randint(0, 99):02d}",
            "date": f"March {rng.randint(1, 28)}, 20{rng.randint(10, 24)}",
            "city": rng.choice(["Oslo", "Lima", "Pune", "Kyiv", "Rome"]),
        }
        for i in range(n)
    ]


def _furniture(rng: random.Random, copy_of: dict[str, str]) -> str:
    """Navigation, a cookie dialog, an ad, and a sidebar repeating a record the way listings do."""
    nav = "".join(
        f"<li><a href='/p{i}'>{w}</a></li>" for i, w in enumerate(["Home", "About", "Help", "Shop"])
    )
    side = "".join(
        f"<div class='{_cls(rng)}'><p>{copy_of['name']}</p><p>{copy_of['price']}</p></div>" for _ in range(3)
    )
    return (
        f"<header><nav><ul>{nav}</ul></nav></header>"
        "<div id='cookie-consent' role='dialog'><p>We use cookies.</p><button>OK</button></div>"
        "<aside class='ad-slot'><p>Advertisement:</p><a href='/x'>Sponsored</a></aside>"
        f"<aside><h2>Featured</h2>{side}</aside>"
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_furniture_never_becomes_a_region(seed):
    rng = random.Random(seed)
    recs = _rows(rng, rng.randint(4, 9))
    c = _cls(rng)
    cards = "".join(f"<div class='{c}'><h3>{r['name']}</h3><span>{r['price']}</span></div>" for r in recs)
    root = parse(
        f"<html><body>{_furniture(rng, recs[0])}<main><div>{cards}</div></main><footer><p>(c)</p></footer></body></html>"
    )
    regions = find_regions(root)
    assert regions and regions[0].count == len(recs)
    for r in regions:
        assert not is_furniture(r.parent)
        assert all(not is_furniture(i) for i in r.items)


@pytest.mark.parametrize("seed", SEEDS)
def test_index_bar_of_letters_or_pages_is_not_records(seed):
    rng = random.Random(seed)
    letters = rng.sample(string.ascii_uppercase, rng.randint(5, 12))
    bar = " ".join(f"<a href='/list/{x.lower()}/'>{x}</a>" for x in letters)
    root = parse(
        f"<html><body><main><h1>All items</h1><p>Browse by letter:</p><p>{bar}</p></main></body></html>"
    )
    assert find_regions(root) == []


@pytest.mark.parametrize("seed", SEEDS)
def test_div_grid_with_a_header_row_labels_cells_and_joins_split_values(seed):
    rng = random.Random(seed)
    recs = _rows(rng, rng.randint(5, 12))
    order = rng.sample(["name", "price", "date", "city"], 4)
    head_words = {"name": "Name", "price": "Price", "date": "Date", "city": "City"}
    style = "display:grid;grid-template-columns:repeat(4,1fr)"

    def cell(k: str, r: dict[str, str]) -> str:
        v = r[k]
        if k == "price":  # a value split over inline pieces, as some sites render digits
            whole, frac = v.split(".")
            return f"<div role='cell'><span>{whole}</span><span>.{frac}</span></div>"
        if k == "date":
            month, rest = v.split(" ", 1)
            return f"<div role='cell'><span>{month}</span> <span>{rest}</span></div>"
        return f"<div role='cell'>{v}</div>"

    header = "".join(f"<div role='columnheader'>{head_words[k]}</div>" for k in order)
    rows = "".join(
        f"<div role='row' style='{style}'>{''.join(cell(k, r) for k in order)}</div>" for r in recs
    )
    root = parse(
        f"<html><body><main><div role='table'><div role='row' style='{style}'>{header}</div>{rows}</div></main></body></html>"
    )
    best = find_regions(root)[0]
    assert best.count == len(recs)
    assert root.xpath(best.records_xpath) == best.items  # the header row is not a record
    got = assign(["name", "price", "date", "city"], slots(best))
    for k in ("name", "price", "date", "city"):
        assert got[k].candidate.values == [r[k] for r in recs], k
        assert got[k].candidate.label == head_words[k]
        found = [value_text(n) for it in best.items for n in it.xpath(got[k].candidate.rule["xpath"])]
        assert found == [r[k] for r in recs]  # the rule reads back what was matched


@pytest.mark.parametrize("seed", SEEDS)
def test_label_value_parts_are_not_offered_by_position(seed):
    rng = random.Random(seed)
    recs = _rows(rng, rng.randint(4, 8))
    blocks = []
    for r in recs:
        pairs = [("Price", r["price"]), ("City", r["city"]), ("Opened", r["date"])]
        rng.shuffle(pairs)
        dl = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in pairs)
        blocks.append(f"<article class='{_cls(rng)}'><h2>{r['name']}</h2><dl>{dl}</dl></article>")
    root = parse(f"<html><body><main>{''.join(blocks)}</main></body></html>")
    best = find_regions(root)[0]
    cands = slots(best)
    positional = [c for c in cands if c.origin == "slot" and "/dl/" in c.rule["xpath"]]
    assert positional == []  # field order is shuffled: only label-anchored rules read dd values
    got = assign(["name", "price", "city"], cands)
    assert got["price"].candidate.values == [r["price"] for r in recs]
    assert got["city"].candidate.values == [r["city"] for r in recs]
    assert all("Price" not in str(v) for v in got["price"].candidate.values)
