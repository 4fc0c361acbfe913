"""The API, file, JS and structured-data zoo sites inside the real sandbox app, over loopback sockets.

One ZooServer serves one site of each of these families (beside the built-in sandbox sites); a
plain httpx client reads each by its notes and must get every record; unknown paths are 404.
"""

from __future__ import annotations

import random
from collections import Counter
from urllib.parse import parse_qsl, urlsplit

import httpx
import pytest

from prefect_autodata.sandbox.scorer import normalise
from prefect_autodata.sandbox.zoo.families import FAMILIES
from prefect_autodata.sandbox.zoo.families.api_base import fetch_records
from prefect_autodata.sandbox.zoo.kinds import record_set
from prefect_autodata.sandbox.zoo.server import ZooServer

MINE = sorted(n for n in FAMILIES if n.startswith(("api_", "js_", "sd_")))
KINDS = ("movie", "mlb_team_pitching", "job", "stock_day")


@pytest.fixture(scope="module")
def zoo():
    sites, sets = [], {}
    for i, name in enumerate(MINE):
        rs = record_set(KINDS[i % len(KINDS)], random.Random(100 + i), 35)
        site = FAMILIES[name].build(rs, random.Random(200 + i), f"www.zapi{i}-loop.test")
        site.notes.setdefault("search_title", f"{site.host} {rs.kind.plural}")
        sites.append(site)
        sets[name] = (rs, site)
    with ZooServer(sites) as server:
        yield server.base_url, sets


@pytest.mark.parametrize("family", MINE)
def test_served_over_loopback_every_record_arrives(zoo, family):
    base, sets = zoo
    rs, site = sets[family]
    with httpx.Client(base_url=base, timeout=30) as client:

        def get(path, query=None, headers=None):
            if path.startswith(f"/{site.host}/"):  # links on the pages carry the /<host> prefix
                path = path[len(site.host) + 1 :]
            parts = urlsplit(path)
            q = dict(parse_qsl(parts.query)) | dict(query or {})
            r = client.get(f"/{site.host}{parts.path}", params=q, headers=headers or {})
            return r.status_code, r.text

        assert client.get(f"/{site.host}{site.entry_path}").status_code == 200
        assert client.get(f"/{site.host}/no-such-page-here").status_code == 404
        if site.notes.get("method") == "html":
            import sys
            from pathlib import Path

            sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit"))
            from zoo_oracle import site_records

            got = site_records(site, get)
        else:
            got = fetch_records(get, site.notes)
    fields = rs.kind.field_names
    key = lambda recs: Counter(tuple(normalise(r.get(f), field=f) for f in fields) for r in recs)  # noqa: E731
    assert key(got) == key(rs.records)
