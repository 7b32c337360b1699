"""A person's page and a project's page, each a screen over the main one (escape goes back).

Every line that points at a meeting can be opened: enter jumps to the meeting at its lines.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rich.console import RenderableType
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from memo_tui.ui.footer import KeyFooter
from memo_tui.ui.panes import superseded
from memo_tui.ui.text import items, line, plain, plural, span, styled
from store import (
    ActionItemRecord,
    CaptureLink,
    DecisionRecord,
    FactFilter,
    NoteRecord,
    SectionRecord,
)

if TYPE_CHECKING:
    from memo_tui.core.services import Services
    from memo_tui.ui.app import MemoApp

# What an entry of a page opens: a meeting at some lines, or a note or section to edit.
Target = tuple[int, tuple[int, int] | None] | NoteRecord | SectionRecord
Entry = tuple[RenderableType, Target | None]  # what a page lists; no target: a heading


class Page(Screen[None]):
    """A header and a list of entries; enter opens the selected entry."""

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back", id="page.back"),
        Binding("r", "compile", "Run agent", id="page.run"),
    ]
    # The scrollbar is always there: OptionList measures an entry's height once, and an
    # entry measured before a scrollbar appeared would lose its last wrapped line.
    DEFAULT_CSS = """
    Page #page-head { padding: 0 1; height: auto; max-height: 40%; }
    Page OptionList, Page OptionList:focus {
        height: 1fr; border: none; padding: 0 1; overflow-y: scroll;
    }
    """

    def __init__(self, services: Services) -> None:
        super().__init__()
        self.services = services
        self.targets: dict[str, Target] = {}

    @property
    def memo(self) -> MemoApp:
        from memo_tui.ui.app import MemoApp

        assert isinstance(self.app, MemoApp)
        return self.app

    def compose(self) -> ComposeResult:
        yield Static(id="page-head")
        yield OptionList(id="page-entries")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self.reload()

    def reload(self) -> None:
        self.load()

    @work(thread=True, exclusive=True, group="page", exit_on_error=False)
    def load(self) -> None:
        head, entries = self.build()
        if not superseded():
            self.app.call_from_thread(self._show, head, entries)

    def build(self) -> tuple[Text, list[Entry]]:
        raise NotImplementedError

    def _show(self, head: Text, entries: list[Entry]) -> None:
        self.query_one("#page-head", Static).update(head)
        options = self.query_one(OptionList)
        highlighted = options.highlighted
        options.clear_options()
        self.targets = {}
        for number, (label, target) in enumerate(entries):
            if target is None:  # a heading
                options.add_option(Option(label, disabled=True))
            else:
                self.targets[str(number)] = target
                options.add_option(Option(label, id=str(number)))
        if highlighted is not None and highlighted < options.option_count:
            options.highlighted = highlighted
        elif self.targets:  # the first entry that opens something, so e and enter work
            options.highlighted = min(int(n) for n in self.targets)

    def selected(self) -> Target | None:
        options = self.query_one(OptionList)
        if options.highlighted is None:
            return None
        return self.targets.get(options.get_option_at_index(options.highlighted).id or "")

    @on(OptionList.OptionSelected)
    def open(self, event: OptionList.OptionSelected) -> None:
        target = self.targets.get(event.option.id or "")
        if isinstance(target, tuple):
            self.memo.open_capture(*target)
        elif isinstance(target, SectionRecord):
            self.edit_section(target)
        elif target is not None:
            self.edit_note(target)

    def edit_note(self, note: NoteRecord) -> None:
        """Only a project's page has notes."""

    # The living document

    entity_type: str = ""
    entity_id: int = 0
    agent: str = ""  # the agent that writes this page's living document

    entity_name: str = ""

    def action_compile(self) -> None:
        """r: run the agent that (re)writes the living document."""
        if self.entity_name:
            self.memo.run_agent_job(self.agent, self.entity_name, self)

    def action_edit(self) -> None:
        """e: edit the selected section (the user's edit is final: agents leave it)."""
        target = self.selected()
        if isinstance(target, SectionRecord):
            self.edit_section(target)
        elif isinstance(target, NoteRecord):
            self.edit_note(target)
        else:
            self.notify("Select a section (or a note) to edit.")

    def edit_section(self, section: SectionRecord) -> None:
        self.memo.edit_section(self.entity_type, self.entity_id, section, self)

    def document(self) -> list[Entry]:
        """The living document's sections (the user's edits marked), or how to write one."""
        sections = self.services.store.sections(self.entity_type, self.entity_id)
        entries: list[Entry] = [heading(f"Living document (r: {self.agent} writes it)")]
        for section in sections:
            by = " (edited by you)" if section.edited_by == "user" else ""
            label = line(section_title(section.key) + by, style="bold")
            entries.append((items([("", label), ("", plain(section.body))]), section))
        if not sections:
            entries.append((styled("Nothing yet: press r.", "dim"), None))
        return entries


def section_title(key: str) -> str:
    """A section's key as a heading: "scope_summary" reads "Scope summary"."""
    return key.removeprefix("facet:").replace("_", " ").capitalize()


def heading(text: str) -> Entry:
    return Text(text, style="bold underline"), None


def item_entry(
    item: ActionItemRecord | DecisionRecord, meetings: Mapping[int, CaptureLink]
) -> tuple[RenderableType, Target]:
    """An action item or decision as an entry of a page (its meeting beneath it), opening
    its meeting at its lines."""
    said = line(item.description)
    if isinstance(item, ActionItemRecord):
        owner = item.owner or "no owner"
        said.append(line(f" -> {owner}" + (f", due {item.due_date}" if item.due_date else "")))
    else:
        if item.decider:
            said.append(line(f" (decided by {item.decider})"))
        if not item.current:
            said.append(f" ({item.status})", style="dim")
    rows = [(span(item.line_start, item.line_end), said)]
    meeting = meetings.get(item.capture_id)
    if meeting is not None:
        rows.append(("", line(f"{meeting.day} · {meeting.title}", style="dim")))
    return items(rows), (item.capture_id, lines_of(item.line_start, item.line_end))


