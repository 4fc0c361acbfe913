"""Address policy against server-side request forgery, checked before any packet is sent.

Hosts a person named (a ``--source`` URL, a spec's base URL) are trusted, loopback included. Every other
host reached by discovery (links, redirects, agent choices) is resolved first and refused when any of its
addresses is link-local/metadata, loopback, private or otherwise non-public, unless the policy allow-lists it.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
from collections.abc import Iterable
from urllib.parse import urlsplit

from prefect_autodata.errors import FetchError

_METADATA = (
    ipaddress.ip_network("169.254.0.0/16"),
    ipaddress.ip_network("fe80::/10"),
    ipaddress.ip_network("fd00:ec2::254/128"),
    ipaddress.ip_network("100.100.100.200/32"),  # one cloud's metadata address
)


def classify_address(addr: str) -> str | None:
    """Why an address is not public (``link-local/metadata``, ``loopback``, ``private``...), or None."""
    ip = ipaddress.ip_address(addr.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if any(ip in net for net in _METADATA if net.version == ip.version):
        return "link-local/metadata"
    if ip.is_loopback:
        return "loopback"
    if ip.is_unspecified:
        return "unspecified"
    if ip.is_multicast:
        return "multicast"
    if ip.is_private:
        return "private"
    if ip.is_reserved or not ip.is_global:
        return "reserved"
    return None


def host_of(url: str) -> str:
    return (urlsplit(url).hostname or "").lower()


class AddressPolicy:
    """Decides, per host, whether a URL may be fetched; resolutions are cached for the run."""

    def __init__(self, allowed_hosts: Iterable[str] = (), allow_private: Iterable[str] = ()) -> None:
        self.allowed_hosts: set[str] = set()
        for h in allowed_hosts:
            self.allow_host(h)
        self._allow_names: set[str] = set()
        self._allow_nets: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        for entry in allow_private:
            entry = entry.strip().lower()
            try:
                self._allow_nets.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                self._allow_names.add(entry)
        self._cache: dict[str, str | None] = {}
        self._lock = threading.Lock()

    def allow_host(self, host_or_url: str) -> None:
        """Trust a host the user named explicitly (accepts a bare host or a URL)."""
        host = host_of(host_or_url) if "://" in host_or_url else host_or_url.strip().lower()
        if host:
            self.allowed_hosts.add(host.strip("[]"))

    def _allow_listed(self, host: str, addr: str | None) -> bool:
        if host in self._allow_names:
            return True
        if addr is None:
            return False
        ip = ipaddress.ip_address(addr.split("%", 1)[0])
        return any(ip in net for net in self._allow_nets if net.version == ip.version)

    def refusal(self, url: str) -> str | None:
        """The reason ``url`` must not be fetched, or None when it may be."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https"):
            return f"scheme {parts.scheme or '(none)'!r} is not http(s)"
        host = (parts.hostname or "").lower()
        if not host:
            return "URL has no host"
        if host in self.allowed_hosts:
            return None
        with self._lock:
            if host in self._cache:
                return self._cache[host]
        reason = self._decide(host)
        with self._lock:
            self._cache[host] = reason
        return reason

    def _decide(self, host: str) -> str | None:
        if self._allow_listed(host, None):
            return None
        try:
            infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
        except (socket.gaierror, UnicodeError) as exc:
            return f"host {host!r} does not resolve ({exc})"
        for info in infos:
            addr = str(info[4][0])
            why = classify_address(addr)
            if why is not None and not self._allow_listed(host, addr):
                return f"{host} resolves to {why} address {addr}"
        return None

    def check(self, url: str) -> None:
        """Raise FetchError naming the URL and the reason when the policy refuses it."""
        reason = self.refusal(url)
        if reason is not None:
            raise FetchError(
                f"refused {url}: {reason} (not a host you named; allow-list it in the fetch policy's "
                "allow_private to permit)"
            )
