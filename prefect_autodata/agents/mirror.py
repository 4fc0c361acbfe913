"""Specs through a local mirror (``--sandbox``): ``unmirrored`` is the inverse of
``runtime.spec.mirrored``, ``runnable`` the spec as it runs now."""

from __future__ import annotations

from urllib.parse import urlsplit

from prefect_autodata.runtime.spec import CollectorSpec, mirrored


def _unmirror(url: str, mirror: str) -> str:
    prefix = mirror.rstrip("/") + "/"
    if url.startswith(prefix):
        rest = url[len(prefix) :]
        if rest and "." in rest.split("/", 1)[0]:
            return "https://" + rest
    return url


def unmirrored(spec: CollectorSpec, mirror: str | None) -> CollectorSpec:
    """Inverse of ``runtime.spec.mirrored``: ``<mirror>/host/path`` becomes ``https://host/path``.

    Specs are saved pointing at the real hosts so that ``autodata run NAME`` (or ``--sandbox`` again)
    reruns them; the run itself goes through the mirror. A ``base_url`` equal to the mirror is folded
    into absolute source URLs first.
    """
    if not mirror:
        return spec
    mirror = mirror.rstrip("/")
    data = spec.model_dump(mode="json", exclude_none=True)
    base = (data.get("base_url") or "").rstrip("/")
    for s in data["sources"]:
        url = s["request"]["url"]
        if url.startswith("{base_url}") and base:
            url = base + url[len("{base_url}") :]
        s["request"]["url"] = _unmirror(url, mirror)
        headers = s["request"].get("headers") or {}
        for k, v in list(headers.items()):
            headers[k] = _unmirror(v, mirror)
        ref = next((v for k, v in headers.items() if k.lower() == "referer"), None)
        for k, v in list(headers.items()):
            if v.rstrip("/") == mirror and ref and ref != v:
                parts = urlsplit(ref)
                headers[k] = f"{parts.scheme}://{parts.netloc}"
    if base:
        data["base_url"] = _unmirror(base, mirror) if base != mirror else None
        if data["base_url"] is None:
            data.pop("base_url")
    return CollectorSpec.model_validate(data)


def runnable(spec: CollectorSpec, mirror: str | None) -> CollectorSpec:
    """The spec as it runs now: through the mirror when one is active (idempotent)."""
    return mirrored(unmirrored(spec, mirror), mirror) if mirror else spec
