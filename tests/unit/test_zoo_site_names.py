"""Searched zoo tasks name their site (issue #12/#13): the sentence says which site, by the name its
pages show, and nothing else about any task changes (``anonymous_search`` keeps the old sentences)."""

from __future__ import annotations

import re

from prefect_autodata.sandbox.zoo.catalog import draw_task


def _same_draw(a, b) -> None:
    assert (a.id, a.family, a.kind, a.source, a.fields, a.site.host) == (
        b.id,
        b.family,
        b.kind,
        b.source,
        b.fields,
        b.site.host,
    )
    assert a.filters == b.filters and a.columns == b.columns and a.site_records == b.site_records
    assert a.truth.equals(b.truth)
    assert a.site.entry_path == b.site.entry_path and a.site.notes == b.site.notes


def test_sourced_tasks_are_byte_identical_to_the_old_generator_and_searched_ones_name_their_site():
    searched = 0
    for i in range(30):
        old = draw_task(7, i, anonymous_search=True)
        new = draw_task(7, i)
        _same_draw(old, new)
        if old.source is not None:
            assert new.instruction == old.instruction
            continue
        searched += 1
        name = new.site.notes["site_name"]
        assert name in new.instruction, new.instruction
        assert name not in old.instruction
        assert not re.search(r"\b(?:this|the) site\b", new.instruction), new.instruction
    assert searched >= 3


def test_the_site_wording_varies_and_is_drawn_apart_from_the_task():
    forms: set[str] = set()
    for seed in (7, 8, 9):
        for i in range(40):
            t = draw_task(seed, i)
            if t.source is None:
                name = t.site.notes["site_name"]
                at = t.instruction.index(name)
                before = t.instruction[:at].split()[-1:] or ["^"]
                after = t.instruction[at + len(name) :].split()[:1] or ["$"]
                forms.add(f"{before[0]} X {after[0][:4]}")
                assert draw_task(seed, i).instruction == t.instruction  # a function of (seed, index)
    assert len(forms) >= 5, forms
