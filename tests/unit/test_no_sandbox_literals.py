"""Product code never names a sandbox host, path or task id: the agents must work from observation.

The forbidden literals are derived from the sandbox itself (its site map, its task catalog, its
API names), so a new imitation site is covered the day it is registered.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from prefect_autodata.sandbox.app import sitemap
from prefect_autodata.sandbox.sites.tiingo import DEMO_TOKEN
from prefect_autodata.sandbox.tasks import catalog

PACKAGE = Path(__file__).resolve().parents[2] / "prefect_autodata"
EXEMPT = (PACKAGE / "sandbox", PACKAGE / "deployments" / "examples")

# Endpoint and page names of the imitated sites that no general-purpose code has reason to spell.
API_NAMES = [
    "commonteamyears",
    "teamyearbyyearstats",
    "playercareerstats",
    "commonplayerinfo",
    "commonallplayers",
    "leaguedashteamstats",
    "supported_tickers",
    "renderStats",
    "__LEADERBOARD_API__",
    "Blind_Submission",
    "paper_files",
    "demo-token",
]
# Core names of the real hosts the sandbox imitates (also caught inside longer strings).
HOST_WORDS = [
    "tiingo",
    "fangraphs",
    "nba.com",
    "nips.cc",
    "aclanthology",
    "openreview.net",
    "thecvf",
    "mlr.press",
    "ecva.net",
    "hoops-explorer",
    "picturebook",
    "wikipedia.org",
]


GENERIC = {"robots.txt", "favicon.ico", "sitemap.xml"}


@functools.cache
def forbidden() -> list[str]:
    words: set[str] = set(API_NAMES) | set(HOST_WORDS) | {DEMO_TOKEN}
    for _title, path in sitemap():
        parts = [p for p in path.split("?")[0].split("/") if p]
        if parts and "." in parts[0] and parts[0] not in GENERIC:
            words.add(parts[0])  # the host segment, e.g. api.tiingo.com
            rest = "/".join(parts[1:])
            if len(rest) >= 12:
                words.add("/" + rest)  # a distinctive page path
    words |= {t.id for t in catalog()}
    return sorted(words, key=str.lower)


def product_files() -> list[Path]:
    return [
        p
        for p in sorted(PACKAGE.rglob("*"))
        if p.is_file()
        and p.suffix in (".py", ".yaml", ".yml", ".json", ".md", ".txt", ".html", ".js")
        and not any(p.is_relative_to(e) for e in EXEMPT)
        and "__pycache__" not in p.parts
    ]


def test_the_forbidden_list_is_derived_from_the_sandbox():
    words = forbidden()
    assert "api.tiingo.com" in words and "papers.nips.cc" in words
    assert any(w.startswith("t04-") for w in words)
    assert len(product_files()) > 20


@pytest.mark.parametrize("path", product_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_sandbox_literal(path: Path):
    text = path.read_text(encoding="utf-8", errors="replace")
    low = text.lower()
    hits = []
    for w in forbidden():
        i = low.find(w.lower())
        if i >= 0:
            line = text.count("\n", 0, i) + 1
            hits.append(f"{w!r} at line {line}")
    assert not hits, f"{path.relative_to(PACKAGE)} names sandbox hosts/paths/task ids: {', '.join(hits)}"


def test_the_scanner_catches_a_literal(tmp_path):
    sample = "URL = 'https://api.tiingo.com/tiingo/daily'\n"
    assert any(re.search(re.escape(w), sample, re.I) for w in forbidden())


# ----------------------------------------------------------------------------- the layout zoo


@functools.cache
def zoo_forbidden() -> tuple[list[str], list[str]]:
    """(case-insensitive words, case-sensitive literals) derived from the zoo itself.

    Family names; the label synonym lists as written in the zoo (a copy of one in product code
    would tune the agents to the benchmark); the obfuscated class-name generator's prefixes as
    regex starts (``css-[``); the icon set.
    """
    from prefect_autodata.sandbox.zoo.families import FAMILIES
    from prefect_autodata.sandbox.zoo.families import _common as common
    from prefect_autodata.sandbox.zoo.kinds import KINDS

    words = set(FAMILIES)
    words |= {p + "[" for p in common.OBFUSCATED_PREFIXES if len(p) >= 2}
    literal: set[str] = set()

    def seq(items) -> None:
        if len(items) >= 3:
            literal.add(", ".join(f'"{x}"' for x in items))
            literal.add(", ".join(f"'{x}'" for x in items))

    for kind in KINDS.values():
        for f in kind.fields:
            for labels in (f.labels, f.labels_de, f.labels_es):
                seq(labels)
    # (The "meaningful" class-name vocabularies are plain English synonyms, which a general thesaurus in
    # product code may share; they are not scanned.)
    seq(common.ICONS[:4])
    return sorted(words), sorted(literal)


def test_the_zoo_list_is_derived_from_the_zoo():
    words, literal = zoo_forbidden()
    assert len([w for w in words if not w.endswith("[")]) >= 14
    assert any('"Auth."' in s for s in literal)


@pytest.mark.parametrize("path", product_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_zoo_vocabulary(path: Path):
    text = path.read_text(encoding="utf-8", errors="replace")
    low = text.lower()
    words, literal = zoo_forbidden()
    hits = [w for w in words if w.lower() in low] + [s for s in literal if s in text]
    assert not hits, f"{path.relative_to(PACKAGE)} names the layout zoo's vocabulary: {hits}"


_ZOO_IMPORT = re.compile(
    r"^(\s*)(?:from|import)\s+prefect_autodata\.sandbox(?:\.zoo\b|\s+import\s+zoo\b)", re.M
)


@pytest.mark.parametrize(
    "path", [p for p in product_files() if p.suffix == ".py"], ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_product_code_never_imports_the_zoo(path: Path):
    """Only the benchmark harness may import the zoo, and only lazily (inside a function)."""
    for m in _ZOO_IMPORT.finditer(path.read_text(encoding="utf-8")):
        assert path.name == "bench.py" and m.group(1), (
            f"{path.relative_to(PACKAGE)} imports sandbox.zoo: {m.group(0)!r}"
        )


def test_the_zoo_import_scan_catches_an_import():
    assert _ZOO_IMPORT.search("from prefect_autodata.sandbox.zoo.kinds import KINDS\n")
    assert _ZOO_IMPORT.search("from prefect_autodata.sandbox import zoo\n")
