"""URL normalisation, site scoping, trap families and redaction."""

from __future__ import annotations

import pytest

from prefect_autodata.runtime.urlnorm import (
    family_key,
    in_site,
    is_binary_url,
    normalize_url,
    redact_url,
    site_root_of,
)


@pytest.mark.parametrize(
    ("raw", "want"),
    [
        ("HTTP://Example.COM/a/b/#frag", "http://example.com/a/b"),
        ("https://example.com:443/", "https://example.com/"),
        ("http://example.com:8080//x//y/", "http://example.com:8080/x/y"),
        ("http://e.com/p?utm_source=tw&page=2&fbclid=abc&ref=home", "http://e.com/p?page=2"),
        ("http://e.com/p?sort=asc&category=b&page=3&gclid=z", "http://e.com/p?category=b&page=3&sort=asc"),
        ("http://e.com", "http://e.com/"),
        ("http://e.com/a%20b", "http://e.com/a%20b"),
    ],
)
def test_normalize(raw, want):
    assert normalize_url(raw) == want


def test_normalize_relative_against_base():
    assert normalize_url("../c/?utm_medium=x#top", "http://e.com/a/b/") == "http://e.com/a/c"


def test_in_site_with_and_without_path_prefix():
    root = "http://127.0.0.1:9000/shop.example.org"
    assert in_site("http://127.0.0.1:9000/shop.example.org/items/1", root)
    assert in_site("http://127.0.0.1:9000/shop.example.org", root)
    assert not in_site("http://127.0.0.1:9000/shop.example.org.evil/x", root)
    assert not in_site("http://127.0.0.1:9000/other.org/x", root)
    assert not in_site("http://127.0.0.1:9001/shop.example.org/x", root)
    assert in_site("https://EXAMPLE.com/x", site_root_of("https://example.com/a/b"))
    assert not in_site("http://example.com/x", "https://example.com")


def test_binary_urls():
    assert is_binary_url("http://e.com/a/report.PDF")
    assert is_binary_url("http://e.com/img/cat.jpeg?size=2")
    assert not is_binary_url("http://e.com/a.b/page")
    assert not is_binary_url("http://e.com/page.html")


def test_family_key_collapses_numbers_only():
    assert family_key("http://e.com/cal?d=2024-05-01") == family_key("http://e.com/cal?d=2031-12-31")
    assert family_key("http://e.com/cal/2024/05") == family_key("http://e.com/cal/1999/11")
    assert family_key("http://e.com/cal/2024/05") != family_key("http://e.com/papers/2024/05")


def test_redact_secrets():
    out = redact_url("https://u:pw@api.e.com/x?token=abc&ticker=AAPL&API_KEY=zz")
    assert "abc" not in out and "zz" not in out and "pw" not in out
    assert "ticker=AAPL" in out and out.count("REDACTED") == 3
