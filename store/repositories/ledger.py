"""The cost ledger: every model call and what it cost."""

from __future__ import annotations

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
            return ledger.calls(conn)
