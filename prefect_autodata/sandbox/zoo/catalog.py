"""Draw zoo tasks: per task a kind, a record subset, a family, a site, a request and its ground truth.

``draw_tasks(seed, k)`` is deterministic in ``(seed, k)``'s prefix: task i depends only on the seed
and i, so a run of 12 tasks is the first 12 of a run of 60. The ground truth is exactly the site's
records that the request's filters keep, with the columns named as the request names the fields.

A task given no ``--source`` names its site in the sentence by the name its pages show ("every camera
on Harbor Works"): without it the request is unanswerable (several drawn sites hold the same kind of
records and the truth is one of them). The wording of the name comes from a separate random stream
(``"{seed}:{i}:site"``), so every other draw, and every sourced task, is what it was before names were
added; ``anonymous_search=True`` keeps the old sentence ("... on this site", no name) so that figures
measured before stay comparable.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import pandas as pd

from prefect_autodata.sandbox.zoo.base import KindDef, RecordSet, ZooSite
from prefect_autodata.sandbox.zoo.kinds import DEFAULT_FIELDS, KINDS, record_set
from prefect_autodata.sandbox.zoo.phrasing import Filter, SiteMention, field_words, instruction

# The day relative scopes ("the past three years") are read against; passed to collect as `today`.
TODAY = date(2025, 3, 1)

_SYLLABLES = (
    "bra", "cor", "del", "fen", "gla", "hol", "ist", "jor", "kel", "lum", "mar", "nor", "oak", "pel",
    "quin", "ros", "sil", "tam", "ulm", "ver", "wes", "yar", "zen", "ash", "bel", "cam", "dun", "eld",
)  # fmt: skip
_TAILS = ("data", "hub", "list", "base", "index", "works", "files", "board", "desk", "central")


@dataclass
class ZooTask:
    """One benchmark task: a sentence, optional --fields / --source, and its site and ground truth."""

    id: str
    family: str
    kind: str
    domain: str
    instruction: str
    fields: list[str] | None  # what is passed as --fields (None: not given)
    source: str | None  # the entry path under the sandbox (/<host>/<path>), or None: find it by search
    truth: pd.DataFrame
    site: ZooSite
    filters: list[Filter] = field(default_factory=list)
    columns: dict[str, str] = field(default_factory=dict)  # canonical field -> truth column
    today: date = TODAY
    site_records: int = 0  # how many records the site serves (the truth is those the filters keep)

    @property
    def scored_fields(self) -> list[str]:
        return list(self.truth.columns)


def make_host(rng: random.Random, i: int) -> str:
    name = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3)))
    return f"www.{name}-{rng.choice(_TAILS)}{i}.test"


def draw_size(rng: random.Random) -> int:
    """Mostly small sites (a 60-task run must fit a few minutes), a few large ones."""
    r = rng.random()
    if r < 0.6:
        return rng.randint(15, 60)
    if r < 0.9:
        return rng.randint(61, 300)
    return rng.randint(301, 2500)


def column_name(word: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", word.lower()).strip("_") or "value"


def keeps(flt: Filter, raw: dict[str, Any]) -> bool:
    """Whether a record's raw values pass one filter (text compares case-insensitively)."""
    v = raw.get(flt.field)
    if v is None:
        return False

    def norm(x: Any) -> Any:
        return x.casefold() if isinstance(x, str) else x

    v = norm(v)
    if flt.op == "eq":
        return v == norm(flt.value)
    if flt.op == "in":
        return v in {norm(x) for x in flt.value}
    try:
        if flt.op == "range":
            lo, hi = flt.value
            return norm(lo) <= v <= norm(hi)
        if flt.op == "ge":
            return v >= norm(flt.value)
        if flt.op == "le":
            return v <= norm(flt.value)
    except TypeError:
        return False
    raise ValueError(f"unknown filter op {flt.op!r}")


def _quarter_bounds(d: date) -> tuple[date, date]:
    q = (d.month - 1) // 3
    start = date(d.year, 3 * q + 1, 1)
    end_month = 3 * q + 3
    end = date(d.year + (end_month == 12), 1 if end_month == 12 else end_month + 1, 1)
    return start, date.fromordinal(end.toordinal() - 1)


