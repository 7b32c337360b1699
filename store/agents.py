"""Durable agent runs: sessions, their steps, tool calls, events and the human's decisions.

Each row is written as it happens, so a late viewer can replay a run from an event's seq and
a run cut off by a crash can resume from its last finished step.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, text

from store.errors import NotFoundError, StoreError
from store.records import (
    Approval,
    EventRecord,
    RunDecisionRecord,
    RunRecord,
    RunStatus,
    StepRecord,
    ToolCallRecord,
)

# A run in one of these states is over: it has a finished_at.
FINISHED: tuple[RunStatus, ...] = ("completed", "failed", "interrupted")

_RUN_SELECT = """
SELECT s.id, s.agent_type, s.entity_type, s.entity_id,
    CASE s.entity_type
        WHEN 'person' THEN (SELECT name FROM people WHERE id = s.entity_id)
        WHEN 'project' THEN (SELECT name FROM projects WHERE id = s.entity_id)
        WHEN 'client' THEN (SELECT name FROM clients WHERE id = s.entity_id)
    END,
    s.status, s.model, s.spec_json, s.error, s.input_tokens, s.output_tokens,
    s.cost_microdollars, s.started_at, s.finished_at,
    (SELECT count(*) FROM agent_steps st WHERE st.session_id = s.id),
    (SELECT count(*) FROM agent_tool_calls t WHERE t.session_id = s.id),
    (SELECT count(*) FROM agent_steps st WHERE st.session_id = s.id AND st.kind = 'repair')
FROM agent_sessions s"""

_STEP_COLUMNS = (
    "id, session_id, step_index, kind, status, input_tokens, output_tokens, message_json, "
    "started_at, finished_at"
)

_TOOL_CALL_COLUMNS = (
    "id, session_id, step_id, call_id, tool_name, arguments_json, result_json, mutating, "
    "status, started_at, finished_at"
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


def _tool_call_record(r: Sequence[Any]) -> ToolCallRecord:
    return ToolCallRecord(
        id=int(r[0]),
        run_id=int(r[1]),
        step_id=r[2],
        call_id=str(r[3]),
        tool_name=str(r[4]),
        arguments_json=str(r[5]),
        result_json=r[6],
        mutating=bool(r[7]),
        status=str(r[8]),
        started_at=str(r[9]),
        finished_at=r[10],
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
        text(
            "INSERT INTO agent_sessions (agent_type, entity_type, entity_id, status, model, "
            "spec_json, started_at) VALUES (:a, :t, :e, 'running', :m, :spec, :now)"
        ),
        {
            "a": agent_type,
            "t": entity_type,
            "e": entity_id,
            "m": model,
            "spec": spec_json,
            "now": now,
        },
    )
    return int(row.lastrowid)


def set_run_status(
    conn: Connection, run_id: int, status: RunStatus, error: str | None, now: str
) -> None:
    """A run's new status and error (None clears it). A finished run gets its finished_at;
    a run going on again (resumed) loses it."""
    finished_at = now if status in FINISHED else None
    changed = conn.execute(
        text(
            "UPDATE agent_sessions SET status = :s, error = :error, finished_at = :finished "
            "WHERE id = :r"
        ),
        {"s": status, "error": error, "finished": finished_at, "r": run_id},
    )
    _must_change(changed.rowcount, f"run {run_id}")


def set_run_spec(conn: Connection, run_id: int, spec_json: str) -> None:
    """A run's spec again (a resumed run records the process that now runs it)."""
    changed = conn.execute(
        text("UPDATE agent_sessions SET spec_json = :j WHERE id = :r"),
        {"j": spec_json, "r": run_id},
    )
    _must_change(changed.rowcount, f"run {run_id}")


def add_run_usage(
    conn: Connection, run_id: int, input_tokens: int, output_tokens: int, cost_microdollars: int
) -> None:
    changed = conn.execute(
        text(
            "UPDATE agent_sessions SET input_tokens = input_tokens + :i, "
            "output_tokens = output_tokens + :o, cost_microdollars = cost_microdollars + :c "
            "WHERE id = :r"
        ),
        {"i": input_tokens, "o": output_tokens, "c": cost_microdollars, "r": run_id},
    )
    _must_change(changed.rowcount, f"run {run_id}")


def run(conn: Connection, run_id: int) -> RunRecord | None:
    row = conn.execute(text(f"{_RUN_SELECT} WHERE s.id = :r"), {"r": run_id}).first()
    return None if row is None else _run_record(row)


def runs(conn: Connection, limit: int) -> list[RunRecord]:
    """The latest runs, newest first."""
    rows = conn.execute(text(f"{_RUN_SELECT} ORDER BY s.id DESC LIMIT :n"), {"n": limit})
    return [_run_record(r) for r in rows]


def mark_interrupted(conn: Connection, now: str) -> list[int]:
    """Every live run becomes interrupted, its unfinished steps and tool calls too (they keep
    no finished_at: they never finished). Returns the runs' ids."""
    ids = conn.execute(
        text(
            "UPDATE agent_sessions SET status = 'interrupted', finished_at = :now "
            "WHERE status IN ('running', 'waiting_for_user') RETURNING id"
        ),
        {"now": now},
    ).all()
    interrupted = sorted(int(i) for (i,) in ids)
    for table in ("agent_steps", "agent_tool_calls"):
        conn.execute(
            text(
                f"UPDATE {table} SET status = 'interrupted' WHERE status = 'running' "
                "AND session_id IN (SELECT value FROM json_each(:ids))"
            ),
            {"ids": json.dumps(interrupted)},
        )
    return interrupted


