"""Execute a CollectorSpec: expand request templates, paginate, follow list -> detail, extract.

No LLM, no agent: the same spec gives the same requests. ``collect`` returns raw rows plus lineage
(no typing); ``runtime.normalize`` turns them into the typed frame (python step, casts). ``dry_run``
is the test agent's probe: a bounded sample through the same normalize step, and precise issues.
"""

from __future__ import annotations

import re
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import pandas as pd
from pydantic import BaseModel, Field

from prefect_autodata.errors import ConfigError, FetchError, NoRecordsError, TerminalError, TransientError
from prefect_autodata.runtime import templates
from prefect_autodata.runtime.columns import DUCKDB_TYPES  # noqa: F401 - re-exported (older imports)
from prefect_autodata.runtime.columns import FETCHED_AT as LINEAGE_AT
from prefect_autodata.runtime.columns import SOURCE_URL as LINEAGE_URL
from prefect_autodata.runtime.extract import (
    Document,
    extract_field,
    extract_page,
    parse_document,
    select_records,
    simple_json_key,
)
from prefect_autodata.runtime.issues import Issue
from prefect_autodata.runtime.normalize import (  # noqa: F401 - typing lives in normalize; re-exported
    Frame,
    Normalized,
    _present,
    cast_column,
    normalize,
    raw_frame,
    to_frame,
)
from prefect_autodata.runtime.pagination import PageRequest, Paginator
from prefect_autodata.runtime.spec import CollectorSpec, Source

_EXPECT = {"json": "json", "csv": "csv", "html": "html", "crawl": "html"}


class IncompleteError(TerminalError):
    """A source stated more records than the run collected (a listing total not reached): nothing lands."""


@dataclass
class Limits:
    """Bounds for a dry run (None: unbounded, i.e. a real run)."""

    max_pages: int | None = None
    max_requests: int | None = None


@dataclass
class SourceOutput:
    name: str
    rows: list[dict] = field(default_factory=list)
    frames: list[pd.DataFrame] = field(default_factory=list)
    pages: int = 0
    requests_planned: int = 0
    stops: list[str] = field(default_factory=list)
    streamed: int = 0  # records handed to the run's sink as they arrived (not kept in rows/frames)

    def values(self, fieldname: str) -> list[Any]:
        out = [r.get(fieldname) for r in self.rows]
        for f in self.frames:
            if fieldname in f.columns:
                out.extend(f[fieldname].tolist())
        return out


@dataclass
class Collected:
    """Everything one collection produced before casting and landing."""

    outputs: dict[str, SourceOutput]
    issues: list[Issue]
    request_log: list[str]
    cursor_param: dict[str, Any]
    stream: Any = None  # the ``StreamNormalizer`` the emitted pages went to (a streamed run), else None


class _Ctx:
    def __init__(self, spec: CollectorSpec, fetcher: Any, base_url: str, today: date, limits: Limits) -> None:
        self.spec = spec
        self.fetcher = fetcher
        self.base_url = base_url
        self.today = today
        self.limits = limits
        self.lock = threading.Lock()
        self.request_log: list[str] = []
        self.issues: list[Issue] = []
        self._browser: Any = None
        self._browser_lock = threading.Lock()
        self.sink: Any = None  # a streamed run's ``StreamNormalizer`` (``add(part, page)``)

    def count_request(self, url: str) -> bool:
        with self.lock:
            if self.limits.max_requests is not None and len(self.request_log) >= self.limits.max_requests:
                return False
            self.request_log.append(url)
            return True

    def browser(self) -> Any:
        with self._browser_lock:
            if self._browser is None:
                from prefect_autodata.runtime.browser import BrowserSession

                self._browser = BrowserSession(fetcher=self.fetcher)
                self._browser.__enter__()
            return self._browser

    def close(self) -> None:
        if self._browser is not None:
            self._browser.__exit__(None, None, None)
            self._browser = None


def effective_base_url(spec: CollectorSpec, base_url: str | None) -> str:
    base = (base_url or spec.base_url or "").rstrip("/")
    return base


def allowed_hosts(spec: CollectorSpec, base_url: str | None) -> set[str]:
    """Hosts the user named: the base URL and the literal hosts of source URL templates."""
    hosts = set()
    base = effective_base_url(spec, base_url)
    if base:
        hosts.add(urlsplit(base).hostname or "")
    for s in spec.sources:
        if "{base_url}" not in s.request.url:
            h = urlsplit(s.request.url).hostname
            if h and "{" not in h:
                hosts.add(h)
    return {h for h in hosts if h}


