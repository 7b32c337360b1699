"""What a run is asked to do: the agent, its entity, its prompt and tools, and the writes
it must make before it may stop (its completion contract)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Requirement:
    """`count` successful calls of `tool` whose arguments include `arg_equals`. Requirements
    sharing an `any_of` group are satisfied together when any one of them is."""

    tool: str
    arg_equals: dict[str, Any] = field(default_factory=dict)
    count: int = 1
    any_of: str | None = None

    def matches(self, tool: str, arguments: dict[str, Any]) -> bool:
        return tool == self.tool and all(arguments.get(k) == v for k, v in self.arg_equals.items())

    def describe(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.arg_equals.items())
        return f"{self.tool}({args})" + (f" x{self.count}" if self.count > 1 else "")


@dataclass(frozen=True)
class RunSpec:
    agent: str
    entity_type: str | None
    entity_id: int | None
    entity_name: str
    system: str
    tools: tuple[str, ...]
    required: tuple[Requirement, ...] = ()
    model: str = "offline"
    max_steps: int = 12
    context_limit: int = 128_000  # MEMO_AGENT_CONTEXT_LIMIT_TOKENS

    @property
    def lock_key(self) -> str:
        """What two runs must not write at once: `{agent}:{entity}`."""
        return f"{self.agent}:{self.entity_type}:{self.entity_id}"
