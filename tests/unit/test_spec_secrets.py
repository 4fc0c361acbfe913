"""Credentials an agent observed never stay in a reviewable spec."""

from __future__ import annotations

from prefect_autodata.runtime.spec import CollectorSpec, externalize_secrets, secret_names

SPEC = {
    "name": "prices-2024",
    "primary_key": ["Date"],
    "sources": [
        {
            "name": "records",
            "kind": "json",
            "request": {
                "url": "https://api.example.com/daily/prices",
                "params": {"startDate": "2024-01-01", "token": "abc123secret"},
                "headers": {"Authorization": "Token hdr456secret", "Accept": "application/json"},
            },
            "records": {"jsonpath": "$[*]"},
            "fields": [{"name": "Date", "jsonpath": "$.date", "type": "date"}],
        }
    ],
}


def test_literal_credentials_become_secret_placeholders():
    spec = CollectorSpec.parse(SPEC)
    clean, found = externalize_secrets(spec)
    assert found == {"PRICES_2024_TOKEN": "abc123secret", "PRICES_2024_AUTHORIZATION": "Token hdr456secret"}
    text = clean.to_yaml()
    assert "abc123secret" not in text and "hdr456secret" not in text
    assert secret_names(clean) == set(found)
    assert clean.sources[0].request.params["startDate"] == "2024-01-01"
    assert clean.sources[0].request.headers["Accept"] == "application/json"


def test_spec_without_literal_credentials_is_unchanged():
    data = {
        **SPEC,
        "sources": [
            {
                **SPEC["sources"][0],
                "request": {"url": "https://api.example.com/x", "params": {"token": "{secret:KEY}"}},
            }
        ],
    }
    spec = CollectorSpec.parse(data)
    clean, found = externalize_secrets(spec)
    assert found == {} and clean is spec
