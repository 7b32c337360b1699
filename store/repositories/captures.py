"""A capture (a meeting, a thread, a note file) and the facts it holds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from store import capture_reads, captures
from store.records import (
    ActionItemRecord,
    CaptureCandidate,
    CaptureRef,
    CaptureSummary,
    DecisionRecord,
    NewCapture,
    WrittenCapture,
)
from store.repository import Repository


class Captures(Repository):
    """A capture (a meeting, a thread, a note file) and the facts it holds."""

    def by_hash(self, content_hash: str) -> CaptureRef | None:
        with self._read() as conn:
            return capture_reads.capture_by_hash(conn, content_hash)

    def all(self) -> list[CaptureSummary]:
        with self._read() as conn:
            return capture_reads.list_captures(conn)

    def get(self, capture_id: int) -> CaptureSummary | None:
        with self._read() as conn:
            return capture_reads.capture_summary(conn, capture_id)

    def delete(self, capture_id: int) -> bool:
        """A capture and all it owns (facts, links, index entries, vectors) in one
        transaction. False when there was no such capture."""
        with self._reporting() as conn:
            return captures.delete_capture(conn, capture_id)

    def of_facts(self, decision_ids: Sequence[int], item_ids: Sequence[int] = ()) -> list[int]:
        """The captures these decisions and action items belong to."""
        if not decision_ids and not item_ids:
            return []
        with self._read() as conn:
            return capture_reads.of_facts(conn, decision_ids, item_ids)

    def text(self, capture_id: int) -> str:
        """A capture's text as memo stores it (what line numbers refer to)."""
        with self._read() as conn:
            return capture_reads.capture_text(conn, capture_id)

    def ids_by_date(self) -> list[int]:
        """Every capture, oldest meeting first (then in the order captured)."""
        with self._read() as conn:
            return capture_reads.ids_by_date(conn)

    def meta(self, capture_id: int) -> dict[str, Any]:
        """What the extractor and the reader noted about a capture (attendees, topics,
        `source_lines`, `skipped`)."""
        with self._read() as conn:
            return capture_reads.capture_meta(conn, capture_id)

    def side_channels(self, capture_id: int) -> list[CaptureSummary]:
        """The chat logs captured beside a meeting."""
        with self._read() as conn:
            return capture_reads.side_channels(conn, capture_id)

    def link_side_channel(self, chat_id: int, meeting_id: int) -> None:
        with self._write() as conn:
            captures.link_side_channel(conn, chat_id, meeting_id)

    def candidates(self) -> list[CaptureCandidate]:
        with self._read() as conn:
            return capture_reads.capture_candidates(conn)

    def write(self, new: NewCapture, replace_id: int | None = None) -> WrittenCapture:
        """All rows of one capture in one BEGIN IMMEDIATE transaction, or none."""
        with self._reporting() as conn:  # the same text stored meanwhile: DuplicateCaptureError
            return captures.write_capture(conn, new, replace_id)

    def decisions(self, capture_ids: Sequence[int]) -> list[DecisionRecord]:
        with self._read() as conn:
            return capture_reads.decisions_for(conn, capture_ids)

    def action_items(self, capture_ids: Sequence[int]) -> list[ActionItemRecord]:
        with self._read() as conn:
            return capture_reads.action_items_for(conn, capture_ids)

    def items(
        self, capture_ids: Sequence[int]
    ) -> tuple[list[DecisionRecord], list[ActionItemRecord]]:
        """The decisions and the action items of these captures, read together."""
        with self._read() as conn:
            return capture_reads.decisions_for(conn, capture_ids), capture_reads.action_items_for(
                conn, capture_ids
            )

    def source(self, capture_id: int) -> tuple[str, str, str, str | None]:
        """(title, stored text, source format, source path) of a capture."""
        with self._read() as conn:
            return capture_reads.capture_source(conn, capture_id)

    def raw(self, capture_id: int) -> str:
        """The text of a capture as its file gave it (a direct message left out)."""
        with self._read() as conn:
            return capture_reads.capture_raw(conn, capture_id)
