"""Decisions replaced and items closed across meetings, proposed and decided."""

from __future__ import annotations

from collections.abc import Sequence

from store import changes
from store.records import ChangeRecord, HistoryDecision, NewChange, OpenItem
from store.repository import Repository, utc_now


class Changes(Repository):
    """Decisions replaced and items closed across meetings, proposed and decided."""

    def decisions_of(self, capture_id: int) -> list[HistoryDecision]:
        with self._read() as conn:
            return changes.capture_decisions(conn, capture_id)

    def earlier_current(
        self, capture_id: int, day: str, limit: int = 2000
    ) -> list[HistoryDecision]:
        with self._read() as conn:
            return changes.earlier_current_decisions(conn, capture_id, day, limit)

    def open_items_before(self, capture_id: int) -> list[OpenItem]:
        with self._read() as conn:
            return changes.open_items_before(conn, capture_id)

    def decision_subjects(self) -> list[str]:
        with self._read() as conn:
            return changes.decision_subjects(conn)

    def set_decision_subjects(self, subjects: dict[int, str]) -> None:
        """What decisions are about (their search index follows), in one transaction."""
        with self._write() as conn:
            changes.set_subjects(conn, subjects)

    def add(self, found: Sequence[NewChange]) -> list[int]:
        """Record changes in one transaction; strong ones take effect (rollups with them)."""
        with self._reporting() as conn:
            now = utc_now()
            return [changes.add_change(conn, change, now) for change in found]

    def decide(self, change_id: int, status: str, by: str) -> ChangeRecord:
        """Apply ("applied"), reject ("rejected") or undo ("undone") change `change_id`."""
        with self._reporting() as conn:
            return changes.decide(conn, change_id, status, by, utc_now())

    def all(self, statuses: Sequence[str] = ()) -> list[ChangeRecord]:
        with self._read() as conn:
            return changes.changes(conn, statuses)

    def get(self, change_id: int) -> ChangeRecord | None:
        with self._read() as conn:
            return changes.change_by_id(conn, change_id)