# Steps


def start_step(conn: Connection, run_id: int, step_index: int, kind: str, now: str) -> int:
    """A new step (status 'running'). Indexes are unique per run: a resumed run goes on after
    its highest index, leaving the interrupted step as it was."""
    row = conn.execute(
        text(
            "INSERT INTO agent_steps (session_id, step_index, kind, status, started_at) "
            "VALUES (:r, :i, :k, 'running', :now)"
        ),
        {"r": run_id, "i": step_index, "k": kind, "now": now},
    )
    return int(row.lastrowid)


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
        text(
            "UPDATE agent_steps SET status = :s, input_tokens = :i, output_tokens = :o, "
            "message_json = :m, finished_at = :now WHERE id = :id"
        ),
        {
            "s": status,
            "i": input_tokens,
            "o": output_tokens,
            "m": message_json,
            "now": now,
            "id": step_id,
        },
    )
    _must_change(changed.rowcount, f"step {step_id}")


def steps(conn: Connection, run_id: int) -> list[StepRecord]:
    rows = conn.execute(
        text(f"SELECT {_STEP_COLUMNS} FROM agent_steps WHERE session_id = :r ORDER BY step_index"),
        {"r": run_id},
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
    row_id = conn.execute(
        text(
            "INSERT INTO agent_tool_calls (session_id, step_id, call_id, tool_name, "
            "arguments_json, mutating, status, started_at) "
            "VALUES (:r, :step, :c, :name, :args, :mut, 'running', :now) "
            "ON CONFLICT (session_id, call_id) DO UPDATE SET step_id = excluded.step_id, "
            "tool_name = excluded.tool_name, arguments_json = excluded.arguments_json, "
            "mutating = excluded.mutating, status = 'running', result_json = NULL, "
            "started_at = excluded.started_at WHERE agent_tool_calls.finished_at IS NULL "
            "RETURNING id"
        ),
        {
            "r": run_id,
            "step": step_id,
            "c": call_id,
            "name": tool_name,
            "args": arguments_json,
            "mut": int(mutating),
            "now": now,
        },
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
        text(
            "UPDATE agent_tool_calls SET status = :s, result_json = :res, finished_at = :now "
            "WHERE session_id = :r AND call_id = :c"
        ),
        {"s": status, "res": result_json, "now": now, "r": run_id, "c": call_id},
    )
    _must_change(changed.rowcount, f"tool call {call_id!r} of run {run_id}")


def tool_calls(conn: Connection, run_id: int) -> list[ToolCallRecord]:
    rows = conn.execute(
        text(
            f"SELECT {_TOOL_CALL_COLUMNS} FROM agent_tool_calls WHERE session_id = :r ORDER BY id"
        ),
        {"r": run_id},
    )
    return [_tool_call_record(r) for r in rows]


def completed_tool_call(conn: Connection, run_id: int, call_id: str) -> ToolCallRecord | None:
    """The call with its result if it finished (whatever its status), else None."""
    row = conn.execute(
        text(
            f"SELECT {_TOOL_CALL_COLUMNS} FROM agent_tool_calls "
            "WHERE session_id = :r AND call_id = :c AND finished_at IS NOT NULL"
        ),
        {"r": run_id, "c": call_id},
    ).first()
    return None if row is None else _tool_call_record(row)


# Events


def append_event(conn: Connection, run_id: int, kind: str, payload_json: str, now: str) -> int:
    """The event's seq: one more than the run's last, taken inside the write transaction (so
    two appenders never take the same one)."""
    seq = conn.execute(
        text(
            "INSERT INTO agent_events (session_id, seq, kind, payload_json, created_at) "
            "SELECT :r, coalesce(max(seq), 0) + 1, :k, :p, :now FROM agent_events "
            "WHERE session_id = :r RETURNING seq"
        ),
        {"r": run_id, "k": kind, "p": payload_json, "now": now},
    ).scalar_one()
    return int(seq)


def events(conn: Connection, run_id: int, after_seq: int) -> list[EventRecord]:
    rows = conn.execute(
        text(
            "SELECT seq, kind, payload_json, created_at FROM agent_events "
            "WHERE session_id = :r AND seq > :after ORDER BY seq"
        ),
        {"r": run_id, "after": after_seq},
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
        text(
            "INSERT INTO agent_decisions (session_id, tool_call_id, decision, decided_by, "
            "payload_json, decided_at) VALUES (:r, :t, :d, :by, :p, :now)"
        ),
        {
            "r": run_id,
            "t": tool_call_id,
            "d": decision,
            "by": decided_by,
            "p": payload_json,
            "now": now,
        },
    )
    return int(row.lastrowid)


def decisions(conn: Connection, run_id: int) -> list[RunDecisionRecord]:
    rows = conn.execute(
        text(
            "SELECT id, session_id, tool_call_id, decision, decided_by, payload_json, decided_at "
            "FROM agent_decisions WHERE session_id = :r ORDER BY id"
        ),
        {"r": run_id},
    )
    return [RunDecisionRecord(*r) for r in rows]
