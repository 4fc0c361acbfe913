"""Prefect blocks (registered via the ``prefect.collections`` entry point: importing this module defines them).

Register them with a server: ``prefect block register -m prefect_autodata.blocks``.
"""

from prefect_autodata.blocks.crawler import CrawlerPolicy
from prefect_autodata.blocks.duckdb import DuckDBDestination
from prefect_autodata.blocks.llm import LLMEndpointCredentials
from prefect_autodata.blocks.search import SearchProviderCredentials

__all__ = ["CrawlerPolicy", "DuckDBDestination", "LLMEndpointCredentials", "SearchProviderCredentials"]
