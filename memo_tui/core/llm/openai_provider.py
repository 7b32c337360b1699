"""Any OpenAI-compatible chat-completions server (Ollama, LM Studio, vLLM, llama.cpp) over httpx.

Local models often ignore a forced tool and answer with JSON as text; that text is taken as
the tool's input, and the base class validates it (one repair, then a clear failure).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from memo_tui.core.llm.base import (
    RETRY_STATUSES,
    Ledger,
    Provider,
    Retryable,
    RetryPolicy,
    StreamBroken,
    tool_arguments,
)
from memo_tui.core.llm.types import (
    CallRecord,
    Completion,
    Finished,
    Message,
    Request,
    StreamEvent,
    TextDelta,
    ToolCall,
    ToolCallMade,
    Usage,
)

if TYPE_CHECKING:
    import httpx


class OpenAIStatusError(Exception):
    def __init__(self, status: int, detail: str, retry_after: float | None) -> None:
        super().__init__(f"HTTP {status}: {detail}")
        self.status = status
        self.retry_after = retry_after


class OpenAIProvider(Provider):
    name = "openai"

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        ledger: Ledger | None = None,
        policy: RetryPolicy | None = None,
    ) -> None:
        super().__init__(ledger, policy)
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key

    def prepare(self) -> None:
        import httpx  # noqa: F401 - slow the first time; not on any deadline

    def _client(self, timeout_s: float) -> httpx.AsyncClient:
        import httpx  # lazily: it loads its CLI's dependencies when imported

        headers = {"authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        return httpx.AsyncClient(base_url=self.base_url, headers=headers, timeout=timeout_s)

    async def _complete_once(self, request: Request, timeout_s: float) -> Completion:
        async with self._client(timeout_s) as client:
            response = await client.post("/chat/completions", json=_body(request, stream=False))
            _raise_for_status(response)
            data = response.json()
        choice = (data.get("choices") or [{}])[0]
        message = choice.get("message") or {}
        calls = tuple(_call(c) for c in message.get("tool_calls") or [])
        content = message.get("content") or ""
        text = content if isinstance(content, str) else json.dumps(content)
        if request.tool_choice and not calls and text.strip().startswith("{"):
            calls = (ToolCall("content", request.tool_choice, tool_arguments(text)),)
        usage = data.get("usage") or {}
        return Completion(
            text,
            calls,
            Usage(usage.get("prompt_tokens") or 0, usage.get("completion_tokens") or 0),
            choice.get("finish_reason"),
            data.get("model") or request.model,
        )

    async def _stream_once(
        self, request: Request, timeout_s: float, record: CallRecord
    ) -> AsyncIterator[StreamEvent]:
        finished = False
        text: list[str] = []
        partial: dict[int, dict[str, str]] = {}
        usage, stop, model = Usage(), None, request.model
        async with (
            self._client(timeout_s) as client,
            client.stream(
                "POST", "/chat/completions", json=_body(request, stream=True)
            ) as response,
        ):
            if response.status_code >= 400:
                await response.aread()
                _raise_for_status(response)
            async for line in response.aiter_lines():
                if not line.startswith("data:"):
                    continue
                payload = line[5:].strip()
                if payload == "[DONE]":
                    finished = True
                    break
                chunk = json.loads(payload)
                if "error" in chunk:
                    raise OpenAIStatusError(500, str(chunk["error"]), None)
                model = chunk.get("model") or model
                if chunk.get("usage"):
                    u = chunk["usage"]
                    usage = Usage(u.get("prompt_tokens") or 0, u.get("completion_tokens") or 0)
                    record.usage = usage
                for choice in chunk.get("choices") or []:
                    delta = choice.get("delta") or {}
                    if delta.get("content"):
                        text.append(delta["content"])
                        yield TextDelta(delta["content"])
                    for piece in delta.get("tool_calls") or []:
                        slot = partial.setdefault(
                            piece.get("index", 0), {"id": "", "name": "", "args": ""}
                        )
                        function = piece.get("function") or {}
                        slot["id"] = piece.get("id") or slot["id"]
                        slot["name"] = function.get("name") or slot["name"]
                        slot["args"] += function.get("arguments") or ""
                    stop = choice.get("finish_reason") or stop
        if not finished:
            raise StreamBroken("the stream ended before [DONE]")
        calls = tuple(
            ToolCall(s["id"] or f"call_{i}", s["name"], tool_arguments(s["args"]))
            for i, s in sorted(partial.items())
        )
        for call in calls:
            yield ToolCallMade(call)
        yield Finished(Completion("".join(text), calls, usage, stop, model))

    def _classify(self, error: Exception) -> Retryable | None:
        if isinstance(error, OpenAIStatusError):
            retry = error.status in RETRY_STATUSES or error.status >= 500
            return Retryable(retry, error.retry_after, str(error))
        import httpx

        if isinstance(
            error, (httpx.NetworkError, httpx.TimeoutException, httpx.RemoteProtocolError)
        ):
            return Retryable(True, None, f"cannot reach {self.base_url} ({error!r})")
        if isinstance(error, httpx.HTTPError):  # a bad URL or protocol: retrying cannot help
            return Retryable(False, None, f"cannot use {self.base_url} ({error!r})")
        if isinstance(error, (ValueError, KeyError, TypeError, AttributeError)):
            return Retryable(False, None, f"unexpected response from {self.base_url}: {error!r}")
        return None


def _raise_for_status(response: httpx.Response) -> None:
    if response.status_code < 400:
        return
    try:
        body = response.json()
        detail = str((body.get("error") or {}).get("message") or body)
    except (ValueError, AttributeError):
        detail = response.text[:200]
    retry_after = response.headers.get("retry-after")
    try:
        seconds = float(retry_after) if retry_after else None
    except ValueError:
        seconds = None
    raise OpenAIStatusError(response.status_code, detail, seconds)


def _call(raw: dict[str, Any]) -> ToolCall:
    function = raw.get("function") or {}
    return ToolCall(
        raw.get("id") or "call_0",
        function.get("name") or "",
        tool_arguments(function.get("arguments")),
    )


def _message(message: Message) -> list[dict[str, Any]]:
    if message.tool_results:
        return [
            {"role": "tool", "tool_call_id": r.call_id, "content": r.content}
            for r in message.tool_results
        ]
    if message.tool_calls:
        return [
            {
                "role": "assistant",
                "content": message.text or None,
                "tool_calls": [
                    {
                        "id": c.id,
                        "type": "function",
                        "function": {"name": c.name, "arguments": json.dumps(c.arguments)},
                    }
                    for c in message.tool_calls
                ],
            }
        ]
    return [{"role": message.role, "content": message.text}]


def _body(request: Request, stream: bool) -> dict[str, Any]:
    messages: list[dict[str, Any]] = (
        [{"role": "system", "content": request.system}] if request.system else []
    )
    for message in request.messages:
        messages += _message(message)
    body: dict[str, Any] = {
        "model": request.model,
        "messages": messages,
        "max_tokens": request.max_tokens,
        "stream": stream,
    }
    if stream:
        body["stream_options"] = {"include_usage": True}
    if request.tools:
        body["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": t.name,
                    "description": t.description,
                    "parameters": t.input_schema,
                },
            }
            for t in request.tools
        ]
    if request.tool_choice:
        body["tool_choice"] = {"type": "function", "function": {"name": request.tool_choice}}
    return body
