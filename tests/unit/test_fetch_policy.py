"""FetchPolicy/CrawlPolicy validation, the SSRF classifier, interstitial heuristics, robots rules, Retry-After."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest
from pydantic import ValidationError

from prefect_autodata.runtime.fetch import _retry_after
from prefect_autodata.runtime.interstitial import detect_interstitial
from prefect_autodata.runtime.policy import CrawlPolicy, FetchPolicy
from prefect_autodata.runtime.robots import RobotsRules
from prefect_autodata.runtime.ssrf import AddressPolicy, classify_address


def test_defaults_are_polite_and_identifiable():
    p = FetchPolicy()
    assert p.respect_robots and p.conditional_requests
    assert p.user_agent.startswith("prefect-autodata/") and "+http" in p.user_agent
    assert p.rate_limit_per_host > 0 and p.max_retries >= 1
    assert FetchPolicy.model_validate_json(p.model_dump_json()) == p


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("concurrency_per_host", 0),
        ("max_bytes", 10),
        ("rate_limit_per_host", -1),
        ("allow_private", ["10.0.0.0/33"]),
    ],
)
def test_invalid_fetch_policy_names_the_field(field, value):
    with pytest.raises(ValidationError, match=field):
        FetchPolicy(**{field: value})


def test_unknown_field_is_rejected():
    with pytest.raises(ValidationError, match="rate_limit"):
        FetchPolicy(rate_limit=3)
    with pytest.raises(ValidationError, match="width"):
        CrawlPolicy(width=0)


@pytest.mark.parametrize(
    ("addr", "why"),
    [
        ("169.254.169.254", "link-local/metadata"),
        ("fd00:ec2::254", "link-local/metadata"),
        ("127.0.0.1", "loopback"),
        ("::1", "loopback"),
        ("10.2.3.4", "private"),
        ("192.168.1.1", "private"),
        ("172.16.0.9", "private"),
        ("fc00::1", "private"),
        ("::ffff:10.0.0.1", "private"),
        ("0.0.0.0", "unspecified"),
        ("8.8.8.8", None),
    ],
)
def test_classify_address(addr, why):
    assert classify_address(addr) == why


def test_address_policy_named_hosts_and_allow_list():
    p = AddressPolicy(
        allowed_hosts=["http://127.0.0.1:8000/x"], allow_private=["192.168.0.0/16", "intranet.local"]
    )
    assert p.refusal("http://127.0.0.1:9999/other") is None  # named host, any port
    assert "link-local" in p.refusal("http://169.254.169.254/")
    assert p.refusal("http://192.168.4.4/") is None
    assert p.refusal("http://intranet.local/") is None
    assert "private" in p.refusal("http://10.0.0.1/")
    assert "scheme" in p.refusal("file:///etc/passwd")


def test_interstitial_markers():
    assert detect_interstitial("<html><head><title>Just a moment...</title></head></html>")
    assert detect_interstitial('<html><body><div class="g-recaptcha"></div></body></html>')
    js = "<html><script>document.cookie='a=b';location.reload()</script></html>"
    assert detect_interstitial(js)
    assert detect_interstitial('{"title": "Just a moment"}', "application/json") is None
    page = (
        "<html><head><title>Papers 2020</title></head><body>"
        + "<p>a real paper list</p>" * 50
        + "</body></html>"
    )
    assert detect_interstitial(page) is None


def test_robots_rules():
    rules = RobotsRules("User-agent: *\nDisallow: /private/\nAllow: /private/ok\n")
    ua = "prefect-autodata/0.1"
    assert rules.allowed("http://e.com/public", ua)
    assert not rules.allowed("http://e.com/private/x", ua)
    assert rules.allowed("http://e.com/private/ok", ua)
    assert not RobotsRules(deny_all=True).allowed("http://e.com/", ua)
    assert RobotsRules(allow_all=True).allowed("http://e.com/private/x", ua)


def test_retry_after_forms():
    assert _retry_after("7") == 7.0
    future = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    assert 25 <= _retry_after(future) <= 31
    assert _retry_after("garbage") is None and _retry_after(None) is None


def test_robots_wildcards_groups_and_crawl_delay():
    text = (
        "User-agent: *\nDisallow: /lib/books/*/reviews$\nDisallow: /search\nCrawl-delay: 2\n\n"
        "User-agent: GPTBot\nDisallow: /\n\nUser-agent: prefect-autodata\nDisallow: /only-us/\n"
    )
    rules = RobotsRules(text)
    assert not rules.allowed("http://e.com/search?q=x", "OtherBot/1.0")
    assert not rules.allowed("http://e.com/lib/books/the-fox/reviews", "OtherBot/1.0")
    assert rules.allowed("http://e.com/lib/books/the-fox/reviews/2", "OtherBot/1.0")
    assert not rules.allowed("http://e.com/anything", "GPTBot/1.1")
    # our own group replaces the * group entirely (RFC 9309)
    assert rules.allowed("http://e.com/search", "prefect-autodata/0.1 (+https://x)")
    assert not rules.allowed("http://e.com/only-us/a", "prefect-autodata/0.1")
    assert rules.crawl_delay("OtherBot") == 2.0 and rules.crawl_delay("prefect-autodata/0.1") is None


@pytest.mark.parametrize(
    ("addr", "why"),
    [
        ("2002:7f00:1::", "loopback"),  # 6to4 of 127.0.0.1
        ("2002:a00:1::5", "private"),  # 6to4 of 10.0.0.1
        ("2002:a9fe:a9fe::", "link-local/metadata"),  # 6to4 of 169.254.169.254
        ("2002:808:808::", None),  # 6to4 of a public address
        ("::127.0.0.1", "loopback"),  # IPv4-compatible
        ("::ffff:0:7f00:1", "loopback"),  # IPv4-translated (SIIT)
        ("64:ff9b::a9fe:a9fe", "link-local/metadata"),  # NAT64
        ("64:ff9b:1::c0a8:101", "private"),  # NAT64 local-use prefix
        ("2001:0:4136:e378:8000:63bf:80ff:fffe", "loopback"),  # Teredo client 127.0.0.1
        ("fe80::5efe:a00:1", "private"),  # ISATAP 10.0.0.1
        ("2606:4700::1111", None),
    ],
)
def test_embedded_ipv4_is_classified_by_its_ipv4_part(addr, why):
    assert classify_address(addr) == why


@pytest.mark.parametrize(
    "entry", ["0.0.0.0/0", "::/0", "0.0.0.0/4", "::/8", "::ffff:0:0/96", "64:ff9b::/96", "*"]
)
def test_allow_private_catch_alls_are_refused(entry):
    with pytest.raises(ValidationError, match="allow_private"):
        FetchPolicy(allow_private=[entry])


@pytest.mark.parametrize("entry", ["10.0.0.0/8", "192.168.1.0/24", "127.0.0.2", "fd00::/8", "intranet.local"])
def test_narrow_allow_private_entries_are_kept(entry):
    assert FetchPolicy(allow_private=[entry]).allow_private == [entry]


def test_an_embedded_form_is_allowed_only_through_its_ipv4_network():
    p = AddressPolicy(allow_private=["10.0.0.0/8"])
    assert p._allow_listed("x", "::ffff:10.1.2.3") and p._allow_listed("x", "2002:a01:203::")
    assert not p._allow_listed("x", "::ffff:127.0.0.1")
    assert p.connected_refusal("x", "10.1.2.3") is None
    assert "loopback" in p.connected_refusal("x", "127.0.0.1")


def test_deadline_and_json_limits_are_bounded():
    p = FetchPolicy()
    assert 0 < p.request_deadline <= 600 and p.run_deadline >= p.request_deadline
    assert 1 < p.max_json_depth < 1000  # below Python's recursion limit
    for field, value in (("request_deadline", 0), ("run_deadline", -1), ("max_json_depth", 5000)):
        with pytest.raises(ValidationError, match=field):
            FetchPolicy(**{field: value})


def test_secret_names_and_redaction_by_value():
    from prefect_autodata import redact

    for name in ("auth_token", "client_secret", "X-Api-Key", "apiKey", "password", "access_key", "sig"):
        assert redact.is_secret_name(name), name
    for name in ("author", "keyword", "page", "ticker", "monkey", "designation"):
        assert not redact.is_secret_name(name), name
    value = "unit-secret-4b9d2f7a"
    redact.register(value)
    assert redact.redact_text(f"GET /api/{value}/x failed") == "GET /api/REDACTED/x failed"
    assert value not in redact.redact_text(f"/x?q={value.replace('-', '%2D')}&{value}")
    text = "http://u:pw123456@h/p?client_secret=s3cr3tvalue&page=2"
    assert redact.redact_text(text) == "http://u:REDACTED@h/p?client_secret=REDACTED&page=2"
    assert redact.redact_bytes(f"<p>{value}</p>".encode()) == b"<p>REDACTED</p>"
    redact.register("abc")  # too short to redact by value: it would blank ordinary text
    assert redact.redact_text("abcdef") == "abcdef"


def test_credentials_sent_are_registered():
    from prefect_autodata import redact

    redact.scan_url("https://h/x?auth_token=tok-9d8c7b6a5e&page=3")
    redact.scan_headers({"Authorization": "Bearer bearer-1a2b3c4d5e", "Accept": "text/html"})
    out = redact.redact_text("token tok-9d8c7b6a5e and bearer-1a2b3c4d5e but page=3 stays")
    assert out == "token REDACTED and REDACTED but page=3 stays"
