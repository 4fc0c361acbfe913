"""Pictures of the hypergraph: Mermaid text (for a Prefect markdown artifact), SVG, and PNG via Chromium.

Edges are aggregated per (source, target) with a message count, so a long run stays readable;
cache notices are drawn from the owner to a single ``cache`` node instead of to every agent.
"""

from __future__ import annotations

import html
import math
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from prefect_autodata.ohcache.messages import Role


def _pairs(edges: Iterable[dict[str, Any]]) -> Counter[tuple[str, str]]:
    """(source, target) → message count, from trace ``edge`` records or ``Hyperedge.to_record()``."""
    pairs: Counter[tuple[str, str]] = Counter()
    for e in edges:
        if e.get("event", "edge") != "edge":
            continue
        if e.get("kind") == "cache_notice":
            pairs[(e["source"], "cache")] += 1
            continue
        for t in e["targets"]:
            pairs[(e["source"], t)] += 1
    return pairs


def to_mermaid(edges: Iterable[dict[str, Any]]) -> str:
    """A Mermaid flowchart: one node per agent, one arrow per (source, target) labelled with the count."""
    pairs = _pairs(edges)
    lines = ["flowchart LR"]
    nodes = sorted({n for p in pairs for n in p}, key=_order)
    for n in nodes:
        lines.append(f"  {n}[({n})]" if n == "cache" else f"  {n}[{n}]")
    for (s, t), n in sorted(pairs.items(), key=lambda kv: (_order(kv[0][0]), _order(kv[0][1]))):
        arrow = "-.->" if t == "cache" else "-->"
        lines.append(f"  {s} {arrow}|{n}| {t}")
    return "\n".join(lines)


def _order(name: str) -> int:
    names = [r.value for r in Role] + ["cache"]
    return names.index(name) if name in names else len(names)


def to_svg(edges: Iterable[dict[str, Any]], size: int = 640) -> str:
    """A self-contained SVG: agents on a circle, arrows with counts (no external fonts or scripts)."""
    pairs = _pairs(edges)
    nodes = sorted({n for p in pairs for n in p}, key=_order) or [r.value for r in Role]
    c, radius = size / 2, size / 2 - 70
    pos = {
        n: (
            c + radius * math.cos(2 * math.pi * i / len(nodes) - math.pi / 2),
            c + radius * math.sin(2 * math.pi * i / len(nodes) - math.pi / 2),
        )
        for i, n in enumerate(nodes)
    }
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}">',
        '<defs><marker id="a" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto">'
        '<path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>',
        f'<rect width="{size}" height="{size}" fill="white"/>',
    ]
    for (s, t), n in pairs.items():
        (x1, y1), (x2, y2) = pos[s], pos[t]
        dx, dy = x2 - x1, y2 - y1
        d = math.hypot(dx, dy) or 1
        ox, oy = -dy / d * 6, dx / d * 6  # offset so a↔b arrows do not overlap
        sx, sy = x1 + dx / d * 36 + ox, y1 + dy / d * 36 + oy
        ex, ey = x2 - dx / d * 36 + ox, y2 - dy / d * 36 + oy
        dash = ' stroke-dasharray="4 3"' if t == "cache" else ""
        out.append(
            f'<line x1="{sx:.1f}" y1="{sy:.1f}" x2="{ex:.1f}" y2="{ey:.1f}" stroke="#555" stroke-width="{1 + min(n, 6) * 0.4:.1f}"{dash} marker-end="url(#a)"/>'
        )
        out.append(
            f'<text x="{(sx + ex) / 2:.1f}" y="{(sy + ey) / 2:.1f}" font-family="sans-serif" font-size="11" fill="#a33">{n}</text>'
        )
    for n, (x, y) in pos.items():
        fill = "#fff3c4" if n == "cache" else "#dbe9ff"
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="34" fill="{fill}" stroke="#335"/>')
        out.append(
            f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle" font-family="sans-serif" font-size="12">{html.escape(n)}</text>'
        )
    out.append("</svg>")
    return "\n".join(out)


def to_png(edges: Iterable[dict[str, Any]], path: Path | str, size: int = 640) -> Path:
    """Render the SVG to PNG with the project's Chromium (no image library needed)."""
    from playwright.sync_api import sync_playwright

    from prefect_autodata.runtime.browser import launch_chromium

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    svg = to_svg(edges, size)
    with sync_playwright() as pw:
        browser = launch_chromium(pw, marker="ohcache-render")
        try:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(f"<html><body style='margin:0'>{svg}</body></html>")
            page.screenshot(path=str(path), clip={"x": 0, "y": 0, "width": size, "height": size})
        finally:
            browser.close()
    return path