def collect(
    spec: CollectorSpec,
    fetcher: Any,
    *,
    base_url: str | None = None,
    today: date | None = None,
    cursor: Any = None,
    limits: Limits | None = None,
    sink: Any = None,
) -> Collected:
    """Run every source in order; raises NoRecordsError when an emitting source yields nothing.

    With a ``sink`` (``add(part, page)``), each page of a source that ``streams`` goes to it as it
    arrives instead of being kept; ``part`` orders the pages as the requests do.
    """
    ctx = _Ctx(spec, fetcher, effective_base_url(spec, base_url), today or date.today(), limits or Limits())
    outputs: dict[str, SourceOutput] = {}
    cursor_param: dict[str, Any] = {}
    try:
        for i, source in enumerate(spec.sources):
            ctx.sink = sink if sink is not None and streams(spec, source) else None
            out = _run_source(ctx, source, outputs, cursor, cursor_param, index=i)
            outputs[source.name] = out
    finally:
        ctx.close()
    if sink is not None:  # emitted rows of sources that could not stream (read by a later source, detail)
        for i, source in enumerate(spec.sources):
            out = outputs.get(source.name)
            if out is None or not source.emit or streams(spec, source):
                continue
            for j, f in enumerate(out.frames):
                sink.add(_part(i, j, 0), f)
            if out.rows:
                sink.add(_part(i, 0, 0, rows_after_frames=True), out.rows)
            out.streamed += len(out.rows) + sum(len(f) for f in out.frames)
            out.rows, out.frames = [], []
    return Collected(outputs, ctx.issues, ctx.request_log, cursor_param, stream=sink)


def streams(spec: CollectorSpec, source: Source) -> bool:
    """Whether a real run may hand this source's pages on as they arrive: it emits rows, no later source
    reads its values, it has no list -> detail step, and the spec has no ``python`` step (which sees the
    whole record set)."""
    if spec.python is not None or not source.emit or source.detail is not None:
        return False
    return not any(p.from_source == source.name for s in spec.sources for p in s.params.values())


#: pages per combination and combinations per source in a page's position (``part``)
_PART_PAGES = 1_000_000
_PART_COMBOS = 1_000_000


def _part(source_index: int, combo_index: int, page: int, rows_after_frames: bool = False) -> int:
    """A page's position in request order: source, then (frames before rows, as ``raw_frame``), combo, page."""
    return ((source_index * 2 + rows_after_frames) * _PART_COMBOS + combo_index) * _PART_PAGES + page


def _param_values(
    ctx: _Ctx, source: Source, outputs: dict[str, SourceOutput], cursor: Any, cursor_param: dict
):
    inc = ctx.spec.incremental
    values: dict[str, list[Any]] = {}
    for name, p in source.params.items():
        if p.values is not None:
            vals = list(p.values)
        elif p.range is not None:
            vals = list(range(p.range[0], p.range[1] + 1))
        elif p.date is not None:
            d = templates.resolve_date(p.date, ctx.today)
            if inc and inc.param == name and cursor is not None and not isinstance(cursor, dict):
                d = _next_cursor(cursor, inc.step_days, name)
                cursor_param[name] = d
            vals = [_DateParam(d, p.format)]
        else:
            src = outputs.get(p.from_source)
            vals = [v for v in dict.fromkeys(src.values(p.field)) if v not in (None, "")] if src else []
            if not vals:
                raise NoRecordsError(
                    f"source {source.name!r}: parameter {name!r} takes {p.from_source}.{p.field}, which gave no values"
                )
        if (
            inc
            and inc.param == name
            and cursor is not None
            and p.date is None
            and not isinstance(cursor, dict)
        ):
            nxt = cursor + inc.step if isinstance(cursor, int | float) else cursor
            cursor_param[name] = nxt
            vals = [nxt]
        values[name] = vals
    return values


class _DateParam:
    """A date parameter that renders with its declared format (and compares as a date)."""

    __slots__ = ("d", "fmt")

    def __init__(self, d: date, fmt: str) -> None:
        self.d, self.fmt = d, fmt

    def __str__(self) -> str:
        return self.d.strftime(self.fmt)

    def __format__(self, spec: str) -> str:
        return self.d.strftime(spec or self.fmt)


