"""The dry run and the real run normalize the same way: a spec with a ``python`` step gives the same frame.

A JSON API served here on 127.0.0.1 (records generated in the test). The python step drops rows, derives a
column the source does not have and renames a value; before normalize was shared the dry run skipped the
step, so it reported the derived column empty and sampled rows production never lands.
"""

from __future__ import annotations

import random

import pytest
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

from prefect_autodata.flows.run_collector import extract_step
from prefect_autodata.runtime.columns import FETCHED_AT
from prefect_autodata.runtime.fetch import Fetcher
from prefect_autodata.runtime.normalize import normalize
from prefect_autodata.runtime.policy import FetchPolicy
from prefect_autodata.runtime.runner import collect, dry_run
from prefect_autodata.runtime.spec import CollectorSpec
from prefect_autodata.sandbox.server import free_port, start_in_thread, stop_thread

CODE = """
def transform(rows):
    out = []
    for r in rows:
        if int(r["n"]) % 3 == 0:
            continue  # dropped by the step
        r["label"] = r["name"].upper() + "-" + str(r["n"])
        r["n"] = str(int(r["n"]) * 10)
        out.append(r)
    return out
"""


@pytest.fixture
def api():
    rng = random.Random(16)
    items = [
        {"id": i, "name": rng.choice(["amber", "birch", "cedar"]), "n": rng.randint(1, 99)} for i in range(12)
    ]

    def listing(request):
        return JSONResponse({"items": items})

    port = free_port()
    server, thread = start_in_thread(
        Starlette(routes=[Route("/items", listing)]), "127.0.0.1", port, name="pipe"
    )
    yield f"http://127.0.0.1:{port}", items
    stop_thread(server, thread)


def spec_for(base: str) -> CollectorSpec:
    return CollectorSpec.model_validate(
        {
            "name": "pipe-python",
            "base_url": base,
            "primary_key": ["id"],
            "sources": [
                {
                    "kind": "json",
                    "request": {"url": "{base_url}/items"},
                    "records": {"jsonpath": "$.items[*]"},
                    "fields": [
                        {"name": "id", "type": "integer", "jsonpath": "$.id"},
                        {"name": "name", "jsonpath": "$.name"},
                        {"name": "n", "type": "integer", "jsonpath": "$.n"},
                        {"name": "label", "jsonpath": "$.label"},  # no such key: only the step fills it
                    ],
                }
            ],
            "python": {"code": CODE, "timeout_s": 60},
        }
    )


def test_dry_run_and_real_run_produce_the_same_frame_with_a_python_step(api):
    base, items = api
    spec = spec_for(base)
    with Fetcher(FetchPolicy(rate_limit_per_host=0), {"127.0.0.1"}) as fetcher:
        real = extract_step(spec, collect(spec, fetcher, base_url=base))[0].good
        dry = dry_run(spec, fetcher=fetcher, base_url=base, max_pages=5, max_requests=5)
        again = normalize(spec, collect(spec, fetcher, base_url=base))

    kept = [it for it in items if it["n"] % 3]
    assert len(real) == len(kept) and set(real["id"]) == {it["id"] for it in kept}
    assert list(real["label"]) == [f"{it['name'].upper()}-{it['n']}" for it in kept]
    assert list(real["n"]) == [it["n"] * 10 for it in kept]

    assert dry.ok, dry.issues
    assert dry.rows == len(items)  # records read, as the real run counts rows_fetched
    assert dry.fill_rates["label"] == 1.0
    expected = real.head(5).drop(columns=[FETCHED_AT]).astype(object).to_dict("records")
    assert dry.sample == [{k: (str(v) if v is not None else None) for k, v in r.items()} for r in expected]
    assert again.frame.good.drop(columns=[FETCHED_AT]).equals(real.drop(columns=[FETCHED_AT]))


def test_a_failing_python_step_is_a_dry_run_issue_not_a_crash(api):
    base, _ = api
    spec = spec_for(base).model_copy(
        update={"python": spec_for(base).python.model_copy(update={"code": "x = ("})}
    )
    with Fetcher(FetchPolicy(rate_limit_per_host=0), {"127.0.0.1"}) as fetcher:
        rep = dry_run(spec, fetcher=fetcher, base_url=base)
    assert not rep.ok
    assert [i.kind for i in rep.issues] == ["python_error"]
