"""Where the sandbox finds its Instruct2DS records.

Resolution: ``AUTODATA_DATA_DIR`` when set, else ``../shared/instruct2ds`` beside the repository
(the real records, present on developer machines and CI). A directory that lacks any of the five
tables counts as absent, and then the sandbox serves generated sample records of the same schemas
(``sandbox.generate``, deterministic) -- so a fresh clone works on its own, and every page served
from them says so (``sample_note``). The real records are public data from outside and are never
copied into the repository.
"""

from __future__ import annotations

import os
import threading
from functools import cache
from pathlib import Path

import pandas as pd

TABLES = ("papers", "stocks", "nba_teams", "nba_players", "mlb_teams")
SHARED_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "instruct2ds"
# What data_dir() names when the records are generated: a key for caches, never a real directory.
GENERATED = Path("<generated sample records>")
_lock = threading.Lock()


def _complete(directory: Path) -> bool:
    return all((directory / f"{name}.parquet").is_file() for name in TABLES)


def real_dir() -> Path | None:
    """The directory holding the real tables, or None when they are absent (generated records then)."""
    return _resolve(os.environ.get("AUTODATA_DATA_DIR") or "")


@cache
def _resolve(env: str) -> Path | None:
    """Checked once per value of the variable: pages and caches ask on every request."""
    candidate = Path(env) if env else SHARED_DIR
    return candidate if _complete(candidate) else None


def data_dir() -> Path:
    """The real tables' directory, or ``GENERATED`` (also the cache key of everything built from them)."""
    return real_dir() or GENERATED


def is_generated() -> bool:
    """True when the sandbox serves generated sample records instead of the real ones."""
    return real_dir() is None


def is_full_set() -> bool:
    """True when the real Instruct2DS records are served."""
    return not is_generated()


def describe() -> str:
    """One line saying which records are served (for summaries and logs)."""
    real = real_dir()
    if real is None:
        return "generated sample records (no Instruct2DS data found; set AUTODATA_DATA_DIR)"
    return f"Instruct2DS records from {real}"


def sample_note() -> str:
    """The footer line of pages served from generated records ("" for the real ones)."""
    if not is_generated():
        return ""
    return "Sample data: these records are generated samples, not real ones."


@cache
def _load(directory: str, name: str) -> pd.DataFrame:
    if directory == str(GENERATED):
        from prefect_autodata.sandbox import generate

        return generate.table(name)
    return pd.read_parquet(Path(directory) / f"{name}.parquet")


@cache
def _load_columns(directory: str, name: str, columns: tuple[str, ...]) -> pd.DataFrame:
    if directory == str(GENERATED):
        return _load(directory, name)[list(columns)]
    return pd.read_parquet(Path(directory) / f"{name}.parquet", columns=list(columns))


def load_table(name: str) -> pd.DataFrame:
    """Load one Instruct2DS table (cached per process; callers must not mutate it)."""
    if name not in TABLES:
        raise KeyError(f"unknown sandbox table {name!r}; expected one of {TABLES}")
    with _lock:
        return _load(str(data_dir()), name)


def load_columns(name: str, columns: list[str]) -> pd.DataFrame:
    """A few columns of one table, reading only those from Parquet (the full papers table takes seconds)."""
    if name not in TABLES:
        raise KeyError(f"unknown sandbox table {name!r}; expected one of {TABLES}")
    with _lock:
        return _load_columns(str(data_dir()), name, tuple(columns))