def _next_cursor(cursor: Any, step_days: int, name: str) -> date:
    if isinstance(cursor, datetime):
        cursor = cursor.date()
    if isinstance(cursor, pd.Timestamp):
        cursor = cursor.date()
    if isinstance(cursor, str):
        try:
            cursor = date.fromisoformat(cursor[:10])
        except ValueError as exc:
            raise ConfigError(f"incremental: stored cursor {cursor!r} for {name!r} is not a date") from exc
    if not isinstance(cursor, date):
        raise ConfigError(f"incremental: stored cursor {cursor!r} for {name!r} is not a date")
    return cursor + timedelta(days=step_days)


def _run_source(
    ctx: _Ctx,
    source: Source,
    outputs: dict[str, SourceOutput],
    cursor: Any,
    cursor_param: dict,
    index: int = 0,
) -> SourceOutput:
    out = SourceOutput(source.name)
    values = _param_values(ctx, source, outputs, cursor, cursor_param)
    combos = list(templates.expand(values)) if values else [{}]
    inc = ctx.spec.incremental
    if inc and isinstance(cursor, dict) and inc.param in values:
        combos = [_resume_partition(c, ctx.spec.partition_param(), inc, cursor) for c in combos]
    if inc and cursor is not None and inc.param in values:
        combos = [c for c in combos if not _beyond_end(c, inc.param, inc.end_param, ctx.today)]
    out.requests_planned = len(combos)
    if ctx.limits.max_requests is not None and source.detail is not None and len(combos) > 1:
        combos = combos[:1]  # a dry run samples one request of a fan-out: budget left for its detail pages
    if not combos:
        return out  # incremental: nothing new since the stored cursor

    if source.kind == "crawl":
        _run_crawl(ctx, source, combos, out)
    else:
        workers = max(1, min(ctx.spec.politeness.concurrency_per_host, len(combos)))
        numbered = list(enumerate(combos))
        if workers == 1:
            results = [_run_combo(ctx, source, c, part=(index, i)) for i, c in numbered]
        else:
            with ThreadPoolExecutor(workers, thread_name_prefix="autodata-fetch") as pool:
                results = list(
                    pool.map(lambda ic: _run_combo(ctx, source, ic[1], part=(index, ic[0])), numbered)
                )
        for rows, frames, pages, stop, streamed in results:
            out.rows.extend(rows)
            out.frames.extend(frames)
            out.pages += pages
            out.streamed += streamed
            if stop:
                out.stops.append(stop)
    if source.detail:
        _run_detail(ctx, source, out)
    if ctx.sink is not None:  # crawled pages: handed on once the crawl is done
        for j, f in enumerate(out.frames):
            ctx.sink.add(_part(index, j, 0), f)
        if out.rows:
            ctx.sink.add(_part(index, 0, 0, rows_after_frames=True), out.rows)
        out.streamed += len(out.rows) + sum(len(f) for f in out.frames)
        out.rows, out.frames = [], []
    n = len(out.rows) + sum(len(f) for f in out.frames) + out.streamed
    if n == 0 and not source.allow_empty and not (inc and cursor is not None):
        where = source.records.expr or "the whole response"
        raise NoRecordsError(
            f"source {source.name!r}: no records (records selector {where!r} matched nothing "
            f"on {out.pages} page(s)); refusing to report an empty success"
        )
    return out


def _resume_partition(combo: dict, part_param: str | None, inc: Any, cursors: dict) -> dict:
    """Per-partition incremental: this request starts after its own partition's stored cursor."""
    stored = cursors.get(str(combo.get(part_param))) if part_param else None
    if stored is None:
        return combo  # a partition never landed (e.g. a new index member): its full range
    start = combo.get(inc.param)
    if isinstance(start, _DateParam):
        nxt: Any = _DateParam(_next_cursor(stored, inc.step_days, inc.param), start.fmt)
    else:
        nxt = stored + inc.step if isinstance(stored, int | float) else stored
    return {**combo, inc.param: nxt}


def _beyond_end(combo: dict, param: str, end_param: str | None, today: date) -> bool:
    start = combo.get(param)
    start_d = start.d if isinstance(start, _DateParam) else start
    if not isinstance(start_d, date):
        return False
    end = combo.get(end_param) if end_param else None
    end_d = end.d if isinstance(end, _DateParam) else today
    return start_d > end_d


