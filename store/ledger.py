"""The cost ledger: one `llm_calls` row per model call, and summaries of them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, text


@dataclass(frozen=True)
class LLMCallRow:
    provider: str
    model: str
    trigger: str
    status: str
    input_tokens: int
    output_tokens: int
    cost_microdollars: int
    latency_ms: int
    error: str | None
    capture_id: int | None
    run_id: int | None
    created_at: str


@dataclass(frozen=True)
class CostLine:
    """One group of a summary (a day, a trigger or a model)."""

    key: str
    calls: int
    failed: int
    input_tokens: int
    output_tokens: int
    cost_microdollars: int


def record_call(conn: Connection, row: LLMCallRow) -> int:
    result = conn.execute(
        text(
            "INSERT INTO llm_calls (provider, model, trigger, status, input_tokens, "
            "output_tokens, cost_microdollars, latency_ms, error, capture_id, run_id, created_at) "
            "VALUES (:provider, :model, :trigger, :status, :input_tokens, :output_tokens, "
            ":cost_microdollars, :latency_ms, :error, :capture_id, :run_id, :created_at)"
        ),
        vars(row),
    )
    return int(result.lastrowid)


def attach_calls(conn: Connection, call_ids: Sequence[int], capture_id: int) -> None:
    conn.execute(
        text(
            "UPDATE llm_calls SET capture_id = :c WHERE id IN (SELECT value FROM json_each(:ids))"
        ),
        {"c": capture_id, "ids": json.dumps(list(call_ids))},
    )


_GROUPS = {
    "day": "substr(created_at, 1, 10)",
    "trigger": "trigger",
    "model": "provider || ':' || model",
}


def summarize(conn: Connection, by: str, since: str | None = None) -> list[CostLine]:
    """Calls, tokens and cost grouped by day, trigger or model (newest day first)."""
    group = _GROUPS[by]
    order = "key DESC" if by == "day" else "cost DESC, calls DESC"
    rows = conn.execute(
        text(
            f"SELECT {group} AS key, count(*) AS calls, "
            "sum(status != 'ok'), sum(input_tokens), sum(output_tokens), "
            "sum(cost_microdollars) AS cost FROM llm_calls "
            "WHERE (:since IS NULL OR created_at >= :since) "
            f"GROUP BY key ORDER BY {order}"
        ),
        {"since": since},
    ).all()
    return [
        CostLine(str(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5])) for r in rows
    ]
