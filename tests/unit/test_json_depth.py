"""``fetch.json_depth``: the nesting the JSON-depth guard measures, brackets inside strings not counted."""

from __future__ import annotations

import json
import random
import re

import pytest

from prefect_autodata.runtime.fetch import json_depth

_TOKENS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[{]+|[\]}]+')


def token_loop_depth(body: bytes) -> int:
    """The guard's former implementation (a Python loop over tokens), as the reference."""
    depth = best = 0
    for m in _TOKENS.finditer(body):
        tok = m.group()
        if tok[0] in b"[{":
            depth += len(tok)
            best = max(best, depth)
        elif tok[0] in b"]}":
            depth -= len(tok)
    return best


def random_doc(rng: random.Random, depth: int) -> object:
    if depth <= 0 or rng.random() < 0.2:
        return rng.choice([1, 2.5, None, True, "a[b", 'q"}{"', "\\", "]]]", "{x}", "plain"])
    if rng.random() < 0.5:
        return [random_doc(rng, depth - 1) for _ in range(rng.randint(0, 3))]
    return {f"k{i}[": random_doc(rng, depth - 1) for i in range(rng.randint(0, 3))}


@pytest.mark.parametrize("seed", range(5))
def test_depth_matches_the_token_loop_on_random_documents(seed):
    rng = random.Random(seed)
    for _ in range(200):
        body = json.dumps(random_doc(rng, rng.randint(0, 12))).encode()
        assert json_depth(body) == token_loop_depth(body), body


def test_depth_matches_the_token_loop_on_truncated_documents():
    rng = random.Random(11)
    for _ in range(300):
        body = json.dumps(random_doc(rng, rng.randint(1, 10))).encode()
        cut = body[: rng.randint(0, len(body))]  # malformed: maybe an unterminated string
        assert json_depth(cut) == token_loop_depth(cut), cut


def test_brackets_in_strings_and_escapes_do_not_count():
    assert json_depth(b'{"a": "[[[[{{{{", "b": "\\"[[["}') == 1
    assert json_depth(b"[[[[]]]]") == 4
    assert json_depth(b'"just a string [["') == 0
    assert json_depth(b"") == 0
    assert json_depth(b"[" * 300 + b"]" * 300) == 300
    assert json_depth(b'["a\\\\", "[", "\\\\\\"[", ["\\\\"]]') == 2  # escaped backslashes, then quotes
    assert json_depth(b"]]]]") == 0  # malformed: never negative
