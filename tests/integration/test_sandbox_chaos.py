"""Chaos profiles over real sockets: every flaky/hostile behaviour, determinism under a seed, retry-ability."""

from __future__ import annotations

import re
import time
from collections import Counter

import httpx
import pytest

from prefect_autodata.runtime.interstitial import detect_interstitial
from prefect_autodata.sandbox.chaos import (
    HOP_PATH,
    INJECTION_PATH,
    MAX_CONSECUTIVE_FAULTS,
    ChaosMiddleware,
    strip_tracking,
)
from prefect_autodata.sandbox.server import SandboxServer
from prefect_autodata.sandbox.sites import bara, jsonly
from prefect_autodata.sandbox.sites.robots import BASE_DISALLOW, robots_txt

LIB = "/www.picturebook-library.org"
API = f"{jsonly.PREFIX}/api/players"
NET_ERRORS = (httpx.ReadError, httpx.RemoteProtocolError, httpx.ConnectError, httpx.ReadTimeout)


def _server(profile: str, seed: int, rate: float, monkeypatch) -> SandboxServer:
    monkeypatch.setenv("AUTODATA_CHAOS_FAULT_RATE", str(rate))
    monkeypatch.setenv("AUTODATA_CHAOS_SLOW_MAX_S", "0.25")  # slow stays observable, the suite stays quick
    return SandboxServer(chaos=profile, seed=seed).start()


def _chaos(server: SandboxServer) -> ChaosMiddleware:
    app = server._server.config.app  # the ASGI app uvicorn serves: our middleware
    assert isinstance(app, ChaosMiddleware)
    return app


def _outcome(client: httpx.Client, path: str) -> str:
    """What a client sees for one request: a status code, or the network error's name."""
    try:
        r = client.get(path)
    except NET_ERRORS as exc:
        return type(exc).__name__
    if r.status_code == 200 and detect_interstitial(r.text, r.headers.get("content-type", "")):
        return "200-interstitial"
    return str(r.status_code)


def get_with_retries(client: httpx.Client, path: str, attempts: int = 6) -> httpx.Response:
    """A well-behaved client: retry 5xx, 429 (honouring Retry-After), resets, truncation and bot-checks."""
    for _ in range(attempts):
        try:
            r = client.get(path, follow_redirects=True)
            if r.status_code == 429:
                time.sleep(min(float(r.headers.get("retry-after", "1")), 1.0))
                continue
            if r.status_code >= 500:
                continue
            if r.status_code == 200 and detect_interstitial(r.text, r.headers.get("content-type", "")):
                continue
            return r
        except NET_ERRORS:
            continue
    raise AssertionError(f"{path} still failing after {attempts} attempts")


def test_decisions_are_a_function_of_seed_url_and_visit_count():
    def statuses(seed: int) -> list[str | None]:
        mw = ChaosMiddleware(None, profile="flaky", seed=seed, fault_rate=0.3)
        return [mw.decide("GET", f"/x/{i % 40}").kind for i in range(400)]

    assert statuses(1) == statuses(1)
    assert statuses(1) != statuses(2)
    assert any(k is not None for k in statuses(1))


def test_consecutive_faults_per_url_are_capped_so_retries_succeed():
    mw = ChaosMiddleware(None, profile="hostile", seed=5, fault_rate=1.0)
    kinds = [mw.decide("GET", "/same").kind for _ in range(30)]
    failing = [k not in (None, "slow") for k in kinds]
    run = longest = 0
    for f in failing:
        run = run + 1 if f else 0
        longest = max(longest, run)
    assert longest == MAX_CONSECUTIVE_FAULTS
    assert not all(failing)


def test_profile_and_rate_are_validated():
    with pytest.raises(ValueError, match="profile"):
        ChaosMiddleware(None, profile="evil")
    with pytest.raises(ValueError, match="fault_rate"):
        ChaosMiddleware(None, profile="flaky", fault_rate=2.0)


