"""Search provider block: which web search the research agents may call, and its key."""

from __future__ import annotations

from typing import ClassVar

from prefect.blocks.core import Block
from pydantic import Field, SecretStr

from prefect_autodata.blocks.llm import LOGO, load_block


class SearchProviderCredentials(Block):
    """Connection details of a web search API used by the web and tool agents."""

    _block_type_name: ClassVar[str] = "Autodata Search Provider Credentials"
    _block_type_slug: ClassVar[str] = "autodata-search-provider-credentials"
    _logo_url: ClassVar[str] = LOGO  # type: ignore[assignment]
    _documentation_url: ClassVar[str] = (
        "https://github.com/prefect-autodata/prefect-autodata/blob/main/docs/blocks.md"  # type: ignore[assignment]
    )
    _description: ClassVar[str] = "Name, base URL and API key of the search provider the research agents use."
    _code_example: ClassVar[str] = """
```python
from prefect_autodata.blocks import SearchProviderCredentials

search = SearchProviderCredentials.load("BLOCK_NAME")
```
"""

    provider: str = Field(default="generic", description="Provider name, e.g. brave, bing, searxng, generic.")
    base_url: str = Field(description="Search endpoint URL.")
    api_key: SecretStr | None = Field(default=None, description="API key; empty for keyless providers.")


def load_search(name: str) -> SearchProviderCredentials:
    """The saved SearchProviderCredentials block ``name`` (one clear error when missing)."""
    return load_block(SearchProviderCredentials, name, "--search-block")
