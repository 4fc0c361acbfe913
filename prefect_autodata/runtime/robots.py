"""robots.txt, fetched once per origin and cached, interpreted per RFC 9309."""

from __future__ import annotations

import threading
from collections.abc import Callable
from urllib.parse import urlsplit
from urllib.robotparser import RobotFileParser


class RobotsRules:
    """Parsed rules for one origin. ``allow_all``/``deny_all`` cover the RFC's unavailable/unreachable cases."""

    def __init__(self, text: str | None = None, *, allow_all: bool = False, deny_all: bool = False) -> None:
        self.allow_all = allow_all
        self.deny_all = deny_all
        self._parser: RobotFileParser | None = None
        if text is not None:
            self._parser = RobotFileParser()
            self._parser.parse(text.splitlines())

    def allowed(self, url: str, user_agent: str) -> bool:
        if self.deny_all:
            return False
        if self.allow_all or self._parser is None:
            return True
        parts = urlsplit(url)
        path = parts.path or "/"
        if parts.query:
            path = f"{path}?{parts.query}"
        return self._parser.can_fetch(user_agent, path)

    def crawl_delay(self, user_agent: str) -> float | None:
        if self._parser is None:
            return None
        delay = self._parser.crawl_delay(user_agent)
        return float(delay) if delay is not None else None


class RobotsCache:
    """One robots.txt download per origin per run; thread-safe.

    ``download(url) -> (status, text)`` is supplied by the fetcher so robots.txt goes through the same
    retries, timeouts and address policy as everything else. 4xx means "no rules" (allow); 5xx or an
    unreachable server after retries means "assume complete disallow", as RFC 9309 says.
    """

    def __init__(self, download: Callable[[str], tuple[int, str]]) -> None:
        self._download = download
        self._rules: dict[str, RobotsRules] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def rules_for(self, origin: str) -> RobotsRules:
        with self._guard:
            if origin in self._rules:
                return self._rules[origin]
            lock = self._locks.setdefault(origin, threading.Lock())
        with lock:
            if origin in self._rules:
                return self._rules[origin]
            try:
                status, text = self._download(f"{origin}/robots.txt")
            except Exception:  # noqa: BLE001 - unreachable after retries: RFC 9309 says disallow
                rules = RobotsRules(deny_all=True)
            else:
                if 200 <= status < 300:
                    rules = RobotsRules(text)
                elif 400 <= status < 500:
                    rules = RobotsRules(allow_all=True)
                else:
                    rules = RobotsRules(deny_all=True)
            with self._guard:
                self._rules[origin] = rules
            return rules
