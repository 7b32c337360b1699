"""A living document's sections as the user changes them (a project's, a concept's, a
person's), for `memo project section` and the app's section editor.

An edit is the user's: no agent overwrites it. A reset gives the section back to the agents:
its text stays until the next compile rewrites it, so nothing is lost in between.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from store import NotFoundError, SectionRecord, SectionWrite, Store


class SectionRefused(Exception):
    """A section change memo will not make: the message says why; nothing was written."""


class UnknownSection(SectionRefused, LookupError):
    """No section of that key in this document, nor one its agent writes."""


class EmptySection(SectionRefused, ValueError):
    """An edit with no text."""


@dataclass(frozen=True)
class SectionChange:
    """A section after an edit or a reset. `outcome` is 'written', or 'unchanged' when it
    already read (and belonged) so."""

    section: SectionRecord
    outcome: SectionWrite


def agent_keys(entity_type: str) -> tuple[str, ...]:
    """The sections the agent that writes this kind of document writes."""
    from memo_tui.core.agents.agents import CONCEPT_SECTIONS, PERSON_FACETS, PROJECT_SECTIONS

    return {
        "project": PROJECT_SECTIONS,
        "concept": CONCEPT_SECTIONS,
        "person": (*(f"facet:{facet}" for facet in PERSON_FACETS), "profile"),
    }.get(entity_type, ())


class SectionService:
    def __init__(self, store: Store) -> None:
        self.store = store

    def keys(self, entity_type: str, entity_id: int) -> list[str]:
        """The sections a document has, then those its agent writes that it has not yet."""
        have = [s.key for s in self.store.sections.all(entity_type, entity_id)]
        return have + [k for k in agent_keys(entity_type) if k not in have]

    def section(self, entity_type: str, entity_id: int, key: str) -> SectionRecord | None:
        found = self.store.sections.all(entity_type, entity_id)
        return next((s for s in found if s.key == key), None)

    def edit(
        self,
        entity_type: str,
        entity_id: int,
        key: str,
        body: str,
        cited_fact_keys: Sequence[int] | None = None,
    ) -> SectionChange:
        """The user's text for a section (trimmed): agents leave it from now on. Its
        citations stay as they were unless `cited_fact_keys` are given. A section the
        agent has not written yet may be written first."""
        text = body.strip()
        if not text:
            raise EmptySection("a section needs some text (a reset gives it back to the agent)")
        current = self._known(entity_type, entity_id, key)
        if cited_fact_keys is None:
            cited_fact_keys = current.cited_fact_keys if current is not None else []
        outcome = self.store.sections.write(
            entity_type, entity_id, key, text, cited_fact_keys, "user"
        )
        return self._change(entity_type, entity_id, key, outcome)

    def reset(self, entity_type: str, entity_id: int, key: str) -> SectionChange:
        """Give a section the user edited back to the agents: the next compile may rewrite
        it (its text stays until then). 'unchanged' when it was the agents' already."""
        if self._known(entity_type, entity_id, key) is None:
            raise UnknownSection(f"there is no section {key!r} yet: nothing to give back")
        try:
            reset = self.store.sections.reset(entity_type, entity_id, key)
        except NotFoundError as error:  # deleted since it was read
            raise UnknownSection(f"there is no section {key!r} any more") from error
        return self._change(entity_type, entity_id, key, "written" if reset else "unchanged")

    def _known(self, entity_type: str, entity_id: int, key: str) -> SectionRecord | None:
        """The section, None when the agent writes it but has not yet; UnknownSection when
        neither the document nor its agent has a section `key`."""
        keys = self.keys(entity_type, entity_id)
        if key not in keys:
            listed = ", ".join(keys) or "none"
            raise UnknownSection(f"no section {key!r} (sections: {listed})")
        return self.section(entity_type, entity_id, key)

    def _change(
        self, entity_type: str, entity_id: int, key: str, outcome: SectionWrite
    ) -> SectionChange:
        written = self.section(entity_type, entity_id, key)
        if written is None:  # deleted (with its project) in between
            raise UnknownSection(f"there is no section {key!r} any more")
        return SectionChange(written, outcome)