def test_same_seed_same_statuses_over_sockets_and_different_seed_differs(monkeypatch):
    paths = [f"{LIB}/stacks/{i % 25}" for i in range(80)]
    runs = []
    for seed in (11, 11, 12):
        server = _server("flaky", seed, 0.4, monkeypatch)
        try:
            with httpx.Client(base_url=server.base_url, timeout=10) as client:
                runs.append([_outcome(client, p) for p in paths])
        finally:
            server.stop()
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]


@pytest.fixture(scope="module")
def flaky():
    mp = pytest.MonkeyPatch()
    server = _server("flaky", 3, 0.35, mp)
    mp.undo()
    yield server
    server.stop()


def test_flaky_shows_every_fault_kind(flaky):
    seen: Counter[str] = Counter()
    retry_after: set[str] = set()
    with httpx.Client(base_url=flaky.base_url, timeout=10) as client:
        for i in range(160):
            try:
                r = client.get(f"{LIB}/stacks/{200 + i}")
                seen[str(r.status_code)] += 1
                if r.status_code == 429:
                    retry_after.add(r.headers.get("retry-after", ""))
            except NET_ERRORS as exc:
                seen[type(exc).__name__] += 1
    assert seen["200"] > 0
    assert {"500", "502", "503"} & set(seen)
    assert seen["429"] > 0 and retry_after == {"1"}
    assert seen["ReadError"] > 0  # connection reset without a response
    assert seen["RemoteProtocolError"] > 0  # Content-Length promised more than was sent
    kinds = Counter(k for _, url, _, k in _chaos(flaky).log if url.startswith(f"{LIB}/stacks/"))
    assert kinds["slow"] > 0
    assert set(kinds) <= {None, "http_5xx", "http_429", "slow", "truncated", "reset"}


def test_flaky_retrying_client_gets_every_record_once(flaky):
    """A correct collector reaches the full season with zero duplicates despite the faults."""
    season = jsonly.seasons()[0]
    expected = jsonly.season_records(season)
    got: list[dict] = []
    with httpx.Client(base_url=flaky.base_url, timeout=10) as client:
        page = 1
        while True:
            r = get_with_retries(client, f"{API}?season={season}&page={page}&per_page=100")
            try:
                data = r.json()
            except ValueError:
                continue  # a truncated body that httpx accepted: fetch the page again
            got.extend(data["results"])
            if not data["has_more"]:
                break
            page += 1
    assert len(got) == len(expected)
    assert [(g["player_id"], g["team"]) for g in got] == [(e["player_id"], e["team"]) for e in expected]
    assert any(k is not None for _, url, _, k in _chaos(flaky).log if url.startswith(API))


def test_flaky_never_answers_500_except_as_chaos(flaky):
    with httpx.Client(base_url=flaky.base_url, timeout=10) as client:
        r = get_with_retries(client, f"{API}?season=abc")
        assert r.status_code == 400 and r.json()["error"]["param"] == "season"
        r = get_with_retries(client, f"{LIB}/no/such/page")
        assert r.status_code == 404 and "text/html" in r.headers["content-type"]
        assert client.get("/robots.txt").status_code == 200  # exempt: the crawl policy is always readable


@pytest.fixture(scope="module")
def hostile():
    mp = pytest.MonkeyPatch()
    server = _server("hostile", 9, 0.3, mp)
    mp.undo()
    yield server
    server.stop()


def test_hostile_bot_check_is_a_200_interstitial_then_the_page(hostile):
    with httpx.Client(base_url=hostile.base_url, timeout=10) as client:
        for i in range(300):
            path = f"{LIB}/stacks/{i}"
            if _outcome(client, path) == "200-interstitial":
                r = get_with_retries(client, path)
                assert r.status_code == 200 and f"Stack {i}" in r.text
                return
    pytest.fail("no bot-check interstitial in 300 requests")