def _template_values(ctx: _Ctx, combo: dict) -> dict[str, Any]:
    return {**combo, "base_url": ctx.base_url}


def _render_request(ctx: _Ctx, source: Source, combo: dict) -> PageRequest:
    vals = _template_values(ctx, combo)
    where = f"sources[{source.name!r}].request"
    url = templates.render(source.request.url, vals, where=f"{where}.url")
    if not urlsplit(url).scheme:
        if not ctx.base_url:
            raise ConfigError(f"{where}.url {url!r} is relative but the spec has no base_url")
        url = ctx.base_url + ("" if url.startswith("/") else "/") + url
    params = {
        k: templates.render(v, vals, where=f"{where}.params.{k}") for k, v in source.request.params.items()
    }
    return PageRequest(url, params)


def _headers(ctx: _Ctx, source: Source, combo: dict) -> dict[str, str]:
    vals = _template_values(ctx, combo)
    return {
        k: templates.render(v, vals, where=f"sources[{source.name!r}].request.headers.{k}")
        for k, v in source.request.headers.items()
    }


def _fetch_doc(
    ctx: _Ctx, kind: str, req: PageRequest, headers: dict, source: Source
) -> tuple[Document, str, dict]:
    if kind == "browser":
        opts = source.browser
        from urllib.parse import urlencode

        url = req.url + (("&" if "?" in req.url else "?") + urlencode(req.params) if req.params else "")
        page = ctx.browser().render(
            url,
            wait_for=opts.wait_for if opts else None,
            scroll_steps=opts.scroll_steps if opts else 0,
            load_more_selector=opts.load_more_selector if opts else None,
            max_clicks=opts.max_clicks if opts else 0,
        )
        import hashlib

        return (
            parse_document("browser", page.html, page.url),
            hashlib.sha256(page.html.encode()).hexdigest(),
            {},
        )
    resp = ctx.fetcher.get(
        req.url,
        params=req.params or None,
        headers=headers or None,
        method=source.request.method,
        expect=_EXPECT[kind],
    )
    from prefect_autodata.runtime.urlnorm import redact_url

    doc = parse_document(kind, resp.text, redact_url(resp.final_url), resp.content)
    doc.fetched_at = resp.fetched_at  # type: ignore[attr-defined]
    return doc, resp.content_hash, resp.headers


def _fast_json_keys(source: Source) -> dict[str, str] | None:
    """Columnar path for flat JSON records: every field a plain key without transforms."""
    if source.kind not in ("json", "csv") or source.detail is not None:
        return None
    keys = {}
    for f in source.fields:
        if f.transforms or f.all or f.join is not None:
            return None
        if f.jsonpath is not None:
            k = simple_json_key(f.jsonpath)
            if k is None:
                return None
            keys[f.name] = k
        elif f.const is None and f.from_param is None and not f.from_url:
            return None
    return keys


