"""Who is who: settling the names several people fit (one answer for a name, or one per item
when they were all in the room), addresses that may be a known person, and merging two
people into one (and splitting them back)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from memo_tui.core.views import names as name_views
from memo_tui.ui import dialogs
from memo_tui.ui.controllers.base import Controller
from memo_tui.ui.text import line, plural

if TYPE_CHECKING:
    from memo_tui.core.entities.service import EntityService, Pending
    from store import AddressRecord, Backfill, PersonRow


class NamesController(Controller):
    def who(self, only: list[str] | None = None) -> None:
        """Settle the names waiting for the user, one dialog each (`only` those names)."""
        self.run(self._who(only), group="who")

    async def _who(self, only: list[str] | None) -> None:
        from memo_tui.core.entities.service import EntityService

        store = self.services.store
        entities = EntityService(store, self.services.settings.user_name)
        waiting = await asyncio.to_thread(entities.pending)
        if only is not None:
            waiting = [w for w in waiting if w.mention.mention in only]
        addresses = (
            [] if only is not None else await asyncio.to_thread(store.email.address_proposals)
        )
        if not waiting and not addresses:
            if only is None:
                self.app.notify("No names are waiting: every owner and decider is settled.")
            return
        for item in waiting:
            settle = self._settle_in_room if item.in_room else self._settle_name
            if not await settle(entities, item):
                break  # escape: the rest wait
        else:
            await self._settle_addresses(addresses)
        self.app.refresh_lists()
        self.app.refresh_pages()

    async def _settle_name(self, entities: EntityService, item: Pending) -> bool:
        """A name several people memo knows fit: one answer, remembered for the name (an
        alias) and given to every item waiting on it. False when the user escaped."""
        mention = item.mention.mention
        candidates = [(c.id, c.name) for c in item.resolution.candidates]
        facts = await asyncio.to_thread(entities.waiting_on, item.mention)
        said = await asyncio.to_thread(name_views.described, self.services.store, facts)
        note = f'memo will read "{mention}" as the one you choose from now on.'
        choice = await self.app.push_screen_wait(dialogs.WhoIsIt(mention, said, candidates, note))
        if choice is None:
            return False
        person = await asyncio.to_thread(name_views.person, self.services.store, choice)
        meetings = item.mention.capture_ids  # (not those where both were in the room)
        filled = await self.commit(entities.confirm, mention, person, meetings, True)
        self._said_who(mention, person, filled)
        return True

    async def _settle_in_room(self, entities: EntityService, item: Pending) -> bool:
        """The people the name fits were in the room (two Sams): one question per item,
        with the transcript lines it came from, and nothing remembered for the name (the
        next meeting with both asks again). False when the user escaped."""
        mention = item.mention.mention
        candidates = [(c.id, c.name) for c in item.resolution.candidates]
        names = [name for _, name in candidates]
        both = (
            f"{names[0]} and {names[1]} were both there"
            if len(names) == 2
            else f"{', '.join(names[:-1])} and {names[-1]} were all there"
        )
        facts = await asyncio.to_thread(entities.waiting_on, item.mention)
        for n, fact in enumerate(facts, 1):
            said = await asyncio.to_thread(name_views.described, self.services.store, [fact])
            context = await asyncio.to_thread(name_views.lines_around, self.services.store, fact)
            note = f"{both}: this answer is for this item only ({n} of {len(facts)})."
            dialog = dialogs.WhoIsIt(mention, said, candidates, note, context)
            choice = await self.app.push_screen_wait(dialog)
            if choice is None:
                return False
            person = await asyncio.to_thread(name_views.person, self.services.store, choice)
            filled = await self.commit(entities.settle, [fact], person)
            self._said_who(mention, person, filled)
        return True

    def _said_who(self, mention: str, person: PersonRow | None, filled: Backfill) -> None:
        who = person.name if person else "none of the people memo knows"
        count = plural(filled.action_items + filled.decisions, "item")
        self.say(f"{mention} = {who}: {count} updated")

    async def _settle_addresses(self, proposals: list[AddressRecord]) -> None:
        """An address whose name matches a person known at another domain: the same person?
        (The Who is it dialog: their name, or None of these to keep the address apart.)"""
        for proposal in proposals:
            said = [
                f"Mail from {proposal.address} is signed {proposal.display_name!r}.",
                f"{proposal.proposed_name} is known at another address; the same name at "
                "another domain is not enough for memo to merge them.",
            ]
            mention = f"{proposal.display_name} <{proposal.address}>"
            dialog = dialogs.WhoIsIt(
                mention, said, [(proposal.proposed_person_id, proposal.proposed_name)]
            )
            choice = await self.app.push_screen_wait(dialog)
            if choice is None:
                return
            await self.commit(
                self.services.store.email.merge_address, proposal.address, choice or None
            )
            who = proposal.proposed_name if choice else "someone memo does not know yet"
            self.say(f"{proposal.address} = {who}")

    # One person listed twice

    def merge(self, person_id: int) -> None:
        self.run(self._merge(person_id), group="edit")

    async def _merge(self, person_id: int) -> None:
        """Ask who a person really is, then ask first, then merge them in one transaction."""
        from memo_tui.core.entities.names import similarity

        store = self.services.store
        directory = await asyncio.to_thread(store.people.directory)
        merged = next((p for p in directory.people if p.id == person_id), None)
        if merged is None:
            return
        others = sorted(
            (p for p in directory.people if p.id != person_id),
            key=lambda p: (-similarity(merged.name, p.name), p.name.casefold()),
        )
        note = "Their items, meetings, aliases and addresses move over; u undoes it."
        picked = await self.app.push_screen_wait(
            dialogs.PickPerson(merged.name, [(p.id, p.name) for p in others], note)
        )
        kept = next((p for p in others if p.id == picked), None)
        if kept is None:
            return
        body = line(f"{merged.name} and {kept.name} are one person: keep {kept.name}.")
        if not await self.app.push_screen_wait(
            dialogs.Confirm(f"Merge {merged.name} into {kept.name}?", body, "Merge")
        ):
            return
        from memo_tui.core.entities.service import EntityService, UnknownPerson

        entities = EntityService(store, self.services.settings.user_name)  # as `memo people merge`
        try:
            done = await self.commit(entities.merge, str(merged.id), str(kept.id))
        except UnknownPerson as error:  # merged or deleted meanwhile
            self.app.push_screen(dialogs.ErrorDialog("Not merged", str(error)))
            return
        moved = plural(done.action_items, "action item")
        self.say(f"Merged {merged.name} into {kept.name} ({moved} moved)")
        self.app.refresh_lists()
        self.app.refresh_pages()

    def split(self, person_id: int) -> None:
        self.run(self._split(person_id), group="edit")

    async def _split(self, person_id: int) -> None:
        """Undo the latest merge into a person, once asked."""
        store = self.services.store
        undoable = await asyncio.to_thread(store.people.merges_into, person_id)
        person = await asyncio.to_thread(store.people.get, person_id)
        if person is None:
            return
        if not undoable:
            self.say(f"Nobody was merged into {person.name}.")
            return
        latest = undoable[0]
        body = line(
            f"{latest.merged_name} comes back as a person of their own, with the "
            f"{plural(latest.action_items, 'item')} and {plural(latest.meetings, 'meeting')} "
            "the merge moved."
        )
        title = f"Split {latest.merged_name} back out of {person.name}?"
        if not await self.app.push_screen_wait(dialogs.Confirm(title, body, "Split")):
            return
        from memo_tui.core.entities.service import EntityService, UnknownPerson

        entities = EntityService(store, self.services.settings.user_name)  # as `memo people split`
        try:
            await self.commit(entities.split, str(person_id), merge_id=latest.id)
        except UnknownPerson as error:  # split meanwhile
            self.app.push_screen(dialogs.ErrorDialog("Not split", str(error)))
            return
        self.say(f"Split {latest.merged_name} back out")
        self.app.refresh_lists()
        self.app.refresh_pages()
