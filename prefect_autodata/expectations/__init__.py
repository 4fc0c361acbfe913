"""expectations."""
