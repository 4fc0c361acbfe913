"""agents/llm."""
