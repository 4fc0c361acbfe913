"""The ``land`` task: one DuckDB transaction for data, quarantine, lineage and the run's status."""

from __future__ import annotations

from prefect import task

from prefect_autodata.flows.run_collector import land_step

land_task = task(land_step, name="land", retries=0)
