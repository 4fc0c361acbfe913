"""Values only in an attribute (star ratings in title/alt), offered as candidates; record links
ending in "/" form one URL family; a wrapper named "content-sidebar" holding <main> is no sidebar."""

from __future__ import annotations

from prefect_autodata.agents.induction import attrs
from prefect_autodata.agents.induction.assemble import induce_page
from prefect_autodata.agents.induction.dom import is_furniture, parse
from prefect_autodata.agents.induction.lexicon import normalise
from prefect_autodata.agents.offline.discovery import url_family
from prefect_autodata.runtime.extract import extract_page, parse_document

URL = "http://127.0.0.1:9/search"
PLACES = [
    ("Casa Olmo", "4.5", 212),
    ("Blue Heron", "3.0", 48),
    ("Tin Lantern", "4.0", 97),
    ("Pho Lan", "5.0", 31),
]


def _page():
    items = "".join(
        f"<li><h3><a href='/biz/{i}'>{n}</a></h3><div class='stars'><i title='{r} star rating'>"
        f"<img alt='{r} star rating' src='/s.png'></i></div><span>{c} reviews</span>"
        f"<img alt='{n}' src='/p{i}.jpg'></li>"
        for i, (n, r, c) in enumerate(PLACES)
    )
    return f"<html><body><ul class='results'>{items}</ul></body></html>"


def test_a_textless_element_offers_its_title():
    root = parse(_page())
    cands = attrs.candidates(root.xpath("//li"))
    (star,) = [c for c in cands if c.label == "star rating"]
    assert star.values == [r for _, r, _ in PLACES]
    assert all(c.values != [n for n, _, _ in PLACES] for c in cands)  # the photo alt repeats the name


def test_rating_read_from_the_title_attribute():
    html = _page()
    built = induce_page(URL, html, ["name", "rating", "reviews"], name="places")
    best = max(built, key=lambda b: (len(b.matches), b.rows))
    assert "rating" in best.matches
    src = best.spec.sources[0]
    rows = extract_page(parse_document("html", html, URL), src.fields, src.records, {})
    assert [float(r["rating"]) for r in rows] == [float(r) for _, r, _ in PLACES]


def test_trailing_slash_slugs_form_one_family():
    a = url_family("http://x.example/recipe/lemon-orzo-soup/")
    b = url_family("http://x.example/recipe/sheet-pan-gnocchi/")
    assert a == b
    e1 = url_family("http://x.example/events/2011/04/spring-choral-evening/")
    e2 = url_family("http://x.example/events/2011/05/river-cleanup-day/")
    assert e1 == e2
    assert url_family("http://x.example/category/dinner/") != url_family("http://x.example/category/lunch/")


def test_a_content_sidebar_wrapper_holding_main_is_no_furniture():
    root = parse(
        "<html><body><div class='content-sidebar-wrap'><main><article id='a'>x</article></main>"
        "<aside class='sidebar'><p id='s'>y</p></aside></div></body></html>"
    )
    assert not is_furniture(root.xpath("//article")[0])
    assert is_furniture(root.xpath("//p[@id='s']")[0])


def test_a_number_sign_after_a_word_reads_number():
    assert normalise("CALL #") == "call number"
    assert normalise("#") == ""
