"""Record-kind plug-ins: the four built-in kinds, and a new kind added by one file
(tests/unit/volcano_kind.py) that the plan, discovery and induction then use without other edits."""

from __future__ import annotations

import importlib
from datetime import date

import pytest

from prefect_autodata.agents import kinds
from prefect_autodata.agents.evidence import SearchHit
from prefect_autodata.agents.offline import discovery
from prefect_autodata.agents.plan import make_plan, plan_message

TODAY = date(2025, 6, 1)


@pytest.fixture
def volcano():
    mod = importlib.import_module("volcano_kind")  # tests/unit is on sys.path (no packages)
    kinds.register(mod.KIND)  # re-register when an earlier test unregistered it
    yield mod.KIND
    kinds.unregister("volcano")


def test_builtin_kinds_are_registered_and_typed():
    names = {k.name for k in kinds.registered()}
    assert {"paper", "stock", "nba_team", "nba_player", "mlb_hitting", "mlb_pitching"} <= names
    r = make_plan("Daily stock prices of AAPL and MSFT in 2024", today=TODAY)
    assert r.kind == "stock" and r.kind_scope.tickers == ["AAPL", "MSFT"]
    checks = {c.name for c in kinds.get("stock").checks(r)}
    assert "high >= low" in checks
    # A kind's scope reads through the request; another kind's names read as their defaults.
    assert r.tickers == ["AAPL", "MSFT"] and r.venue is None and r.teams == []
    p = make_plan("Collect all accepted papers of NeurIPS 2017.", today=TODAY)
    assert p.venue.abbr == "NeurIPS" and p.tickers == [] and p.all_sp500 is False


def test_a_kind_never_claims_a_sentence_about_other_records():
    # "price" alone is not a stock request; an upper-case word is not a ticker of a camera.
    assert make_plan("Collect every book listed on this site with title, author and price").kind is None
    assert make_plan("Get all DSLR cameras with model, resolution and launch price").kind is None
    assert make_plan("books by Jane Austen with title and phone numbers").kind is None


def test_a_new_kind_in_one_file_drives_the_plan(volcano):
    r = make_plan("Collect all active volcanoes from https://geo.example.org/volcanoes", today=TODAY)
    assert r.kind == "volcano" and r.is_resolved
    assert r.entity.singular == "volcano" and r.entity.plural == "volcanoes"
    assert r.field_names == ["name", "country", "elevation"]
    assert [f.origin for f in r.fields] == ["kind_default"] * 3
    assert r.kind_scope.active_only is True and r.active_only is True
    assert r.expected_size.rows == 1500
    msg = plan_message(r)
    assert [f.name for f in msg.target_schema] == ["name", "country", "elevation"]
    assert msg.target_schema[2].type == "number"
    # The user's words map onto the kind's columns.
    r2 = make_plan("every volcano with its name and height", today=TODAY)
    # The column and the normalised name keep the user's words; the kind's column is the first alias
    # it is matched by.
    assert r2.field_names == ["name", "height"]
    assert [f.normalized for f in r2.fields] == ["name", "height"]
    assert [f.aliases[:1] for f in r2.fields] == [["name"], ["elevation"]]


def test_a_new_kind_drives_discovery(volcano):
    r = make_plan("Collect all volcanoes in Iceland", today=TODAY)
    terms = discovery.plan_terms(r)
    assert terms.get("volcano", 0) > 0 and terms.get("volcanoes", 0) > 0
    assert terms.get("iceland", 0) > 0  # the generic filter value ("in Iceland")
    assert discovery.search_queries(r)[0] == "list of volcanoes by elevation"
    hits = [
        SearchHit(rank=1, title="Cheap flights to Reykjavik", url="http://127.0.0.1/flights"),
        SearchHit(rank=2, title="Volcanoes of Iceland", url="http://127.0.0.1/volcanoes"),
    ]
    assert discovery.rank_hits(hits, r)[0].url.endswith("/volcanoes")


def test_a_new_kind_drives_induction(volcano):
    from prefect_autodata.agents.induction import induce_page
    from prefect_autodata.agents.induction.requested import entity_noun, requested_names

    r = make_plan("Collect all volcanoes listed on http://127.0.0.1:9/volcanoes", today=TODAY)
    rows = "".join(
        f"<tr><td>Mount {n}</td><td>{c}</td><td>{e}</td></tr>"
        for n, c, e in [("Alpha", "Atlantis", 3120), ("Beta", "Borduria", 2460), ("Gamma", "Syldavia", 1875)]
    )
    html = (
        "<html><body><h1>Volcanoes</h1><table><thead><tr><th>Volcano</th><th>Country</th>"
        f"<th>Elevation (m)</th></tr></thead><tbody>{rows}</tbody></table></body></html>"
    )
    built = induce_page(
        "http://127.0.0.1:9/volcanoes", html, requested_names(r), name="volcanoes", entity=entity_noun(r)
    )
    assert built, "no spec induced from a plain table of the requested kind"
    spec = built[0].spec
    produced = {f.name for s in spec.sources for f in s.fields}
    assert {"name", "country", "elevation"} <= produced


def test_unregistered_kind_is_gone(volcano):
    kinds.unregister("volcano")
    assert make_plan("Collect all volcanoes from https://geo.example.org/v", today=TODAY).kind is None
    assert (
        make_plan("Collect all volcanoes from https://geo.example.org/v", today=TODAY).entity.singular
        == "volcano"
    )


def _code_without_docs(path) -> str:
    """A module's code with docstrings and comments dropped (prose may cite an example)."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            if isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                body[0] = ast.Pass()
    return ast.unparse(tree)


def test_generic_modules_name_no_conference_franchise_ticker_or_company():
    # Issue #12: the kinds' knowledge lives only under agents/kinds/; the request parsing, discovery,
    # induction and validation modules hold none of it (names taken from the kinds themselves).
    import re
    from pathlib import Path

    from prefect_autodata.agents.kinds.mlb import MLB_TEAMS
    from prefect_autodata.agents.kinds.nba import NBA_TEAMS
    from prefect_autodata.agents.kinds.paper import CONFERENCES
    from prefect_autodata.agents.kinds.stock import COMPANIES

    names = {c for c in CONFERENCES if len(c) >= 3}
    for f in [*NBA_TEAMS, *MLB_TEAMS]:
        names |= {f"{f.city} {f.nickname}", f.nickname}
    names |= {c.title() for c in COMPANIES if len(c) >= 4} | {t for t in COMPANIES.values() if len(t) >= 3}
    assert len(names) > 100  # the scan is not vacuous
    root = Path(kinds.__file__).resolve().parents[1]
    generic = [
        root / "offline" / "instruction.py",
        root / "offline" / "vocab.py",
        root / "request.py",
        root / "plan.py",
        root / "validation.py",
        root / "web.py",
        root / "blueprint.py",
        root / "ranking.py",
        *sorted((root / "induction").glob("*.py")),
    ]
    hits = {}
    for p in generic:
        if not p.exists():
            continue
        code = _code_without_docs(p)
        found = sorted(n for n in names if re.search(rf"(?<![\w]){re.escape(n)}(?![\w])", code))
        if found:
            hits[p.name] = found
    assert not hits, hits
