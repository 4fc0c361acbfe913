"""S11 E2: struck-through values and layout classes in listing slots (induction/regions.py)."""

from __future__ import annotations

from prefect_autodata.agents.induction import dom, regions

_ROW = (
    '<div class="row"><span class="name">{n}</span>'
    '<div class="box">'
    '<div class="col cut"><span>-{d}%</span></div>'
    '<div class="col cost"><span><strike>${old}</strike></span><br>${new}</div>'
    "</div></div>"
)


def _cands() -> list:
    rows = [("Alpha", 50, "20.00", "10.00"), ("Beta", 25, "8.00", "6.00"), ("Gamma", 10, "30.00", "27.00")]
    html = (
        "<html><body><div id='list'>"
        + "".join(_ROW.format(n=n, d=d, old=o, new=w) for n, d, o, w in rows)
        + "</div></body></html>"
    )
    region = regions.find_regions(dom.parse(html))[0]
    return regions.slots(region)


def test_struck_value_is_not_part_of_its_container() -> None:
    cands = _cands()
    now = [c for c in cands if c.values == ["$10.00", "$6.00", "$27.00"]]
    assert now, [(c.label, c.values) for c in cands]
    assert "strike" in now[0].rule["xpath"] and now[0].rule["join"] == " "
    assert "current" in now[0].aliases


def test_struck_value_is_named_as_the_value_before() -> None:
    old = [c for c in _cands() if c.values == ["$20.00", "$8.00", "$30.00"]]
    assert old and old[0].label == "original cost"
    assert "cost" in old[0].aliases


def test_a_class_every_sibling_shares_is_layout_not_the_label() -> None:
    labels = {c.label for c in _cands()}
    assert "cut" in labels and "col" not in labels
