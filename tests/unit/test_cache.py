"""The local artifact cache: round trip by ID, content addressing, size (LRU) and TTL eviction."""

from __future__ import annotations

import pytest

from prefect_autodata.errors import ConfigError
from prefect_autodata.ohcache.cache import ArtifactCache, CacheMiss


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_round_trip_by_id(tmp_path):
    events = []
    c = ArtifactCache(tmp_path, on_event=lambda e, d: events.append(e))
    png = bytes(range(256)) * 4
    e1 = c.put("<html>héllo</html>", kind="html", summary="a   page\nwith  spaces", owner="web")
    e2 = c.put(png, kind="screenshot", summary="shot", media_type="image/png")
    assert c.get_text(e1.cache_id) == "<html>héllo</html>"
    assert c.get(e2.cache_id) == png
    assert (
        c.meta(e1.cache_id).summary == "a page with spaces" and c.meta(e2.cache_id).media_type == "image/png"
    )
    assert (
        c.put("<html>héllo</html>", kind="html", summary="again").cache_id == e1.cache_id
    )  # content-addressed
    assert ArtifactCache(tmp_path).get_text(e1.cache_id) == "<html>héllo</html>"  # survives a new process
    assert events.count("cache_put") == 3 and events.count("cache_get") == 2


def test_unknown_ids_and_bad_input(tmp_path):
    c = ArtifactCache(tmp_path)
    with pytest.raises(CacheMiss, match="'c_0000000000000000' is not in the local cache"):
        c.get("c_0000000000000000")
    with pytest.raises(CacheMiss):
        c.get("../../etc/passwd")
    with pytest.raises(ConfigError, match="cache kind 'movie'"):
        c.put("x", kind="movie", summary="")
    with pytest.raises(ConfigError, match="max_bytes"):
        ArtifactCache(tmp_path, max_bytes=0)


def test_size_limit_evicts_least_recently_used(tmp_path):
    clock = Clock()
    c = ArtifactCache(tmp_path, max_bytes=250, clock=clock)
    ids = []
    for i in range(3):
        clock.t += 1
        ids.append(c.put(str(i) * 100, kind="text", summary=f"t{i}").cache_id)
    # 300 bytes > 250: the oldest went
    assert ids[0] not in c and ids[1] in c and ids[2] in c
    clock.t += 1
    c.get(ids[1])  # touch: ids[2] is now least recently used
    clock.t += 1
    ids.append(c.put("3" * 100, kind="text", summary="t3").cache_id)
    assert ids[2] not in c and ids[1] in c and ids[3] in c
    assert c.total_bytes() <= 250
    with pytest.raises(ConfigError, match="exceeds the cache limit"):
        c.put("z" * 251, kind="text", summary="too big")


def test_ttl_expiry(tmp_path):
    clock = Clock()
    c = ArtifactCache(tmp_path, ttl_s=60, clock=clock)
    short = c.put("a", kind="text", summary="", ttl_s=10).cache_id
    normal = c.put("b", kind="text", summary="").cache_id
    clock.t += 30
    with pytest.raises(CacheMiss, match="expired"):
        c.get(short)
    assert c.get_text(normal) == "b"
    clock.t += 31
    assert c.evict() == [normal] and c.entries() == []