def lines_of(start: int | None, end: int | None) -> tuple[int, int] | None:
    return (start, end) if start is not None and end is not None else None


class PersonPage(Page):
    HELP = (
        "A person: the names they go by (confirmed ones are marked), what they owe, what "
        "others owe them (open items they asked for in a meeting), what they decided, the "
        "meetings they attended, the items waiting for you to say who a name means when it "
        "may be them (w settles them), and their page (r: person_enrich writes it; e edits a "
        "section). Enter opens the meeting at the item's lines."
    )

    BINDINGS = [Binding("e", "edit", "Edit", id="person.edit")]
    agent = "person_enrich"
    entity_type = "person"

    def __init__(self, services: Services, person_id: int) -> None:
        super().__init__(services)
        self.person_id = self.entity_id = person_id

    def build(self) -> tuple[Text, list[Entry]]:
        person = self.services.store.person(self.person_id)
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
        self.entity_name = person.name
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
            if (meeting := self.services.store.capture(capture_id)) is not None:
                day = meeting.occurred_at or meeting.captured_at[:10]
                meetings[capture_id] = CaptureLink(capture_id, meeting.title, day)
        return meetings

    def _mail(self) -> Text:
        """Their addresses and mail, from the people rollup ('' when no mail names them)."""
        rolled = [r for r in self.services.store.people_report() if r.person_id == self.person_id]
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


class ConceptPage(Page):
    HELP = (
        "A concept's living document: its scope, what was learned or decided about it, and "
        "how the understanding changed, each section citing the facts it rests on (r: the "
        "concept_compile agent writes it; e edits a section, and agents then leave it)."
    )
    BINDINGS = [Binding("e", "edit", "Edit", id="concept.edit")]
    agent = "concept_compile"
    entity_type = "concept"

    def __init__(self, services: Services, concept_id: int) -> None:
        super().__init__(services)
        self.entity_id = concept_id

    def build(self) -> tuple[Text, list[Entry]]:
        found = [c for c in self.services.store.concepts() if c.id == self.entity_id]
        if not found:
            return styled("This concept is no longer in the store.", "bold"), []
        concept = found[0]
        self.entity_name = concept.name
        head = line(concept.name, style="bold")
        head.append(f"\nconcept · {plural(concept.sections, 'section')}")
        return head, self.document()


class ProjectPage(Page):
    HELP = (
        "A project: your notes about it (and its client), the meetings linked to it, and the "
        "facts about it, and its living document (r: the project_compile agent writes it; e "
        "or enter edits a section, and agents then leave it). n writes a note; e edits the "
        "selected note; x deletes it. Enter on a meeting or fact opens it at its lines."
    )
    BINDINGS = [
        Binding("n", "new_note", "Note", id="project.note"),
        Binding("e", "edit", "Edit", id="project.edit"),
        Binding("x", "delete_note", "Delete", id="project.delete_note"),
        Binding("b", "collect", "Collect", id="project.collect"),
    ]

    def action_collect(self) -> None:
        """b: the collector agent looks for meetings about the project that are not linked,
        and asks before it links any."""
        if self.entity_name:
            self.memo.run_agent_job("collector", self.entity_name, self)

    agent = "project_compile"
    entity_type = "project"

    def __init__(self, services: Services, project_id: int) -> None:
        super().__init__(services)
        self.project_id = self.entity_id = project_id

    def build(self) -> tuple[Text, list[Entry]]:
        store = self.services.store
        project = store.project(self.project_id)
        if project is None:
            return styled("This project is no longer in the store.", "bold"), []
        s = project.summary
        head = line(s.name, style="bold")
        if s.client:
            head.append("  ")
            head.append(line(f"client: {s.client}"))
        head.append(
            f"\n{plural(s.meetings, 'meeting')}, {plural(s.facts, 'fact')}, "
            f"{plural(len(project.notes), 'note')}"  # (its own and its client's, as listed)
        )
        self.entity_name = s.name
        entries: list[Entry] = [*self.document(), heading("Notes (n writes one)")]
        for note in project.notes:
            said = (
                line(f"about {note.owner}: ", style="italic") if note.kind == "client" else Text()
            )
            said.append(line(note.body))
            entries.append((items([(note.updated_at[:10], said)]), note))
        if project.captures:
            entries.append(heading("Meetings"))
            entries += [(items([(c.day, line(c.title))]), (c.id, None)) for c in project.captures]
        kinds = FactFilter(project_ids=(self.project_id,), fact_types=("decision", "action_item"))
        facts = store.facts_page(kinds, 100)
        if facts:
            entries.append(heading("Decisions and action items"))
        for fact in facts:
            if fact.capture_id is None:
                continue
            said = styled(f"{fact.fact_type.replace('_', ' ')}: ", "italic") + line(fact.text)
            where = (fact.capture_id, lines_of(fact.line_start, fact.line_end))
            entries.append((items([(fact.occurred_at or "", said)]), where))
        return head, entries

    def edit_note(self, note: NoteRecord) -> None:
        self.memo.edit_note(note, self)

    def action_new_note(self) -> None:
        self.memo.write_note(self.project_id, self)

    def action_delete_note(self) -> None:
        target = self.selected()
        if isinstance(target, NoteRecord):
            self.memo.delete_note(target, self)
        else:
            self.notify("Select a note to delete.")