def _run_combo(
    ctx: _Ctx, source: Source, combo: dict, part: tuple[int, int] = (0, 0)
) -> tuple[list[dict], list[pd.DataFrame], int, str, int]:
    """One parameter combination's pages: (rows, frames, pages, stop reason, rows handed to the sink)."""
    first = _render_request(ctx, source, combo)
    headers = _headers(ctx, source, combo)
    pager = Paginator(source.pagination, first)
    req: PageRequest | None = pager.start()
    plain = {k: (str(v) if isinstance(v, _DateParam) else v) for k, v in combo.items()}
    rows: list[dict] = []
    frames: list[pd.DataFrame] = []
    fast = _fast_json_keys(source)
    max_pages = ctx.limits.max_pages
    sink, streamed = ctx.sink, 0
    while req is not None:
        if max_pages is not None and pager.pages >= max_pages:
            pager.stop_reason = f"dry-run page limit {max_pages}"
            break
        if not ctx.count_request(req.url):
            pager.stop_reason = "dry-run request limit"
            break
        try:
            doc, chash, resp_headers = _fetch_doc(ctx, source.kind, req, headers, source)
        except FetchError as exc:
            if not pager.ends_listing(exc):  # a 4xx/empty page after page 1 ends the listing
                raise
            ctx.issues.append(
                Issue(kind="pagination_ended", source=source.name, url=req.url, message=pager.stop_reason)
            )
            break
        fetched_at = getattr(doc, "fetched_at", None) or datetime.now(UTC)
        records = select_records(doc, source.records)
        if fast is not None and records and all(isinstance(r, dict) for r in records):
            frame = pd.DataFrame.from_records(records, columns=list(dict.fromkeys(fast.values())))
            frame = pd.DataFrame({name: frame[key] for name, key in fast.items()})
            for f in source.fields:
                if f.const is not None:
                    frame[f.name] = f.const
                elif f.from_param is not None:
                    frame[f.name] = plain.get(f.from_param)
                elif f.from_url:
                    frame[f.name] = doc.url
            frame[LINEAGE_URL] = doc.url
            frame[LINEAGE_AT] = fetched_at
            frame = frame[[f.name for f in source.fields] + [LINEAGE_URL, LINEAGE_AT]]
            n = len(frame)
            if sink is not None:
                sink.add(_part(part[0], part[1], pager.pages), frame)
                streamed += n
            else:
                frames.append(frame)
        else:
            page_rows = extract_page(doc, source.fields, source.records, plain)
            for r in page_rows:
                r[LINEAGE_URL] = doc.url
                r[LINEAGE_AT] = fetched_at
            n = len(page_rows)
            if sink is not None:
                sink.add(_part(part[0], part[1], pager.pages, rows_after_frames=True), page_rows)
                streamed += n
            else:
                rows.extend(page_rows)
        req = pager.next(req, doc, n, chash, resp_headers)
    real_run = ctx.limits.max_pages is None and ctx.limits.max_requests is None
    if source.pagination and real_run:
        _judge_pagination(source, first, pager, ctx)
    elif source.pagination and pager.stop_reason.startswith(("max_pages", "dry-run")) and pager.total:
        ctx.issues.append(
            Issue(
                kind="pagination_stopped",
                source=source.name,
                url=first.url,
                message=f"pagination stopped at page {pager.pages} ({pager.stop_reason}); "
                f"{pager.records} of {pager.total} records",
            )
        )
    return rows, frames, pager.pages, pager.stop_reason, streamed


def _judge_pagination(source: Source, first: PageRequest, pager: Paginator, ctx: _Ctx) -> None:
    """A real run's pagination outcome: short of the listing's stated total is a failure; stopping at
    the page cap without a stated total is a warning with the counts."""
    where = f"source {source.name!r} ({first.url})"
    if pager.total is not None and pager.records < pager.total:
        raise IncompleteError(
            f"{where}: the listing states {pager.total} records but pagination ended ({pager.stop_reason}) "
            f"after {pager.records} on {pager.pages} page(s); refusing to land an incomplete listing"
        )
    if pager.stop_reason.startswith("max_pages"):
        ctx.issues.append(
            Issue(
                kind="page_cap",
                source=source.name,
                url=first.url,
                message=f"{where}: pagination stopped at the page cap ({pager.stop_reason}) after "
                f"{pager.records} records on {pager.pages} pages; the listing may hold more",
            )
        )


def _failure_summary(what: str, failures: list[tuple[str, str]], total: int) -> str:
    """ "3 of 120 detail pages failed (HTTP 503: 2, error: 1), e.g. URL: reason"."""
    kinds: dict[str, int] = {}
    for _, reason in failures:
        m = re.search(r"\b(?:HTTP|status)\s*(\d{3})\b", reason)
        key = f"HTTP {m.group(1)}" if m else "error"
        kinds[key] = kinds.get(key, 0) + 1
    split = ", ".join(f"{k}: {n}" for k, n in sorted(kinds.items()))
    url, reason = failures[0]
    return f"{len(failures)} of {total} {what} failed ({split}), e.g. {url}: {reason[:200]}"


