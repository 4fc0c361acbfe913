"""Dask fan-out for big collections (e.g. a 10-year backfill of 503 tickers): one task per chunk of the
spec's partition parameter on a ``prefect-dask`` DaskTaskRunner, one writer.

Streamed (a spec without a ``python`` step): each worker fetches and normalizes its chunk into Parquet
files (``runtime.pipeline.extract_partition``, ``load.PartitionFiles``: one typed batch at a time, the
destination never opened); this process is the one writer: it stages the files in chunk order as each
chunk completes (``load.Stage.append_parquet``) and merges the stage in one transaction, so neither a
worker nor the writer holds the whole batch, and lineage, checks and crash consistency are those of
``run_collector``. The files go to a folder beside the destination's stage (``<db folder>/staging/``):
workers on other machines need that folder on a shared filesystem. A spec with a ``python`` step (it sees
every record) fans out its fetches and lands the merged records as one batch.
A ``from_source`` parameter (tickers read from a listing page) is resolved first, then partitioned.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from prefect_autodata.errors import ConfigError
from prefect_autodata.runtime.spec import CollectorSpec

#: a chunk's page positions are shifted by its index times this (a chunk's own positions stay below it),
#: so the stage orders rows as the requests of one process would (the last of a repeated key wins)
CHUNK_STRIDE = 10**15


def backfill_spec(start: str, end: str, name: str = "sp500-backfill") -> CollectorSpec:
    """The shipped daily S&P 500 collector widened to a date range (one request per ticker)."""
    from prefect_autodata.deployments.examples import load_example

    data = load_example("sp500-daily").model_dump(mode="json", exclude_none=True)
    data.update(name=name, table=name.replace("-", "_"), description=f"S&P 500 daily bars {start}..{end}")
    prices = data["sources"][-1]
    prices["request"]["params"] = {"startDate": "{start}", "endDate": "{end}"}
    prices["params"].update(start={"date": start}, end={"date": end})
    data["politeness"] = {"rate_limit_per_host": 0, "concurrency_per_host": 8}
    return CollectorSpec.parse(data)


def partition_param(spec: CollectorSpec) -> tuple[str, str]:
    """(source, parameter) to fan out over: the emitting source's first list-valued parameter."""
    for s in spec.sources:
        if not s.emit:
            continue
        for pname, p in s.params.items():
            if p.values is not None or p.from_source is not None or p.range is not None:
                return s.name, pname
    raise ConfigError(f"spec {spec.name!r} has no list parameter to fan out over")


def _values(
    spec: CollectorSpec, source: str, pname: str, *, base_url: str | None, today: date | None
) -> list:
    from prefect_autodata.flows.run_collector import fetch_step

    p = next(s for s in spec.sources if s.name == source).params[pname]
    if p.values is not None:
        return list(p.values)
    if p.range is not None:
        return list(range(p.range[0], p.range[1] + 1))
    upstream = spec.model_dump(mode="json", exclude_none=True)
    keep = [s for s in upstream["sources"] if s["name"] == p.from_source]
    keep[0]["emit"] = True
    upstream.update(sources=keep, incremental=None, primary_key=[p.field], columns=[], python=None)
    collected, _, _ = fetch_step(CollectorSpec.parse(upstream), base_url=base_url, today=today, cursor=None)
    return list(dict.fromkeys(v for v in collected.outputs[p.from_source].values(p.field) if v is not None))


def _chunk_spec(spec: CollectorSpec, source: str, pname: str, values: list) -> dict:
    """The spec reduced to the partitioned source, its parameter pinned to one chunk of values."""
    data = spec.model_dump(mode="json", exclude_none=True)
    others = [s["name"] for s in data["sources"] if s["emit"] and s["name"] != source]
    if others:
        raise ConfigError(f"fan-out needs one emitting source; {spec.name!r} also emits {others}")
    data["sources"] = [s for s in data["sources"] if s["name"] == source]
    data["sources"][0]["params"][pname] = {"values": values}
    return data


@task(name="fetch-chunk", cache_policy=NO_CACHE)
def fetch_chunk(spec_data: dict, base_url: str | None, today: date | None, cursor: Any):
    """A chunk's raw records, back to the flow (a spec with a ``python`` step: it sees every record)."""
    from prefect_autodata.flows.run_collector import fetch_step

    return fetch_step(CollectorSpec.parse(spec_data), base_url=base_url, today=today, cursor=cursor)


# No Prefect retries: the fetcher retries each request (one retry layer, issue 16); a chunk that still
# fails fails the run, and the next run stages everything again.
@task(name="extract-chunk", cache_policy=NO_CACHE)
def extract_chunk(
    spec_data: dict, folder: str, prefix: str, base_url: str | None, today: date | None, cursor: Any
) -> dict:
    """On a worker: fetch and normalize one chunk into Parquet files in ``folder``; returns their paths
    and counts (small: the rows stay in the files)."""
    from prefect_autodata.runtime.pipeline import extract_partition

    return extract_partition(
        CollectorSpec.parse(spec_data), folder, prefix, base_url=base_url, today=today, cursor=cursor
    )


def _write_chunks(futures: list, sink: Any) -> tuple[Any, list, int]:
    """The one writer: each chunk's files into the run's stage, in chunk order, as soon as that chunk is
    done (later chunks keep running); its counts into the normalizer. Files are removed once staged."""
    from prefect_autodata.runtime.runner import Collected

    stage = sink.sink
    issues: list = []
    log: list[str] = []
    sources: list = []
    requests = 0
    for k, future in enumerate(futures):
        part = future.result()
        for f in part["files"]:
            stage.append_parquet(f, offset=k * CHUNK_STRIDE)
            Path(f).unlink(missing_ok=True)
        sink.absorb(part["tally"])
        issues += part["fetch_issues"]
        log += part["request_log"]
        sources += part["sources"]
        requests += part["requests"]
    return Collected({}, issues, log, {}, stream=sink), sources, requests


