"""The one agent interface both backends implement, and the runtime (``AgentRuntime``) they run in.

How a role is written (offline rules or an LLM, same contract)::

    class PlanAgent:
        role = Role.PLAN

        def run(self, inbox: list[Message], tools: Toolbox) -> PlanMessage | dict | str:
            # inbox: exactly the hyperedges addressed to this role so far (Eq. 3), oldest first
            # tools.call("name", {...}) runs a tool; tools.fetch(cache_id) reads an artifact;
            # tools.store(content, kind=..., summary=...) caches evidence and returns its ID
            # tools.feedback: formatter errors of this role's previous attempt (retry context)
            return PlanMessage(...)

    rt = AgentRuntime(cache=ArtifactCache(ws.cache_dir), trace=Trace.for_run(ws.traces_dir, run_id))
    rt.add(PlanAgent(), WebAgent(), ..., ManagerAgent())
    rt.step(Role.PLAN)          # run one agent; its validated message is routed and posted
    rt.run_managed()            # or: let the manager schedule until it answers next="finish"

What the runtime guarantees: an agent only ever sees messages addressed to it; output that does
not fit the role's schema is rejected and retried (bounded); bulky content lives in the cache
and travels by ID; every edge, tool call, cache access and context token count is traced; the
budget is charged on every step and stops the run with ``BudgetExceeded``.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from prefect_autodata.agents.budget import Budget, BudgetMeter
from prefect_autodata.errors import AutoDataError, ConfigError, TerminalError
from prefect_autodata.ohcache.ablation import OHCACHE, Ablation
from prefect_autodata.ohcache.cache import ArtifactCache
from prefect_autodata.ohcache.formatter import FormatRejected, Formatter, render_context
from prefect_autodata.ohcache.hypergraph import Hyperedge, Hypergraph, Message
from prefect_autodata.ohcache.messages import CacheNotice, FreeText, ManagerMessage, Role, RoleMessage
from prefect_autodata.ohcache.routing import RoutingTable
from prefect_autodata.ohcache.tokens import count_tokens
from prefect_autodata.ohcache.trace import Trace

__all__ = [
    "Agent",
    "AgentRuntime",
    "Backend",
    "Message",
    "Role",
    "Tool",
    "ToolError",
    "Toolbox",
]

AgentOutput = RoleMessage | FreeText | dict | str


class ToolError(TerminalError):
    """A tool call was refused (unknown tool, bad arguments) or failed; the message says which and why."""


@dataclass
class Tool:
    """A callable an agent may use. ``parameters`` is a JSON schema (what an LLM sees)."""

    name: str
    description: str
    fn: Callable[..., Any]
    parameters: dict[str, Any] = field(default_factory=lambda: {"type": "object", "properties": {}})

    def spec(self) -> dict[str, Any]:
        """OpenAI function-calling form."""
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }


@runtime_checkable
class Agent(Protocol):
    """One role. ``run`` returns that role's message (a model, a dict or JSON text; the formatter checks it)."""

    role: Role

    def run(self, inbox: list[Message], tools: Toolbox) -> AgentOutput: ...


@runtime_checkable
class Backend(Protocol):
    """Makes agents: the offline (rule-based) backend and the LLM backend both implement this."""

    def agent(self, role: Role) -> Agent: ...