def test_hostile_redirect_chain_301_302_lands_on_the_page(hostile):
    with httpx.Client(base_url=hostile.base_url, timeout=10) as client:
        for i in range(300):
            path = f"{LIB}/stacks/{1000 + i}"
            try:
                r = client.get(path)
            except NET_ERRORS:
                continue
            if r.status_code == 301:
                assert r.headers["location"].startswith(HOP_PATH)
                hop = client.get(r.headers["location"])
                assert hop.status_code == 302 and hop.headers["location"] == path
                final = get_with_retries(client, path)
                assert f"Stack {1000 + i}" in final.text
                return
    pytest.fail("no redirect chain in 300 requests")


def test_hostile_tracking_duplicates_serve_the_same_page(hostile):
    with httpx.Client(base_url=hostile.base_url, timeout=10) as client:
        tracked: list[str] = []
        for i in range(40):
            body = get_with_retries(client, f"{LIB}/stacks/{i}").text
            tracked += re.findall(r'href="(/[^"]*[?&](?:utm_source|ref)=[^"]*)"', body)
        assert tracked, "no tracking-parameter links in 40 pages"
        href = tracked[0].replace("&amp;", "&")
        base, _, query = href.partition("?")
        assert strip_tracking(query) == ""
        dup = get_with_retries(client, href)
        clean = get_with_retries(client, base)
        assert dup.status_code == clean.status_code == 200
        title = re.search(r"<title>(.*?)</title>", clean.text).group(1)
        assert f"<title>{title}</title>" in dup.text


def test_hostile_windows_1252_pages_are_declared_and_decode(hostile):
    # pages whose text holds an em dash, so the re-encoding is visible in the bytes
    paths = [f"{LIB}/books/", f"{LIB}/books/page/2", f"{LIB}/books/page/3"]
    paths += [f"{LIB}/collections/{c}/shelves/{k}" for c in bara._COLLECTIONS for k in (1, 2)]
    with httpx.Client(base_url=hostile.base_url, timeout=10) as client:
        for path in paths:
            r = get_with_retries(client, path)
            if "windows-1252" in r.headers["content-type"]:
                break
        else:
            pytest.fail("no windows-1252 page")
    raw = r.content
    assert b'<meta charset="windows-1252">' in raw and b"\x97" in raw  # em dash in cp1252
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")
    text = raw.decode("cp1252")
    assert "\u2014" in text and text.rstrip().endswith("</html>")


def test_hostile_prompt_injection_hidden_in_listing_pages(hostile):
    with httpx.Client(base_url=hostile.base_url, timeout=10) as client:
        injected = 0
        for i in range(60):
            body = get_with_retries(client, f"{LIB}/stacks/{i}").content.decode("cp1252", errors="replace")
            if "Ignore previous instructions" in body:
                injected += 1
                assert 'style="display:none"' in body
                assert f"Stack {i}" in body  # the real content is still there
        assert injected > 0
        notice = client.get(INJECTION_PATH)
        assert notice.status_code == 200 and "Ignore previous instructions" in notice.text


def test_hostile_robots_adds_disallows(hostile):
    with httpx.Client(base_url=hostile.base_url, timeout=10) as client:
        text = client.get("/robots.txt").text
    plain = robots_txt("none", 0)
    for p in BASE_DISALLOW:
        assert f"Disallow: {p}" in text and f"Disallow: {p}" in plain
    assert text.count("Disallow:") > plain.count("Disallow:")
    assert "User-agent: GPTBot" in text


def test_redirect_hop_keeps_percent_encoded_targets_intact():
    """The middle hop must send the client back to the byte-identical URL (e.g. ``S%26P``)."""
    import asyncio
    from urllib.parse import quote

    target = "/en.wikipedia.org/wiki/List_of_S%26P_500_companies?a=1&b=2"
    sent: list[dict] = []

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "GET",
        "path": HOP_PATH,
        "query_string": f"to={quote(target, safe='')}".encode(),
    }
    asyncio.run(ChaosMiddleware(None, profile="hostile", seed=0)(scope, None, send))
    assert sent[0]["status"] == 302
    assert dict(sent[0]["headers"])[b"location"] == target.encode()
