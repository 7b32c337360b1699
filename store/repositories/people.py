"""People, their names and aliases, merges and splits."""

from __future__ import annotations

from collections.abc import Sequence

from store import merges, people
from store.person_detail import owed_counts, person_detail
from store.records import (
    Backfill,
    Directory,
    NewCapture,
    PendingMention,
    PersonDetail,
    PersonMerge,
    PersonSummary,
)
from store.repository import Repository, utc_now


class People(Repository):
    """People, their names and aliases, merges and splits."""

    def merge(self, merged: int, kept: int, user: str) -> PersonMerge:
        """Person `merged` is `kept`: everything of theirs moves over, in one transaction
        (the rollups with it); split undoes it."""
        with self._reporting() as conn:
            return merges.merge(conn, merged, kept, user, utc_now())

    def merges_into(self, kept: int) -> list[PersonMerge]:
        with self._read() as conn:
            return merges.merges_into(conn, kept)

    def split(self, merge_id: int) -> int:
        """Undo merge `merge_id`; the id the merged person has again."""
        with self._reporting() as conn:
            return merges.split(conn, merge_id, utc_now())

    def directory(self) -> Directory:
        with self._read() as conn:
            return people.directory(conn)

    def all(self) -> list[PersonSummary]:
        with self._read() as conn:
            return people.summaries(conn)

    def get(self, person_id: int) -> PersonDetail | None:
        with self._read() as conn:
            return person_detail(conn, person_id)

    def owed_counts(self) -> dict[int, int]:
        with self._read() as conn:
            return owed_counts(conn)

    def pending_mentions(self) -> list[PendingMention]:
        with self._read() as conn:
            return people.pending_mentions(conn)

    def attendees(self, capture_ids: Sequence[int]) -> list[int]:
        with self._read() as conn:
            return people.attendees(conn, capture_ids)

    def unlinked_captures(self) -> list[int]:
        with self._read() as conn:
            return people.unlinked_captures(conn)

    def relink(
        self,
        capture_id: int,
        new: NewCapture,
        decision_ids: Sequence[int],
        action_ids: Sequence[int],
        changing: Sequence[tuple[str, int]],
    ) -> dict[str, int]:
        """A capture's names applied afresh, with the links of the facts `changing`, in
        one transaction; the ids of the people it created, by name."""
        with self._reporting() as conn:
            return people.relink(conn, capture_id, new, decision_ids, action_ids, changing)

    def add(self, name: str) -> int:
        with self._reporting() as conn:
            return people.add_person(conn, name, utc_now())

    def cache_alias(self, entity_type: str, alias: str, entity_id: int, confidence: float) -> None:
        with self._reporting() as conn:
            people.put_alias(conn, entity_type, alias, entity_id, confidence, True, utc_now())

    def confirm_alias(
        self,
        entity_type: str,
        mention: str,
        entity_id: int | None,
        user: str,
        capture_ids: Sequence[int] | None = None,
        spellings: Sequence[str] = (),
        remember: bool | None = None,
    ) -> Backfill:
        """The user's answer to "who is this?", back-filled in the same transaction (see
        people.confirm for `capture_ids` and `remember`)."""
        with self._reporting() as conn:
            return people.confirm(
                conn,
                entity_type,
                mention,
                entity_id,
                user,
                utc_now(),
                capture_ids,
                spellings,
                remember,
            )

    def settle_facts(
        self,
        person_id: int | None,
        action_item_ids: Sequence[int],
        decision_ids: Sequence[int],
        user: str | None = None,
    ) -> Backfill:
        """The user's answer for single waiting facts (no alias), in one transaction."""
        with self._reporting() as conn:
            return people.settle(conn, person_id, action_item_ids, decision_ids, user)
