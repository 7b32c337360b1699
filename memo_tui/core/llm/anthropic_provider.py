"""Anthropic through the official SDK (imported lazily): completion, streaming, tool use.

The SDK's own retries are off; the base class retries within the whole-call deadline.
The SDK reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL when they are not given here.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

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

# Error types the API reports in a body (also mid-stream, where the HTTP status was 200).
RETRY_TYPES = frozenset({"overloaded_error", "rate_limit_error", "api_error"})


class AnthropicProvider(Provider):
    name = "anthropic"

    def __init__(
        self,
        api_key: str | None = None,
        base_url: str | None = None,
        ledger: Ledger | None = None,
        policy: RetryPolicy | None = None,
    ) -> None:
        super().__init__(ledger, policy)
        self.api_key = api_key
        self.base_url = base_url

    def prepare(self) -> None:
        import anthropic  # noqa: F401 - slow the first time; not on any deadline

    def _client(self, timeout_s: float) -> Any:
        import anthropic

        return anthropic.AsyncAnthropic(
            api_key=self.api_key, base_url=self.base_url, max_retries=0, timeout=timeout_s
        )

    async def _complete_once(self, request: Request, timeout_s: float) -> Completion:
        async with self._client(timeout_s) as client:
            message = await client.messages.create(**_params(request))
        text = "".join(b.text for b in message.content if b.type == "text")
        calls = tuple(
            ToolCall(b.id, b.name, tool_arguments(b.input))
            for b in message.content
            if b.type == "tool_use"
        )
        usage = Usage(message.usage.input_tokens or 0, message.usage.output_tokens or 0)
        return Completion(text, calls, usage, message.stop_reason, message.model)

    async def _stream_once(
        self, request: Request, timeout_s: float, record: CallRecord
    ) -> AsyncIterator[StreamEvent]:
        state = _StreamState(request.model)
        async with self._client(timeout_s) as client:
            events = await client.messages.create(**_params(request), stream=True)
            async for event in events:
                produced = state.feed(event)
                record.usage = state.usage
                for item in produced:
                    yield item
        if not state.stopped:
            raise StreamBroken("the stream ended before message_stop")
        yield Finished(state.completion())

    def _classify(self, error: Exception) -> Retryable | None:
        import anthropic

        if isinstance(error, anthropic.APIStatusError):
            status = error.status_code
            detail = error.api_message or error.type or str(error)
            retry_after = _retry_after(error.response.headers)
            retry = status in RETRY_STATUSES or status >= 500 or error.type in RETRY_TYPES
            where = f"HTTP {status}" if status != 200 else "error event"
            return Retryable(retry, retry_after, f"{where}: {detail}")
        if isinstance(error, anthropic.APIConnectionError):
            return Retryable(True, None, f"connection failed ({error})")
        if isinstance(error, anthropic.AnthropicError):
            return Retryable(False, None, str(error))
        if isinstance(error, TypeError) and "authentication" in str(error).lower():
            return Retryable(False, None, "no API key: set ANTHROPIC_API_KEY")
        return None


class _StreamState:
    """Turns raw Messages API stream events into text deltas, tool calls and usage."""

    def __init__(self, model: str) -> None:
        self.model = model
        self.text: list[str] = []
        self.calls: list[ToolCall] = []
        self.usage = Usage()
        self.stop_reason: str | None = None
        self.stopped = False
        self._tool: dict[str, Any] | None = None

    def feed(self, event: Any) -> list[StreamEvent]:
        kind = event.type
        if kind == "message_start":
            self.model = event.message.model or self.model
            self.usage = Usage(event.message.usage.input_tokens or 0, 0)
        elif kind == "content_block_start" and event.content_block.type == "tool_use":
            block = event.content_block
            self._tool = {"id": block.id, "name": block.name, "json": ""}
        elif kind == "content_block_delta":
            delta = event.delta
            if delta.type == "text_delta":
                self.text.append(delta.text)
                return [TextDelta(delta.text)]
            if delta.type == "input_json_delta" and self._tool is not None:
                self._tool["json"] += delta.partial_json
        elif kind == "content_block_stop" and self._tool is not None:
            call = ToolCall(
                self._tool["id"], self._tool["name"], tool_arguments(self._tool["json"])
            )
            self._tool = None
            self.calls.append(call)
            return [ToolCallMade(call)]
        elif kind == "message_stop":
            self.stopped = True
        elif kind == "message_delta":
            self.stop_reason = event.delta.stop_reason
            output = getattr(event.usage, "output_tokens", None) or 0
            self.usage = Usage(self.usage.input_tokens, output)
        return []

    def completion(self) -> Completion:
        return Completion(
            "".join(self.text), tuple(self.calls), self.usage, self.stop_reason, self.model
        )


def _retry_after(headers: Any) -> float | None:
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value:
            try:
                return max(float(value) * scale, 0.0)
            except ValueError:
                return None
    return None


def _message(message: Message) -> dict[str, Any]:
    if message.tool_results:
        content: list[dict[str, Any]] = [
            {
                "type": "tool_result",
                "tool_use_id": r.call_id,
                "content": r.content,
                "is_error": r.is_error,
            }
            for r in message.tool_results
        ]
        return {"role": "user", "content": content}
    if message.tool_calls:
        blocks: list[dict[str, Any]] = (
            [{"type": "text", "text": message.text}] if message.text else []
        )
        blocks += [
            {"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments}
            for c in message.tool_calls
        ]
        return {"role": "assistant", "content": blocks}
    return {"role": message.role, "content": message.text}


def _params(request: Request) -> dict[str, Any]:
    params: dict[str, Any] = {
        "model": request.model,
        "max_tokens": request.max_tokens,
        "messages": [_message(m) for m in request.messages],
    }
    if request.system:
        params["system"] = request.system
    if request.tools:
        params["tools"] = [
            {"name": t.name, "description": t.description, "input_schema": t.input_schema}
            for t in request.tools
        ]
    if request.tool_choice:
        params["tool_choice"] = {"type": "tool", "name": request.tool_choice}
    return params
