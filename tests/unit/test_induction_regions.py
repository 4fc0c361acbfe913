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


def test_rows_without_a_heading_take_their_distinct_word_column_as_the_name():
    """A grid of div rows under a header row; the name sits last and nothing marks it as a heading."""
    recs = _records(9, seed=11)
    head = "<div><div>Cost</div><div>Maker</div><div>Item &amp; kind</div></div>"
    rows = "".join(
        f"<div><div>{r['cost']}</div><div>{r['maker']}</div><div>{r['name']}</div></div>" for r in recs
    )
    root = parse(f"<html><body><main><div role='table'>{head}{rows}</div></main></body></html>")
    best = find_regions(root)[0]
    cands = slots(best)
    named = [c for c in cands if c.identity]
    assert len(named) == 1 and named[0].values == [r["name"] for r in recs]
    got = assign(["product", "cost"], cands)
    assert got["product"].candidate.values == [r["name"] for r in recs]
    # the repeating maker column (four makers over nine rows) is never taken for the name
    assert not any(c.identity for c in cands if c.values == [r["maker"] for r in recs])


def test_a_label_written_beside_the_value_in_its_own_piece_is_not_part_of_the_value():
    """ "by <a>Name</a>" and "1204 <dfn>Views</dfn>": the constant piece is the label; the value is the rest.
    A value written in one text node with its prefix stays whole."""
    recs = _records(6, seed=5)
    cards = "".join(
        f"<div><h3><a href='/p/{i}'>{r['name']}</a></h3><p class='k1'>by <a href='/u/{i}'>{r['maker']}</a></p>"
        f"<span class='k2'>{100 + i * 7} <dfn>Views</dfn></span><em>Deluxe t{i}</em></div>"
        for i, r in enumerate(recs)
    )
    root = parse(f"<html><body><main><section>{cards}</section></main></body></html>")
    cands = slots(find_regions(root)[0])
    by = next(c for c in cands if c.rule["xpath"].endswith("[@class='k1']"))
    assert by.values == [r["maker"] for r in recs] and "by" in (by.label, *by.aliases)
    views = next(c for c in cands if c.rule["xpath"].endswith("[@class='k2']"))
    assert views.values == [str(100 + i * 7) for i in range(6)] and views.label == "Views"
    tag = next(c for c in cands if c.rule["xpath"] == "./em")
    assert tag.values[:2] == ["Deluxe t0", "Deluxe t1"]


def test_cut_short_text_is_read_whole_from_the_title_attribute_which_is_never_a_label():
    titles = [f"The {w} and the very long road home" for w in WORDS[:5]]
    cards = "".join(
        f"<li><h3><a href='/b/{i}' title='{t}'>{t[:14]}...</a></h3><p>{i + 3}.50</p></li>"
        for i, t in enumerate(titles)
    )
    root = parse(f"<html><body><ol>{cards}</ol></body></html>")
    cands = slots(find_regions(root)[0])
    name = next(c for c in cands if c.identity)
    assert name.values == titles and name.rule["attr"] == "title" and name.label is None


def test_a_wrapper_that_holds_one_element_lends_it_its_label():
    cards = "".join(
        f"<article><h2><a href='/p/{i}'>Post {w}</a></h2><span class='comments-link'><a href='/p/{i}#c'>{i} Comments</a></span></article>"
        for i, w in enumerate(WORDS[:4])
    )
    cands = slots(find_regions(parse(f"<html><body><main>{cards}</main></body></html>"))[0])
    # the count is the value; the word after it names it too ("1 Comments" -> 1)
    assert any(c.label == "comments-link" and c.values[1] == "1" and "Comments" in c.aliases for c in cands)


def _cands(html):
    region = find_regions(parse(html))[0]
    return slots(region)


