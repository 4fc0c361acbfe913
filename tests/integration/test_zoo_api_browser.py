"""The zoo's script-built families in a real Chromium: records appear only once the page's script runs.

One loopback uvicorn serves the three js_* sites; headless Chromium (Debian's, through
``launch_chromium``) loads each page, clicks "load more" or scrolls until nothing new arrives, and the
rendered DOM must then hold every record's values. The same page with JavaScript disabled holds none.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from starlette.applications import Starlette
from starlette.routing import Mount

from prefect_autodata.sandbox.scorer import normalise
from prefect_autodata.sandbox.server import free_port, start_in_thread, stop_thread
from prefect_autodata.sandbox.zoo.families import js_embedded_state, js_infinite_scroll, js_load_more
from prefect_autodata.sandbox.zoo.kinds import record_set

FAMILIES = {
    "js_load_more": js_load_more.FAMILY,
    "js_infinite_scroll": js_infinite_scroll.FAMILY,
    "js_embedded_state": js_embedded_state.FAMILY,
}
KINDS = {"js_load_more": "paper", "js_infinite_scroll": "nba_team_season", "js_embedded_state": "camera"}


@pytest.fixture(scope="module")
def served():
    sites = {}
    mounts = []
    for i, (name, fam) in enumerate(FAMILIES.items()):
        rs = record_set(KINDS[name], random.Random(40 + i), 45)
        host = f"www.js{i}-zoo.test"
        site = fam.build(rs, random.Random(7 + i), host)
        sites[name] = (rs, site)
        mounts.append(Mount(f"/{host}", routes=site.routes))
    port = free_port()
    server, thread = start_in_thread(Starlette(routes=mounts), "127.0.0.1", port, name="zoo-js-test")
    try:
        yield f"http://127.0.0.1:{port}", sites
    finally:
        stop_thread(server, thread)


def _dom_values(page, notes) -> list[dict]:
    dom = notes["dom"]
    return page.eval_on_selector_all(
        dom["item"],
        """(items, sel) => items.map((it) => Object.fromEntries(Object.entries(sel).map(
               ([f, s]) => { const el = it.querySelector(s); return [f, el ? el.textContent : null]; })))""",
        dom["fields"],
    )


def _multiset(recs, fields) -> Counter:
    return Counter(tuple(normalise(r.get(f)) for f in fields) for r in recs)


@pytest.mark.parametrize("family", list(FAMILIES))
def test_records_appear_only_after_the_script_runs(served, family):
    from playwright.sync_api import sync_playwright

    from prefect_autodata.runtime.browser import launch_chromium

    base, sites = served
    rs, site = sites[family]
    fields = [f.name for f in rs.kind.fields]
    url = f"{base}/{site.host}{site.entry_path}"
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        try:
            off = browser.new_context(java_script_enabled=False)
            p0 = off.new_page()
            p0.goto(url)
            assert p0.locator(site.notes["dom"]["item"]).count() == 0
            off.close()

            page = browser.new_page(viewport={"width": 1000, "height": 700})
            page.goto(url)
            item = site.notes["dom"]["item"]
            page.wait_for_selector(item)
            pages = site.notes.get("pages") or [site.entry_path]
            seen: list[dict] = []
            if family == "js_embedded_state":
                for i, path in enumerate(pages):
                    if i:
                        page.goto(f"{base}/{site.host}{path}")
                        page.wait_for_selector(item)
                    seen.extend(_dom_values(page, site.notes))
            else:
                last = -1
                for _ in range(200):
                    n = page.locator(item).count()
                    if n == len(rs.records) or (n == last and family == "js_load_more"):
                        break
                    last = n
                    if family == "js_load_more":
                        page.click(site.notes["dom"]["load_more"])
                    else:
                        page.mouse.wheel(0, 20000)
                    page.wait_for_function(f"document.querySelectorAll('{item}').length > {n}", timeout=10000)
                seen = _dom_values(page, site.notes)
                if family == "js_load_more":
                    assert page.locator(site.notes["dom"]["load_more"]).is_hidden()
        finally:
            browser.close()
    assert len(seen) == len(rs.records)
    assert _multiset(seen, fields) == _multiset(rs.records, fields)
