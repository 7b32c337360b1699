"""The review of proposed decisions and action items: accept, reject, edit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from store import review
from store.records import ReviewItem
from store.repository import Repository


class Review(Repository):
    """Decisions and action items memo is not sure of, and the user's word on them."""

    def items(self, states: Sequence[str] = ("proposed",)) -> list[ReviewItem]:
        with self._read() as conn:
            return review.items_in(conn, states)

    def get(self, kind: str, item_id: int) -> ReviewItem:
        """One decision or action item (NotFoundError when there is none)."""
        with self._read() as conn:
            return review.item(conn, kind, item_id)

    def waiting(self) -> int:
        with self._read() as conn:
            return review.waiting(conn)

    def settle(self, kind: str, item_id: int, values: dict[str, Any]) -> ReviewItem:
        """Write a review's outcome; the rollups follow (a rejected item counts for nobody)."""
        with self._reporting() as conn:
            return review.settle(conn, kind, item_id, values)
