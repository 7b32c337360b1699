"""Entity resolution for the CLI and the TUI: resolve a name, confirm what it means, list
people and the names still waiting for an answer."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from memo_tui.core.entities.linking import resolve_in_meeting
from memo_tui.core.entities.names import normalize
from memo_tui.core.entities.resolve import (
    EntityType,
    NeedsDisambiguation,
    Resolution,
    Resolved,
    Unresolved,
    resolve,
)
from store import (
    ActionItemRecord,
    Backfill,
    DecisionRecord,
    NewActionItem,
    NewCapture,
    NewDecision,
    PendingMention,
    PersonRow,
    PersonSummary,
    Provenance,
    Store,
    utc_now,
)


class UnknownPerson(LookupError):
    """`confirm` was told a person memo does not know, or one that could be several."""


@dataclass(frozen=True)
class Pending:
    mention: PendingMention
    resolution: Resolution  # the candidates to offer
    # The candidates were in the room (two Sams at the meeting): the answer is per item,
    # and no alias is written. Otherwise the name fits several people memo knows, and the
    # answer is remembered for the name.
    in_room: bool = False


class EntityService:
    def __init__(self, store: Store, user: str) -> None:
        self.store = store
        self.user = user

    def resolve(self, mention: str, entity_type: EntityType = "person") -> Resolution:
        """Resolve store-wide; a confident guess by spelling is cached as an auto alias."""
        found = resolve(mention, self.store.directory(), entity_type)
        if isinstance(found, Resolved) and found.via == "fuzzy":
            self.store.cache_alias(entity_type, mention, found.entity.id, found.entity.score)
        return found

    def resolve_in(self, mention: str, capture_id: int) -> Resolution:
        """What `mention` means said in capture `capture_id`, as its capture links owners
        and deciders: its attendees first, then store-wide."""
        if self.store.capture(capture_id) is None:
            raise UnknownPerson(f"no capture {capture_id}: see memo facts or memo (no command)")
        attendees = self.store.attendees([capture_id])
        taught = self.store.capture_meta(capture_id).get("names", {})
        return resolve_in_meeting(mention, attendees, self.store.directory(), taught)

    def person(self, name_or_id: str) -> PersonRow:
        """The one person `name_or_id` names exactly (an id, a full name or an alias)."""
        directory = self.store.directory()
        if name_or_id.strip().isdecimal() and name_or_id.strip().isascii():
            wanted = int(name_or_id)
            found = [p for p in directory.people if p.id == wanted]
        else:
            key = normalize(name_or_id)
            ids = {a.entity_id for a in directory.aliases if normalize(a.alias) == key}
            found = [p for p in directory.people if normalize(p.name) == key or p.id in ids]
        if len(found) == 1:
            return found[0]
        if not found:
            raise UnknownPerson(f"no person called {name_or_id!r}: see memo people")
        listed = ", ".join(f"{p.name} (id {p.id})" for p in found)
        raise UnknownPerson(f"{name_or_id!r} could be {listed}: give the id")

    def confirm(
        self,
        mention: str,
        person: PersonRow | None,
        capture_ids: Sequence[int] | None = None,
        remember: bool | None = None,
    ) -> Backfill:
        """`mention` is `person` (None: none of the candidates), from now on; every fact
        waiting on that raw name is settled. With `capture_ids`, only in those meetings,
        and no alias is written unless `remember`."""
        if not normalize(mention):
            raise ValueError(f"{mention!r} is not a name")
        directory = self.store.directory()
        if person is None and any(
            normalize(p.name) == normalize(mention) for p in directory.people
        ):
            raise UnknownPerson(
                f"{mention!r} is the name of a person memo knows; --none is for names that "
                "are nobody memo knows"
            )
        if capture_ids is not None:
            known = {c.id for c in self.store.captures()}
            missing = [c for c in capture_ids if c not in known]
            if missing:
                raise UnknownPerson(f"no capture {missing[0]}: see memo facts or memo (no command)")
        entity_id = person.id if person is not None else None
        spellings = [  # "Jose" settles a waiting "José" too: names compare normalized
            m.mention
            for m in self.store.pending_mentions()
            if normalize(m.mention) == normalize(mention)
        ]
        return self.store.confirm_alias(
            "person", mention, entity_id, self.user, capture_ids, spellings, remember
        )

    def relink(self) -> tuple[int, int]:
        """Link the people of captures stored before memo knew people (or never linked):
        speakers and attendees from the stored text, owners and deciders as a capture
        would. Returns (captures linked, facts changed)."""
        from memo_tui.core.capture.errors import CaptureRejected
        from memo_tui.core.capture.sources import parse, stored_format
        from memo_tui.core.entities.linking import link_names

        linked = changed = 0
        for capture_id in self.store.unlinked_captures():
            title, body, source_format, path = self.store.capture_source(capture_id)
            name = Path(path or "meeting.txt").name
            try:
                transcript = parse(body, name, source_format, fmt=stored_format(source_format))
            except CaptureRejected:  # an old capture of a file nothing in reads as speech
                continue
            decisions = self.store.decisions([capture_id])
            actions = self.store.action_items([capture_id])
            new = NewCapture(
                "relink",
                path,
                source_format,
                "",
                None,
                title,
                None,
                "",
                body,
                0,
                None,
                {},
                "",
                False,
                Provenance("relink", f"capture:{capture_id}", utc_now(), self.user),
                decisions=[
                    NewDecision(d.description, None, d.decided_by, None, None, None)
                    for d in decisions
                ],
                action_items=[
                    NewActionItem(a.description, a.assignee_raw, None, None, None, None)
                    for a in actions
                ],
            )
            named = link_names(
                new, transcript.speakers, transcript.attendees, self.store.directory()
            )
            refs = [(d.person, d.pending) for d in named.decisions]
            refs += [(a.person, a.pending) for a in named.action_items]
            if not named.attendees and not any(person or wait for person, wait in refs):
                continue
            changed += self.store.relink_capture(
                capture_id, named, [d.id for d in decisions], [a.id for a in actions]
            )
            linked += 1
        return linked, changed

    def people(self) -> list[PersonSummary]:
        return self.store.people()

    def pending(self) -> list[Pending]:
        """Each waiting name with the people to offer. Meetings where the people it fits
        were in the room (two Sams) are one question, offering them; the name's other
        meetings are another, offering everyone memo knows who fits."""
        directory = self.store.directory()
        waiting = []
        for mention in self.store.pending_mentions():
            room = [
                capture_id
                for capture_id in mention.capture_ids
                if isinstance(
                    resolve(mention.mention, directory, among=self.store.attendees([capture_id])),
                    NeedsDisambiguation,
                )
            ]
            elsewhere = [c for c in mention.capture_ids if c not in room]
            if room:
                among = self.store.attendees(room)
                here = resolve(mention.mention, directory, among=among)
                waiting.append(Pending(self._part(mention, room), here, in_room=True))
            if elsewhere:
                found = resolve(mention.mention, directory)
                waiting.append(Pending(self._part(mention, elsewhere), found))
        return waiting

    def _part(self, mention: PendingMention, capture_ids: list[int]) -> PendingMention:
        """`mention` in some of its meetings only, with the counts of what waits there."""
        if capture_ids == mention.capture_ids:
            return mention
        facts = self.waiting_on(replace(mention, capture_ids=capture_ids))
        items = sum(isinstance(f, ActionItemRecord) for f in facts)
        return PendingMention(mention.mention, items, len(facts) - items, capture_ids)

    def settle(
        self, items: Sequence[ActionItemRecord | DecisionRecord], person: PersonRow | None
    ) -> Backfill:
        """These waiting facts are `person`'s (None: nobody memo knows); no alias is
        written, so the name is asked again elsewhere."""
        return self.store.settle_facts(
            person.id if person is not None else None,
            [item.id for item in items if isinstance(item, ActionItemRecord)],
            [item.id for item in items if isinstance(item, DecisionRecord)],
        )

    def waiting_on(self, mention: PendingMention) -> list[ActionItemRecord | DecisionRecord]:
        """The action items and decisions that wait for `mention` to be settled."""
        said = mention.mention.strip().lower()

        def waits(raw: str | None) -> bool:
            return (raw or "").strip().lower() == said

        items = self.store.action_items(mention.capture_ids)
        decisions = self.store.decisions(mention.capture_ids)
        return [
            *(a for a in items if a.pending and waits(a.assignee_raw)),
            *(d for d in decisions if d.pending and waits(d.decided_by)),
        ]

    def waiting_by_person(self) -> dict[int, list[PendingMention]]:
        """For each person, the waiting names they are offered for (their pending
        assignments: settle one, and its items may become theirs). One resolution a name,
        not one a meeting as `pending` does: the People pane reads this on every refresh."""
        directory = self.store.directory()
        by_person: dict[int, list[PendingMention]] = {}
        for mention in self.store.pending_mentions():
            among = self.store.attendees(mention.capture_ids)
            found = resolve(mention.mention, directory, among=among)
            if not isinstance(found, NeedsDisambiguation):
                found = resolve(mention.mention, directory)
            for candidate in found.candidates:
                by_person.setdefault(candidate.id, []).append(mention)
        return by_person


__all__ = ["EntityService", "Pending", "UnknownPerson", "Unresolved"]