def draw_filters(kind: KindDef, rs: RecordSet, rng: random.Random) -> list[Filter]:
    """Zero or one filter on a scope field, keeping at least a few records (never all of them)."""
    scope = [f for f in kind.scope_fields if any(r.get(f) is not None for r in rs.raw)]
    if not scope or rng.random() < 0.55 or len(rs.raw) < 20:
        return []
    name = rng.choice(scope)
    values = [r[name] for r in rs.raw if r.get(name) is not None]
    distinct = sorted(set(values), key=lambda x: (str(type(x)), x))
    if len(distinct) < 2:
        return []
    sample = rng.choice(values)
    if isinstance(sample, date):
        if rng.random() < 0.5:
            lo, hi = _quarter_bounds(sample)
        else:
            lo, hi = sorted(rng.sample(distinct, 2))
        flt = Filter(name, "range", (lo, hi))
    elif isinstance(sample, int) and name in ("year", "season"):
        lo, hi = sorted(rng.sample(distinct, 2))
        flt = rng.choice(
            [Filter(name, "eq", sample), Filter(name, "range", (lo, hi)), Filter(name, "ge", hi)]
        )
    else:
        flt = Filter(name, "eq", sample)
    kept = sum(keeps(flt, r) for r in rs.raw)
    if kept < 3 or kept == len(rs.raw):
        return []
    return [flt]


def draw_fields(kind: KindDef, rs: RecordSet, rng: random.Random) -> list[str]:
    present = [f.name for f in kind.fields if any(r.get(f.name) is not None for r in rs.records)]
    if rng.random() < 0.5:
        return [f for f in DEFAULT_FIELDS[kind.name] if f in present]
    others = [f for f in present if f != kind.title_field]
    k = min(len(others), rng.randint(2, 6))
    picked = set(rng.sample(others, k))
    return [f for f in present if f == kind.title_field or f in picked]


def compatible(kind: str) -> list[str]:
    from prefect_autodata.sandbox.zoo.families import FAMILIES

    return sorted(n for n, f in FAMILIES.items() if f.kinds is None or kind in f.kinds)


def _choose(rng: random.Random) -> tuple[str, str]:
    kind_name = rng.choice(sorted(KINDS))
    return kind_name, rng.choice(compatible(kind_name))


def draw_choice(seed: int, i: int) -> tuple[str, str]:
    """(kind, family) of task i without building its site (what coverage checks need)."""
    return _choose(random.Random(f"zoo:{seed}:{i}"))


def draw_task(seed: int, i: int, *, anonymous_search: bool = False) -> ZooTask:
    """Task ``i`` of ``seed``; a task without a source names its site unless ``anonymous_search``."""
    from prefect_autodata.sandbox.zoo.families import FAMILIES

    rng = random.Random(f"zoo:{seed}:{i}")
    kind_name, family = _choose(rng)
    kind = KINDS[kind_name]
    size = draw_size(rng)
    cap = getattr(FAMILIES[family], "max_records", None)
    rs = record_set(kind, rng, min(size, cap) if cap else size)
    host = make_host(rng, i)
    site = FAMILIES[family].build(rs, rng, host)
    filters = draw_filters(kind, rs, rng)
    wanted = draw_fields(kind, rs, rng)
    words = field_words(kind, wanted, rng)
    listed = rng.random() < 0.75
    give_fields = rng.random() < 0.5 or not listed
    columns = {f: column_name(words[f]) if (listed or give_fields) else f for f in wanted}
    before_sentence = rng.getstate()
    sentence = instruction(kind, wanted if listed else None, filters, rng, today=TODAY, field_words=words)
    kept = [j for j, raw in enumerate(rs.raw) if all(keeps(flt, raw) for flt in filters)]
    truth = pd.DataFrame(
        [{columns[f]: rs.records[j].get(f) for f in wanted} for j in kept],
        columns=[columns[f] for f in wanted],
    )
    source = f"/{host}{site.entry_path}" if rng.random() < 0.7 else None
    if source is None and not anonymous_search:
        # the same sentence, drawn from the same state, with the site's name where it said "this site"
        again = random.Random()
        again.setstate(before_sentence)
        name = site.notes.get("site_name") or site_name_of(host)
        mention = SiteMention(name, random.Random(f"{seed}:{i}:site"))
        sentence = instruction(
            kind, wanted if listed else None, filters, again, today=TODAY, field_words=words, site=mention
        )
    site.notes.setdefault("search_title", f"{site.notes.get('site_name') or host} — {kind.plural}")
    site.notes.setdefault("search_snippet", f"{len(rs.records)} {kind.plural} with {', '.join(wanted)}.")
    return ZooTask(
        id=f"z{seed}-{i:03d}-{kind_name}",
        family=family,
        kind=kind_name,
        domain=kind.domain,
        instruction=sentence,
        fields=[columns[f] for f in wanted] if give_fields else None,
        source=source,
        truth=truth,
        site=site,
        filters=filters,
        columns=columns,
        site_records=len(rs.records),
    )


def draw_tasks(seed: int, k: int = 60, *, anonymous_search: bool = False) -> list[ZooTask]:
    """K tasks of one seed, each on its own site."""
    return [draw_task(seed, i, anonymous_search=anonymous_search) for i in range(k)]


def site_name_of(host: str) -> str:
    """A readable name from a drawn host, for a site whose family printed none."""
    from prefect_autodata.sandbox.zoo.families._common import site_name_of as name_of

    return name_of(host)
