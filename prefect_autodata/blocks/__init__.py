"""Prefect blocks (registered via the prefect.collections entry point)."""
