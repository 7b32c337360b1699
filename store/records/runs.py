"""Agent runs, their steps, tool calls, events and the human's answers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# A run's status; the database refuses any other.
RunStatus = Literal["queued", "running", "waiting_for_user", "completed", "failed", "interrupted"]
# The human's answer to a run that asked before changing something.
Approval = Literal["accepted", "rejected", "skipped"]


@dataclass(frozen=True)
class RunRecord:
    """An agent run (an agent_sessions row) and how far it got.

    `entity_name` is the person's, project's or client's current name (None for other
    entities, or when it is gone); `repair_turns` counts its steps of kind 'repair'.
    """

    id: int
    agent_type: str
    entity_type: str | None
    entity_id: int | None
    entity_name: str | None
    status: str
    model: str | None
    spec_json: str
    error: str | None
    input_tokens: int
    output_tokens: int
    cost_microdollars: int
    started_at: str
    finished_at: str | None
    steps: int
    tool_calls: int
    repair_turns: int


@dataclass(frozen=True)
class StepRecord:
    """One model turn of a run; `message_json` is the assistant's turn (text and tool calls)
    once the step finished."""

    id: int
    run_id: int
    step_index: int
    kind: str
    status: str
    input_tokens: int
    output_tokens: int
    message_json: str | None
    started_at: str
    finished_at: str | None


@dataclass(frozen=True)
class ToolCallRecord:
    """A tool call a run made; `call_id` is the model's id for it, unique within the run."""

    id: int
    run_id: int
    step_id: int | None
    call_id: str
    tool_name: str
    arguments_json: str
    result_json: str | None
    mutating: bool
    status: str
    started_at: str
    finished_at: str | None


@dataclass(frozen=True)
class EventRecord:
    """One event of a run's stream; `seq` counts from 1, without gaps, per run."""

    seq: int
    kind: str
    payload_json: str
    created_at: str


@dataclass(frozen=True)
class RunDecisionRecord:
    """A human's answer to a run's request (an agent_decisions row)."""

    id: int
    run_id: int
    tool_call_id: int | None
    decision: str
    decided_by: str
    payload_json: str
    decided_at: str
