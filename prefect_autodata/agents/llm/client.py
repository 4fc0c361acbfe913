"""A thin, accountable wrapper over the ``openai`` client.

Why not just ``openai.OpenAI``: we need our own backoff that honours Retry-After and stops at a
budget, one clear error per failure naming what to fix (key, model, base URL), every call's
tokens and cost in the trace, and the key scrubbed from anything we print.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from prefect_autodata.agents.budget import BudgetMeter
from prefect_autodata.agents.llm.config import ENV_API_KEY, ENV_BASE_URL, ENV_MODEL, LLMSettings
from prefect_autodata.errors import ConfigError, TerminalError, TransientError
from prefect_autodata.ohcache.trace import Trace, redact

try:
    import openai
except ImportError as exc:  # the `llm` extra: a plain install runs the offline agents, which need no client
    raise ConfigError(
        "the LLM backend needs the openai client: pip install 'prefect-autodata[llm]' (or use --backend offline)"
    ) from exc


@dataclass
class ToolCallRequest:
    id: str
    name: str
    arguments: str  # raw JSON text, as the model sent it


@dataclass
class Completion:
    content: str | None
    tool_calls: list[ToolCallRequest] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    model: str = ""


class LLMClient:
    """Chat completions with retries, accounting and clear errors."""

    def __init__(self, settings: LLMSettings, *, sleep: Callable[[float], None] = time.sleep) -> None:
        self.settings = settings
        self.sleep = sleep
        self._secret = settings.api_key.get_secret_value()
        self._no_structured: set[str] = set()  # models whose endpoint refused a JSON-Schema response_format
        self._client = openai.OpenAI(
            api_key=self._secret,
            base_url=settings.base_url,
            max_retries=0,
            timeout=settings.timeout_s,
        )

    @property
    def where(self) -> str:
        return self.settings.base_url or "the OpenAI API"

    def _clean(self, text: str) -> str:
        return redact(text, (self._secret,))

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        s = self.settings
        backoff = min(s.backoff_max_s, s.backoff_base_s * (2**attempt))
        return min(s.backoff_max_s, retry_after) if retry_after is not None else backoff

    @staticmethod
    def _retry_after(exc: openai.APIStatusError) -> float | None:
        headers = exc.response.headers if exc.response is not None else {}
        for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
            value = headers.get(name)
            if value:
                try:
                    return float(value) * scale
                except ValueError:
                    continue
        return None

    def complete(
        self,
        *,
        role: str,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        trace: Trace,
        meter: BudgetMeter,
        response_format: dict[str, Any] | None = None,
    ) -> Completion:
        """One chat completion (retrying 429/5xx/connection errors), charged to the budget and traced.

        ``response_format`` (a JSON-Schema structured output) is sent when the settings allow it; an
        endpoint that refuses it (400 naming ``response_format``) is asked without it from then on."""
        model = self.settings.model_for(role)
        trace.add_secret(self._secret)
        attempts = self.settings.max_retries + 1
        last: Exception | None = None
        for attempt in range(attempts):
            meter.check()
            try:
                result = self._structured_call(model, messages, tools, response_format, trace, role)
                break
            except openai.AuthenticationError as exc:
                raise ConfigError(
                    f"LLM endpoint {self.where} rejected the API key (401): set {ENV_API_KEY} or the "
                    "LLMEndpointCredentials block's api_key to a valid key"
                ) from exc
            except openai.NotFoundError as exc:
                raise ConfigError(
                    f"model {model!r} is not available at {self.where} (404): set {ENV_MODEL} or the block's "
                    "model (or role_models) to a model the endpoint serves"
                ) from exc
            except openai.PermissionDeniedError as exc:
                raise ConfigError(
                    f"LLM endpoint {self.where} denied access (403) for model {model!r}"
                ) from exc
            except (openai.RateLimitError, openai.InternalServerError) as exc:
                last = exc
                wait = self._delay(attempt, self._retry_after(exc))
                kind = "rate_limited" if isinstance(exc, openai.RateLimitError) else "server_error"
                trace.emit(
                    "llm_retry", role=role, model=model, reason=kind, status=exc.status_code, wait_s=wait
                )
            except openai.APIStatusError as exc:
                if exc.status_code >= 500:
                    last = exc
                    wait = self._delay(attempt, None)
                    trace.emit(
                        "llm_retry", role=role, model=model, reason="server_error", status=exc.status_code
                    )
                else:
                    raise TerminalError(
                        self._clean(
                            f"LLM endpoint {self.where} refused the request ({exc.status_code}): {exc.message}"
                        )
                    ) from exc
            except (openai.APIConnectionError, openai.APITimeoutError) as exc:
                last = exc
                wait = self._delay(attempt, None)
                trace.emit(
                    "llm_retry", role=role, model=model, reason="unreachable", error=type(exc).__name__
                )
            if attempt + 1 < attempts:
                self.sleep(wait)
        else:
            trace.emit("llm_error", role=role, model=model, error=type(last).__name__, attempts=attempts)
            if isinstance(last, openai.RateLimitError):
                raise TransientError(
                    f"LLM endpoint {self.where} kept rate-limiting (429) after {attempts} attempts; "
                    "lower concurrency or raise max_retries",
                    retry_after=self._retry_after(last),
                ) from last
            if isinstance(last, openai.APIConnectionError | openai.APITimeoutError):
                raise TransientError(
                    f"cannot reach the LLM endpoint {self.where} ({type(last).__name__}) after {attempts} attempts: "
                    f"is the server running? check {ENV_BASE_URL} or the block's base_url"
                ) from last
            raise TransientError(
                f"LLM endpoint {self.where} kept failing with server errors after {attempts} attempts"
            ) from last
        cost = self.settings.prices.cost(model, result.prompt_tokens, result.completion_tokens)
        trace.emit(
            "llm_call",
            role=role,
            model=model,
            prompt_tokens=result.prompt_tokens,
            completion_tokens=result.completion_tokens,
            cost_usd=round(cost, 8),
            tool_calls=[c.name for c in result.tool_calls],
            attempt=attempt + 1,
        )
        meter.charge(
            role=role, tokens=result.prompt_tokens + result.completion_tokens, cost_usd=cost, steps=1
        )
        return result

    def _structured_call(
        self,
        model: str,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        response_format: dict[str, Any] | None,
        trace: Trace,
        role: str,
    ) -> Completion:
        mode = self.settings.structured_output
        skip = mode == "off" or (mode == "auto" and bool(tools) and not self.settings.openai_hosted)
        if response_format is None or skip or model in self._no_structured:
            return self._call(model, messages, tools)
        try:
            return self._call(model, messages, tools, response_format)
        except openai.BadRequestError as exc:
            if "response_format" not in f"{exc.message} {getattr(exc, 'param', '')}":
                raise
            self._no_structured.add(model)
            trace.emit(
                "structured_output_unsupported", role=role, model=model, detail=self._clean(exc.message)[:200]
            )
        return self._call(model, messages, tools)

    def _call(
        self,
        model: str,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        response_format: dict[str, Any] | None = None,
    ) -> Completion:
        kwargs: dict[str, Any] = {"model": model, "messages": messages}
        if tools:
            kwargs["tools"] = tools
        if response_format is not None:
            kwargs["response_format"] = response_format
        if self.settings.stream:
            return self._stream(kwargs)
        resp = self._client.chat.completions.create(**kwargs)
        if not resp.choices:
            raise TransientError(f"LLM endpoint {self.where} returned no choices")
        msg = resp.choices[0].message
        calls = [
            ToolCallRequest(id=c.id, name=c.function.name, arguments=c.function.arguments or "")
            for c in (msg.tool_calls or [])
            if getattr(c, "function", None) is not None
        ]
        usage = resp.usage
        return Completion(
            content=msg.content,
            tool_calls=calls,
            prompt_tokens=usage.prompt_tokens if usage else _estimate(messages),
            completion_tokens=usage.completion_tokens if usage else _estimate(msg.content or ""),
            model=resp.model or model,
        )

    def _stream(self, kwargs: dict[str, Any]) -> Completion:
        stream = self._client.chat.completions.create(
            **kwargs, stream=True, stream_options={"include_usage": True}
        )
        content: list[str] = []
        calls: dict[int, dict[str, str]] = {}
        usage = None
        model = kwargs["model"]
        for chunk in stream:
            model = chunk.model or model
            if chunk.usage is not None:
                usage = chunk.usage
            for choice in chunk.choices:
                d = choice.delta
                if d.content:
                    content.append(d.content)
                for tc in d.tool_calls or []:
                    slot = calls.setdefault(tc.index, {"id": "", "name": "", "arguments": ""})
                    slot["id"] = tc.id or slot["id"]
                    if tc.function is not None:
                        slot["name"] = tc.function.name or slot["name"]
                        slot["arguments"] += tc.function.arguments or ""
        text = "".join(content) or None
        return Completion(
            content=text,
            tool_calls=[ToolCallRequest(**calls[i]) for i in sorted(calls)],
            prompt_tokens=usage.prompt_tokens if usage else _estimate(kwargs["messages"]),
            completion_tokens=usage.completion_tokens if usage else _estimate(text or ""),
            model=model,
        )


def _estimate(obj: Any) -> int:
    from prefect_autodata.ohcache.tokens import count_tokens

    return count_tokens(obj if isinstance(obj, str) else json.dumps(obj, default=str))
