"""Replaying the recorded conversation: the ablations change what agents read, in the expected direction."""

from __future__ import annotations

from pathlib import Path

from prefect_autodata.agents.replay import Recording, replay
from prefect_autodata.ohcache.ablation import A3, A4, A5, BROADCAST_INLINE, OHCACHE

REC = Path(__file__).resolve().parents[1] / "data" / "recordings" / "sp500_research_dev.yaml"


def test_ablations_on_recorded_conversation(tmp_path):
    rec = Recording.load(REC)
    # synthetic evidence of a realistic size (the benchmark fetches the real pages from the sandbox)
    contents = {
        name: (rec.inline[a.inline] if a.inline else f"<p>{name} row</p>\n" * 400)
        for name, a in rec.artifacts.items()
    }
    totals = {}
    for n, ab in enumerate((OHCACHE, A3, A4, A5, BROADCAST_INLINE)):
        s = replay(rec, contents, ab, tmp_path / str(n))
        notices = len(rec.artifacts) if ab.cache else 0  # one notice per stored artifact, only with the cache
        assert s["edges"] == len(rec.turns) - 1 + notices  # every turn but the manager's "finish" is an edge
        totals[ab.name] = s["context_tokens"]
    total = {k: sum(v.values()) for k, v in totals.items()}
    assert total[OHCACHE.name] < total[A3.name] < total[BROADCAST_INLINE.name]
    assert (
        total[OHCACHE.name] < total[A4.name]
        and total[OHCACHE.name] < total[A5.name] < total[BROADCAST_INLINE.name]
    )
    # routing: under OHCache the engineering agent never reads the research squad's messages
    assert totals[OHCACHE.name]["engineering"] < totals[A3.name]["engineering"]
    assert totals[OHCACHE.name]["plan"] == totals[A5.name]["plan"]  # plan runs first: empty inbox either way
