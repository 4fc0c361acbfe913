"""One retry layer: the fetcher retries a request, the Prefect fetch task does not re-run the fetch.

A loopback API that always answers 503 counts its hits; a real Prefect flow (temporary local server)
runs the fetch task. Each request is tried 1 + max_retries times, not that times the task's retries.
"""

from __future__ import annotations

import pytest
from prefect import flow
from prefect.settings import PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS, temporary_settings
from starlette.applications import Starlette
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Route

from prefect_autodata.errors import TransientError
from prefect_autodata.runtime.spec import CollectorSpec
from prefect_autodata.sandbox.server import free_port, start_in_thread, stop_thread
from prefect_autodata.tasks.fetch import fetch_task


@pytest.fixture
def always_503():
    hits = {"items": 0}

    def items(request):
        hits["items"] += 1
        return JSONResponse({"error": "busy"}, status_code=503)

    def robots(request):
        return PlainTextResponse("not here", status_code=404)

    app = Starlette(routes=[Route("/items", items), Route("/robots.txt", robots)])
    port = free_port()
    server, thread = start_in_thread(app, "127.0.0.1", port, name="busy")
    yield f"http://127.0.0.1:{port}", hits
    stop_thread(server, thread)


def test_a_failing_url_is_tried_max_retries_plus_one_times_in_a_flow(always_503):
    base, hits = always_503
    spec = CollectorSpec.model_validate(
        {
            "name": "busy-api",
            "base_url": base,
            "primary_key": ["id"],
            "politeness": {"max_retries": 2, "backoff_base": 0, "rate_limit_per_host": 0},
            "sources": [
                {
                    "kind": "json",
                    "request": {"url": "{base_url}/items"},
                    "records": {"jsonpath": "$.items[*]"},
                    "fields": [{"name": "id", "type": "integer", "jsonpath": "$.id"}],
                }
            ],
        }
    )

    @flow
    def fetch_only():
        return fetch_task(spec, base_url=base, today=None, cursor=None)

    assert fetch_task.retries == 0
    # the temporary API server may take a while to start on a loaded 2-core machine
    with temporary_settings({PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS: 300}):
        with pytest.raises(TransientError):
            fetch_only()
    assert hits["items"] == 1 + spec.politeness.max_retries
