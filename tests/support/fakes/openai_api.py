"""Replies in the OpenAI chat-completions shapes, for the fake server."""

from __future__ import annotations

import json
from typing import Any

from support.fakes.server import Reply, json_reply, sse_reply


def completion(
    text: str | None = None,
    tool: tuple[str, str] | None = None,  # (name, raw JSON arguments, possibly broken)
    usage: tuple[int, int] = (40, 10),
    model: str = "llama3.1",
) -> Reply:
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if tool is not None:
        message["tool_calls"] = [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": tool[0], "arguments": tool[1]},
            }
        ]
    return json_reply(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "model": model,
            "choices": [
                {"index": 0, "message": message, "finish_reason": "tool_calls" if tool else "stop"}
            ],
            "usage": {
                "prompt_tokens": usage[0],
                "completion_tokens": usage[1],
                "total_tokens": sum(usage),
            },
        }
    )


def error(status: int, text: str, headers: dict[str, str] | None = None) -> Reply:
    return json_reply({"error": {"message": text, "type": "server_error"}}, status, headers)


def stream(
    pieces: list[str],
    tool: tuple[str, str] | None = None,
    usage: tuple[int, int] = (40, 10),
    model: str = "llama3.1",
    finish: str | None = None,
) -> Reply:
    """A streamed answer; `finish` is the finish_reason ("length" when cut at the limit)."""
    events: list[tuple[str, dict[str, Any]] | float] = []
    for piece in pieces:
        events.append(
            (
                "",
                {
                    "model": model,
                    "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}],
                },
            )
        )
    if tool is not None:
        name, raw = tool
        half = len(raw) // 2
        for number, part in enumerate((raw[:half], raw[half:])):
            call: dict[str, Any] = {"index": 0, "function": {"arguments": part}}
            if number == 0:
                call.update(id="call_1", type="function")
                call["function"]["name"] = name
            events.append(
                (
                    "",
                    {
                        "model": model,
                        "choices": [
                            {"index": 0, "delta": {"tool_calls": [call]}, "finish_reason": None}
                        ],
                    },
                )
            )
    events.append(
        (
            "",
            {
                "model": model,
                "choices": [
                    {
                        "index": 0,
                        "delta": {},
                        "finish_reason": finish or ("tool_calls" if tool else "stop"),
                    }
                ],
            },
        )
    )
    events.append(
        (
            "",
            {
                "model": model,
                "choices": [],
                "usage": {"prompt_tokens": usage[0], "completion_tokens": usage[1]},
            },
        )
    )
    reply = sse_reply(events, data_only=True)
    reply.chunks.append(b"data: [DONE]\n\n")
    return reply


def arguments(value: dict[str, Any]) -> str:
    return json.dumps(value)
