"""A scripted OpenAI-compatible server on loopback, so the LLM path is tested through the real ``openai`` client.

Each *script* is one recorded multi-turn conversation; its name is the model name a client asks
for (``/v1/models`` lists them). The reply to a request is the script's turn number N, where N is
the number of assistant messages already in the request (so retries and multi-turn tool loops
replay deterministically), or the first turn whose ``match`` text occurs in the last message.

Script file (YAML or JSON)::

    name: research-demo
    turns:
      - tool_calls: [{name: fetch_page, arguments: {url: "http://..."}}]
      - content: '{"goals": ["..."], ...}'
      - fault: rate_limit        # 429 + Retry-After for the first `times` requests, then the reply
        retry_after: 1
        times: 1
        content: '...'
      - fault: server_error      # 500 for the first `times` requests
      - fault: invalid_json      # the content, cut in half (no longer JSON)
      - tool_calls: [{name: fetch_page, arguments_raw: '{"url": '}]   # malformed arguments
        repeat: true             # answer every later turn with this one (an endless loop)

A realistic tool-using conversation feeds one tool's result into the next call or into the answer:
the JSON string ``"{{result:TOOL:path}}"`` anywhere in a turn's arguments or content is replaced by the
value at ``path`` (dots; numbers index lists; empty = the whole result) of the latest result of a call to
``TOOL`` in the request's messages, e.g. ``{spec: "{{result:induce_listing:candidates.0.spec}}"}``. A
reference that does not resolve is a 400 naming it (the test fails, nothing is guessed).

Several scripts may answer one model (``model: NAME``), each picked by ``system_match``, a text of
the request's system message (e.g. each role's profile line), so one model serves every role.

``structured_output: false`` makes the script's model refuse a ``response_format`` (400, like an endpoint
without JSON-Schema output); by default it is accepted and recorded with the request.

Misbehaviour like OpenAI: wrong/missing key → 401, unknown model → 404 ``model_not_found``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import threading
import time
from pathlib import Path
from typing import Any, Literal

import uvicorn
import yaml
from pydantic import BaseModel, Field
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from prefect_autodata.errors import ConfigError
from prefect_autodata.sandbox.server import free_port, start_in_thread, stop_thread


class ScriptedToolCall(BaseModel):
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    arguments_raw: str | None = None  # sent verbatim (malformed JSON on cue)

    def wire_arguments(self) -> str:
        return self.arguments_raw if self.arguments_raw is not None else json.dumps(self.arguments)


class Turn(BaseModel):
    content: str | None = None
    tool_calls: list[ScriptedToolCall] = Field(default_factory=list)
    match: str | None = None
    fault: Literal["rate_limit", "server_error", "invalid_json"] | None = None
    times: int = Field(default=1, ge=1)
    retry_after: float = 1.0
    repeat: bool = False


class Script(BaseModel):
    name: str
    turns: list[Turn] = Field(min_length=1)
    structured_output: bool = True
    # Several scripts may answer one model (one model for every role, as AUTODATA_LLM_MODEL gives):
    # ``model`` names it (default: the script's name), ``system_match`` picks the script whose text
    # occurs in the request's system message (a script without it answers the rest).
    model: str | None = None
    system_match: str | None = None

    @property
    def model_name(self) -> str:
        return self.model or self.name

    @classmethod
    def load(cls, path: Path | str) -> Script:
        path = Path(path)
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            raise ConfigError(f"cannot read script {path}: {exc}") from exc
        return cls.model_validate(data)


def _err(
    status: int, message: str, type_: str, code: str | None, headers: dict | None = None
) -> JSONResponse:
    body = {"error": {"message": message, "type": type_, "param": None, "code": code}}
    return JSONResponse(body, status_code=status, headers=headers)


_REF = re.compile(r'"\{\{result:([A-Za-z0-9_.-]+):([^"}]*)\}\}"')


class Unresolved(ValueError):
    """A ``{{result:TOOL:path}}`` reference with no such tool result (or path) in the conversation."""


def _results(messages: list[dict]) -> dict[str, Any]:
    """The latest result (parsed JSON, else the text) of each tool called in ``messages``."""
    names: dict[str, str] = {}
    out: dict[str, Any] = {}
    for m in messages:
        for c in m.get("tool_calls") or []:
            names[c.get("id", "")] = (c.get("function") or {}).get("name", "")
        if m.get("role") == "tool":
            text = m.get("content") or ""
            try:
                out[names.get(m.get("tool_call_id", ""), "")] = json.loads(text)
            except ValueError:
                out[names.get(m.get("tool_call_id", ""), "")] = text
    return out


def resolve(text: str | None, messages: list[dict]) -> str | None:
    """``text`` with each ``"{{result:TOOL:path}}"`` replaced by that value of the conversation (as JSON)."""
    if not text or "{{result:" not in text:
        return text
    results = _results(messages)

    def value(m: re.Match) -> str:
        tool, path = m.group(1), m.group(2)
        if tool not in results:
            raise Unresolved(f"no result of tool {tool!r} in the conversation")
        v: Any = results[tool]
        for step in [p for p in path.split(".") if p]:
            try:
                v = v[int(step)] if isinstance(v, list) else v[step]
            except (KeyError, IndexError, ValueError, TypeError):
                raise Unresolved(f"result of {tool!r} has no {path!r} (stopped at {step!r})") from None
        return json.dumps(v)

    return _REF.sub(value, text)


def _count(text: str) -> int:
    from prefect_autodata.ohcache.tokens import count_tokens

    return count_tokens(text)


class ScriptedOpenAI:
    """The ASGI app and its state (fault counters, received requests)."""

    def __init__(self, scripts: list[Script], api_key: str | None) -> None:
        self.scripts: dict[str, list[Script]] = {}
        for s in scripts:
            self.scripts.setdefault(s.model_name, []).append(s)
        self.api_key = api_key
        self.requests: list[dict[str, Any]] = []
        self._hits: dict[tuple[str, int], int] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self.app = Starlette(
            routes=[
                Route("/v1/models", self.models, methods=["GET"]),
                Route("/v1/chat/completions", self.chat, methods=["POST"]),
            ]
        )

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self._hits.clear()

    def _auth(self, request: Request) -> Response | None:
        if self.api_key is None:
            return None
        header = request.headers.get("authorization", "")
        if not header.startswith("Bearer ") or not header[7:].strip():
            return _err(
                401,
                "You didn't provide an API key. Send it as 'Authorization: Bearer KEY'.",
                "invalid_request_error",
                None,
            )
        if header[7:].strip() != self.api_key:
            return _err(401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key")
        return None

    async def models(self, request: Request) -> Response:
        if (denied := self._auth(request)) is not None:
            return denied
        data = [
            {"id": n, "object": "model", "created": 0, "owned_by": "autodata-sandbox"} for n in self.scripts
        ]
        return JSONResponse({"object": "list", "data": data})

    def _script(self, model: str, messages: list[dict]) -> Script | None:
        scripts = self.scripts.get(model) or []
        system = next((m.get("content") or "" for m in messages if m.get("role") == "system"), "")
        chosen = next((s for s in scripts if s.system_match and s.system_match in str(system)), None)
        return chosen or next((s for s in scripts if not s.system_match), None)

    def _pick(self, script: Script, messages: list[dict]) -> tuple[int, Turn] | None:
        last = messages[-1] if messages else {}
        last_text = (
            last.get("content") if isinstance(last.get("content"), str) else json.dumps(last.get("content"))
        )
        for i, t in enumerate(script.turns):
            if t.match and last_text and t.match in last_text:
                return i, t
        n = sum(1 for m in messages if m.get("role") == "assistant")
        if n < len(script.turns):
            return n, script.turns[n]
        if script.turns[-1].repeat:
            return len(script.turns) - 1, script.turns[-1]
        return None

    async def chat(self, request: Request) -> Response:
        if (denied := self._auth(request)) is not None:
            return denied
        try:
            body = await request.json()
        except ValueError:
            return _err(
                400, "We could not parse the JSON body of your request.", "invalid_request_error", None
            )
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            return _err(400, "'messages' is a required property", "invalid_request_error", None)
        model = body.get("model")
        with self._lock:
            self.requests.append(body)
        script = self._script(model or "", body["messages"])
        if script is None:
            return _err(
                404,
                f"The model `{model}` does not exist or you do not have access to it.",
                "invalid_request_error",
                "model_not_found",
            )
        picked = self._pick(script, body["messages"])
        if picked is None:
            return _err(
                400,
                f"scripted conversation {script.name!r} has no further turn",
                "invalid_request_error",
                None,
            )
        index, turn = picked
        if body.get("response_format") is not None and not script.structured_output:
            return _err(
                400,
                "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
                "invalid_request_error",
                "unsupported_parameter",
            )
        with self._lock:
            hits = self._hits[(script.name, index)] = self._hits.get((script.name, index), 0) + 1
        if turn.fault == "rate_limit" and hits <= turn.times:
            return _err(
                429,
                "Rate limit reached for requests. Please try again later.",
                "requests",
                "rate_limit_exceeded",
                headers={
                    "retry-after": f"{turn.retry_after:g}",
                    "retry-after-ms": f"{int(turn.retry_after * 1000)}",
                },
            )
        if turn.fault == "server_error" and hits <= turn.times:
            return _err(500, "The server had an error while processing your request.", "server_error", None)
        try:
            content = resolve(turn.content, body["messages"])
            calls = [(c.name, resolve(c.wire_arguments(), body["messages"])) for c in turn.tool_calls]
        except Unresolved as exc:
            return _err(400, f"scripted conversation {script.name!r}: {exc}", "invalid_request_error", None)
        if turn.fault == "invalid_json" and content:
            content = content[: max(1, len(content) // 2)]
        prompt_tokens = _count(json.dumps(body["messages"]))
        tool_calls = [
            {"id": f"call_{next(self._ids)}", "type": "function", "function": {"name": n, "arguments": a}}
            for n, a in calls
        ]
        completion_tokens = (
            _count((content or "") + "".join(c["function"]["arguments"] for c in tool_calls)) + 1
        )
        usage = {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        }
        finish = "tool_calls" if tool_calls else "stop"
        cid = f"chatcmpl-scripted-{next(self._ids)}"
        if body.get("stream"):
            include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
            return StreamingResponse(
                self._stream(cid, model, content, tool_calls, finish, usage if include_usage else None),
                media_type="text/event-stream",
            )
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if tool_calls:
            message["tool_calls"] = tool_calls
        return JSONResponse(
            {
                "id": cid,
                "object": "chat.completion",
                "created": int(time.time()),
                "model": model,
                "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
                "usage": usage,
            }
        )

    async def _stream(self, cid, model, content, tool_calls, finish, usage):
        def chunk(delta: dict | None, finish_reason=None, usage_=None, choices=True) -> str:
            obj: dict[str, Any] = {
                "id": cid,
                "object": "chat.completion.chunk",
                "created": int(time.time()),
                "model": model,
            }
            obj["choices"] = (
                [{"index": 0, "delta": delta or {}, "finish_reason": finish_reason}] if choices else []
            )
            if usage_ is not None:
                obj["usage"] = usage_
            return f"data: {json.dumps(obj)}\n\n"

        yield chunk({"role": "assistant", "content": ""})
        if content:
            for i in range(0, len(content), 16):
                yield chunk({"content": content[i : i + 16]})
                await asyncio.sleep(0)
        for n, call in enumerate(tool_calls):
            yield chunk(
                {
                    "tool_calls": [
                        {
                            "index": n,
                            "id": call["id"],
                            "type": "function",
                            "function": {"name": call["function"]["name"], "arguments": ""},
                        }
                    ]
                }
            )
            args = call["function"]["arguments"]
            for i in range(0, len(args), 16):
                yield chunk({"tool_calls": [{"index": n, "function": {"arguments": args[i : i + 16]}}]})
        yield chunk({}, finish_reason=finish)
        if usage is not None:
            yield chunk(None, usage_=usage, choices=False)
        yield "data: [DONE]\n\n"


class ScriptedOpenAIServer:
    """Runs ``ScriptedOpenAI`` on a real loopback socket; ``base_url`` ends in ``/v1`` like OpenAI's."""

    def __init__(
        self,
        scripts: list[Script | dict | Path | str],
        *,
        api_key: str | None = "sk-scripted-0000",
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        loaded = [
            s
            if isinstance(s, Script)
            else Script.model_validate(s)
            if isinstance(s, dict)
            else Script.load(s)
            for s in scripts
        ]
        self.state = ScriptedOpenAI(loaded, api_key)
        self.host = host
        self.port = port or free_port(host)
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    @property
    def requests(self) -> list[dict[str, Any]]:
        return self.state.requests

    def reset(self) -> None:
        self.state.reset()

    def start(self) -> ScriptedOpenAIServer:
        self._server, self._thread = start_in_thread(
            self.state.app, self.host, self.port, name="autodata-openai"
        )
        return self

    def stop(self) -> None:
        stop_thread(self._server, self._thread)

    def __enter__(self) -> ScriptedOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
