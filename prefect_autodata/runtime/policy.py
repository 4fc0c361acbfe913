"""Politeness and crawl bounds as data: a CollectorSpec carries them, so reruns behave exactly like the first run."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

DEFAULT_USER_AGENT = "prefect-autodata/0.1 (+https://github.com/prefect-autodata/prefect-autodata)"


class FetchPolicy(BaseModel):
    """How one run talks to the web: identifiable, rate-limited, bounded, robots-aware, SSRF-safe.

    Defaults are polite enough for a public site and fast enough for a local API.
    """

    model_config = ConfigDict(extra="forbid")

    user_agent: str = Field(
        DEFAULT_USER_AGENT, min_length=1, description="Sent on every request; says who we are."
    )
    rate_limit_per_host: float = Field(
        10.0, ge=0, description="Requests per second per host (token bucket); 0 means unlimited."
    )
    concurrency_per_host: int = Field(4, ge=1, le=256, description="Requests in flight per host at most.")
    connect_timeout: float = Field(10.0, gt=0, description="Seconds to open a TCP connection.")
    read_timeout: float = Field(30.0, gt=0, description="Seconds of silence on a socket before giving up.")
    max_bytes: int = Field(50 * 1024 * 1024, ge=1024, description="Largest response body accepted, in bytes.")
    max_retries: int = Field(
        4, ge=0, le=20, description="Retries for transient failures (timeouts, 429, 5xx)."
    )
    backoff_base: float = Field(0.5, ge=0, description="First backoff delay in seconds; doubles per retry.")
    backoff_cap: float = Field(
        30.0, ge=0, description="Longest single wait, including a server's Retry-After."
    )
    max_redirects: int = Field(10, ge=0, le=50, description="Redirect hops followed before giving up.")
    respect_robots: bool = Field(
        True, description="Obey robots.txt; turning it off is recorded per source in lineage."
    )
    allow_private: list[str] = Field(
        default_factory=list,
        description="CIDRs or host names that discovery may reach even though they are private/loopback.",
    )
    conditional_requests: bool = Field(
        True, description="Send If-None-Match / If-Modified-Since when a validator is cached."
    )
    request_deadline: float = Field(
        120.0,
        gt=0,
        le=24 * 3600,
        description="Seconds one request may take in total, headers and body: a server trickling bytes "
        "cannot hang a run (read_timeout only bounds silence between bytes).",
    )
    run_deadline: float = Field(
        4 * 3600.0,
        gt=0,
        le=7 * 24 * 3600,
        description="Seconds one run may spend fetching (retries and Retry-After waits included); a wait "
        "that would end past it is not honoured, the request fails instead.",
    )
    max_json_depth: int = Field(
        256, ge=1, le=900, description="Deepest JSON nesting accepted; deeper bodies are a clear error."
    )

    @field_validator("allow_private")
    @classmethod
    def _valid_allow_entries(cls, value: list[str]) -> list[str]:
        from prefect_autodata.runtime.ssrf import check_allow_entry

        out = []
        for item in value:
            item = item.strip()
            if not item:
                raise ValueError("allow_private entries must be non-empty CIDRs or host names")
            out.append(check_allow_entry(item))
        return out


class CrawlPolicy(BaseModel):
    """BaRA's bounded BFS: width W, depth D, page budget P, attempts A (reflection rounds)."""

    model_config = ConfigDict(extra="forbid")

    width: int = Field(5, ge=1, description="W: first W new children per page, in DOM order.")
    depth: int = Field(3, ge=0, description="D: deepest link distance from the start page.")
    pages: int = Field(50, ge=1, description="P: page budget (fetched pages, including failures).")
    attempts: int = Field(2, ge=1, le=10, description="A: crawl rounds, reflecting on failures between them.")
    same_site: bool = Field(True, description="Stay under the site root (origin plus optional path prefix).")
    site_root: str | None = Field(
        None, description="URL prefix the crawl stays under; defaults to the start URL's origin."
    )
    exclude: list[str] = Field(
        default_factory=lambda: [
            r"/(login|logout|signin|sign-in|signup|sign-up|register|account|auth)(/|$|\?)",
            r"/(privacy|terms|tos|legal|cookie|cookies)(-[a-z]+)?(/|$|\?|\.html?$)",
        ],
        description="Regexes on the normalised URL; a match is never fetched.",
    )
    max_per_family: int = Field(
        50,
        ge=1,
        description="Trap guard: pages one URL family (digits collapsed) may reach from its own pages "
        "(next-month / next-page chains) before the chain is no longer followed.",
    )
    trap_guard: bool = Field(
        True,
        description="Drop URL families that re-serve the same page under new URLs (calendars) and cap "
        "self-linking chains at max_per_family.",
    )
    concurrency: int = Field(8, ge=1, le=256, description="Pages fetched in parallel within one BFS level.")
