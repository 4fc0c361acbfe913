"""Replay a recorded squad conversation through the real runtime under an ablation, counting context tokens.

A recording (YAML) lists turns (role, structured ``output``, unstructured ``raw``, artifacts it
``store``s and ``fetch``es). Replaying it through ``AgentRuntime`` gives each agent exactly the
context the hypergraph would give it, so the token counts compare OHCache with its ablations on
the same conversation.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, Field

from prefect_autodata.agents.base import AgentRuntime
from prefect_autodata.errors import ConfigError
from prefect_autodata.ohcache.ablation import Ablation
from prefect_autodata.ohcache.messages import FreeText, Role

_REF = re.compile(r"@([a-z_][a-z0-9_]*)")


class RecordedArtifact(BaseModel):
    kind: str
    summary: str
    path: str | None = None  # where the replayer fetches it (resolved by the caller)
    inline: str | None = None  # key into Recording.inline


class RecordedTurn(BaseModel):
    role: Role
    output: dict[str, Any]
    raw: str
    store: list[str] = Field(default_factory=list)
    fetch: list[str] = Field(default_factory=list)


class Recording(BaseModel):
    name: str
    instruction: str
    artifacts: dict[str, RecordedArtifact] = Field(default_factory=dict)
    inline: dict[str, str] = Field(default_factory=dict)
    turns: list[RecordedTurn] = Field(min_length=1)

    @classmethod
    def load(cls, path: Path | str) -> Recording:
        try:
            return cls.model_validate(yaml.safe_load(Path(path).read_text(encoding="utf-8")))
        except (OSError, yaml.YAMLError) as exc:
            raise ConfigError(f"cannot read recording {path}: {exc}") from exc


def _subst(obj: Any, ids: Mapping[str, str]) -> Any:
    if isinstance(obj, str):
        return _REF.sub(lambda m: ids.get(m.group(1), m.group(0)), obj)
    if isinstance(obj, dict):
        return {k: _subst(v, ids) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_subst(v, ids) for v in obj]
    return obj


class _ReplayAgent:
    def __init__(
        self, role: Role, turns: list[RecordedTurn], contents: Mapping[str, str | bytes], rec: Recording
    ):
        self.role = role
        self.turns = turns
        self.contents = contents
        self.rec = rec
        self.ids: dict[str, str] = {}

    def run(self, inbox, tools):
        from prefect_autodata.ohcache.formatter import referenced_artifacts
        from prefect_autodata.ohcache.messages import schema_for

        turn = self.turns.pop(0)
        for name in turn.store:
            art = self.rec.artifacts[name]
            self.ids[name] = tools.store(self.contents[name], kind=art.kind, summary=art.summary)
        if tools.runtime.ablation.cache:  # with the cache off the content is already inline
            for name in turn.fetch:
                tools.fetch(self.ids[name])
        output = _subst(turn.output, self.ids)
        if tools.runtime.ablation.formatter:
            return output
        refs = referenced_artifacts(schema_for(self.role).model_validate(output))
        return FreeText(role=self.role, text=_subst(turn.raw, self.ids).strip(), artifacts=refs)


def replay(
    rec: Recording, contents: Mapping[str, str | bytes], ablation: Ablation, cache_dir: Path
) -> dict[str, Any]:
    """Run the recording; returns the runtime summary (context tokens per role and in total)."""
    missing = [a for a in rec.artifacts if a not in contents]
    if missing:
        raise ConfigError(f"recording {rec.name!r}: no content for artifacts {', '.join(missing)}")
    rt = AgentRuntime(cache=cache_dir, ablation=ablation, run_id=f"replay-{ablation.name}")
    ids: dict[str, str] = {}
    for role in Role:
        agent = _ReplayAgent(role, [t for t in rec.turns if t.role == role], contents, rec)
        agent.ids = ids  # one namespace: an artifact stored by one role is cited by others
        rt.add(agent)
    for turn in rec.turns:
        scheduled = turn.output.get("next") if turn.role == Role.MANAGER else None
        if scheduled == "finish":
            continue
        rt.step(turn.role, scheduled=scheduled)
    return rt.summary()
