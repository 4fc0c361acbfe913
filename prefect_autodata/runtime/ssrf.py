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


_NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))
_EMBEDDING = (  # IPv6 ranges that carry an IPv4 address inside them
    ipaddress.ip_network("::ffff:0:0/96"),  # IPv4-mapped
    ipaddress.ip_network("::/96"),  # IPv4-compatible (deprecated)
    ipaddress.ip_network("::ffff:0:0:0/96"),  # SIIT IPv4-translated
    ipaddress.ip_network("2002::/16"),  # 6to4
    ipaddress.ip_network("2001::/32"),  # Teredo
    *_NAT64,
)
MIN_PREFIX = {4: 8, 6: 7}  # allow_private networks wider than this are catch-alls


def embedded_ipv4(ip: ipaddress.IPv6Address) -> list[tuple[str, ipaddress.IPv4Address]]:
    """The IPv4 addresses an IPv6 address carries: mapped, compatible, SIIT, 6to4, Teredo, NAT64, ISATAP."""
    out: list[tuple[str, ipaddress.IPv4Address]] = []
    packed = ip.packed
    if ip.ipv4_mapped is not None:
        out.append(("IPv4-mapped", ip.ipv4_mapped))
    elif packed[:12] == bytes(12) and int(ip) > 1:
        out.append(("IPv4-compatible", ipaddress.IPv4Address(packed[12:])))
    elif packed[:8] == bytes(8) and packed[8:12] == b"\xff\xff\x00\x00":
        out.append(("IPv4-translated", ipaddress.IPv4Address(packed[12:])))
    if ip.sixtofour is not None:
        out.append(("6to4", ip.sixtofour))
    if ip.teredo is not None:
        server, client = ip.teredo
        out += [("Teredo server", server), ("Teredo client", client)]
    if any(ip in net for net in _NAT64):
        out.append(("NAT64", ipaddress.IPv4Address(packed[12:])))
    if packed[8:12] in (b"\x00\x00\x5e\xfe", b"\x02\x00\x5e\xfe"):
        out.append(("ISATAP", ipaddress.IPv4Address(packed[12:])))
    return out


def _classify_ip(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
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


def classify_address(addr: str) -> str | None:
    """Why an address is not public (``link-local/metadata``, ``loopback``, ``private``...), or None.

    An IPv6 address that embeds an IPv4 address (mapped, compatible, 6to4, Teredo, NAT64, ISATAP) is
    classified by that IPv4 part: ``2002:7f00:1::`` is loopback, whatever Python thinks of 2002::/16."""
    ip = ipaddress.ip_address(addr.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        inner = embedded_ipv4(ip)
        if inner:
            for _form, v4 in inner:
                why = _classify_ip(v4)
                if why is not None:
                    return why
            return None
    return _classify_ip(ip)


def check_allow_entry(entry: str) -> str:
    """Validate one ``allow_private`` entry: a host name or a CIDR that is not a catch-all.

    ``0.0.0.0/0``, ``::/0``, ``0.0.0.0/1`` or ``::ffff:0:0/96`` would turn the address policy off; they are
    refused so an allow-list always names what it allows."""
    item = entry.strip().lower()
    if not item or any(c in item for c in "*? ,"):
        raise ValueError(f"allow_private entry {entry!r} must be one host name or one CIDR (no wildcards)")
    looks_ip = "/" in item or ":" in item or item.replace(".", "").isdigit()
    if not looks_ip:
        return item
    try:
        net = ipaddress.ip_network(item, strict=False)
    except ValueError as exc:
        raise ValueError(f"allow_private entry {entry!r} is not a valid CIDR") from exc
    if net.prefixlen < MIN_PREFIX[net.version]:
        raise ValueError(
            f"allow_private entry {entry!r} is a catch-all range (/{net.prefixlen}); name the private "
            f"network you mean (at most /{MIN_PREFIX[net.version]} wide)"
        )
    if net.version == 6 and any(net.supernet_of(e) for e in _EMBEDDING if e.prefixlen >= net.prefixlen):
        raise ValueError(
            f"allow_private entry {entry!r} covers a whole IPv4-embedding range (every IPv4 address in IPv6 "
            "form); allow the IPv4 network itself"
        )
    return item


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
            try:
                entry = check_allow_entry(entry)
            except ValueError as exc:
                raise FetchError(str(exc)) from exc
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
        candidates = [ip]
        if isinstance(ip, ipaddress.IPv6Address):
            candidates += [v4 for _form, v4 in embedded_ipv4(ip)]
            if len(candidates) > 1:  # an embedded form is allowed only when every IPv4 part it carries is
                return all(
                    _classify_ip(v4) is None or any(v4 in n for n in self._allow_nets if n.version == 4)
                    for v4 in candidates[1:]
                )
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

    def connected_refusal(self, host: str, addr: str) -> str | None:
        """Why a connection to ``host`` that reached ``addr`` must be dropped (DNS rebinding), or None."""
        host = host.strip("[]").lower()
        if host in self.allowed_hosts:
            return None
        why = classify_address(addr)
        if why is None or self._allow_listed(host, addr):
            return None
        return f"{host} connected to {why} address {addr} (its DNS answer changed after the check)"

    def check(self, url: str) -> None:
        """Raise FetchError naming the URL and the reason when the policy refuses it."""
        reason = self.refusal(url)
        if reason is not None:
            raise FetchError(
                f"refused {url}: {reason} (not a host you named; allow-list it in the fetch policy's "
                "allow_private to permit)"
            )
