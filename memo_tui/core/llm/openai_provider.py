"""Any OpenAI-compatible chat-completions server (Ollama, LM Studio, vLLM, llama.cpp) over httpx.

A structured answer is asked for as a JSON schema the server holds the model to, then (from
a server that refuses that) as a forced tool, then as JSON in the prompt. Small local models
often write a call out as text instead of making it (a ```json fence, a `{"name",
"arguments"}` wrapper, `<tool_call>` tags): that text is read back as the call
(`textcalls`), and the base class validates it (one repair, then a clear failure).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, Literal

from memo_tui.core.llm.base import (
    RETRY_STATUSES,
    Ledger,
    Provider,
    Retryable,
    RetryPolicy,
    StreamBroken,
    tool_arguments,
)
from memo_tui.core.llm.textcalls import written_calls, written_input
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


# How a structured answer is asked for, best first: a JSON schema the server holds the
# model to (llama.cpp, Ollama, vLLM, LM Studio and OpenAI all take one), a forced tool, or
# the schema in the prompt and JSON read back from the text. A server that refuses one way
# (HTTP 400 naming it) is asked the next way from then on.
Forcing = Literal["response_format", "tools", "text"]
FORCING: tuple[Forcing, ...] = ("response_format", "tools", "text")


class OpenAIProvider(Provider):
    name = "openai"
    structured_max_tokens = 2048

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
        self.forcing: Forcing = "response_format"

    def prepare(self) -> None:
        import httpx  # noqa: F401 - slow the first time; not on any deadline

    def _client(self, timeout_s: float) -> httpx.AsyncClient:
        import httpx  # lazily: it loads its CLI's dependencies when imported

        headers = {"authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        return httpx.AsyncClient(base_url=self.base_url, headers=headers, timeout=timeout_s)

    async def _complete_once(self, request: Request, timeout_s: float) -> Completion:
        async with self._client(timeout_s) as client:
            while True:
                forcing = self.forcing if request.tool_choice else "tools"
                body = _body(request, stream=False, forcing=forcing)
                response = await client.post("/chat/completions", json=body)
                if request.tool_choice and _refused(response, forcing):
                    # The server cannot force output this way: the next way, from now on.
                    self.forcing = FORCING[FORCING.index(forcing) + 1]
                    continue
                _raise_for_status(response)
                data = response.json()
                break
        choice = (data.get("choices") or [{}])[0]
        message = choice.get("message") or {}
        calls = tuple(_call(c) for c in message.get("tool_calls") or [])
        content = message.get("content") or ""
        text = content if isinstance(content, str) else json.dumps(content)
        if request.tool_choice and not calls:
            written = written_input(text)
            if written is not None:
                calls = (ToolCall("content", request.tool_choice, written),)
        elif request.tools and not calls:
            calls = written_calls(text, {t.name for t in request.tools})
            text = "" if calls else text  # a call written out is a call, not an answer
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
        from httpx_sse import aconnect_sse  # lazily: it imports httpx

        finished = False
        text: list[str] = []
        offered = {t.name for t in request.tools}
        held = bool(offered)  # text that may be a call written out waits for the end
        partial: dict[int, dict[str, str]] = {}
        usage, stop, model = Usage(), None, request.model
        async with (
            self._client(timeout_s) as client,
            aconnect_sse(
                client, "POST", "/chat/completions", json=_body(request, stream=True)
            ) as source,
        ):
            if source.response.status_code >= 400:
                await source.response.aread()
                _raise_for_status(source.response)
            async for event in source.aiter_sse():
                if not event.data:  # an event of only `id:` or `retry:` fields
                    continue
                if event.data.strip() == "[DONE]":
                    finished = True
                    break
                chunk = _chunk(event.data)
                model = chunk.get("model") or model
                if chunk.get("usage"):
                    usage = _usage(chunk["usage"])
                    record.usage = usage
                for choice in chunk.get("choices") or []:
                    delta = choice.get("delta") or {}
                    if delta.get("content"):
                        text.append(delta["content"])
                        if not held:
                            yield TextDelta(delta["content"])
                        elif not _may_be_a_written_call("".join(text)):
                            held = False
                            yield TextDelta("".join(text))
                    _add_call_pieces(partial, delta.get("tool_calls") or [])
                    stop = choice.get("finish_reason") or stop
        if not finished:
            raise StreamBroken("the stream ended before [DONE]")
        said, calls = _streamed_answer("".join(text), partial, offered)
        if held and said:
            yield TextDelta(said)
        for call in calls:
            yield ToolCallMade(call)
        yield Finished(Completion(said, calls, usage, stop, model))

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


def _chunk(data: str) -> dict[str, Any]:
    """One streamed chunk, read; an error the server sends mid-stream is raised."""
    chunk: dict[str, Any] = json.loads(data)
    if "error" in chunk:
        raise OpenAIStatusError(500, str(chunk["error"]), None)
    return chunk


def _usage(u: dict[str, Any]) -> Usage:
    return Usage(u.get("prompt_tokens") or 0, u.get("completion_tokens") or 0)


def _add_call_pieces(partial: dict[int, dict[str, str]], pieces: list[dict[str, Any]]) -> None:
    """Add a delta's tool-call pieces to the calls streamed so far, by their index."""
    for piece in pieces:
        slot = partial.setdefault(piece.get("index", 0), {"id": "", "name": "", "args": ""})
        function = piece.get("function") or {}
        slot["id"] = piece.get("id") or slot["id"]
        slot["name"] = function.get("name") or slot["name"]
        slot["args"] += function.get("arguments") or ""