def _merge(parts: list) -> tuple[Any, list, int]:
    from prefect_autodata.runtime.runner import Collected

    merged: Collected | None = None
    sources: list = []
    requests = 0
    for collected, srcs, n in parts:
        sources += srcs
        requests += n
        if merged is None:
            merged = replace(collected, outputs=dict(collected.outputs))
            continue
        for name, out in collected.outputs.items():
            have = merged.outputs.get(name)
            if have is None:
                merged.outputs[name] = out
                continue
            merged.outputs[name] = replace(
                have,
                rows=have.rows + out.rows,
                frames=have.frames + out.frames,
                pages=have.pages + out.pages,
                requests_planned=have.requests_planned + out.requests_planned,
                stops=have.stops + out.stops,
            )
        merged.issues += collected.issues
        merged.request_log += collected.request_log
    assert merged is not None
    return merged, sources, requests


def fanout_fetch(chunks: int):
    """A ``Steps.fetch`` that resolves the partition values, then submits one task per chunk.

    With a ``sink`` (the run's ``StreamNormalizer`` over its ``load.Stage``: ``run_steps`` passes one to
    a fetch that takes it) the chunks stream through Parquet files into the stage; without one (a spec
    with a ``python`` step) their records come back and are merged in memory."""

    def fetch(spec: CollectorSpec, *, base_url, today, cursor, fetcher=None, sink=None):
        source, pname = partition_param(spec)
        values = _values(spec, source, pname, base_url=base_url, today=today)
        if not values:
            raise ConfigError(f"{source}.{pname}: no values to fan out over")
        size = max(1, -(-len(values) // chunks))
        specs = [_chunk_spec(spec, source, pname, values[i : i + size]) for i in range(0, len(values), size)]
        if sink is None:
            futures = [fetch_chunk.submit(data, base_url, today, cursor) for data in specs]
            return _merge([f.result() for f in futures])
        stage_dir = sink.sink.path.parent
        stage_dir.mkdir(parents=True, exist_ok=True)
        folder = Path(tempfile.mkdtemp(prefix=f"{sink.sink.path.stem}-chunks-", dir=stage_dir))
        futures: list = []
        try:
            futures = [
                extract_chunk.submit(data, str(folder), f"c{k:05d}", base_url, today, cursor)
                for k, data in enumerate(specs)
            ]
            return _write_chunks(futures, sink)
        finally:
            for f in futures:  # a failed chunk: the others finish writing before their folder goes
                f.wait()
            shutil.rmtree(folder, ignore_errors=True)

    return fetch


def run_fanout(
    spec: CollectorSpec | str | dict,
    destination: str,
    *,
    mirror: str | None = None,
    workers: int = 2,
    chunks: int | None = None,
    checks: dict | None = None,
) -> dict:
    """Run a collector with its fetches fanned out on a local Dask cluster (``workers`` processes)."""
    try:
        from prefect_dask import DaskTaskRunner
    except ImportError as exc:  # an optional extra
        raise ConfigError(
            "the Dask runner needs the 'dask' extra: pip install 'prefect-autodata[dask]'"
        ) from exc

    runner = DaskTaskRunner(cluster_kwargs={"n_workers": workers, "threads_per_worker": 2, "processes": True})
    flow_fn = run_collector_dask.with_options(task_runner=runner)
    if isinstance(spec, CollectorSpec):  # flow parameters are data
        import yaml

        spec = yaml.safe_load(spec.to_yaml())
    with _shared_api():
        return flow_fn(
            spec=spec, destination=destination, mirror=mirror, chunks=chunks or workers * 8, checks=checks
        )


@contextlib.contextmanager
def _shared_api() -> Iterator[None]:
    """Without a configured API, one local Prefect server for this process and its Dask workers
    (each worker process would otherwise start an ephemeral server of its own)."""
    from prefect.settings import PREFECT_API_URL, temporary_settings

    if PREFECT_API_URL.value():
        yield
        return
    from prefect.server.api.server import SubprocessASGIServer

    server = SubprocessASGIServer()
    server.start(timeout=300)
    previous = os.environ.get("PREFECT_API_URL")
    os.environ["PREFECT_API_URL"] = server.api_url  # inherited by the worker processes
    try:
        with temporary_settings(updates={PREFECT_API_URL: server.api_url}):
            yield
    finally:
        if previous is None:
            os.environ.pop("PREFECT_API_URL", None)
        else:
            os.environ["PREFECT_API_URL"] = previous
        server.stop()


@flow(name="run_collector_dask", log_prints=True)
def run_collector_dask(
    spec: str | dict,
    destination: str,
    mirror: str | None = None,
    chunks: int = 16,
    checks: dict | None = None,
) -> dict:
    """``run_collector`` with a fanned-out fetch (use with a DaskTaskRunner); same landing and lineage."""
    from prefect_autodata.flows.run_collector import Steps, extract_step, land_step, resolve_spec, run_in_flow
    from prefect_autodata.runtime.spec import mirrored

    resolved = resolve_spec(spec)
    if mirror:
        resolved = mirrored(resolved, mirror)
    steps = Steps(fetch=fanout_fetch(chunks), extract=extract_step, land=land_step)
    return run_in_flow(resolved, destination, steps, checks=checks)
