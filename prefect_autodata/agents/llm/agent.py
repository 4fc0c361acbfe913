"""The LLM backend: one ReAct-style agent per role over any OpenAI-compatible endpoint.

Each invocation: system prompt (the role's versioned profile + its JSON schema) and the
rendered inbox; the model may call tools (results go back as tool messages) until it answers
with one JSON object — asked for as a JSON-Schema structured output where the endpoint supports
it — which ``outputs.settle`` turns into the role's message (the plan's Request, the engineering
agent's CollectorSpec, the test agent's measured verdict). Invalid JSON, schema violations and
malformed tool arguments are explained to the model and retried a bounded number of times (the
plan: one repair turn, then the offline parse); the same tool call with the same arguments
``loop_threshold`` times stops the run.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from prefect_autodata.agents.base import Toolbox, ToolError
from prefect_autodata.agents.llm.client import LLMClient
from prefect_autodata.agents.llm.config import LLMSettings, RoleProfile, load_profile
from prefect_autodata.agents.llm.outputs import (
    offline_request,
    output_schema,
    response_format,
    settle,
    settle_request,
)
from prefect_autodata.errors import TerminalError
from prefect_autodata.ohcache.formatter import FormatRejected, render_context
from prefect_autodata.ohcache.hypergraph import Message
from prefect_autodata.ohcache.messages import Role, RoleMessage


class LoopDetected(TerminalError):
    """The agent repeated the same tool call with the same arguments, or never answered."""


def _parse_arguments(name: str, raw: str) -> tuple[dict[str, Any], str | None]:
    """Tool arguments as a dict, or a message for the model saying what is wrong with them."""
    try:
        args = json.loads(raw) if raw.strip() else {}
    except json.JSONDecodeError as exc:
        return {}, f"malformed arguments for tool {name!r}: not valid JSON ({exc.msg} at char {exc.pos})"
    if not isinstance(args, dict):
        return {}, f"malformed arguments for tool {name!r}: expected a JSON object, got {type(args).__name__}"
    return args, None


class LLMAgent:
    """Implements ``Agent`` for one role with an LLM."""

    def __init__(self, role: Role | str, client: LLMClient, profile: RoleProfile | None = None) -> None:
        self.role = Role(role)
        self.client = client
        self.profile = profile or load_profile(self.role)
        self.settings: LLMSettings = client.settings

    def system_prompt(self) -> str:
        schema = output_schema(self.role)
        return (
            f"{self.profile.system.strip()}\n\n"
            f"(profile {self.role.value} v{self.profile.version}) Use tools when you need evidence; artifacts are "
            "read with cache_get by ID. When done, reply with ONLY one JSON object matching this JSON schema:\n"
            + json.dumps(schema, separators=(",", ":"))
        )

    def _fallback(self, inbox: list[Message], tools: Toolbox, detail: str) -> RoleMessage | None:
        """What a role posts when its replies never validated: the plan falls back to the offline parse."""
        if self.role is not Role.PLAN:
            return None
        tools.runtime.trace.emit("plan_fallback", role=self.role.value, detail=detail[:300])
        return settle_request(offline_request(inbox), tools, source="offline (the reply did not validate)")

    def run(self, inbox: list[Message], tools: Toolbox) -> RoleMessage:
        rt = tools.runtime
        trace, meter = rt.trace, rt.meter
        user = "Messages addressed to you, oldest first:\n" + (
            render_context(inbox, rt.ablation, fetch=lambda cid: rt.cache.get_text(cid)) or "(none yet)"
        )
        if tools.feedback:
            user += "\n\nYour previous answer was rejected: " + " | ".join(tools.feedback)
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": self.system_prompt()},
            {"role": "user", "content": user},
        ]
        specs = tools.specs()
        fmt = response_format(self.role)
        seen: Counter[tuple[str, str]] = Counter()
        bad_args = tool_errors = format_errors = 0
        limit = self.settings.max_format_retries
        # the plan has a fallback (the offline parse): one repair turn, then it is used
        reply_limit = min(limit, 1) if self.role is Role.PLAN else limit
        for _ in range(self.settings.max_tool_rounds):
            c = self.client.complete(
                role=self.role.value,
                messages=messages,
                tools=specs,
                trace=trace,
                meter=meter,
                response_format=fmt,
            )
            if c.tool_calls:
                messages.append(
                    {
                        "role": "assistant",
                        "content": c.content,
                        "tool_calls": [
                            {
                                "id": t.id,
                                "type": "function",
                                "function": {"name": t.name, "arguments": t.arguments},
                            }
                            for t in c.tool_calls
                        ],
                    }
                )
                for call in c.tool_calls:
                    args, problem = _parse_arguments(call.name, call.arguments)
                    if problem is not None:
                        bad_args += 1
                        trace.emit("tool_call", role=self.role.value, tool=call.name, ok=False, error=problem)
                        if bad_args > limit:
                            raise ToolError(
                                f"{self.role.value} agent sent malformed JSON arguments for tool {call.name!r} "
                                f"{bad_args} times (last: {call.arguments[:80]!r}); the model cannot call tools reliably"
                            )
                        result = f"ERROR: {problem}; resend the call with a JSON object"
                    else:
                        key = (call.name, json.dumps(args, sort_keys=True))
                        seen[key] += 1
                        if seen[key] >= self.settings.loop_threshold:
                            trace.emit("loop_detected", role=self.role.value, tool=call.name, count=seen[key])
                            raise LoopDetected(
                                f"{self.role.value} agent is looping: it called {call.name}({key[1][:120]}) "
                                f"{seen[key]} times with the same arguments; stopped (loop_threshold="
                                f"{self.settings.loop_threshold})"
                            )
                        try:
                            out = tools.call(call.name, args)
                            result = out if isinstance(out, str) else json.dumps(out, default=str)
                        except ToolError as exc:
                            tool_errors += 1
                            if tool_errors > limit:
                                raise ToolError(
                                    f"{self.role.value} agent: {exc} (after {tool_errors} failed tool calls)"
                                ) from exc
                            result = f"ERROR: {exc}"
                    messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
                continue
            try:
                return settle(self.role, c.content or "", inbox, tools)
            except FormatRejected as exc:
                format_errors += 1
                trace.emit("format_rejected", role=self.role.value, attempt=format_errors, detail=exc.detail)
                if format_errors > reply_limit and (fallback := self._fallback(inbox, tools, exc.detail)):
                    return fallback
                if format_errors > limit:
                    raise FormatRejected(
                        self.role, f"{exc.detail} (model failed {format_errors} times; try a stronger model)"
                    ) from exc
                messages.append({"role": "assistant", "content": c.content or ""})
                messages.append(
                    {
                        "role": "user",
                        "content": f"Your reply was rejected: {exc.detail}. Reply with ONLY the corrected JSON object.",
                    }
                )
        raise LoopDetected(
            f"{self.role.value} agent used {self.settings.max_tool_rounds} tool rounds without a final answer "
            "(raise max_tool_rounds)"
        )


class LLMBackend:
    """Hands out LLM agents sharing one client (one connection pool, one key)."""

    name = "llm"

    def __init__(self, settings: LLMSettings, client: LLMClient | None = None) -> None:
        self.settings = settings
        self.client = client or LLMClient(settings)

    @classmethod
    def from_env(cls) -> LLMBackend:
        return cls(LLMSettings.from_env())

    def agent(self, role: Role | str) -> LLMAgent:
        return LLMAgent(role, self.client)
