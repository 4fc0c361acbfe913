"""Headless Chromium via Playwright: render JS-only pages, scroll / click "load more", capture XHR/fetch traffic.

One browser per run and it is always closed, even when rendering fails: leaked Chromium processes are the
most common complaint about long-running browser scrapers. Every request the page makes passes the same
address policy as the fetch client, and the top-level URL also passes robots.txt.

Chromium follows redirects without asking a route handler, so the guard fetches every request itself with
``max_redirects=0`` and checks each hop before anything reaches it; WebSockets pass the same check (they are
closed when refused). WebRTC is limited to proxied UDP so no peer connection can reach a host nobody named.
"""

from __future__ import annotations

import os
import re
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

from prefect_autodata.errors import FetchError, TransientError
from prefect_autodata.runtime.fetch import Fetcher

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
]
_REDIRECT_STATUS = frozenset({301, 302, 303, 307, 308})
XHR_BODY_LIMIT = 200_000


def chromium_path() -> str:
    """The Chromium executable: ``$AUTODATA_CHROMIUM`` or Debian's ``/usr/bin/chromium``."""
    path = os.environ.get("AUTODATA_CHROMIUM", "/usr/bin/chromium")
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise FetchError(
            f"Chromium not found at {path} (set AUTODATA_CHROMIUM, or install it: apt-get install chromium)"
        )
    return path


def launch_chromium(playwright: Any, *, marker: str | None = None, **kwargs: Any) -> Any:
    """Launch Debian Chromium with our flags (``playwright install`` cannot download here).

    Playwright gives every launch a fresh temporary profile and deletes it on close. ``marker`` adds an inert
    ``--autodata-run=`` switch so a leaked process could be told apart from anyone else's Chromium."""
    args = list(CHROMIUM_ARGS)
    if marker:
        args.append(f"--autodata-run={marker}")
    return playwright.chromium.launch(executable_path=chromium_path(), args=args, headless=True, **kwargs)


@dataclass
class CapturedRequest:
    """An XHR/fetch response the page made: how agents find the API behind a page."""

    url: str
    method: str
    status: int | None
    content_type: str
    body_text: str
    request_headers: dict[str, str] = field(default_factory=dict)
    post_data: str | None = None


@dataclass
class RenderedPage:
    url: str
    final_url: str
    html: str
    title: str
    status: int | None
    xhr: list[CapturedRequest] = field(default_factory=list)
    scrolls: int = 0
    clicks: int = 0
    blocked: list[str] = field(default_factory=list)


