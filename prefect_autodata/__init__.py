"""prefect-autodata: one instruction in, a validated dataset, a reusable collector and a Prefect deployment out."""

__version__ = "0.1.0"
