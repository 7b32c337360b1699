"""What a page is: a screen over the main one (escape goes back) listing entries, each of
which opens a meeting at its lines, or a note or section to edit."""

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

from memo_tui.ui import messages
from memo_tui.ui.text import items, line, plain, span, styled
from memo_tui.ui.widgets.footer import KeyFooter
from memo_tui.ui.workers import superseded
from store import (
    ActionItemRecord,
    CaptureLink,
    DecisionRecord,
    NoteRecord,
    SectionRecord,
)

if TYPE_CHECKING:
    from memo_tui.core.services import Services


# What an entry of a page opens: a meeting at some lines, or a note or section to edit.
Target = tuple[int, tuple[int, int] | None] | NoteRecord | SectionRecord


Entry = tuple[RenderableType, Target | None]  # what a page lists; no target: a heading


class Page(Screen[None]):
    """A header and a list of entries; enter opens the selected entry."""

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back", id="page.back"),
        Binding("r", "compile", "Run agent", id="page.run"),
        Binding("u", "reset_section", "Give back", id="page.reset_section", show=False),
    ]

    def __init__(self, services: Services) -> None:
        super().__init__()
        self.services = services
        self.targets: dict[str, Target] = {}

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
            self.post_message(messages.SourceOpened(*target))
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
            self.post_message(messages.AgentRunRequested(self.agent, self.entity_name, self))

    def action_reset_section(self) -> None:
        """u: give the selected section, which the user edited, back to the agent."""
        target = self.selected()
        if not isinstance(target, SectionRecord):
            self.notify("Select a section you edited to give it back to the agent.")
        elif target.edited_by != "user":
            self.notify("The agent writes this section already.")
        else:
            self.post_message(
                messages.SectionResetRequested(self.entity_type, self.entity_id, target, self)
            )

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
        self.post_message(
            messages.SectionEditRequested(self.entity_type, self.entity_id, section, self)
        )

    def document(self, sections: list[SectionRecord]) -> list[Entry]:
        """The living document's sections (the user's edits marked), or how to write one."""
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