def _streamed_answer(
    said: str, partial: dict[int, dict[str, str]], offered: set[str]
) -> tuple[str, tuple[ToolCall, ...]]:
    """The streamed text and calls once done: text that wrote a call out becomes the call."""
    calls = tuple(
        ToolCall(s["id"] or f"call_{i}", s["name"], tool_arguments(s["args"]))
        for i, s in sorted(partial.items())
    )
    if offered and not calls:
        calls = written_calls(said, offered)
        said = "" if calls else said  # a call written out is a call, not an answer
    return said, calls


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


def _may_be_a_written_call(text: str) -> bool:
    """Whether streamed text so far could still be a call written out (JSON, a fence, tags)."""
    start = text.lstrip()[:1]
    return not start or start in "{`<"


def _refused(response: httpx.Response, forcing: Forcing) -> bool:
    """Whether the server rejected the way the output was forced (and a next way is left):
    a 400 or 422 whose message names it ("response_format", "json_schema", "tool_choice")."""
    if forcing == FORCING[-1] or response.status_code not in (400, 422):
        return False
    said = response.text.lower()
    return any(word in said for word in ("response_format", "json_schema", "tool_choice", "tools"))


def _body(request: Request, stream: bool, forcing: Forcing = "tools") -> dict[str, Any]:
    system = request.system
    tools = request.tools
    forced = next((t for t in tools if t.name == request.tool_choice), None)
    if forced is not None and forcing != "tools":
        tools = ()  # asked for as JSON, not as a call
        if forcing == "text":
            system += (
                f"\n\nReply with only a JSON object for {forced.name}, matching this JSON "
                f"schema, and nothing else:\n{json.dumps(forced.input_schema)}"
            )
    messages: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
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
    if tools:
        body["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": t.name,
                    "description": t.description,
                    "parameters": t.input_schema,
                },
            }
            for t in tools
        ]
    if forced is not None:
        body["temperature"] = 0  # a record, not prose: the same meeting reads the same way
    if forced is not None and forcing == "response_format":
        body["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": forced.name, "schema": forced.input_schema},
        }
    elif forced is not None and forcing == "tools":
        # "required" with the one tool offered: llama.cpp takes only a string here.
        body["tool_choice"] = "required" if len(tools) == 1 else "auto"
    return body
