"""Concepts: named ideas with their own living documents."""

from __future__ import annotations

from store import concepts
from store.records import ConceptSummary
from store.repository import Repository, utc_now


class Concepts(Repository):
    """Concepts: named ideas with their own living documents."""

    def add(self, name: str) -> int:
        """A new concept; a name already taken (any case) raises NameTakenError."""
        with self._write() as conn:
            return concepts.add_concept(conn, name, utc_now())

    def all(self) -> list[ConceptSummary]:
        with self._read() as conn:
            return concepts.concepts(conn)
