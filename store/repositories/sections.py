"""The sections of living documents, written by agents or the user."""

from __future__ import annotations

from collections.abc import Sequence

from store import sections
from store.records import SectionAuthor, SectionRecord, SectionWrite
from store.repository import Repository, utc_now


class Sections(Repository):
    """The sections of living documents, written by agents or the user."""

    def write(
        self,
        entity_type: str,
        entity_id: int,
        key: str,
        body: str,
        cited_fact_keys: Sequence[int],
        by: SectionAuthor,
    ) -> SectionWrite:
        """'written', 'unchanged', or 'skipped_user_edit': an agent never overwrites a
        section the user edited."""
        with self._write() as conn:
            return sections.write_section(
                conn, entity_type, entity_id, key, body, cited_fact_keys, by, utc_now()
            )

    def all(self, entity_type: str, entity_id: int) -> list[SectionRecord]:
        with self._read() as conn:
            return sections.sections(conn, entity_type, entity_id)

    def reset(self, entity_type: str, entity_id: int, key: str) -> bool:
        """A section the user edited goes back to the agents (its text kept until one
        rewrites it); False when it was theirs already, NotFoundError when there is none."""
        with self._write() as conn:
            return sections.reset_section(conn, entity_type, entity_id, key, utc_now())
