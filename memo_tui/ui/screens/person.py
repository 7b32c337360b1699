"""A person's page: what they owe and are owed, what they decided, their meetings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.binding import Binding

from memo_tui.ui.screens.page import Entry, Page, heading, item_entry
from memo_tui.ui.text import items, line, plural, styled
from store import (
    ActionItemRecord,
    CaptureLink,
    DecisionRecord,
)

if TYPE_CHECKING:
    from memo_tui.core.services import Services


class PersonPage(Page):
    HELP = (
        "A person: the names they go by (confirmed ones are marked), what they owe, what "
        "others owe them (open items they asked for in a meeting), what they decided, the "
        "meetings they attended, the items waiting for you to say who a name means when it "
        "may be them (w settles them), and their page (r: person_enrich writes it; e edits a "
        "section, u gives it back). Enter opens the meeting at the item's lines."
    )

    BINDINGS = [Binding("e", "edit", "Edit", id="person.edit")]
    agent = "person_enrich"
    entity_type = "person"

    def __init__(self, services: Services, person_id: int) -> None:
        super().__init__(services)
        self.person_id = self.entity_id = person_id

    def build(self) -> tuple[Text, list[Entry]]:
        person = self.services.store.people.get(self.person_id)
        if person is None:
            return styled("This person is no longer in the store.", "bold"), []
        head = line(person.name, style="bold")
        if person.aliases:
            names = ", ".join(
                a.alias + (" (confirmed)" if a.confirmed else "") for a in person.aliases
            )
            head.append("\nAlso: ")
            head.append(line(names))
        head.append(
            f"\nOwes {plural(len(person.open_action_items), 'open action item')}, "
            f"is owed {len(person.owed)}, "
            f"{plural(len(person.decisions), 'decision')}, "
            f"{plural(len(person.meetings), 'meeting')}"
        )
        head.append(self._mail())
        self.app.call_from_thread(setattr, self, "entity_name", person.name)
        entries: list[Entry] = self.document()
        if person.open_action_items:
            entries.append(heading("Owes"))
            entries += [item_entry(a, person.captures) for a in person.open_action_items]
        if person.owed:
            entries.append(heading("Is owed (they asked for it)"))
            entries += [item_entry(a, person.captures) for a in person.owed]
        if person.decisions:
            entries.append(heading("Decided"))
            entries += [item_entry(d, person.captures) for d in person.decisions]
        waiting = self._waiting()
        if waiting:
            meetings = {**self._meetings(waiting), **person.captures}
            entries.append(heading("Waiting for you to say who (w): it may be theirs"))
            entries += [item_entry(item, meetings) for item in waiting]
        if person.meetings:
            entries.append(heading("Meetings"))
            entries += [(items([(m.day, line(m.title))]), (m.id, None)) for m in person.meetings]
        return head, entries

    def _waiting(self) -> list[ActionItemRecord | DecisionRecord]:
        """Their pending assignments: items waiting on a name they are offered for."""
        from memo_tui.core.entities.service import EntityService

        entities = EntityService(self.services.store, self.services.settings.user_name)
        offered = entities.waiting_by_person().get(self.person_id, [])
        return [item for mention in offered for item in entities.waiting_on(mention)]

    def _meetings(self, found: list[ActionItemRecord | DecisionRecord]) -> dict[int, CaptureLink]:
        meetings = {}
        for capture_id in {item.capture_id for item in found}:
            if (meeting := self.services.store.captures.get(capture_id)) is not None:
                day = meeting.occurred_at or meeting.captured_at[:10]
                meetings[capture_id] = CaptureLink(capture_id, meeting.title, day)
        return meetings

    def _mail(self) -> Text:
        """Their addresses and mail, from the people rollup ('' when no mail names them)."""
        rolled = [r for r in self.services.store.reports.people() if r.person_id == self.person_id]
        if not rolled or not rolled[0].emails:
            return Text("")
        r = rolled[0]
        said = (
            f"Email: {', '.join(r.emails)} · {r.messages_sent} sent, {r.messages_received} received"
        )
        if r.first_contact and r.last_contact:
            said += f" · {r.first_contact[:10]} to {r.last_contact[:10]}"
        if r.correspondents:
            said += f" · writes most with {', '.join(r.correspondents)}"
        return Text("\n") + line(said)
