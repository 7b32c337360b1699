"""A person's page: what they owe and are owed, what they decided, their meetings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.binding import Binding

from memo_tui.ui.screens.page import Entry, Page, heading, item_entry
from memo_tui.ui.text import items, line, plural, styled

if TYPE_CHECKING:
    from memo_tui.core.services import Services
    from store import PersonReport


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
        from memo_tui.core.views.pages import person_view

        view = person_view(self.services, self.person_id)
        if view is None:
            return styled("This person is no longer in the store.", "bold"), []
        person, meetings = view.person, view.meetings
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
        head.append(_mail(view.mail))
        self.app.call_from_thread(setattr, self, "entity_name", person.name)
        entries: list[Entry] = self.document(view.sections)
        for title, listed in (
            ("Owes", person.open_action_items),
            ("Is owed (they asked for it)", person.owed),
            ("Decided", person.decisions),
            ("Waiting for you to say who (w): it may be theirs", view.waiting),
        ):
            if listed:
                entries.append(heading(title))
                entries += [item_entry(item, meetings) for item in listed]
        if person.meetings:
            entries.append(heading("Meetings"))
            entries += [(items([(m.day, line(m.title))]), (m.id, None)) for m in person.meetings]
        return head, entries


def _mail(r: PersonReport | None) -> Text:
    """Their addresses and mail ('' when no mail names them)."""
    if r is None:
        return Text("")
    said = f"Email: {', '.join(r.emails)} · {r.messages_sent} sent, {r.messages_received} received"
    if r.first_contact and r.last_contact:
        said += f" · {r.first_contact[:10]} to {r.last_contact[:10]}"
    if r.correspondents:
        said += f" · writes most with {', '.join(r.correspondents)}"
    return Text("\n") + line(said)
