"""The layout zoo: randomised sites presenting twelve kinds of records (a generalisation benchmark)."""
