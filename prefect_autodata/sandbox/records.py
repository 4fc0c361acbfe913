"""Where the sandbox finds the records of the six SWDE kinds (auto, camera, job, movie, restaurant, university).

Resolution: ``AUTODATA_RECORDS_DIR`` when set, else ``../shared/records`` beside the repository. A
kind whose ``swde_<kind>.parquet`` is missing there counts as absent and is served from generated
sample records of the same columns (``site``, ``page`` and the kind's fields; ``sandbox.generate``).
The real records are public data from outside and are never copied into the repository.
"""

from __future__ import annotations

import os
import threading
from functools import cache
from pathlib import Path

import pandas as pd

KINDS = ("auto", "camera", "job", "movie", "restaurant", "university")
SHARED_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "records"
_lock = threading.Lock()


def _check(kind: str) -> None:
    if kind not in KINDS:
        raise KeyError(f"unknown record kind {kind!r}; expected one of {KINDS}")


def records_dir() -> Path:
    """The directory searched for ``swde_<kind>.parquet`` (it may lack some or all of them)."""
    env = os.environ.get("AUTODATA_RECORDS_DIR")
    return Path(env) if env else SHARED_DIR


def real_path(kind: str) -> Path | None:
    """The real file of ``kind``, or None when it is absent (generated records then)."""
    _check(kind)
    return _resolve(os.environ.get("AUTODATA_RECORDS_DIR") or "", kind)


@cache
def _resolve(env: str, kind: str) -> Path | None:
    """Checked once per value of the variable: the zoo asks on every request."""
    path = (Path(env) if env else SHARED_DIR) / f"swde_{kind}.parquet"
    return path if path.is_file() else None


def is_generated(kind: str | None = None) -> bool:
    """True when ``kind`` (or, without one, any of the six) is served from generated sample records."""
    if kind is None:
        return any(real_path(k) is None for k in KINDS)
    return real_path(kind) is None


@cache
def _load(path: str | None, kind: str) -> pd.DataFrame:
    if path is None:
        from prefect_autodata.sandbox import generate

        df = generate.records(kind)
    else:
        df = pd.read_parquet(path)
    df.attrs["generated"] = path is None
    return df


def load_records(kind: str) -> pd.DataFrame:
    """The records of one kind: columns ``site``, ``page`` and its fields (cached; do not mutate)."""
    path = real_path(kind)
    with _lock:
        return _load(None if path is None else str(path), kind)
