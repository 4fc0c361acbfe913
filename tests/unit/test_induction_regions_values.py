"""Listing slots whose values say what they are: counts with the site's word for none, host names,
price levels, a second class naming the value, a link whose text sits in one inline child; and the
spec's key over the columns every record fills."""

from __future__ import annotations

import random

from prefect_autodata.agents.induction.assemble import induce_page
from prefect_autodata.agents.induction.dom import parse
from prefect_autodata.agents.induction.matching import assign
from prefect_autodata.agents.induction.regions import find_regions, slots
from prefect_autodata.runtime.extract import extract_page, parse_document

URL = "http://127.0.0.1:9/news"
WORDS = "amber birch cedar delta ember fjord grove harbor iris juniper kelp lumen".split()
HOSTS = ["github.com", "brasswork.io", "blog.kestrel.net", "old-silicon.org", "pg.example.org"]


def _stories(n=9, seed=11):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        comments = rng.randint(2, 400)
        out.append(
            {
                "title": " ".join(rng.sample(WORDS, 3)).title() + f" {i}",
                "host": None if i % 4 == 1 else rng.choice(HOSTS),  # an "Ask" story links to no site
                "comments": None if i % 4 == 3 else comments,  # a fresh story: "discuss"
                "level": "$" * rng.randint(1, 4),
            }
        )
    return out


def _page(stories):
    items = []
    for i, s in enumerate(stories):
        site = (
            f" <span class='comhead'>(<span class='sitestr'>{s['host']}</span>)</span>" if s["host"] else ""
        )
        talk = f"{s['comments']} comments" if s["comments"] is not None else "discuss"
        items.append(
            f"<li class='row'><a class='storylink' href='/item/{i}'><span>{s['title']}</span></a>{site}"
            f"<div class='sub'><a href='/cat/{i % 3}'>{['Tech', 'Books', 'Food'][i % 3]}</a> | "
            f"<span class='attr price-level'>{s['level']}</span> | <a href='/item/{i}#c'>{talk}</a></div></li>"
        )
    return f"<html><body><ul class='stories'>{''.join(items)}</ul></body></html>"


def _cands(stories):
    root = parse(_page(stories))
    region = find_regions(root)[0]
    assert region.count == len(stories)
    return slots(region, URL)


def test_a_count_with_a_word_for_none_reads_as_the_count_with_those_cells_empty():
    stories = _stories()
    got = assign(["comment_count"], _cands(stories))
    # "discuss" is the site's zero: no number is shown, so the cell is empty, never the word
    assert got["comment_count"].candidate.values == [
        str(s["comments"]) if s["comments"] is not None else None for s in stories
    ]


def test_host_names_serve_a_domain_field_and_price_signs_a_price_range():
    stories = _stories()
    got = assign(["title", "domain", "price_range"], _cands(stories))
    assert got["domain"].candidate.values == [s["host"] for s in stories]
    assert got["price_range"].candidate.values == [s["level"] for s in stories]
    # the title sits in a <span> inside the link: it is the record's own name, not the category link
    assert got["title"].candidate.values == [s["title"] for s in stories]


def test_the_key_of_a_spec_is_over_the_columns_every_record_fills():
    stories = _stories()
    html = _page(stories)
    built = induce_page(URL, html, ["title", "domain", "price_range"], name="news", entity="story")
    best = max(built, key=lambda b: (len(b.matches), b.rows))
    assert set(best.matches) == {"title", "domain", "price_range"}
    assert "domain" not in best.spec.primary_key and "title" in best.spec.primary_key
    src = best.spec.sources[0]
    rows = extract_page(parse_document("html", html, URL), src.fields, src.records, {})
    assert len(rows) == len(stories)


def test_a_count_before_a_colon_and_the_sites_words_for_none():
    # Blogger's comment links: "6 comments:", "1 comment:", "No comments:"
    rng = random.Random(5)
    counts = [rng.randint(2, 40) for _ in range(8)]
    counts[1], counts[4], counts[6] = 1, None, None  # a few posts nobody answered yet

    def talk(n):
        return "No comments:" if n is None else f"{n} comment{'s' if n != 1 else ''}:"

    posts = "".join(
        f"<div class='post'><h3><a href='/p/{i}'>Episode {i}: {WORDS[i]}</a></h3>"
        f"<p>{WORDS[-i]} notes</p><a class='comment-link' href='/p/{i}#c'>{talk(n)}</a></div>"
        for i, n in enumerate(counts)
    )
    region = find_regions(parse(f"<html><body><div class='blog'>{posts}</div></body></html>"))[0]
    got = assign(["comment_count"], slots(region, URL))
    assert got["comment_count"].candidate.values == [None if n is None else str(n) for n in counts]


def test_a_cell_stacking_a_name_link_over_a_title_block_yields_both():
    from prefect_autodata.agents.induction import tables
    from prefect_autodata.agents.induction.assemble import _table_candidates

    rng = random.Random(9)
    ranks = ["Senior Member", "Junior Member", "Moderator", "Member"]
    members = [(f"{rng.choice(WORDS)}_{i}", rng.choice(ranks), rng.randint(1, 9000)) for i in range(9)]
    rows = "".join(
        f"<tr><td><a href='member.php?u={i}'>{n}</a><div class='smallfont'>{r}</div></td><td>{p:,}</td></tr>"
        for i, (n, r, p) in enumerate(members)
    )
    html = f"<html><body><table id='m'><tr><th>User Name</th><th>Posts</th></tr>{rows}</table></body></html>"
    t = next(t for t in tables.tables(parse(html)) if t.rows == len(members))
    cands = tables.with_parts(t, _table_candidates(t))
    by_values = {tuple(c.values): c for c in cands}
    names = tuple(n for n, _, _ in members)
    assert names in by_values and tuple(r for _, r, _ in members) in by_values
    # the column's label names the lead element: the user name, not the name run into the title
    assert assign(["user_name"], cands)["user_name"].candidate.values == list(names)