def _run_detail(ctx: _Ctx, source: Source, out: SourceOutput) -> None:
    """List -> detail: fetch each row's detail URL once, merge the detail fields into the row."""
    detail = source.detail
    if out.frames:  # detail needs per-row dicts
        for f in out.frames:
            out.rows.extend(f.to_dict("records"))
        out.frames = []
    urls = list(dict.fromkeys(r.get(detail.url_field) for r in out.rows if r.get(detail.url_field)))
    results: dict[str, dict | Exception] = {}
    try:  # detail pages of an API need the same headers as its list requests (Referer, Accept...)
        detail_headers = _headers(ctx, source, {})
    except ConfigError:
        detail_headers = {}

    def one(url: str) -> tuple[str, dict | Exception]:
        if not ctx.count_request(url):
            return url, FetchError(f"{url}: dry-run request limit")
        try:
            doc, _, _ = _fetch_doc(ctx, detail.kind, PageRequest(url), detail_headers, source)
            recs = select_records(doc, type(source.records)())
            rec = recs[0] if recs else None
            vals = {}
            for rule in detail.fields:
                vals[rule.name] = (
                    extract_field(rec, rule, page_url=doc.url, params={}) if rec is not None else None
                )
            vals[LINEAGE_URL] = doc.url
            vals[LINEAGE_AT] = getattr(doc, "fetched_at", None) or datetime.now(UTC)
            return url, vals
        except (ValueError, FetchError, TransientError) as exc:
            return url, exc

    workers = max(1, min(ctx.spec.politeness.concurrency_per_host, len(urls) or 1))
    with ThreadPoolExecutor(workers, thread_name_prefix="autodata-detail") as pool:
        for url, res in pool.map(one, urls):
            results[url] = res
    transient = [r for r in results.values() if isinstance(r, TransientError)]
    if transient:
        raise transient[0]
    for r in out.rows:
        res = results.get(r.get(detail.url_field))
        if isinstance(res, dict):
            r.update(res)
        elif isinstance(res, Exception):
            r.setdefault("_error", f"detail {r.get(detail.url_field)}: {res}")
    # Rows whose detail page failed are rejected (never landed half-filled); the failures are one
    # warning with their counts, not a silent drop.
    failed = [
        (u, str(res))
        for u, res in results.items()
        if isinstance(res, Exception) and (ctx.limits.max_requests is None or "dry-run" not in str(res))
    ]
    if failed:
        ctx.issues.append(
            Issue(
                kind="fetch_error",
                source=source.name,
                url=failed[0][0],
                message=f"source {source.name!r}: " + _failure_summary("detail pages", failed, len(urls)),
                ratio=round(len(failed) / max(1, len(urls)), 4),
            )
        )


def _run_crawl(ctx: _Ctx, source: Source, combos: list[dict], out: SourceOutput) -> None:
    """BFS crawl from each start URL; every visited page is a document the records selector runs on."""
    from prefect_autodata.runtime.crawler import crawl
    from prefect_autodata.runtime.policy import CrawlPolicy
    from prefect_autodata.runtime.spec import MEDIA_COLUMN

    policy = source.crawl or CrawlPolicy()
    if policy.site_root is None and ctx.base_url:  # stay under the spec's base URL, not the whole origin
        policy = policy.model_copy(update={"site_root": ctx.base_url})
    for combo in combos:
        first = _render_request(ctx, source, combo)
        start = first.url
        if first.params:
            from urllib.parse import urlencode

            start += ("&" if "?" in start else "?") + urlencode(first.params)
        result = crawl(start, ctx.fetcher, policy=policy)
        failed = result.failed_pages()
        if failed:
            ctx.issues.append(
                Issue(
                    kind="pages_failed",
                    source=source.name,
                    url=failed[0][0],
                    message=f"source {source.name!r}: crawl from {start}: "
                    + _failure_summary("crawled pages", failed, len(result.pages)),
                    ratio=round(len(failed) / max(1, len(result.pages)), 4),
                )
            )
        if result.budget_left:
            ctx.issues.append(
                Issue(
                    kind="page_cap",
                    source=source.name,
                    url=start,
                    message=f"source {source.name!r}: crawl from {start} stopped at its page budget "
                    f"({policy.pages} pages) with {result.budget_left} discovered page(s) not visited",
                )
            )
        media_by_page: dict[str, list[str]] = {}
        if source.verify_media:
            from prefect_autodata.runtime.media import verify_media

            for m in verify_media(result.media, result.html_by_url, ctx.fetcher):
                if m.ok:
                    media_by_page.setdefault(m.page_url, []).append(m.url)
        plain = {k: str(v) for k, v in combo.items()}
        for page in result.pages:
            ctx.count_request(page.url)
            html_text = getattr(page, "html", None)
            if not html_text or getattr(page, "trap", False):
                continue
            doc = parse_document("html", html_text, page.url)
            rows = extract_page(doc, source.fields, source.records, plain)
            for r in rows:
                if source.verify_media:
                    r[MEDIA_COLUMN] = media_by_page.get(page.url, [])
                r[LINEAGE_URL] = page.url
                r[LINEAGE_AT] = getattr(page, "fetched_at", None) or datetime.now(UTC)
            out.rows.extend(rows)
            out.pages += 1