class BrowserSession:
    """One Chromium for a whole run. ``with BrowserSession(fetcher) as b: page = b.render(url)``.

    Playwright's sync API runs on a thread the session owns, so the session works from any thread, including
    one running an asyncio loop (async Prefect flows) or while another session is open.
    """

    def __init__(self, fetcher: Fetcher | None = None, *, user_agent: str | None = None) -> None:
        self.fetcher = fetcher or Fetcher()
        self._own_fetcher = fetcher is None
        self.user_agent = user_agent or self.fetcher.policy.user_agent
        self._pw_cm: Any = None
        self._pw: Any = None
        self.browser: Any = None
        self._context: Any = None
        self.marker: str | None = None
        self._blocked: list[str] = []
        self._nav_redirect: str | None = None
        self._thread: ThreadPoolExecutor | None = None

    def __enter__(self) -> BrowserSession:
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Start Chromium on the session's own thread (Playwright's sync API refuses threads running asyncio)."""
        if self._thread is None:
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="autodata-browser")
        self._call(self._start)

    def _call(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        if self._thread is None:
            raise FetchError("browser session is not started (use it as a context manager)")
        return self._thread.submit(fn, *args, **kwargs).result()

    def _start(self) -> None:
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright

        self.marker = uuid.uuid4().hex
        self._pw_cm = sync_playwright()
        self._pw = self._pw_cm.__enter__()
        try:
            self.browser = launch_chromium(self._pw, marker=self.marker)
        except PlaywrightError as exc:
            raise FetchError(f"could not start Chromium: {str(exc).splitlines()[0]}") from exc
        self._context = self.browser.new_context(user_agent=self.user_agent, service_workers="block")
        self._context.route("**/*", self._guard)
        self._context.route_web_socket(re.compile(r".*"), self._guard_ws)

    def close(self) -> None:
        """Close context, browser and driver; every step runs even if an earlier one fails."""
        if self._thread is not None:
            try:
                self._thread.submit(self._close).result()
            finally:
                self._thread.shutdown(wait=True)
                self._thread = None
        if self._own_fetcher:
            self.fetcher.close()

    def _close(self) -> None:
        for step in (
            lambda: self._context and self._context.close(),
            lambda: self.browser and self.browser.close(),
            lambda: self._pw_cm and self._pw_cm.__exit__(None, None, None),
        ):
            try:
                step()
            except Exception:  # noqa: BLE001 - closing must always reach the next step
                pass
        self._context = self.browser = self._pw = self._pw_cm = None

    def _refused(self, url: str, *, robots: bool = False) -> bool:
        """True (and recorded) when the address policy, or robots.txt for a page, refuses ``url``."""
        parts = urlsplit(url)
        check = url
        if parts.scheme in ("ws", "wss"):  # same host rules as http(s)
            check = ("https" if parts.scheme == "wss" else "http") + url[len(parts.scheme) :]
        reason = self.fetcher.addresses.refusal(check)
        if reason is None and robots:
            try:
                self.fetcher.robots_decision(check)
            except FetchError as exc:
                reason = str(exc)
        if reason is not None:
            self._blocked.append(f"{url}: {reason}")
            return True
        return False

    def _guard(self, route: Any) -> None:
        """Every request the page makes, every redirect hop included, passes the address policy.

        The request is fetched here hop by hop (``max_redirects=0``) and each Location is checked before
        it is requested; a main-frame redirect becomes a new navigation (checked again, robots included)."""
        from playwright.sync_api import Error as PlaywrightError

        req = route.request
        url = req.url
        if urlsplit(url).scheme in ("data", "blob", "about"):
            route.continue_()
            return
        try:
            main_nav = req.is_navigation_request() and req.frame.parent_frame is None
        except PlaywrightError:
            main_nav = False
        if self._refused(url):
            route.abort("blockedbyclient")
            return
        timeout_ms = max(1.0, min(self.fetcher.policy.request_deadline, self.fetcher.time_left())) * 1000
        try:
            resp = route.fetch(max_redirects=0, timeout=timeout_ms)
            current = url
            for _hop in range(self.fetcher.policy.max_redirects + 1):
                location = resp.headers.get("location")
                if resp.status not in _REDIRECT_STATUS or not location:
                    route.fulfill(response=resp)
                    return
                nxt = urljoin(current, location)
                if self._refused(nxt, robots=main_nav):
                    route.abort("blockedbyclient")
                    return
                if main_nav:  # let the browser navigate there itself (a new, checked navigation)
                    self._nav_redirect = nxt
                    route.abort("aborted")
                    return
                method = "GET" if resp.status in (301, 302, 303) else req.method
                current = nxt
                resp = route.fetch(url=nxt, method=method, max_redirects=0, timeout=timeout_ms)
            self._blocked.append(f"{url}: more than {self.fetcher.policy.max_redirects} redirects")
            route.abort("blockedbyclient")
        except PlaywrightError:
            try:
                route.abort("failed")
            except PlaywrightError:
                pass

    def _guard_ws(self, ws: Any) -> None:
        """A WebSocket to a host the policy refuses is closed before it connects."""
        if self._refused(ws.url):
            ws.close(code=1008, reason="refused by the address policy")
            return
        ws.connect_to_server()

    def render(
        self,
        url: str,
        *,
        wait_for: str | None = None,
        wait_until: str = "networkidle",
        scroll_steps: int = 0,
        load_more_selector: str | None = None,
        max_clicks: int = 0,
        timeout_s: float = 30,
    ) -> RenderedPage:
        """Load ``url``, wait (``wait_until`` then ``wait_for`` selector), then scroll / click "load more" until
        nothing new appears or the bound is hit. The top-level URL passes the address policy and robots.txt."""
        robots = self.fetcher.check_url(url)
        timeout_s = max(0.001, min(timeout_s, self.fetcher.policy.request_deadline, self.fetcher.time_left()))
        page: RenderedPage = self._call(
            self._render, url, wait_for, wait_until, scroll_steps, load_more_selector, max_clicks, timeout_s
        )
        self.fetcher.record(page.final_url, page.status, page.html.encode("utf-8"), robots)
        return page

    def _render(
        self,
        url: str,
        wait_for: str | None = None,
        wait_until: str = "networkidle",
        scroll_steps: int = 0,
        load_more_selector: str | None = None,
        max_clicks: int = 0,
        timeout_s: float = 30,
    ) -> RenderedPage:
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        self._blocked = []
        timeout_ms = timeout_s * 1000
        page = self._context.new_page()
        responses: list[Any] = []
        page.on(
            "response",
            lambda r: responses.append(r) if r.request.resource_type in ("xhr", "fetch") else None,
        )
        try:
            target = url
            for _hop in range(self.fetcher.policy.max_redirects + 2):
                self._nav_redirect = None
                try:
                    nav = page.goto(target, wait_until=wait_until, timeout=timeout_ms)
                    break
                except PlaywrightTimeout as exc:
                    raise TransientError(f"{url}: page did not load within {timeout_s:g}s") from exc
                except PlaywrightError as exc:
                    if self._nav_redirect:  # a redirect the guard checked: navigate there
                        target = self._nav_redirect
                        continue
                    blocked = f" (refused: {self._blocked[-1]})" if self._blocked else ""
                    raise FetchError(
                        f"{url}: browser could not load the page: {str(exc).splitlines()[0]}{blocked}"
                    ) from exc
            else:
                raise FetchError(
                    f"{url} exceeded {self.fetcher.policy.max_redirects} redirects in the browser"
                )
            status = nav.status if nav is not None else None
            if status is not None and status >= 400:
                raise FetchError(f"{url} answered HTTP {status} in the browser")
            if wait_for:
                try:
                    page.wait_for_selector(wait_for, timeout=timeout_ms)
                except PlaywrightTimeout as exc:
                    raise FetchError(
                        f"{url}: selector {wait_for!r} never appeared within {timeout_s:g}s"
                    ) from exc
            scrolls = self._scroll(page, scroll_steps, timeout_ms)
            clicks = self._click_more(page, load_more_selector, max_clicks, timeout_ms)
            self._settle(page, timeout_ms)
            html = page.content()
            title = page.title()
            final_url = page.url
            xhr = [_capture(r) for r in responses]
        finally:
            page.close()
        return RenderedPage(
            url=url,
            final_url=final_url,
            html=html,
            title=title,
            status=status,
            xhr=xhr,
            scrolls=scrolls,
            clicks=clicks,
            blocked=list(self._blocked),
        )

    @staticmethod
    def _settle(page: Any, timeout_ms: float) -> None:
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        try:
            page.wait_for_load_state("networkidle", timeout=min(timeout_ms, 10_000))
        except PlaywrightTimeout:
            pass
        # Network idle is not DOM idle: scripts append rows after their fetch resolves. Wait until the
        # document stops changing (two equal samples), bounded.
        size = -1
        for _ in range(20):
            now = page.evaluate("document.documentElement ? document.documentElement.outerHTML.length : 0")
            if now == size:
                break
            size = now
            page.wait_for_timeout(100)

    def _scroll(self, page: Any, steps: int, timeout_ms: float) -> int:
        done = 0
        for _ in range(max(0, steps)):
            before = page.evaluate("document.body ? document.body.scrollHeight : 0")
            page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
            self._settle(page, timeout_ms)
            page.wait_for_timeout(100)
            done += 1
            if page.evaluate("document.body ? document.body.scrollHeight : 0") <= before:
                break
        return done

    def _click_more(self, page: Any, selector: str | None, max_clicks: int, timeout_ms: float) -> int:
        if not selector or max_clicks <= 0:
            return 0
        clicks = 0
        while clicks < max_clicks:
            button = page.locator(selector).first
            if button.count() == 0 or not button.is_visible() or not button.is_enabled():
                break
            before = page.evaluate("document.body ? document.body.innerHTML.length : 0")
            button.click(timeout=min(timeout_ms, 10_000))
            clicks += 1
            self._settle(page, timeout_ms)
            if page.evaluate("document.body ? document.body.innerHTML.length : 0") == before:
                break
        return clicks

    def screenshot(self, url: str, path: str | Path, *, timeout_s: float = 30) -> Path:
        """Render ``url`` and save a full-page PNG (for reports and debugging selectors)."""
        self.fetcher.check_url(url)
        return self._call(self._screenshot, url, path, timeout_s)

    def _screenshot(self, url: str, path: str | Path, timeout_s: float) -> Path:
        page = self._context.new_page()
        try:
            target = url
            for _hop in range(self.fetcher.policy.max_redirects + 2):
                self._nav_redirect = None
                try:
                    page.goto(target, wait_until="networkidle", timeout=timeout_s * 1000)
                    break
                except Exception:
                    if not self._nav_redirect:  # a redirect the guard checked: navigate there
                        raise
                    target = self._nav_redirect
            page.screenshot(path=str(path), full_page=True)
        finally:
            page.close()
        return Path(path)


def _capture(response: Any) -> CapturedRequest:
    req = response.request
    try:
        ctype = (response.headers.get("content-type") or "").split(";")[0].strip().lower()
    except Exception:  # noqa: BLE001
        ctype = ""
    body = ""
    if ctype.startswith(("application/json", "text/", "application/xml")) or ctype.endswith("+json"):
        try:
            body = response.text()[:XHR_BODY_LIMIT]
        except Exception:  # noqa: BLE001 - body may be gone (redirect, navigation); the URL still matters
            body = ""
    try:
        headers = dict(req.headers)
    except Exception:  # noqa: BLE001
        headers = {}
    return CapturedRequest(
        url=response.url,
        method=req.method,
        status=response.status,
        content_type=ctype,
        body_text=body,
        request_headers=headers,
        post_data=req.post_data,
    )
