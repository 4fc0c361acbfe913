"""LLM endpoint block: key, base URL, model (per role), price table and budgets for the LLM backend."""

from __future__ import annotations

from typing import ClassVar, TypeVar

from prefect.blocks.core import Block
from pydantic import Field, SecretStr

from prefect_autodata.agents.budget import Budget, ModelPrice

LOGO = "https://raw.githubusercontent.com/PrefectHQ/prefect/420d0d6a78bb6df1fc18bcf188fdad43c1d22ea9/assets/block-logos/webhook.png"

B = TypeVar("B", bound=Block)


def load_block(cls: type[B], name: str, option: str = "block") -> B:
    """``cls.load(name)`` with one clear ConfigError naming the block when it is missing or unreadable."""
    from prefect_autodata.errors import ConfigError

    if not name or not name.strip():
        raise ConfigError(f"{option}: empty block name")
    from prefect_autodata.errors import TerminalError

    try:
        return cls.load(name.strip())
    except ValueError as exc:
        raise ConfigError(
            f"{option}: no {cls.get_block_type_name()} block named {name!r} "
            f"(create it in the Prefect UI under Blocks, or with {cls.__name__}(...).save({name!r}))"
        ) from exc
    except Exception as exc:  # the Prefect API is unreachable or answered an error
        raise TerminalError(
            f"{option}: could not load block {name!r}: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        ) from exc


class LLMEndpointCredentials(Block):
    """Credentials and limits for an OpenAI-compatible chat endpoint (OpenAI, Azure, vLLM, Ollama, llama.cpp)."""

    _block_type_name: ClassVar[str] = "Autodata LLM Endpoint Credentials"
    _block_type_slug: ClassVar[str] = "autodata-llm-endpoint-credentials"
    _logo_url: ClassVar[str] = LOGO  # type: ignore[assignment]
    _documentation_url: ClassVar[str] = (
        "https://github.com/prefect-autodata/prefect-autodata/blob/main/docs/blocks.md"  # type: ignore[assignment]
    )
    _description: ClassVar[str] = "API key, base URL, models, prices and budgets for the autodata LLM agents."
    _code_example: ClassVar[str] = """
```python
from prefect_autodata.blocks import LLMEndpointCredentials

llm = LLMEndpointCredentials.load("BLOCK_NAME")
settings = llm.settings()
```
"""

    api_key: SecretStr = Field(description="API key sent as a bearer token (any non-empty value for Ollama).")
    base_url: str | None = Field(
        default=None, description="Endpoint base URL ending in /v1; empty means OpenAI's public API."
    )
    model: str = Field(default="gpt-4o-mini", description="Model used by every role without an override.")
    role_models: dict[str, str] = Field(
        default_factory=dict, description="Per-role model overrides, e.g. {'plan': 'gpt-4o'}."
    )
    prices: dict[str, ModelPrice] = Field(
        default_factory=dict,
        description="Extra model prices in USD per million tokens (merged over the defaults).",
    )
    budget: Budget = Field(
        default_factory=Budget, description="Hard limits: tokens, dollars, steps, wall time."
    )
    stream: bool = Field(default=False, description="Use streaming (SSE) responses.")

    def settings(self):
        """The backend's ``LLMSettings`` (validates role names and the budget)."""
        from prefect_autodata.agents.budget import PriceTable
        from prefect_autodata.agents.llm.config import LLMSettings

        table = PriceTable()
        table.prices.update(self.prices)
        return LLMSettings(
            base_url=self.base_url or None,
            api_key=self.api_key,
            model=self.model,
            role_models=self.role_models,
            prices=table,
            budget=self.budget,
            stream=self.stream,
        )


def load_llm(name: str) -> LLMEndpointCredentials:
    """The saved LLMEndpointCredentials block ``name`` (one clear error when missing)."""
    return load_block(LLMEndpointCredentials, name, "--llm-block")
