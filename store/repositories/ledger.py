"""The cost ledger: every model call and what it cost."""

from __future__ import annotations

from sqlalchemy import text

from store import ledger
from store.repository import Repository


class Ledger(Repository):
    """The cost ledger: every model call and what it cost."""

    def record(self, row: ledger.LLMCallRow) -> int:
        with self._write() as conn:
            return ledger.record_call(conn, row)

    def costs(self, by: str, since: str | None = None) -> list[ledger.CostLine]:
        with self._read() as conn:
            return ledger.summarize(conn, by, since)

    def calls(self) -> list[ledger.LLMCallRow]:
        """Every ledger row, oldest first (for tests and exports)."""
        with self._read() as conn:
            rows = conn.execute(
                text(
                    "SELECT provider, model, trigger, status, input_tokens, output_tokens, "
                    "cost_microdollars, latency_ms, error, capture_id, run_id, created_at "
                    "FROM llm_calls ORDER BY id"
                )
            ).all()
        return [ledger.LLMCallRow(*row) for row in rows]
