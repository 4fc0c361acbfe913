"""Crawler policy block: BaRA's bounds (W, D, P, A) and politeness, reusable across collectors."""

from __future__ import annotations

from typing import ClassVar

from prefect.blocks.core import Block
from pydantic import Field

from prefect_autodata.blocks.llm import LOGO, load_block


class CrawlerPolicy(Block):
    """Bounded-BFS limits and politeness settings for discovery crawls."""

    _block_type_name: ClassVar[str] = "Autodata Crawler Policy"
    _block_type_slug: ClassVar[str] = "autodata-crawler-policy"
    _logo_url: ClassVar[str] = LOGO  # type: ignore[assignment]
    _documentation_url: ClassVar[str] = (
        "https://github.com/prefect-autodata/prefect-autodata/blob/main/docs/blocks.md"  # type: ignore[assignment]
    )
    _description: ClassVar[str] = (
        "Width, depth, page budget, attempts, rate limit, concurrency and robots handling."
    )
    _code_example: ClassVar[str] = """
```python
from prefect_autodata.blocks import CrawlerPolicy

policy = CrawlerPolicy.load("BLOCK_NAME")
```
"""

    width: int = Field(default=5, ge=1, description="W: children followed per page, in DOM order.")
    depth: int = Field(default=3, ge=0, description="D: deepest link distance from the start page.")
    pages: int = Field(default=50, ge=1, description="P: page budget per crawl.")
    attempts: int = Field(default=2, ge=1, le=10, description="A: crawl rounds with reflection between them.")
    rate_limit_per_host: float = Field(
        default=10.0, ge=0, description="Requests per second per host; 0 is unlimited."
    )
    concurrency: int = Field(default=8, ge=1, le=256, description="Pages fetched in parallel.")
    respect_robots: bool = Field(
        default=True, description="Obey robots.txt (turning it off is logged in lineage)."
    )

    def crawl_policy(self):
        """The runtime's ``CrawlPolicy`` with these bounds."""
        from prefect_autodata.runtime.policy import CrawlPolicy

        return CrawlPolicy(
            width=self.width,
            depth=self.depth,
            pages=self.pages,
            attempts=self.attempts,
            concurrency=self.concurrency,
        )

    def fetch_policy(self):
        """The runtime's ``FetchPolicy`` with this politeness."""
        from prefect_autodata.runtime.policy import FetchPolicy

        return FetchPolicy(rate_limit_per_host=self.rate_limit_per_host, respect_robots=self.respect_robots)

    def apply(self, spec):
        """The spec with this politeness on every request and these bounds on its crawl sources."""
        data = spec.model_dump(mode="json", exclude_none=True)
        data["politeness"] = {
            **data.get("politeness", {}),
            "rate_limit_per_host": self.rate_limit_per_host,
            "respect_robots": self.respect_robots,
        }
        for source in data["sources"]:
            if source.get("kind") == "crawl":
                source["crawl"] = {
                    **(source.get("crawl") or {}),
                    "width": self.width,
                    "depth": self.depth,
                    "pages": self.pages,
                    "attempts": self.attempts,
                    "concurrency": self.concurrency,
                }
        return type(spec).model_validate(data)


def load_crawler_policy(name: str) -> CrawlerPolicy:
    """The saved CrawlerPolicy block ``name`` (one clear error when missing)."""
    return load_block(CrawlerPolicy, name, "--crawler-block")
