"""Serve drawn zoo sites inside the sandbox app, each under ``/<host>/`` like the imitated sites.

Mounting them in the same app keeps the mirror machinery unchanged: a zoo URL
``http://127.0.0.1:PORT/<host>/<path>`` maps to ``https://<host>/<path>`` exactly as the built-in
sites do, and the sandbox search indexes each zoo site so a task without a source can be found.
"""

from __future__ import annotations

from starlette.routing import BaseRoute, Mount

from prefect_autodata.sandbox.app import build_app
from prefect_autodata.sandbox.server import SandboxServer, start_in_thread
from prefect_autodata.sandbox.zoo.base import ZooSite


class ZooSiteModule:
    """A drawn site dressed as a sandbox site module (``routes(ctx)``, ``SITEMAP``, ``search_docs()``)."""

    def __init__(self, site: ZooSite) -> None:
        self.site = site
        self.__name__ = f"prefect_autodata.sandbox.zoo.sites.{site.host}"
        title = site.notes.get("search_title") or f"{site.host}: {site.family}"
        self.SITEMAP = [(title, f"/{site.host}{site.entry_path}")]

    def routes(self, ctx) -> list[BaseRoute]:
        return [Mount(f"/{self.site.host}", routes=list(self.site.routes))]

    def search_docs(self) -> list[dict]:
        notes = self.site.notes
        title = notes.get("search_title") or self.SITEMAP[0][0]
        snippet = notes.get("search_snippet") or title
        return [{"title": title, "url": self.SITEMAP[0][1], "snippet": snippet}]


def build_zoo_app(sites: list[ZooSite], chaos: str = "none", seed: int = 0):
    """The sandbox app with every drawn site mounted (and searchable)."""
    return build_app(chaos=chaos, seed=seed, extra_sites=[ZooSiteModule(s) for s in sites])


class ZooServer(SandboxServer):
    """A live sandbox serving the built-in sites plus the given zoo sites; a context manager."""

    def __init__(
        self, sites: list[ZooSite], host: str = "127.0.0.1", port: int = 0, chaos: str = "none", seed: int = 0
    ):
        super().__init__(host=host, port=port, chaos=chaos, seed=seed)
        self.sites = list(sites)

    def start(self) -> ZooServer:
        app = build_zoo_app(self.sites, chaos=self.chaos, seed=self.seed)
        self._server, self._thread = start_in_thread(app, self.host, self.port, name="autodata-zoo")
        return self
