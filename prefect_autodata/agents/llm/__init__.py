"""The LLM backend (openai client against any OpenAI-compatible endpoint)."""

from prefect_autodata.agents.llm.agent import LLMAgent, LLMBackend, LoopDetected
from prefect_autodata.agents.llm.client import LLMClient
from prefect_autodata.agents.llm.config import LLMSettings, load_profile

__all__ = ["LLMAgent", "LLMBackend", "LLMClient", "LLMSettings", "LoopDetected", "load_profile"]
