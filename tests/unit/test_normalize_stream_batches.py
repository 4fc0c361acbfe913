"""StreamNormalizer drains its buffer in bounded batches even while other fetch threads keep adding pages."""

from __future__ import annotations

import random
import threading
import time

from prefect_autodata.runtime.normalize import StreamNormalizer
from prefect_autodata.runtime.spec import CollectorSpec

SPEC = CollectorSpec.model_validate(
    {
        "name": "batches",
        "primary_key": ["k"],
        "sources": [
            {
                "kind": "json",
                "request": {"url": "http://127.0.0.1:9/rows"},
                "records": {"jsonpath": "$[*]"},
                "fields": [{"name": "k", "type": "integer", "jsonpath": "$.k"}],
            }
        ],
    }
)


class Sink:
    """Records batch sizes; on its first append other threads add pages (and then wait on the flush)."""

    def __init__(self, rng: random.Random) -> None:
        self.sizes: list[int] = []
        self.keys: list[int] = []
        self.rng = rng
        self.norm: StreamNormalizer | None = None
        self.others: list[threading.Thread] = []

    def append(self, good, parts) -> None:
        self.sizes.append(len(good))
        self.keys += [int(k) for k in good["k"]]
        if len(self.sizes) == 1:
            assert self.norm is not None
            before = self.norm._buffered
            pages = [self.page(1000 + 100 * i) for i in range(self.rng.randint(4, 8))]
            for i, p in enumerate(pages):  # one fetch thread per page, as the runner's pool does
                t = threading.Thread(target=self.norm.add, args=(1 + i, p))
                t.start()
                self.others.append(t)
            deadline = time.monotonic() + 10
            while self.norm._buffered < before + sum(len(p) for p in pages) and time.monotonic() < deadline:
                time.sleep(0.01)

    def page(self, start: int) -> list[dict]:
        return [{"k": start + j} for j in range(self.rng.randint(5, 25))]


def test_batches_stay_bounded_while_threads_add_pages():
    seed = random.randrange(1_000_000)
    rng = random.Random(seed)
    sink = Sink(rng)
    norm = StreamNormalizer(SPEC, sink, batch_rows=7)
    sink.norm = norm
    first = sink.page(0)
    norm.add(0, first)  # >= 7 rows: flushes, and the sink's first append lets another thread add pages
    for t in sink.others:
        t.join(10)
    norm.finish()
    biggest_page = 25
    assert len(sink.sizes) > 2, (seed, sink.sizes)
    assert max(sink.sizes) <= 7 - 1 + biggest_page, (seed, sink.sizes)
    assert len(sink.keys) == len(set(sink.keys)) == norm.fetched, seed  # nothing lost, nothing twice
