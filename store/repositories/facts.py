"""Facts (summaries, decisions, action items, excerpts, notes) as one feed."""

from __future__ import annotations

from collections.abc import Sequence

from store import facts
from store.records import FactCursor, FactPeople, FactRecord
from store.repository import Repository
from store.search import FactFilter


class Facts(Repository):
    """Facts (summaries, decisions, action items, excerpts, notes) as one feed."""

    def all(
        self,
        fact_type: str | None = None,
        since: str | None = None,
        capture_id: int | None = None,
        limit: int | None = None,
        offset: int = 0,
        current: bool = False,
    ) -> list[FactRecord]:
        with self._read() as conn:
            return facts.list_facts(conn, fact_type, since, capture_id, limit, offset, current)

    def filtered(
        self, flt: FactFilter, limit: int | None = None, offset: int = 0
    ) -> list[FactRecord]:
        """The facts a filter allows, in `facts`'s order (`memo facts`)."""
        with self._read() as conn:
            return facts.filtered_facts(conn, flt, limit, offset)

    def keys(self, flt: FactFilter) -> list[int]:
        """The keys of the facts a filter allows (what `filtered` would return)."""
        with self._read() as conn:
            return facts.fact_keys(conn, flt)

    def people_of(self, found: Sequence[FactRecord]) -> dict[int, FactPeople]:
        """Who each decision and action item among `found` is about, by fact key."""
        with self._read() as conn:
            return facts.fact_people(conn, found)

    def page(
        self, flt: FactFilter, limit: int, after: FactCursor | None = None
    ) -> list[FactRecord]:
        """A page of the facts feed: newest meeting first, filtered as search filters. Pass
        `FactCursor.after(page[-1])` for the next page."""
        with self._read() as conn:
            return facts.facts_page(conn, flt, limit, after)

    def get(self, fact_key: int) -> FactRecord | None:
        return self.by_keys([fact_key]).get(fact_key)

    def by_keys(self, keys: list[int]) -> dict[int, FactRecord]:
        with self._read() as conn:
            return facts.facts_by_keys(conn, keys)

    def of_project(self, project_id: int, keys: Sequence[int]) -> set[int]:
        """Those of `keys` that are the project's facts (its meetings' and its notes)."""
        with self._read() as conn:
            return facts.project_facts_among(conn, project_id, keys)
