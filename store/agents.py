"""Durable agent runs: sessions, their steps, tool calls, events and the human's decisions.

Each row is written as it happens, so a late viewer can replay a run from an event's seq and
a run cut off by a crash can resume from its last finished step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, Row, Select, case, func, select, update
from sqlmodel import col

from store.errors import NotFoundError, StoreError
from store.expressions import columns, insert, new_id
from store.records import (
    Approval,
    EventRecord,
    RunDecisionRecord,
    RunRecord,
    RunStatus,
    StepRecord,
    ToolCallRecord,
)
from store.tables import (
    AgentDecision,
    AgentEvent,
    AgentSession,
    AgentStep,
    AgentToolCall,
    Client,
    Person,
    Project,
)

# A run in one of these states is over: it has a finished_at.
FINISHED: tuple[RunStatus, ...] = ("completed", "failed", "interrupted")


def _run_select() -> Select[Any]:
    """A run with its entity's current name and how many steps, tool calls and repair
    turns it took."""
    s = AgentSession
    steps_of = select(func.count()).where(col(AgentStep.session_id) == col(s.id))
    calls_of = select(func.count()).where(col(AgentToolCall.session_id) == col(s.id))
    name_of = {
        kind: select(col(table.name)).where(col(table.id) == col(s.entity_id)).scalar_subquery()
        for kind, table in (("person", Person), ("project", Project), ("client", Client))
    }
    return select(
        col(s.id),
        col(s.agent_type),
        col(s.entity_type),
        col(s.entity_id),
        case(*((col(s.entity_type) == k, n) for k, n in name_of.items())),
        col(s.status),
        col(s.model),
        col(s.spec_json),
        col(s.error),
        col(s.input_tokens),
        col(s.output_tokens),
        col(s.cost_microdollars),
        col(s.started_at),
        col(s.finished_at),
        steps_of.scalar_subquery(),
        calls_of.scalar_subquery(),
        steps_of.where(col(AgentStep.kind) == "repair").scalar_subquery(),
    )


_STEP_COLUMNS = (
    "id session_id step_index kind status input_tokens output_tokens message_json "
    "started_at finished_at"
)


def _run_record(r: Sequence[Any]) -> RunRecord:
    return RunRecord(
        id=int(r[0]),
        agent_type=str(r[1]),
        entity_type=r[2],
        entity_id=r[3],
        entity_name=r[4],
        status=str(r[5]),
        model=r[6],
        spec_json=str(r[7]),
        error=r[8],
        input_tokens=int(r[9]),
        output_tokens=int(r[10]),
        cost_microdollars=int(r[11]),
        started_at=str(r[12]),
        finished_at=r[13],
        steps=int(r[14]),
        tool_calls=int(r[15]),
        repair_turns=int(r[16]),
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


def _must_change(rowcount: int | None, what: str) -> None:
    if not rowcount:
        raise NotFoundError(f"{what} no longer exists")


# Runs


def start_run(
    conn: Connection,
    agent_type: str,
    entity_type: str | None,
    entity_id: int | None,
    model: str | None,
    spec_json: str,
    now: str,
) -> int:
    row = conn.execute(
        insert(AgentSession).values(
            agent_type=agent_type,
            entity_type=entity_type,
            entity_id=entity_id,
            status="running",
            model=model,
            spec_json=spec_json,
            started_at=now,
        )
    )
    return new_id(row)


def set_run_status(
    conn: Connection, run_id: int, status: RunStatus, error: str | None, now: str
) -> None:
    """A run's new status and error (None clears it). A finished run gets its finished_at;
    a run going on again (resumed) loses it."""
    finished_at = now if status in FINISHED else None
    _set_run(conn, run_id, status=status, error=error, finished_at=finished_at)


def set_run_spec(conn: Connection, run_id: int, spec_json: str) -> None:
    """A run's spec again (a resumed run records the process that now runs it)."""
    _set_run(conn, run_id, spec_json=spec_json)


def add_run_usage(
    conn: Connection, run_id: int, input_tokens: int, output_tokens: int, cost_microdollars: int
) -> None:
    s = AgentSession
    _set_run(
        conn,
        run_id,
        input_tokens=col(s.input_tokens) + input_tokens,
        output_tokens=col(s.output_tokens) + output_tokens,
        cost_microdollars=col(s.cost_microdollars) + cost_microdollars,
    )


def _set_run(conn: Connection, run_id: int, **values: Any) -> None:
    changed = conn.execute(
        update(AgentSession).where(col(AgentSession.id) == run_id).values(**values)
    )
    _must_change(changed.rowcount, f"run {run_id}")


def run(conn: Connection, run_id: int) -> RunRecord | None:
    row = conn.execute(_run_select().where(col(AgentSession.id) == run_id)).first()
    return None if row is None else _run_record(row)


def runs(conn: Connection, limit: int) -> list[RunRecord]:
    """The latest runs, newest first."""
    rows = conn.execute(_run_select().order_by(col(AgentSession.id).desc()).limit(limit))
    return [_run_record(r) for r in rows]


def mark_interrupted(conn: Connection, now: str) -> list[int]:
    """Every live run becomes interrupted, its unfinished steps and tool calls too (they keep
    no finished_at: they never finished). Returns the runs' ids."""
    ids = conn.execute(
        update(AgentSession)
        .where(col(AgentSession.status).in_(("running", "waiting_for_user")))
        .values(status="interrupted", finished_at=now)
        .returning(col(AgentSession.id))
    ).scalars()
    interrupted = sorted(ids)
    for table in (AgentStep, AgentToolCall):
        conn.execute(
            update(table)
            .where(col(table.status) == "running", col(table.session_id).in_(interrupted))
            .values(status="interrupted")
        )
    return interrupted


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
    _must_change(changed.rowcount, f"step {step_id}")


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
    _must_change(changed.rowcount, f"tool call {call_id!r} of run {run_id}")


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
