"""Durable agent runs, as they happen: a run's steps, its tool calls, its events and the
human's decisions (the runs themselves are store.agents').

Each row is written as it happens, so a late viewer can replay a run from an event's seq and
a run cut off by a crash can resume from its last finished step.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Row, func, select, update
from sqlmodel import col

from store.agents import must_change
from store.errors import StoreError
from store.expressions import columns, insert, new_id
from store.records import (
    Approval,
    EventRecord,
    RunDecisionRecord,
    StepRecord,
    ToolCallRecord,
)
from store.tables import AgentDecision, AgentEvent, AgentStep, AgentToolCall

_STEP_COLUMNS = (
    "id session_id step_index kind status input_tokens output_tokens message_json "
    "started_at finished_at"
)


def _tool_call_record(c: Row[Any]) -> ToolCallRecord:
    return ToolCallRecord(
        id=c.id,
        run_id=c.session_id,
        step_id=c.step_id,
        call_id=c.call_id,
        tool_name=c.tool_name,
        arguments_json=c.arguments_json,
        result_json=c.result_json,
        mutating=bool(c.mutating),
        status=c.status,
        started_at=c.started_at,
        finished_at=c.finished_at,
    )


# Steps


def start_step(conn: Connection, run_id: int, step_index: int, kind: str, now: str) -> int:
    """A new step (status 'running'). Indexes are unique per run: a resumed run goes on after
    its highest index, leaving the interrupted step as it was."""
    row = conn.execute(
        insert(AgentStep).values(
            session_id=run_id, step_index=step_index, kind=kind, status="running", started_at=now
        )
    )
    return new_id(row)


def finish_step(
    conn: Connection,
    step_id: int,
    status: str,
    input_tokens: int,
    output_tokens: int,
    message_json: str | None,
    now: str,
) -> None:
    changed = conn.execute(
        update(AgentStep)
        .where(col(AgentStep.id) == step_id)
        .values(
            status=status,
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            message_json=message_json,
            finished_at=now,
        )
    )
    must_change(changed.rowcount, f"step {step_id}")


def steps(conn: Connection, run_id: int) -> list[StepRecord]:
    rows = conn.execute(
        select(*columns(AgentStep, _STEP_COLUMNS))
        .where(col(AgentStep.session_id) == run_id)
        .order_by(col(AgentStep.step_index))
    )
    return [StepRecord(*r) for r in rows]


# Tool calls


def start_tool_call(
    conn: Connection,
    run_id: int,
    step_id: int | None,
    call_id: str,
    tool_name: str,
    arguments_json: str,
    mutating: bool,
    now: str,
) -> int:
    """A tool call (status 'running'). A call that never finished (the run was interrupted)
    starts again in its own row; a finished one is refused: its result is to be reused."""
    again = {
        "step_id": step_id,
        "tool_name": tool_name,
        "arguments_json": arguments_json,
        "mutating": int(mutating),
        "status": "running",
        "result_json": None,
        "started_at": now,
    }
    row_id = conn.execute(
        insert(AgentToolCall)
        .values(session_id=run_id, call_id=call_id, **again)
        .on_conflict_do_update(
            index_elements=["session_id", "call_id"],
            set_=again,
            where=col(AgentToolCall.finished_at).is_(None),
        )
        .returning(col(AgentToolCall.id))
    ).scalar()
    if row_id is None:
        raise StoreError(
            f"tool call {call_id!r} of run {run_id} has already finished: reuse its result "
            "(completed_tool_call) instead of calling the tool again"
        )
    return int(row_id)


def finish_tool_call(
    conn: Connection, run_id: int, call_id: str, status: str, result_json: str | None, now: str
) -> None:
    changed = conn.execute(
        update(AgentToolCall)
        .where(col(AgentToolCall.session_id) == run_id, col(AgentToolCall.call_id) == call_id)
        .values(status=status, result_json=result_json, finished_at=now)
    )
    must_change(changed.rowcount, f"tool call {call_id!r} of run {run_id}")


def tool_calls(conn: Connection, run_id: int) -> list[ToolCallRecord]:
    rows = conn.execute(
        select(AgentToolCall)
        .where(col(AgentToolCall.session_id) == run_id)
        .order_by(col(AgentToolCall.id))
    )
    return [_tool_call_record(r) for r in rows]


def completed_tool_call(conn: Connection, run_id: int, call_id: str) -> ToolCallRecord | None:
    """The call with its result if it finished (whatever its status), else None."""
    row = conn.execute(
        select(AgentToolCall).where(
            col(AgentToolCall.session_id) == run_id,
            col(AgentToolCall.call_id) == call_id,
            col(AgentToolCall.finished_at).is_not(None),
        )
    ).first()
    return None if row is None else _tool_call_record(row)


# Events


def append_event(conn: Connection, run_id: int, kind: str, payload_json: str, now: str) -> int:
    """The event's seq: one more than the run's last, taken inside the write transaction (so
    two appenders never take the same one)."""
    e = AgentEvent
    last = select(func.coalesce(func.max(col(e.seq)), 0)).where(col(e.session_id) == run_id)
    seq = conn.execute(
        insert(e)
        .values(
            session_id=run_id,
            seq=last.scalar_subquery() + 1,
            kind=kind,
            payload_json=payload_json,
            created_at=now,
        )
        .returning(col(e.seq))
    ).scalar_one()
    return int(seq)


def events(conn: Connection, run_id: int, after_seq: int) -> list[EventRecord]:
    e = AgentEvent
    rows = conn.execute(
        select(*columns(e, "seq kind payload_json created_at"))
        .where(col(e.session_id) == run_id, col(e.seq) > after_seq)
        .order_by(col(e.seq))
    )
    return [EventRecord(*r) for r in rows]


# The human's decisions


def record_decision(
    conn: Connection,
    run_id: int,
    tool_call_id: int | None,
    decision: Approval,
    decided_by: str,
    payload_json: str,
    now: str,
) -> int:
    row = conn.execute(
        insert(AgentDecision).values(
            session_id=run_id,
            tool_call_id=tool_call_id,
            decision=decision,
            decided_by=decided_by,
            payload_json=payload_json,
            decided_at=now,
        )
    )
    return new_id(row)


def decisions(conn: Connection, run_id: int) -> list[RunDecisionRecord]:
    d = AgentDecision
    names = "id session_id tool_call_id decision decided_by payload_json decided_at"
    rows = conn.execute(
        select(*columns(d, names)).where(col(d.session_id) == run_id).order_by(col(d.id))
    )
    return [RunDecisionRecord(*r) for r in rows]
