"""Prefect blocks: Prefect's standard block suite, collection registration, and secrets that stay secret."""

from __future__ import annotations

import re

import pytest
from prefect.blocks.core import Block
from prefect.testing.standard_test_suites import BlockStandardTestSuite
from pydantic import ValidationError

from prefect_autodata.blocks import (
    CrawlerPolicy,
    DuckDBDestination,
    LLMEndpointCredentials,
    SearchProviderCredentials,
)

ALL = [LLMEndpointCredentials, SearchProviderCredentials, DuckDBDestination, CrawlerPolicy]
SECRET = "sk-block-SECRET-1234567890"


@pytest.mark.parametrize("block_cls", ALL, ids=lambda b: b.__name__)
class TestStandardSuite(BlockStandardTestSuite):
    @pytest.fixture
    def block(self, block_cls):
        return block_cls

    def test_has_a_valid_image(self, block) -> None:
        """Prefect's version downloads the logo (no network here); check the URL's shape instead."""
        assert re.match(r"^https://\S+\.png$", str(block._logo_url))


def test_collection_entry_point_registers_the_blocks():
    from prefect.plugins import load_prefect_collections

    assert "prefect_autodata" in load_prefect_collections()
    for cls in ALL:
        assert Block.get_block_class_from_key(cls.get_block_type_slug()) is cls
        assert cls.get_block_type_slug().startswith("autodata-")


def test_secrets_never_in_dump_or_repr():
    llm = LLMEndpointCredentials(api_key=SECRET, base_url="http://127.0.0.1:9/v1", model="m")
    search = SearchProviderCredentials(base_url="http://127.0.0.1:9/search", api_key=SECRET)
    for b in (llm, search):
        assert SECRET not in repr(b) and SECRET not in str(b)
        assert SECRET not in str(b.model_dump()) and SECRET not in b.model_dump_json()
    assert llm.settings().api_key.get_secret_value() == SECRET  # still usable by the client
    assert "api_key" in LLMEndpointCredentials.model_json_schema().get("secret_fields", [])


def test_llm_block_settings_and_validation():
    llm = LLMEndpointCredentials(
        api_key=SECRET,
        model="small",
        role_models={"plan": "big"},
        prices={"big": {"input_per_mtok": 1, "output_per_mtok": 2}},
        budget={"max_tokens": 1000},
    )
    s = llm.settings()
    assert s.model_for("plan") == "big" and s.model_for("web") == "small"
    assert s.prices.cost("big", 10**6, 0) == 1 and "gpt-4o-mini" in s.prices.prices
    assert s.budget.max_tokens == 1000
    with pytest.raises(ValidationError, match="max_tokens"):
        LLMEndpointCredentials(api_key=SECRET, budget={"max_tokens": 0})


def test_duckdb_and_crawler_blocks():
    d = DuckDBDestination(path="x.duckdb", table_prefix="ad_")
    assert d.table("sp500-daily") == "ad_sp500_daily"
    with pytest.raises(ValidationError, match="table_prefix"):
        DuckDBDestination(table_prefix="drop table;")
    c = CrawlerPolicy(width=2, depth=1, pages=5, attempts=2, respect_robots=False)
    assert (c.crawl_policy().width, c.crawl_policy().pages) == (2, 5)
    assert c.fetch_policy().respect_robots is False


def test_the_catalog_finds_every_block_by_autodata():
    for cls in ALL:
        assert "autodata" in cls.get_block_type_name().lower(), cls
        assert cls.get_block_type_slug().startswith("autodata-")


@pytest.mark.parametrize(
    ("value", "is_path"),
    [
        ("warehouse", False),
        ("prod-duckdb", False),
        ("data/x.duckdb", True),
        ("x.duckdb", True),
        ("/a/b", True),
    ],
)
def test_destination_is_a_path_or_a_block_name(value, is_path):
    from prefect_autodata.blocks.duckdb import looks_like_path

    assert looks_like_path(value) is is_path


def test_crawler_policy_applies_to_a_spec():
    from prefect_autodata.deployments.examples import load_example

    spec = load_example("tiingo-aapl-2024")
    applied = CrawlerPolicy(rate_limit_per_host=2.5, respect_robots=False).apply(spec)
    assert applied.politeness.rate_limit_per_host == 2.5 and applied.politeness.respect_robots is False
    assert applied.politeness.concurrency_per_host == spec.politeness.concurrency_per_host
    assert applied.sources == spec.sources