# -- dry run -----------------------------------------------------------------------------------------------


class DryRunReport(BaseModel):
    """What a bounded sample run found: rows, precise issues, and whether the spec looks runnable."""

    ok: bool
    rows: int
    requests: int
    issues: list[Issue]
    sample: list[dict] = Field(default_factory=list)
    fill_rates: dict[str, float] = Field(default_factory=dict)


def dry_run(
    spec: CollectorSpec,
    *,
    max_pages: int = 2,
    max_requests: int = 5,
    base_url: str | None = None,
    fetcher: Any = None,
    today: date | None = None,
    empty_threshold: float = 0.4,
    sample_rows: int = 5,
) -> DryRunReport:
    """Fetch a small sample and report failures the engineering agent can act on (never raises for them)."""
    from prefect_autodata.runtime.fetch import Fetcher

    own = fetcher is None
    fetcher = fetcher or Fetcher(spec.politeness, allowed_hosts(spec, base_url))
    issues: list[Issue] = []
    try:
        try:
            col = collect(
                spec, fetcher, base_url=base_url, today=today, limits=Limits(max_pages, max_requests)
            )
        except NoRecordsError as exc:
            return DryRunReport(
                ok=False,
                rows=0,
                requests=fetcher.stats.requests,
                issues=[Issue(kind="no_records", source="*", message=str(exc))],
            )
        except (FetchError, TransientError, ConfigError) as exc:
            return DryRunReport(
                ok=False,
                rows=0,
                requests=fetcher.stats.requests,
                issues=[Issue(kind="fetch_error", source="*", message=str(exc))],
            )
        issues.extend(col.issues)
        try:  # exactly the real run's normalize step, python step included
            norm = normalize(spec, col)
        except TerminalError as exc:
            return DryRunReport(
                ok=False,
                rows=0,
                requests=len(col.request_log),
                issues=[Issue(kind="python_error", source="*", message=str(exc))],
            )
        raw, frame = norm.raw, norm.frame
        if not len(raw) and norm.fetched:  # the python step kept none of the sample: rate the records read
            raw = raw_frame(spec, col)
        issues.extend(frame.issues)
        fill: dict[str, float] = {}
        # Rows whose detail page the request limit skipped say nothing about fill rates.
        skipped = raw["_error"].astype(str).str.contains("dry-run request limit", regex=False)
        if len(raw) and skipped.all() and norm.fetched > len(raw):
            # the python step kept only rows whose detail page the limit skipped (a filter on a listing
            # field keeps the 7th record, the sample read 3 detail pages): rate the records read
            read = raw_frame(spec, col)
            unread = read["_error"].astype(str).str.contains("dry-run request limit", regex=False)
            if not unread.all():
                raw, skipped = read, unread
        seen = raw[~skipped] if len(raw) and not skipped.all() else raw
        # A declared column no rule produces is known to be empty (the source has no such value).
        produced = {f.name for s in spec.sources for f in [*s.fields, *(s.detail.fields if s.detail else [])]}
        for c in spec.output_columns():
            rate = float(_present(seen[c.name].astype(object)).mean()) if len(seen) else 0.0
            fill[c.name] = round(rate, 4)
            if len(raw) and 1 - rate >= empty_threshold and c.name in produced:
                issues.append(
                    Issue(
                        kind="empty_field",
                        source="*",
                        field=c.name,
                        ratio=round(1 - rate, 4),
                        message=f"field {c.name!r} is empty in {100 * (1 - rate):.0f}% of {len(seen)} rows",
                    )
                )
        sample = (
            frame.good.head(sample_rows)
            .drop(columns=[LINEAGE_AT])
            .astype(object)
            .where(frame.good.head(sample_rows).notna(), None)
        )
        return DryRunReport(
            ok=not any(
                i.kind in ("no_records", "type_mismatch", "empty_field", "fetch_error") for i in issues
            ),
            rows=norm.fetched,  # records the sources produced (a python filter step may keep fewer)
            requests=len(col.request_log),
            issues=issues,
            sample=[
                {k: (str(v) if v is not None else None) for k, v in r.items()}
                for r in sample.to_dict("records")
            ],
            fill_rates=fill,
        )
    finally:
        if own:
            fetcher.close()
