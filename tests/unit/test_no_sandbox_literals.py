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
