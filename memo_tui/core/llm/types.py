"""The provider interface's vocabulary: requests, tool calls, completions, stream events."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Role = Literal["user", "assistant"]


@dataclass(frozen=True)
class ToolSpec:
    """A tool the model may call; `input_schema` is JSON Schema."""

    name: str
    description: str
    input_schema: dict[str, Any]


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class ToolResult:
    call_id: str
    content: str
    is_error: bool = False


@dataclass(frozen=True)
class Message:
    """One turn: text, or (assistant) tool calls, or (user) tool results."""

    role: Role
    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_results: tuple[ToolResult, ...] = ()


@dataclass(frozen=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens, self.output_tokens + other.output_tokens
        )


@dataclass(frozen=True)
class Request:
    """Everything one model call needs. `trigger` and ids go to the cost ledger."""

    model: str
    messages: tuple[Message, ...]
    system: str = ""
    tools: tuple[ToolSpec, ...] = ()
    tool_choice: str | None = None  # a tool name to force, or None to let the model choose
    max_tokens: int = 4096
    deadline_s: float = 25.0
    trigger: str = "ask"
    capture_id: int | None = None
    run_id: int | None = None


@dataclass(frozen=True)
class Completion:
    text: str
    tool_calls: tuple[ToolCall, ...]
    usage: Usage
    stop_reason: str | None
    model: str


@dataclass(frozen=True)
class TextDelta:
    text: str


@dataclass(frozen=True)
class ToolCallMade:
    call: ToolCall


@dataclass(frozen=True)
class Finished:
    completion: Completion


StreamEvent = TextDelta | ToolCallMade | Finished


@dataclass
class CallRecord:
    """What the ledger keeps of one call (success, failure or partial stream)."""

    provider: str
    model: str
    trigger: str
    status: Literal["ok", "error", "partial"]
    usage: Usage = field(default_factory=Usage)
    latency_ms: int = 0
    error: str | None = None
    capture_id: int | None = None
    run_id: int | None = None
