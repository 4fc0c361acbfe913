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
    d = DuckDBDestination(path="x.duckdb", schema_name="raw", table_prefix="ad_")
    assert d.table("sp500-daily") == '"raw"."ad_sp500_daily"'
    with pytest.raises(ValidationError, match="schema_name"):
        DuckDBDestination(schema_name="drop table;")
    c = CrawlerPolicy(width=2, depth=1, pages=5, attempts=2, respect_robots=False)
    assert (c.crawl_policy().width, c.crawl_policy().pages) == (2, 5)
    assert c.fetch_policy().respect_robots is False
