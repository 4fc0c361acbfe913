"""Context tokens per agent for one recorded research + development conversation, OHCache vs ablations.

Replays tests/data/recordings/sp500_research_dev.yaml through the real runtime (hypergraph,
routing, formatter, local cache) with artifacts fetched live from a sandbox on 127.0.0.1, under
OHCache, A3 (broadcast), A4 (no formatter), A5 (no cache: artifacts inline) and A3+A5. Tokens are
counted with tiktoken cl100k_base: each time an agent runs, its whole rendered inbox, plus every
artifact it fetches by ID.

    .venv/bin/python benchmarks/ohcache_tokens.py [--markdown]
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import httpx

from prefect_autodata.agents.replay import Recording, replay
from prefect_autodata.ohcache.ablation import A3, A4, A5, BROADCAST_INLINE, OHCACHE
from prefect_autodata.ohcache.messages import Role
from prefect_autodata.sandbox.server import SandboxServer
from prefect_autodata.sandbox.sites.tiingo import DEMO_TOKEN

RECORDING = Path(__file__).resolve().parents[1] / "tests" / "data" / "recordings" / "sp500_research_dev.yaml"


def fetch_artifacts(rec: Recording, base: str) -> dict[str, str]:
    out: dict[str, str] = {}
    with httpx.Client(timeout=30) as client:
        for name, art in rec.artifacts.items():
            if art.inline:
                out[name] = rec.inline[art.inline].replace("{base}", base)
                continue
            r = client.get(base + art.path.replace("${TIINGO_TOKEN}", DEMO_TOKEN))
            r.raise_for_status()
            out[name] = r.text
    return out


def main() -> None:
    markdown = "--markdown" in sys.argv
    rec = Recording.load(RECORDING)
    with SandboxServer() as sb:
        contents = fetch_artifacts(rec, sb.base_url)
    sizes = ", ".join(f"{k}={len(v) / 1024:.0f} KiB" for k, v in contents.items())
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n, ab in enumerate((OHCACHE, A3, A4, A5, BROADCAST_INLINE)):
            rows[ab.name] = replay(rec, contents, ab, Path(tmp) / str(n))["context_tokens"]
    roles = [r.value for r in Role]
    header = ["setting", *roles, "total"]
    print(f"recording: {rec.name} ({len(rec.turns)} turns); artifacts: {sizes}")
    sep = " | " if markdown else "  "
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
    else:
        print(sep.join(f"{h:>22}" if i == 0 else f"{h:>11}" for i, h in enumerate(header)))
    for name, tokens in rows.items():
        cells = [name, *(str(tokens.get(r, 0)) for r in roles), str(sum(tokens.values()))]
        if markdown:
            print("| " + " | ".join(cells) + " |")
        else:
            print(sep.join(f"{c:>22}" if i == 0 else f"{c:>11}" for i, c in enumerate(cells)))
    total = {k: sum(v.values()) for k, v in rows.items()}
    for ab in (A3, A4, A5):
        print(f"{ab.name}: {total[ab.name] / total[OHCACHE.name]:.2f}x OHCache")
    print(
        f"ohcache context-token reduction vs broadcast+inline: {total[BROADCAST_INLINE.name] / total[OHCACHE.name]:.2f}"
    )


if __name__ == "__main__":
    main()
