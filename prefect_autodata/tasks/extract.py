"""The ``extract`` task: raw records -> python step -> typed columns (deterministic, never retried)."""

from __future__ import annotations

from prefect import task

from prefect_autodata.flows.run_collector import extract_step

extract_task = task(extract_step, name="extract", retries=0)
