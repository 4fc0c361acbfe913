"""LLM endpoint settings: from the ``LLMEndpointCredentials`` block or from environment variables.

Any OpenAI-compatible endpoint works (OpenAI, Azure's OpenAI-compatible route, vLLM, Ollama,
llama.cpp server): the base URL, the key and the model are all that differ.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from importlib import resources
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, SecretStr

from prefect_autodata.agents.budget import Budget, PriceTable
from prefect_autodata.errors import ConfigError
from prefect_autodata.ohcache.messages import Role

ENV_BASE_URL = "AUTODATA_LLM_BASE_URL"
ENV_API_KEY = "AUTODATA_LLM_API_KEY"
ENV_MODEL = "AUTODATA_LLM_MODEL"


class LLMSettings(BaseModel):
    """Everything the LLM backend needs; the key stays a SecretStr until the client is built."""

    model_config = ConfigDict(extra="forbid")

    base_url: str | None = Field(default=None, description="None = OpenAI's public endpoint.")
    api_key: SecretStr
    model: str = Field(min_length=1)
    role_models: dict[Role, str] = Field(default_factory=dict)
    prices: PriceTable = Field(default_factory=PriceTable)
    budget: Budget = Field(default_factory=Budget)
    timeout_s: float = Field(default=60.0, gt=0)
    max_retries: int = Field(default=4, ge=0, description="Retries on 429/5xx/connection errors.")
    backoff_base_s: float = Field(default=0.5, ge=0)
    backoff_max_s: float = Field(default=30.0, ge=0)
    max_format_retries: int = Field(
        default=2, ge=0, description="Re-asks after invalid JSON or bad tool arguments."
    )
    max_tool_rounds: int = Field(default=12, ge=1)
    loop_threshold: int = Field(
        default=3, ge=2, description="Same tool call + same arguments this often = a loop."
    )
    stream: bool = False
    structured_output: Literal["auto", "json_schema", "off"] = Field(
        default="auto",
        description="Ask for a JSON-Schema response_format. json_schema = on every request (an endpoint "
        "that refuses it gets validated JSON from then on); auto = so on OpenAI's own API, elsewhere only on "
        "requests without tools (servers such as vLLM constrain the whole reply to the schema, so a model "
        "asked for it never calls a tool); off = never (validated JSON with a repair turn).",
    )

    @property
    def openai_hosted(self) -> bool:
        """Whether the endpoint is OpenAI's own API (or Azure's), which keeps tool calls and schema apart."""
        from urllib.parse import urlsplit

        host = urlsplit(self.base_url).hostname or "" if self.base_url else "api.openai.com"
        return host == "openai.com" or host.endswith((".openai.com", ".openai.azure.com"))

    def model_for(self, role: Role | str) -> str:
        return self.role_models.get(Role(role), self.model)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides) -> LLMSettings:
        """Read AUTODATA_LLM_BASE_URL / AUTODATA_LLM_API_KEY / AUTODATA_LLM_MODEL."""
        env = os.environ if env is None else env
        key = env.get(ENV_API_KEY, "").strip()
        model = env.get(ENV_MODEL, "").strip()
        if not key:
            raise ConfigError(
                f"no LLM API key: set {ENV_API_KEY} (any non-empty value for local servers such as Ollama) "
                "or configure an LLMEndpointCredentials block"
            )
        if not model:
            raise ConfigError(
                f"no LLM model: set {ENV_MODEL} (e.g. gpt-4o-mini, or the name your vLLM/Ollama serves)"
            )
        return cls(base_url=env.get(ENV_BASE_URL) or None, api_key=SecretStr(key), model=model, **overrides)


class RoleProfile(BaseModel):
    """A versioned role prompt (``agents/prompts/<role>.yaml``)."""

    version: int = Field(ge=1)
    role: Role
    system: str = Field(min_length=1)


def load_profile(role: Role | str) -> RoleProfile:
    role = Role(role)
    path = resources.files("prefect_autodata.agents").joinpath("prompts", f"{role.value}.yaml")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError(
            f"no prompt profile for role {role.value!r} at agents/prompts/{role.value}.yaml"
        ) from exc
    profile = RoleProfile.model_validate(data)
    if profile.role != role:
        raise ConfigError(f"agents/prompts/{role.value}.yaml declares role {profile.role.value!r}")
    return profile
