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
    PersonMerge,
    PersonRef,
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


@dataclass(frozen=True)
class Relink:
    """One owner or decider a relink changed: as said, who it was, who it is now."""

    capture_id: int
    title: str
    said: str
    was: str | None
    now: str | None
    waiting: bool  # now waits for the user to say who


@dataclass(frozen=True)
class Relinked:
    meetings: int
    changes: list[Relink]


def _should_change(
    person: int | None, waiting: bool, ref: PersonRef | None, pending: bool, room: set[int]
) -> bool:
    """Whether a relink may change a fact's link: an unlinked or waiting one when the rules
    now say something; a linked one only when its person was not in the room."""
    if person is None and not waiting:
        return ref is not None or pending
    if waiting:
        return ref is not None
    return person not in room and (ref != person or pending)


class EntityService:
    def __init__(self, store: Store, user: str) -> None:
        self.store = store
        self.user = user

    def resolve(self, mention: str, entity_type: EntityType = "person") -> Resolution:
        """Resolve store-wide; a confident guess by spelling is cached as an auto alias."""
        found = resolve(mention, self.store.people.directory(), entity_type)
        if isinstance(found, Resolved) and found.via == "fuzzy":
            self.store.people.cache_alias(entity_type, mention, found.entity.id, found.entity.score)
        return found

    def resolve_in(self, mention: str, capture_id: int) -> Resolution:
        """What `mention` means said in capture `capture_id`, as its capture links owners
        and deciders: its attendees first, then store-wide."""
        if self.store.captures.get(capture_id) is None:
            raise UnknownPerson(f"no capture {capture_id}: see memo facts or memo (no command)")
        attendees = self.store.people.attendees([capture_id])
        taught = self.store.captures.meta(capture_id).get("names", {})
        return resolve_in_meeting(mention, attendees, self.store.people.directory(), taught)

    def merge(self, merged: str, kept: str) -> PersonMerge:
        """`merged` is the same person as `kept` (names, aliases or ids): everything of
        theirs moves to `kept` in one transaction; `split` undoes it."""
        one, other = self.person(merged), self.person(kept)
        if one.id == other.id:
            raise UnknownPerson(f"{merged!r} and {kept!r} are one person already ({one.name})")
        return self.store.people.merge(one.id, other.id, self.user)

    def split(
        self, person: str, merged: str | None = None, merge_id: int | None = None
    ) -> tuple[PersonMerge, int]:
        """Undo a merge into `person` (the latest, the one of `merged`'s name, or merge
        `merge_id`, the one the user was asked about): the merged person back, with what the
        merge moved. Returns it and their new id."""
        kept = self.person(person)
        undoable = self.store.people.merges_into(kept.id)
        if merged is not None:
            undoable = [m for m in undoable if normalize(m.merged_name) == normalize(merged)]
        if merge_id is not None:
            undoable = [m for m in undoable if m.id == merge_id]
        if not undoable:
            named = f" of {merged!r}" if merged else ""
            raise UnknownPerson(f"{kept.name} has no merge{named} to undo: see memo people")
        return undoable[0], self.store.people.split(undoable[0].id)

    def person(self, name_or_id: str) -> PersonRow:
        """The one person `name_or_id` names exactly (an id, a full name or an alias)."""
        directory = self.store.people.directory()
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
        directory = self.store.people.directory()
        if person is None and any(
            normalize(p.name) == normalize(mention) for p in directory.people
        ):
            raise UnknownPerson(
                f"{mention!r} is the name of a person memo knows; --none is for names that "
                "are nobody memo knows"
            )
        if capture_ids is not None:
            known = {c.id for c in self.store.captures.all()}
            missing = [c for c in capture_ids if c not in known]
            if missing:
                raise UnknownPerson(f"no capture {missing[0]}: see memo facts or memo (no command)")
        entity_id = person.id if person is not None else None
        spellings = [  # "Jose" settles a waiting "José" too: names compare normalized
            m.mention
            for m in self.store.people.pending_mentions()
            if normalize(m.mention) == normalize(mention)
        ]
        return self.store.people.confirm_alias(
            "person", mention, entity_id, self.user, capture_ids, spellings, remember
        )

    def relink(self) -> Relinked:
        """Link every capture's people afresh with the rules memo has now: its roster, then
        the owners and deciders that are unlinked, waiting, or linked to someone the roster
        says was not there (a person of the room stays: the user may have said so). Returns
        what changed."""
        changes: list[Relink] = []
        meetings = 0
        for summary in sorted(self.store.captures.all(), key=lambda c: (c.occurred_at or "", c.id)):
            found = self._relink_one(summary.id, summary.title)
            meetings += bool(found)
            changes += found
        return Relinked(meetings, changes)

    def _linked_afresh(
        self,
        capture_id: int,
        title: str,
        decisions: list[DecisionRecord],
        actions: list[ActionItemRecord],
    ) -> NewCapture | None:
        """A capture's names linked as a capture today would: its file's text read again
        (rosters in headers too), its facts' names as said."""
        from memo_tui.core.capture.addressed import meeting_names
        from memo_tui.core.capture.errors import CaptureRejected
        from memo_tui.core.capture.sources import parse
        from memo_tui.core.entities.linking import link_names

        _, _, source_format, path = self.store.captures.source(capture_id)
        name = Path(path or "meeting.txt").name
        try:
            transcript = parse(self.store.captures.raw(capture_id), name, Path(name).suffix[1:])
        except CaptureRejected:
            return None
        new = NewCapture(
            "relink",
            path,
            source_format,
            "",
            None,
            title,
            None,
            "",
            "",
            0,
            None,
            {},
            "",
            False,
            Provenance("relink", f"capture:{capture_id}", utc_now(), self.user),
            decisions=[
                NewDecision(d.description, None, d.decided_by, None, None, None) for d in decisions
            ],
            action_items=[
                NewActionItem(a.description, a.assignee_raw, None, None, None, None)
                for a in actions
            ],
        )
        taught = meeting_names(transcript)
        directory = self.store.people.directory()
        return link_names(new, transcript.speakers, transcript.attendees, directory, taught)

    def _relink_one(self, capture_id: int, title: str) -> list[Relink]:
        decisions = self.store.captures.decisions([capture_id])
        actions = self.store.captures.action_items([capture_id])
        named = self._linked_afresh(capture_id, title, decisions, actions)
        if named is None:
            return []
        room = {ref for ref in named.attendees if isinstance(ref, int)}
        facts: list[tuple[str, DecisionRecord | ActionItemRecord, PersonRef | None, bool]] = [
            ("decisions", d, n.person, n.pending)
            for d, n in zip(decisions, named.decisions, strict=True)
        ]
        facts += [
            ("action_items", a, n.person, n.pending)
            for a, n in zip(actions, named.action_items, strict=True)
        ]
        changing = [
            (table, fact, ref, pending)
            for table, fact, ref, pending in facts
            if _should_change(fact.person_id, fact.pending, ref, pending, room)
        ]
        attended = set(self.store.people.attendees([capture_id]))
        if not changing and attended == room and not named.new_people and not named.renames:
            return []
        created = self.store.people.relink(
            capture_id,
            named,
            [d.id for d in decisions],
            [a.id for a in actions],
            [(table, fact.id) for table, fact, _, _ in changing],
        )
        names = {p.id: p.name for p in self.store.people.directory().people}
        return [
            Relink(
                capture_id,
                title,
                (fact.decided_by if isinstance(fact, DecisionRecord) else fact.assignee_raw) or "",
                fact.person_name,
                names.get(created.get(ref, 0) if isinstance(ref, str) else ref or 0),
                pending and ref is None,
            )
            for _, fact, ref, pending in changing
        ]

    def people(self) -> list[PersonSummary]:
        return self.store.people.all()

    def pending(self) -> list[Pending]:
        """Each waiting name with the people to offer. Meetings where the people it fits
        were in the room (two Sams) are one question, offering them; the name's other
        meetings are another, offering everyone memo knows who fits."""
        directory = self.store.people.directory()
        waiting = []
        for mention in self.store.people.pending_mentions():
            room = [
                capture_id
                for capture_id in mention.capture_ids
                if isinstance(
                    resolve(
                        mention.mention, directory, among=self.store.people.attendees([capture_id])
                    ),
                    NeedsDisambiguation,
                )
            ]
            elsewhere = [c for c in mention.capture_ids if c not in room]
            if room:
                among = self.store.people.attendees(room)
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
        return self.store.people.settle_facts(
            person.id if person is not None else None,
            [item.id for item in items if isinstance(item, ActionItemRecord)],
            [item.id for item in items if isinstance(item, DecisionRecord)],
            self.user,
        )

    def waiting_on(self, mention: PendingMention) -> list[ActionItemRecord | DecisionRecord]:
        """The action items and decisions that wait for `mention` to be settled."""
        said = mention.mention.strip().lower()

        def waits(raw: str | None) -> bool:
            return (raw or "").strip().lower() == said

        items = self.store.captures.action_items(mention.capture_ids)
        decisions = self.store.captures.decisions(mention.capture_ids)
        return [
            *(a for a in items if a.pending and waits(a.assignee_raw)),
            *(d for d in decisions if d.pending and waits(d.decided_by)),
        ]

    def waiting_by_person(self) -> dict[int, list[PendingMention]]:
        """For each person, the waiting names they are offered for (their pending
        assignments: settle one, and its items may become theirs). One resolution a name,
        not one a meeting as `pending` does: the People pane reads this on every refresh."""
        directory = self.store.people.directory()
        by_person: dict[int, list[PendingMention]] = {}
        for mention in self.store.people.pending_mentions():
            among = self.store.people.attendees(mention.capture_ids)
            found = resolve(mention.mention, directory, among=among)
            if not isinstance(found, NeedsDisambiguation):
                found = resolve(mention.mention, directory)
            for candidate in found.candidates:
                by_person.setdefault(candidate.id, []).append(mention)
        return by_person


__all__ = ["EntityService", "Pending", "UnknownPerson", "Unresolved"]
