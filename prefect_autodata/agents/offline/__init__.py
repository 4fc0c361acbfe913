"""agents/offline."""
