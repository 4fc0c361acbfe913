"""The hyperedge formatter: agent output in, one validated per-role message out (or a clear rejection).

It also renders messages into the text an agent reads, which is where the ablations show:
structured messages render as compact JSON, free text as-is, cache notices as one line, and
with the cache off (A5) every referenced artifact's content is pasted inline.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel, ValidationError

from prefect_autodata.errors import TerminalError
from prefect_autodata.ohcache.ablation import OHCACHE, Ablation
from prefect_autodata.ohcache.hypergraph import Hyperedge
from prefect_autodata.ohcache.messages import CacheNotice, FreeText, Role, RoleMessage, schema_for


class FormatRejected(TerminalError):
    """An agent's output does not fit its role's schema; ``detail`` says which fields and why."""

    def __init__(self, role: Role, detail: str) -> None:
        super().__init__(f"{role.value} agent output does not match {schema_for(role).__name__}: {detail}")
        self.role = role
        self.detail = detail


def explain(exc: ValidationError) -> str:
    """Pydantic errors as 'field.path: message; ...' — short enough to show a model."""
    parts = []
    for err in exc.errors()[:8]:
        loc = ".".join(str(x) for x in err["loc"]) or "<root>"
        parts.append(f"{loc}: {err['msg']}")
    more = len(exc.errors()) - 8
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)


def extract_json(text: str) -> Any:
    """The JSON object in a model's reply (bare, fenced, or surrounded by prose)."""
    text = text.strip()
    m = _FENCE.search(text)
    if m:
        text = m.group(1).strip()
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        start, end = text.find("{"), text.rfind("}")
        if start != -1 and end > start:
            return json.loads(text[start : end + 1])
        raise


class Formatter:
    """Validates per-role output; ``enabled=False`` is ablation A4 (everything passes as free text)."""

    def __init__(self, enabled: bool = True, max_retries: int = 2) -> None:
        self.enabled = enabled
        self.max_retries = max_retries

    def parse(self, role: Role | str, output: RoleMessage | FreeText | dict | str) -> RoleMessage | FreeText:
        role = Role(role)
        if not self.enabled:
            return self._free_text(role, output)
        schema = schema_for(role)
        if isinstance(output, schema):
            return output
        if isinstance(output, RoleMessage | FreeText):
            raise FormatRejected(role, f"got a {type(output).__name__}, expected {schema.__name__}")
        if isinstance(output, str):
            try:
                output = extract_json(output)
            except json.JSONDecodeError as exc:
                raise FormatRejected(role, f"reply is not valid JSON ({exc.msg} at char {exc.pos})") from exc
        if not isinstance(output, dict):
            raise FormatRejected(role, f"expected a JSON object, got {type(output).__name__}")
        try:
            return schema.model_validate(output)
        except ValidationError as exc:
            raise FormatRejected(role, explain(exc)) from exc

    @staticmethod
    def _free_text(role: Role, output: Any) -> FreeText:
        if isinstance(output, FreeText):
            return output
        if isinstance(output, BaseModel):
            refs = referenced_artifacts(output)
            return FreeText(role=role, text=output.model_dump_json(indent=2), artifacts=refs)
        if isinstance(output, dict):
            return FreeText(role=role, text=json.dumps(output, indent=2, default=str))
        return FreeText(role=role, text=str(output))


def referenced_artifacts(body: BaseModel) -> list[str]:
    """Every cache ID a message cites (its ``artifacts`` list and any nested ``*cache_id`` field)."""
    found: list[str] = []

    def walk(obj: Any, key: str = "") -> None:
        if isinstance(obj, dict):
            for k, v in obj.items():
                walk(v, k)
        elif isinstance(obj, list):
            for v in obj:
                walk(v, key)
        elif isinstance(obj, str) and (key.endswith("cache_id") or key == "artifacts"):
            if obj not in found:
                found.append(obj)

    walk(body.model_dump(mode="json"))
    return found


def render_edge(edge: Hyperedge, ablation: Ablation = OHCACHE, fetch=None) -> str:
    """The text an agent reads for one message. ``fetch(cache_id) -> str`` is used when the cache is off."""
    body = edge.body
    head = f"[#{edge.seq} from {edge.source.value}]"
    if isinstance(body, CacheNotice):
        return f"[#{edge.seq} cache] {body.cache_id} ({body.kind}, by {body.owner.value}): {body.summary}"
    if isinstance(body, FreeText):
        text = f"{head} {body.text}"
        refs = list(body.artifacts)
    else:
        text = f"{head} {type(body).__name__} " + body.model_dump_json(exclude_defaults=True)
        refs = referenced_artifacts(body)
    if not ablation.cache and fetch is not None:
        for cid in refs:
            text += f"\n--- artifact {cid} ---\n{fetch(cid)}\n--- end {cid} ---"
    return text


def render_context(edges: list[Hyperedge], ablation: Ablation = OHCACHE, fetch=None) -> str:
    return "\n".join(render_edge(e, ablation, fetch) for e in edges)
