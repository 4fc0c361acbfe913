"""Compatibility name of ``runtime.load`` (staging, merge, lineage): every public name is re-exported."""

from __future__ import annotations

from prefect_autodata.runtime.load import (  # noqa: F401 - re-exported
    LOCK_WAIT_S,
    DatabaseLocked,
    LandingError,
    LandingStats,
    Stage,
    _declared,
    _land_quarantine,
    _same_type,
    _spill,
    begin_run,
    connect,
    fail_run,
    land_frame,
    land_run,
    lock_wait_s,
    previous_profile,
    q,
    read_cursor,
    table_columns,
)
