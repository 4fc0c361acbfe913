"""The default collector name from a parsed plan (used by the squads and by ``flows.collect``).

It lives in the agents layer so the squads need not import the flow module that runs them
(the squads <-> flows.collect import circle of issue 16).
"""

from __future__ import annotations

import re

from prefect_autodata.agents.request import Request as ParsedInstruction


def default_name(parsed: ParsedInstruction) -> str:
    """A readable collector name from the plan (``aapl-daily-2024``, ``neurips-papers-2017``)."""
    parts: list[str] = []
    if parsed.venue:
        parts.append(parsed.venue.abbr)
    if parsed.track:
        parts.append(parsed.track.split()[0])
    if parsed.all_sp500:
        parts.append("sp500")
    parts += parsed.tickers[:3] + [t.abbr for t in parsed.teams[:2]]
    parts += [p.split()[-1] for p in parsed.players[:3]]
    if parsed.all_teams:
        parts.append("all-teams")
    parts.append(
        {
            "paper": "papers",
            "stock": "daily",
            "nba_team": "nba-team",
            "nba_player": "nba-player",
            "mlb_hitting": "mlb-hitting",
            "mlb_pitching": "mlb-pitching",
        }.get(parsed.kind or "", "data")
    )
    if parsed.dates:
        parts.append(parsed.dates[0].isoformat())
    elif (
        parsed.start_date
        and parsed.end_date
        and (
            parsed.start_date.year != parsed.end_date.year
            or parsed.start_date.month != 1
            or parsed.end_date.month != 12
        )
    ):
        parts += [parsed.start_date.isoformat(), parsed.end_date.isoformat()]
    elif parsed.years:
        parts.append(
            str(parsed.years[0]) if len(parsed.years) == 1 else f"{parsed.years[0]}-{parsed.years[-1]}"
        )
    elif parsed.all_history:
        parts.append("history")
    slug = re.sub(r"[^a-z0-9]+", "-", "-".join(parts).lower()).strip("-")[:63].strip("-")
    return slug or "collector"