class Toolbox:
    """The tools one agent may use during one invocation, bound to the runtime's cache and trace."""

    def __init__(
        self, runtime: AgentRuntime, role: Role, tools: dict[str, Tool], feedback: list[str]
    ) -> None:
        self.runtime = runtime
        self.role = role
        self._tools = dict(tools)
        self.feedback = feedback
        self._tools.setdefault(
            "cache_get",
            Tool(
                "cache_get",
                "Read an artifact from the local cache by its cache ID (IDs arrive in cache notices).",
                lambda cache_id: self.fetch(cache_id),
                {
                    "type": "object",
                    "properties": {"cache_id": {"type": "string", "description": "e.g. c_0123456789abcdef"}},
                    "required": ["cache_id"],
                },
            ),
        )

    def names(self) -> list[str]:
        return sorted(self._tools)

    def specs(self) -> list[dict[str, Any]]:
        return [self._tools[n].spec() for n in self.names()]

    def call(self, name: str, arguments: dict[str, Any] | None = None) -> Any:
        """Run tool ``name``; every call (ok or not) is traced. Raises ToolError with a fixable message."""
        arguments = arguments or {}
        tool = self._tools.get(name)
        if tool is None:
            err = f"unknown tool {name!r}; available tools: {', '.join(self.names())}"
            self.runtime.trace.emit(
                "tool_call", role=self.role.value, tool=name, arguments=arguments, ok=False, error=err
            )
            raise ToolError(err)
        if not isinstance(arguments, dict):
            err = f"arguments of tool {name!r} must be a JSON object, got {type(arguments).__name__}"
            self.runtime.trace.emit(
                "tool_call", role=self.role.value, tool=name, arguments=arguments, ok=False, error=err
            )
            raise ToolError(err)
        try:
            result = tool.fn(**arguments)
        except TypeError as exc:
            err = f"bad arguments for tool {name!r}: {exc}"
            self.runtime.trace.emit(
                "tool_call", role=self.role.value, tool=name, arguments=arguments, ok=False, error=err
            )
            raise ToolError(err) from exc
        except AutoDataError as exc:
            self.runtime.trace.emit(
                "tool_call", role=self.role.value, tool=name, arguments=arguments, ok=False, error=str(exc)
            )
            raise ToolError(f"tool {name!r} failed: {exc}") from exc
        self.runtime.trace.emit(
            "tool_call",
            role=self.role.value,
            tool=name,
            arguments=arguments,
            ok=True,
            result=_preview(result),
        )
        return result

    def fetch(self, cache_id: str) -> str:
        """An artifact's text, on demand (counts toward this agent's context tokens)."""
        return self.runtime.fetch(self.role, cache_id)

    def store(self, content: bytes | str, *, kind: str, summary: str, media_type: str | None = None) -> str:
        """Cache evidence; returns its ID and notifies every agent (Eq. 5)."""
        return self.runtime.store(self.role, content, kind=kind, summary=summary, media_type=media_type)


def _preview(obj: Any, n: int = 160) -> str:
    s = obj if isinstance(obj, str) else json.dumps(obj, default=str)
    return s if len(s) <= n else s[: n - 1] + "…"


