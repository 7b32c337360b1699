"""Durable agent runs (a session, its steps, tool calls, events and the human's decisions)
and the ledger of every model call."""

from __future__ import annotations

from sqlmodel import Field, SQLModel


class AgentSession(SQLModel, table=True):
    """A run: status is queued, running, waiting_for_user, completed, failed or interrupted."""

    __tablename__ = "agent_sessions"
    id: int = Field(default=None, primary_key=True)
    agent_type: str
    entity_type: str | None = None
    entity_id: int | None = None
    status: str
    model: str | None = None
    error: str | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    cost_microdollars: int = 0
    started_at: str
    finished_at: str | None = None
    spec_json: str = "{}"


class AgentStep(SQLModel, table=True):
    __tablename__ = "agent_steps"
    id: int = Field(default=None, primary_key=True)
    session_id: int
    step_index: int  # unique per run
    kind: str
    status: str
    input_tokens: int = 0
    output_tokens: int = 0
    started_at: str
    finished_at: str | None = None
    message_json: str | None = None


class AgentToolCall(SQLModel, table=True):
    __tablename__ = "agent_tool_calls"
    id: int = Field(default=None, primary_key=True)
    session_id: int
    step_id: int | None = None
    call_id: str  # the model's id, unique per run
    tool_name: str
    arguments_json: str
    result_json: str | None = None
    mutating: int = 0
    status: str
    started_at: str
    finished_at: str | None = None


class AgentEvent(SQLModel, table=True):
    __tablename__ = "agent_events"
    session_id: int = Field(primary_key=True)
    seq: int = Field(primary_key=True)
    kind: str
    payload_json: str
    created_at: str


class AgentDecision(SQLModel, table=True):
    """The human's answer to an approval: accepted, rejected or skipped."""

    __tablename__ = "agent_decisions"
    id: int = Field(default=None, primary_key=True)
    session_id: int
    tool_call_id: int | None = None
    decision: str
    decided_by: str
    payload_json: str = "{}"
    decided_at: str


class LlmCall(SQLModel, table=True):
    __tablename__ = "llm_calls"
    id: int = Field(default=None, primary_key=True)
    provider: str
    model: str
    trigger: str
    capture_id: int | None = None
    run_id: int | None = None
    status: str
    input_tokens: int = 0
    output_tokens: int = 0
    cost_microdollars: int = 0
    latency_ms: int = 0
    error: str | None = None
    created_at: str