def test_microdata_properties_on_meta_and_link_and_nested_items_are_read_per_record():
    recs = _records(6, seed=11)
    stock = ["InStock", "OutOfStock"]
    cards = "".join(
        f"<div class='t{i % 2}' itemscope itemtype='http://schema.org/Product'>"
        f"<span class='c-maker' itemprop='brand' itemscope><span itemprop='name'>{r['maker']}</span></span>"
        f"<h4><a href='/p/{i}' itemprop='url'><span itemprop='name'>{r['name']}</span></a></h4>"
        f"<div itemprop='offers' itemscope><meta itemprop='price' content='{r['cost'][1:]}'>"
        f"<link itemprop='availability' href='http://schema.org/{stock[i % 2]}'>"
        f"<span class='c-price'>{r['cost'].replace('.', '<sup>')}</sup></span>"
        f"<span class='c-state'>{'In stock' if i % 2 == 0 else 'Out of stock'}</span></div></div>"
        for i, r in enumerate(recs)
    )
    cands = _cands(f"<html><body>{_noise()}<main><div class='g'>{cards}</div></main></body></html>")
    m = assign(["name", "brand", "price", "availability"], cands)
    assert m["brand"].candidate.values[:2] == [recs[0]["maker"], recs[1]["maker"]]
    assert m["name"].candidate.values[0] == recs[0]["name"]
    price = m["price"].candidate
    assert price.rule["xpath"] == ".//meta[@itemprop='price']" and price.rule["attr"] == "content"
    assert price.values[0] == recs[0]["cost"][1:]
    # the enumeration URL names the visible text that shows the same words, which is the value read
    avail = m["availability"].candidate
    assert avail.values[:2] == ["In stock", "Out of stock"] and "attr" not in avail.rule


def test_a_value_named_by_its_itemprop_beside_an_unrelated_label_is_found_by_either():
    cards = "".join(
        f"<div><h3><a href='/c/{i}'>Model {w}</a></h3><p><span>MPG</span> "
        f"<span itemprop='mileage'>{20 + i}/{30 + i}</span></p></div>"
        for i, w in enumerate(WORDS[:5])
    )
    cands = _cands(f"<html><body><main><div>{cards}</div></main></body></html>")
    m = assign(["model", "mileage"], cands)
    assert m["mileage"].candidate.values[:2] == ["20/30", "21/31"]


def test_a_labelled_value_constant_over_the_records_is_data_but_an_unlabelled_one_is_template():
    cards = "".join(
        f"<div><h3><a href='/p/{i}'>Paper on {w}</a></h3><p><span>Yr</span> <span>2013</span></p>"
        f"<p>Read more</p></div>"
        for i, w in enumerate(WORDS[:6])
    )
    cands = _cands(f"<html><body><main><div>{cards}</div></main></body></html>")
    m = assign(["title", "year"], cands)
    assert m["year"].candidate.values == ["2013"] * 6
    assert not any(c.values[0] == "Read more" for c in cands)


def test_a_count_with_the_same_word_after_it_is_a_number_named_by_the_word():
    cards = "".join(
        f"<li><h3><a href='/h/{i}'>{w.title()} Lane {i}</a></h3><address>{i} {w.title()} Rd, Oslo</address>"
        f"<ul><li>{i + 1} bd<abbr> | </abbr></li><li>{1200 + 7 * i:,} sqft</li></ul></li>"
        for i, w in enumerate(WORDS[:5])
    )
    cands = _cands(f"<html><body><main><ul class='r'>{cards}</ul></main></body></html>")
    by = {c.label: c for c in cands if c.label}
    assert by["bd"].values == ["1", "2", "3", "4", "5"]
    assert by["sqft"].values[0] == "1,200"
    assert by["address"].values[1] == "1 Birch Rd, Oslo"
    m = assign(["address", "square feet"], cands)
    assert m["square feet"].candidate is by["sqft"] and m["address"].candidate is by["address"]


def test_the_same_words_written_before_an_inline_value_in_every_record_are_its_label():
    cards = "".join(
        f"<li><h3><a href='/t/{i}'>Topic about {w}</a></h3><div class='meta'>by "
        f"<a class='uname' href='/u/{i}'>{w}_{i}</a> » Mon Mar 0{i + 1}, 2018</div></li>"
        for i, w in enumerate(WORDS[:5])
    )
    cands = _cands(f"<html><body><main><ul class='r'>{cards}</ul></main></body></html>")
    by = next(c for c in cands if c.label == "by")
    assert by.values[:2] == ["amber_0", "birch_1"] and by.aliases == ["uname"]
    assert assign(["topic", "author"], cands)["author"].candidate is by
