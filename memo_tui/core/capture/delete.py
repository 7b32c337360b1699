"""Deleting a capture: what goes with it and what stays. Shared by `memo forget` and the app.

Everything the capture owns goes in one transaction: its decisions, action items and excerpts,
its links to people and projects, their search entries and vectors (the index triggers), and
the rollups are rebuilt before it commits. An email thread's messages are forgotten too, so the
next import captures them again. People, aliases, projects, notes, the cost ledger and the
chat logs captured from it (kept as captures of their own) stay. Nothing is left to embed.
"""

from __future__ import annotations

from store import CaptureSummary, Store


class UnknownCapture(LookupError):
    """No capture with that id (perhaps deleted meanwhile)."""


def capture_to_delete(store: Store, capture_id: int) -> CaptureSummary:
    """The capture a delete would remove (for the question asked first); UnknownCapture when
    there is no such capture."""
    found = store.captures.get(capture_id)
    if found is None:
        raise UnknownCapture(_unknown(capture_id))
    return found


def delete_capture(store: Store, capture_id: int) -> CaptureSummary:
    """Delete a capture and all it owns; the capture as it was. UnknownCapture, and nothing
    written, when there is no such capture."""
    found = capture_to_delete(store, capture_id)
    if not store.captures.delete(capture_id):  # deleted since it was read
        raise UnknownCapture(_unknown(capture_id))
    return found


def _unknown(capture_id: int) -> str:
    return f"no capture {capture_id} (`memo` lists the meetings with their capture ids)"
