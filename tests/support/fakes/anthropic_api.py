"""Replies in the Anthropic Messages API's shapes, for the fake server."""

from __future__ import annotations

import json
from collections.abc import Sequence
from itertools import count
from typing import Any

from support.fakes.server import Reply, json_reply, sse_reply


def message(
    text: str = "",
    tool: tuple[str, dict[str, Any]] | None = None,
    model: str = "claude-sonnet-4-6",
    usage: tuple[int, int] = (100, 20),
    stop: str | None = None,
) -> Reply:
    content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    if tool is not None:
        content.append({"type": "tool_use", "id": "toolu_01", "name": tool[0], "input": tool[1]})
    return json_reply(
        {
            "id": "msg_01",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": content,
            "stop_reason": stop or ("tool_use" if tool else "end_turn"),
            "stop_sequence": None,
            "usage": {"input_tokens": usage[0], "output_tokens": usage[1]},
        }
    )


_IDS = count(1)


def turn(
    text: str = "",
    calls: Sequence[tuple[str, dict[str, Any]]] = (),
    usage: tuple[int, int] = (100, 20),
) -> Reply:
    """A whole assistant turn: text, then tool calls (each with an id of its own)."""
    content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    for name, arguments in calls:
        content.append(
            {"type": "tool_use", "id": f"toolu_{next(_IDS)}", "name": name, "input": arguments}
        )
    return json_reply(
        {
            "id": f"msg_{next(_IDS)}",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-6",
            "content": content,
            "stop_reason": "tool_use" if calls else "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": usage[0], "output_tokens": usage[1]},
        }
    )


def error(status: int, kind: str, text: str, headers: dict[str, str] | None = None) -> Reply:
    return json_reply({"type": "error", "error": {"type": kind, "message": text}}, status, headers)


def stream(
    pieces: list[str],
    tool: tuple[str, dict[str, Any]] | None = None,
    usage: tuple[int, int] = (100, 20),
    pause: float = 0.0,
    fail_after: int | None = None,
    model: str = "claude-sonnet-4-6",
    tool_id: str = "toolu_01",
    stop_reason: str | None = None,
) -> Reply:
    """A streamed message; `fail_after` sends an error event after that many text pieces;
    `stop_reason` is the one it ends with ("max_tokens" when cut at the limit)."""
    events: list[tuple[str, dict[str, Any]] | float] = [
        (
            "message_start",
            {
                "type": "message_start",
                "message": {
                    "id": "msg_01",
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": {"input_tokens": usage[0], "output_tokens": 1},
                },
            },
        ),
        (
            "content_block_start",
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "text", "text": ""},
            },
        ),
    ]
    for number, piece in enumerate(pieces):
        if fail_after is not None and number == fail_after:
            events.append(
                (
                    "error",
                    {
                        "type": "error",
                        "error": {"type": "overloaded_error", "message": "Overloaded"},
                    },
                )
            )
            return sse_reply(events)
        if pause:
            events.append(pause)
        events.append(
            (
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "text_delta", "text": piece},
                },
            )
        )
    events.append(("content_block_stop", {"type": "content_block_stop", "index": 0}))
    if tool is not None:
        raw = json.dumps(tool[1])
        events += [
            (
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": 1,
                    "content_block": {
                        "type": "tool_use",
                        "id": tool_id,
                        "name": tool[0],
                        "input": {},
                    },
                },
            ),
            (
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": 1,
                    "delta": {"type": "input_json_delta", "partial_json": raw[: len(raw) // 2]},
                },
            ),
            (
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": 1,
                    "delta": {"type": "input_json_delta", "partial_json": raw[len(raw) // 2 :]},
                },
            ),
            ("content_block_stop", {"type": "content_block_stop", "index": 1}),
        ]
    events += [
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {
                    "stop_reason": stop_reason or ("tool_use" if tool else "end_turn"),
                    "stop_sequence": None,
                },
                "usage": {"output_tokens": usage[1]},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return sse_reply(events)