class AgentRuntime:
    """Owns the hypergraph, routing, formatter, cache, trace and budget for one collection run."""

    def __init__(
        self,
        *,
        cache: ArtifactCache | Path | str,
        run_id: str | None = None,
        trace: Trace | None = None,
        routing: RoutingTable | None = None,
        ablation: Ablation = OHCACHE,
        budget: Budget | BudgetMeter | None = None,
        tools: Iterable[Tool] = (),
        max_format_retries: int = 2,
    ) -> None:
        self.run_id = run_id or (trace.run_id if trace else uuid.uuid4().hex[:12])
        self.trace = trace or Trace(self.run_id)
        self.cache = cache if isinstance(cache, ArtifactCache) else ArtifactCache(cache)
        if self.cache.on_event is None:
            self.cache.on_event = lambda event, data: self.trace.emit(event, **data)
        self.ablation = ablation
        base_routing = routing or RoutingTable()
        self.routing = base_routing.model_copy(
            update={"broadcast": base_routing.broadcast or not ablation.routing}
        )
        self.formatter = Formatter(enabled=ablation.formatter, max_retries=max_format_retries)
        self.meter = budget if isinstance(budget, BudgetMeter) else BudgetMeter(budget)
        self.graph = Hypergraph()
        self.agents: dict[Role, Agent] = {}
        self.tools: dict[str, Tool] = {t.name: t for t in tools}
        self.context_tokens: dict[Role, int] = {}

    # -- wiring ------------------------------------------------------------------------------

    def add(self, *agents: Agent) -> AgentRuntime:
        for agent in agents:
            if not isinstance(agent, Agent):
                raise ConfigError(
                    f"{agent!r} is not an agent: it needs a 'role' and a 'run(inbox, tools)' method"
                )
            self.agents[Role(agent.role)] = agent
        return self

    def add_tool(self, tool: Tool) -> None:
        self.tools[tool.name] = tool

    # -- messages ----------------------------------------------------------------------------

    def inbox(self, role: Role | str) -> list[Message]:
        """Eq. 3: what ``role`` may read now."""
        return self.graph.context(role)

    def post(
        self, source: Role | str, body: RoleMessage | FreeText, *, scheduled: Role | str | None = None
    ) -> Message:
        """Route and post one message; the manager's target is its ``next`` (or ``scheduled``)."""
        source = Role(source)
        if isinstance(body, ManagerMessage) and scheduled is None:
            scheduled = body.next
        targets = self.routing.targets(source, scheduled)
        edge = self.graph.add(source, targets, body)
        self.trace.emit("edge", **edge.to_record())
        return edge

    def store(
        self,
        owner: Role | str,
        content: bytes | str,
        *,
        kind: str,
        summary: str,
        media_type: str | None = None,
    ) -> str:
        """Cache an artifact; with the cache on, post a notice to every other agent (Eq. 5)."""
        owner = Role(owner)
        entry = self.cache.put(content, kind=kind, summary=summary, owner=owner.value, media_type=media_type)
        if self.ablation.cache:
            notice = CacheNotice(owner=owner, cache_id=entry.cache_id, kind=kind, summary=entry.summary)
            edge = self.graph.add(owner, [r for r in Role if r != owner], notice)
            self.trace.emit("edge", **edge.to_record())
        return entry.cache_id

    def fetch(self, reader: Role | str, cache_id: str) -> str:
        """Artifact text for ``reader``. With the cache on, the fetched text counts as context tokens."""
        reader = Role(reader)
        text = self.cache.get_text(cache_id, reader=reader.value)
        if self.ablation.cache:
            self._count(reader, text, source="fetch", cache_id=cache_id)
        return text

    def context_text(self, role: Role | str) -> str:
        """The rendered inbox an agent reads (artifacts inline when the cache is off)."""
        return render_context(self.inbox(role), self.ablation, fetch=lambda cid: self.cache.get_text(cid))

    def _count(self, role: Role, text: str, **extra: Any) -> int:
        n = count_tokens(text)
        self.context_tokens[role] = self.context_tokens.get(role, 0) + n
        self.trace.emit("context", role=role.value, tokens=n, **extra)
        return n

    # -- running agents ----------------------------------------------------------------------

    def step(self, role: Role | str, *, scheduled: Role | str | None = None) -> Message | None:
        """Run one agent on its inbox, validate (retrying on rejection), post. None = manager finished."""
        role = Role(role)
        agent = self.agents.get(role)
        if agent is None:
            raise ConfigError(f"no agent registered for role {role.value!r}; add one with runtime.add(...)")
        self.meter.charge(role=role.value, steps=1)
        inbox = self.inbox(role)
        self._count(role, self.context_text(role), source="inbox", messages=len(inbox))
        feedback: list[str] = []
        attempts = self.formatter.max_retries + 1
        for attempt in range(1, attempts + 1):
            out = agent.run(inbox, Toolbox(self, role, self.tools, list(feedback)))
            try:
                body = self.formatter.parse(role, out)
                break
            except FormatRejected as exc:
                self.trace.emit("format_rejected", role=role.value, attempt=attempt, detail=exc.detail)
                feedback.append(exc.detail)
                if attempt == attempts:
                    raise FormatRejected(role, f"{exc.detail} (gave up after {attempts} attempts)") from exc
                self.meter.charge(role=role.value, steps=1)
        if isinstance(body, ManagerMessage) and body.next == "finish":
            self.trace.emit("finish", role=role.value, reason=body.reason)
            return None
        return self.post(role, body, scheduled=scheduled)

    def run_managed(self, *, max_rounds: int = 100) -> list[Hyperedge]:
        """The manager's scheduling loop: manager picks ``next``, that agent runs, repeat until "finish"."""
        if Role.MANAGER not in self.agents:
            raise ConfigError("run_managed needs a manager agent; add one or call step() yourself")
        start = self.graph.now
        for _ in range(max_rounds):
            edge = self.step(Role.MANAGER)
            if edge is None:
                break
            if not isinstance(edge.body, ManagerMessage):
                raise ConfigError(
                    "the manager's output must be a ManagerMessage (formatter on) to schedule agents"
                )
            self.step(edge.body.next)
        else:
            raise TerminalError(f"manager did not finish within {max_rounds} rounds")
        return [e for e in self.graph.edges if e.seq >= start]

    def summary(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "ablation": self.ablation.name,
            "edges": len(self.graph),
            "context_tokens": {r.value: n for r, n in self.context_tokens.items()},
            "context_tokens_total": sum(self.context_tokens.values()),
            "budget": self.meter.summary(),
        }
