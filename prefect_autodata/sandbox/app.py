"""The sandbox web: one ASGI app imitating real sites under path prefixes named after their hosts.

Each site lives in ``sandbox/sites/<name>.py`` and exposes ``routes(ctx) -> list[BaseRoute]``
(already mounted under ``/<real host>``) and ``SITEMAP`` (a list of ``(title, example path)``).
Chaos (``sandbox/chaos.py``) wraps the whole app. Unknown paths answer 404 with an HTML page and
no handler ever leaks a traceback.
"""

from __future__ import annotations

import html
import importlib
import logging
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, Router

log = logging.getLogger(__name__)

# Site modules, in site-map order. A module listed here but not importable yet is skipped with a log line.
SITE_MODULES = (
    "nips",
    "acl",
    "cvf",
    "mlr",
    "openreview",
    "ecva",
    "tiingo",
    "wiki",
    "nba",
    "fangraphs",
    "jsonly",
    "bara",
    "search",
    "robots",
)


@dataclass
class SandboxContext:
    """What every site module gets: the chaos profile and seed (sites may vary content with them)."""

    chaos: str = "none"
    seed: int = 0
    extra: dict = field(default_factory=dict)


def _not_found_page(path: str) -> HTMLResponse:
    body = (
        "<!doctype html><html><head><title>404 Not Found</title></head><body>"
        f"<h1>404 Not Found</h1><p>No page at <code>{html.escape(path)}</code>.</p>"
        '<p><a href="/">Site map</a></p></body></html>'
    )
    return HTMLResponse(body, status_code=404)


async def _not_found(request: Request, exc: Exception) -> Response:
    return _not_found_page(request.url.path)


async def _server_error(request: Request, exc: Exception) -> Response:
    log.exception("sandbox handler failed for %s", request.url.path, exc_info=exc)
    return JSONResponse({"detail": "internal error"}, status_code=500)


class _PrefixRouter(Router):
    """Dispatch on the first path segment (the imitated host) instead of trying every Mount in turn.

    With a dozen sites, Starlette's linear route matching cost ~20% of each small API response.
    """

    def __init__(self, routes: list) -> None:
        super().__init__(routes=routes)
        by_prefix: dict[str, list] = {}
        for route in routes:
            if isinstance(route, Mount) and route.path.count("/") == 1:
                by_prefix.setdefault(route.path, []).append(route)
        self._subs = {prefix: Router(routes=mounts) for prefix, mounts in by_prefix.items()}

    async def app(self, scope, receive, send) -> None:  # type: ignore[override]
        if scope["type"] == "http":
            path = scope.get("path", "")
            sub = (
                self._subs.get("/" + path.split("/", 2)[1]) if path.startswith("/") and path != "/" else None
            )
            if sub is not None:
                await sub.app(scope, receive, send)
                return
        await super().app(scope, receive, send)


def load_sites() -> list:
    mods = []
    for name in SITE_MODULES:
        try:
            mods.append(importlib.import_module(f"prefect_autodata.sandbox.sites.{name}"))
        except ModuleNotFoundError as exc:
            if exc.name != f"prefect_autodata.sandbox.sites.{name}":
                raise
    return mods


def sitemap(sites: list | None = None) -> list[tuple[str, str]]:
    """(title, example path) for every mounted site."""
    out: list[tuple[str, str]] = []
    for mod in sites if sites is not None else load_sites():
        out.extend(getattr(mod, "SITEMAP", []))
    return out


def build_app(chaos: str = "none", seed: int = 0, extra_sites: list | tuple = ()) -> Starlette:
    """Assemble every site (and chaos) into one ASGI app.

    ``extra_sites``: more site-module-like objects (``routes(ctx)``, ``SITEMAP``, ``search_docs()``),
    e.g. the zoo's drawn sites; they are mounted and indexed by the search like the built-in ones.
    """
    ctx = SandboxContext(chaos=chaos, seed=seed, extra={"extra_sites": list(extra_sites)})
    sites = load_sites() + list(extra_sites)
    routes = []
    for mod in sites:
        routes.extend(mod.routes(ctx))

    entries = sitemap(sites)

    async def index(request: Request) -> Response:
        items = "".join(
            f'<li><a href="{html.escape(path)}">{html.escape(title)}</a> <code>{html.escape(path)}</code></li>'
            for title, path in entries
        )
        return HTMLResponse(
            f"<!doctype html><html><head><title>autodata sandbox</title></head><body>"
            f"<h1>autodata sandbox web</h1><ul>{items}</ul></body></html>"
        )

    app = Starlette(
        routes=[Route("/", index), *routes],
        exception_handlers={404: _not_found, 500: _server_error, Exception: _server_error},
    )
    app.router = _PrefixRouter(app.router.routes)
    app.state.ctx = ctx
    if chaos != "none":
        from prefect_autodata.sandbox.chaos import ChaosMiddleware

        return ChaosMiddleware(app, profile=chaos, seed=seed)  # type: ignore[return-value]
    return app
