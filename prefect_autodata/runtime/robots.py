"""robots.txt, fetched once per origin and cached, interpreted per RFC 9309."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from urllib.parse import unquote, urlsplit


def _pattern(path: str) -> re.Pattern[str]:
    """An RFC 9309 path pattern: prefix match, ``*`` any run, ``$`` end anchor."""
    anchored = path.endswith("$")
    body = path[:-1] if anchored else path
    regex = ".*".join(re.escape(part) for part in body.split("*"))
    return re.compile(regex + ("$" if anchored else ""))


class RobotsRules:
    """Parsed rules for one origin (RFC 9309: ``*``/``$`` patterns, longest match wins, allow wins ties).

    ``allow_all``/``deny_all`` cover the RFC's unavailable (4xx) and unreachable (5xx) cases; ``reason``
    says why (the fetcher reports it instead of a plain "disallowed")."""

    def __init__(
        self,
        text: str | None = None,
        *,
        allow_all: bool = False,
        deny_all: bool = False,
        reason: str | None = None,
    ) -> None:
        self.allow_all = allow_all
        self.deny_all = deny_all
        self.reason = reason
        # user-agent token (lowercase) -> [(allow, raw path, compiled)], plus crawl delays
        self._groups: dict[str, list[tuple[bool, str, re.Pattern[str]]]] = {}
        self._delays: dict[str, float] = {}
        if text is not None:
            self._parse(text)

    def _parse(self, text: str) -> None:
        agents: list[str] = []
        in_rules = False
        for raw in text.splitlines():
            line = raw.split("#", 1)[0].strip()
            if ":" not in line:
                continue
            key, value = (x.strip() for x in line.split(":", 1))
            key = key.lower()
            if key == "user-agent":
                if in_rules:
                    agents, in_rules = [], False
                agents.append(value.lower())
                for a in agents:
                    self._groups.setdefault(a, [])
            elif key in ("allow", "disallow") and agents:
                in_rules = True
                if not value:
                    continue  # "Disallow:" with no path allows everything
                for a in agents:
                    self._groups[a].append((key == "allow", value, _pattern(value)))
            elif key == "crawl-delay" and agents:
                in_rules = True
                try:
                    delay = float(value)
                except ValueError:
                    continue
                for a in agents:
                    self._delays[a] = delay

    def _group_for(self, user_agent: str) -> str | None:
        token = user_agent.split("/", 1)[0].strip().lower()
        if token in self._groups:
            return token
        for name in self._groups:
            if name != "*" and name in token:
                return name
        return "*" if "*" in self._groups else None

    def allowed(self, url: str, user_agent: str) -> bool:
        if self.deny_all:
            return False
        if self.allow_all:
            return True
        group = self._group_for(user_agent)
        if group is None:
            return True
        parts = urlsplit(url)
        target = unquote(parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        best_len, verdict = -1, True
        for allow, raw, pattern in self._groups[group]:
            if pattern.match(target) or pattern.match(parts.path or "/"):
                length = len(raw)
                if length > best_len or (length == best_len and allow):
                    best_len, verdict = length, allow
        return verdict

    def crawl_delay(self, user_agent: str) -> float | None:
        group = self._group_for(user_agent)
        return self._delays.get(group) if group is not None else None


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
            except Exception as exc:  # noqa: BLE001 - unreachable after retries: RFC 9309 says disallow
                if getattr(exc, "policy_refusal", False):
                    raise  # the address policy refused the host: that is the error, not robots.txt
                rules = RobotsRules(deny_all=True, reason=unreachable_reason(origin, exc))
            else:
                if 200 <= status < 300:
                    rules = RobotsRules(text)
                elif 400 <= status < 500:
                    rules = RobotsRules(allow_all=True)
                else:
                    rules = RobotsRules(
                        deny_all=True,
                        reason=f"{origin}/robots.txt answered HTTP {status}: RFC 9309 treats an unreachable "
                        "robots.txt as complete disallow, so nothing on this host is fetched",
                    )
            with self._guard:
                self._rules[origin] = rules
            return rules


def unreachable_reason(origin: str, exc: BaseException) -> str:
    """Why robots.txt could not be had, in words: the host is unreachable, or robots.txt keeps failing."""
    why = None
    e: BaseException | None = exc
    while e is not None and why is None:
        why = getattr(e, "reason", None)
        e = e.__cause__
    if isinstance(why, str) and why.startswith(("connection", "host ", "no data")):
        return (
            f"{origin} is unreachable: {why} (its robots.txt could not be fetched; RFC 9309 then means "
            "complete disallow)"
        )
    detail = why if isinstance(why, str) else str(exc).splitlines()[0][:200]
    return (
        f"{origin}/robots.txt is unreachable ({detail}): RFC 9309 treats that as complete disallow, so "
        "nothing on this host is fetched"
    )
