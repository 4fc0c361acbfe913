"""``/robots.txt`` for the whole sandbox origin (crawlers look for it at the root, not under a site prefix).

Chaos ``none``: permissive but realistic (the picture-book library's staff area and the search engine's
result pages are off limits). ``hostile``: additional disallows on some data paths, chosen from the
site map under the seed, plus a blanket ban for one AI crawler user agent.
"""

from __future__ import annotations

from functools import cache
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import BaseRoute, Route

from prefect_autodata.sandbox.chaos import unit

SITEMAP: list[tuple[str, str]] = [("robots.txt (crawl policy)", "/robots.txt")]
BASE_DISALLOW = ("/www.picturebook-library.org/private/", "/search")
HOSTILE_SHARE = 0.4


def hostile_disallows(seed: int) -> list[str]:
    """Data paths that the hostile profile forbids: the parent folder of some site-map entries."""
    from prefect_autodata.sandbox.app import sitemap

    out: list[str] = []
    for _title, example in sitemap():
        path = urlsplit(example).path
        if path in ("/robots.txt", "/search") or path.count("/") < 2:
            continue
        folder = path.rsplit("/", 1)[0] + "/"
        if folder not in out and unit(seed, "robots", folder) < HOSTILE_SHARE:
            out.append(folder)
    out.append("/www.picturebook-library.org/books/*/reviews$")
    return out


@cache
def robots_txt(chaos: str = "none", seed: int = 0) -> str:
    """The robots.txt body for a profile (pure; cached since the site map is fixed per process)."""
    lines = ["# autodata sandbox crawl policy", "User-agent: *"]
    lines += [f"Disallow: {p}" for p in BASE_DISALLOW]
    if chaos == "hostile":
        lines += [f"Disallow: {p}" for p in hostile_disallows(seed)]
        lines += ["Crawl-delay: 1", "", "User-agent: GPTBot", "Disallow: /"]
    lines.append("")
    return "\n".join(lines)


def routes(ctx) -> list[BaseRoute]:
    async def robots(request: Request) -> PlainTextResponse:
        return PlainTextResponse(robots_txt(ctx.chaos, ctx.seed))

    return [Route("/robots.txt", robots)]
