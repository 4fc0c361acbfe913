"""sandbox/sites."""
