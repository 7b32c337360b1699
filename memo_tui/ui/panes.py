"""The panes a key away: Captures, People and Projects here (Facts and Ask have modules of
their own), and what every pane shares.

Each pane says what it shows (`HELP`, for F1) and owns its keys (each with an id, so a
user's keymap can move it). Loading runs in workers; a pane only ever draws rows.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Self

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Input, Static
from textual.widgets.data_table import RowKey

from memo_tui.ui.text import day, line

if TYPE_CHECKING:
    from memo_tui.core.services import Services
    from memo_tui.ui.app import MemoApp
    from store import PendingMention

Cell = str | Text


@dataclass(frozen=True)
class Row:
    key: str
    cells: tuple[Cell, ...]
    haystack: str  # what `/` matches against, lower-cased


def row(key: object, *cells: Cell) -> Row:
    text = " ".join(c.plain if isinstance(c, Text) else c for c in cells)
    return Row(str(key), cells, text.lower())


class Table(DataTable[Cell]):
    """A DataTable whose header follows its columns as they widen, and whose Home and End
    (or g and G) go to the first and last row.

    DataTable measures new rows when idle, after it may already have drawn (and cached) the
    header at the old widths; nothing then redraws the header, so it stays misaligned until
    something else changes. Clearing the line caches after measuring fixes that.
    """

    BINDINGS = [
        Binding("home,g", "scroll_top", "First row", id="table.first", show=False),
        Binding("end,G", "scroll_bottom", "Last row", id="table.last", show=False),
    ]

    def _update_dimensions(self, new_rows: Iterable[RowKey]) -> None:
        super()._update_dimensions(new_rows)
        self._clear_caches()
        self.refresh()

    def clear(self, columns: bool = False) -> Self:
        """Rows gone, and the columns as narrow as their labels again (DataTable keeps a
        column as wide as the widest row it ever held: after a resize to 80 columns the
        rows cut short would sit in columns laid out for 120)."""
        super().clear(columns)
        for column in self.columns.values():
            if column.auto_width:
                column.content_width = column.label.cell_len
        return self


class Pane(Vertical):
    """A pane of the main screen."""

    HELP: ClassVar[str] = ""

    @property
    def memo(self) -> MemoApp:
        from memo_tui.ui.app import MemoApp

        assert isinstance(self.app, MemoApp)
        return self.app

    @property
    def services(self) -> Services:
        """The app's services (the app opens the store after its first paint)."""
        return self.memo.services

    def focus_first(self) -> None:
        """Put the keyboard where the pane's work starts."""
        self.query_one(DataTable).focus()

    def start_filter(self) -> None:
        """`/`: narrow what the pane lists."""


class ListPane(Pane):
    """A table of rows with a `/` filter: type to narrow, escape to clear."""

    COLUMNS: ClassVar[tuple[str, ...]] = ()
    EMPTY: ClassVar[str] = ""  # what to do when there is nothing to list yet
    BINDINGS = [Binding("escape", "clear_filter", "Clear filter", show=False, id="list.clear")]

    def __init__(self, id: str) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.rows: list[Row] = []

    def compose(self) -> ComposeResult:
        yield Input(
            placeholder="Filter: type to narrow, enter to keep, escape to clear",
            compact=True,
            classes="filter",
        )
        table = Table(id=f"{self.id}-table", cursor_type="row", zebra_stripes=True)
        table.add_columns(*self.COLUMNS)
        yield table
        yield Static(Text(self.EMPTY, style="dim"), classes="empty")

    def on_mount(self) -> None:
        self.query_one(".filter", Input).display = False
        self.query_one(".empty", Static).display = False

    def fill(self, services: Services) -> list[Row]:
        """The rows to show, read from the store and cut to the width (in a worker)."""
        raise NotImplementedError

    def show_rows(self, rows: list[Row]) -> None:
        self.rows = rows
        self.query_one(".empty", Static).display = not rows and bool(self.EMPTY)
        self._draw()

    def _draw(self) -> None:
        table = self.query_one(DataTable)
        selected = self.selected_key()
        needle = self.query_one(".filter", Input).value.lower().strip()
        table.clear()
        for r in self.rows:
            if needle in r.haystack:
                table.add_row(*r.cells, key=r.key)
                if r.key == selected:  # the cursor stays on the row it was on
                    table.move_cursor(row=table.row_count - 1, animate=False)

    def selected_key(self) -> str | None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return str(key) if key is not None else None

    def _run_on_selected(self, agent: str) -> None:
        """Run `agent` on the selected row's entity."""
        key = self.selected_key()
        name = self.entity_name(int(key)) if key is not None else None
        if name is None:
            self.notify("Nothing selected.")
            return
        self.memo.run_agent_job(agent, name)

    def entity_name(self, key: int) -> str | None:
        """The full name of the entity a row lists (cells may be cut short)."""
        return None

    def start_filter(self) -> None:
        box = self.query_one(".filter", Input)
        box.display = True
        box.focus()

    @on(Input.Changed, ".filter")
    def narrow(self) -> None:
        self._draw()

    @on(Input.Submitted, ".filter")
    def keep(self) -> None:
        self.focus_first()

    def action_clear_filter(self) -> None:
        box = self.query_one(".filter", Input)
        if box.display:
            box.value = ""
            box.display = False
            self.focus_first()


class CapturesPane(ListPane):
    HELP = (
        "Every captured meeting and email thread (✉, with its message count), newest first: "
        "title, date (dimmed: the day it was captured, when the meeting gave none), how many "
        "decisions and action items, which extractor read it, and whether it was read whole "
        "or truncated. Enter "
        "opens one with its transcript; c captures a file; d deletes the selected one."
    )
    EMPTY = (
        "No captures yet: c captures a transcript, a folder of them or a mail archive "
        "(memo --demo opens a store of sample meetings)."
    )
    COLUMNS = ("Title", "Date", "Decisions", "Actions", "By", "Read")
    BINDINGS = [Binding("d", "delete", "Delete", id="captures.delete")]

    def fill(self, services: Services) -> list[Row]:
        room = max(24, self.app.size.width - 56)  # the title gets what the counts leave
        return [
            row(
                c.id,
                line(f"✉ {c.title} ({c.messages})" if c.source_kind == "email" else c.title, room),
                day(c.occurred_at, c.captured_at),
                str(c.decisions),
                str(c.action_items),
                c.extractor.split()[0],  # "offline", "llm"
                Text("TRUNCATED", style="bold") if c.truncated else "whole",
            )
            for c in reversed(services.store.captures())
        ]

    def action_delete(self) -> None:
        key = self.selected_key()
        if key is not None:
            self.memo.delete_capture(int(key))


class PeoplePane(ListPane):
    HELP = (
        "Everyone memo has met in a meeting: the names they go by, their open action items, "
        "the open items others owe them (Owed: ones they asked for), the decisions they "
        "made, the meetings they attended and when they were last seen "
        "(read from the people rollup, rebuilt with every write), and how many items wait "
        "on a name that may be theirs (To settle: w asks who it is). Enter opens a person; "
        "r runs the person_enrich agent on the selected one; m merges them into who they "
        "really are (one person listed twice), u undoes the latest merge into them."
    )
    EMPTY = "Nobody yet: people come from the speakers and attendees of captured meetings."
    COLUMNS = ("Name", "Also", "Owes", "Owed", "Decided", "Meetings", "Last seen", "To settle")
    BINDINGS = [
        Binding("r", "run", "Enrich", id="people.run"),
        Binding("m", "merge", "Merge", id="people.merge"),
        Binding("u", "split", "Unmerge", id="people.split"),
    ]

    def fill(self, services: Services) -> list[Row]:
        from memo_tui.core.entities.service import EntityService

        entities = EntityService(services.store, services.settings.user_name)
        waiting = entities.waiting_by_person()
        people = services.store.people_report()
        owed = services.store.owed_counts()
        room = max(24, self.app.size.width - 62)  # the names get what the counts leave
        name = min(32, room - 6, max((len(p.name) for p in people), default=0))
        return [
            row(
                p.person_id,
                line(p.name, name),
                line(", ".join(p.aliases), min(30, room - name)),
                str(p.open_action_items),
                str(owed.get(p.person_id, 0)),
                str(p.decisions),
                str(p.meetings),
                p.last_seen or "",
                _to_settle(waiting.get(p.person_id, [])),
            )
            for p in people
        ]

    def action_run(self) -> None:
        """r: the person_enrich agent on the selected person (their page shows it)."""
        self._run_on_selected("person_enrich")

    def action_merge(self) -> None:
        """m: the selected person is someone else memo lists (asks who, then asks first)."""
        from memo_tui.ui.app import MemoApp

        key = self.selected_key()
        if key is not None and isinstance(self.app, MemoApp):
            self.app.merge_person(int(key))

    def action_split(self) -> None:
        """u: undo the latest merge into the selected person (asks first)."""
        from memo_tui.ui.app import MemoApp

        key = self.selected_key()
        if key is not None and isinstance(self.app, MemoApp):
            self.app.split_person(int(key))

    def entity_name(self, key: int) -> str | None:
        person = self.services.store.person(key)
        return person.name if person else None


class ProjectsPane(ListPane):
    HELP = (
        "Projects with their client, linked meetings, the decisions and open action items "
        "from them, and the day of the latest (read from the projects rollup, rebuilt with "
        "every write). Enter opens a project (its living document, notes and facts); r runs "
        "the project_compile agent on the selected one; a adds a project; n writes a note "
        "about it."
    )
    EMPTY = "No projects yet: a adds one (meetings that name it are linked as they come)."
    COLUMNS = ("Project", "Client", "Meetings", "Decisions", "Open actions", "Last meeting")
    BINDINGS = [
        Binding("a", "add", "Add", id="projects.add"),
        Binding("n", "note", "Note", id="projects.note"),
        Binding("r", "run", "Compile", id="projects.run"),
    ]

    def fill(self, services: Services) -> list[Row]:
        return [
            row(
                p.project_id,
                line(p.name, 32),
                line(p.client or "", 24),
                str(p.captures),
                str(p.decisions),
                str(p.open_action_items),
                p.last_activity or "",
            )
            for p in services.store.projects_report()
        ]

    def action_add(self) -> None:
        self.memo.add_project()

    def action_run(self) -> None:
        """r: the project_compile agent on the selected project."""
        self._run_on_selected("project_compile")

    def entity_name(self, key: int) -> str | None:
        found = [p.name for p in self.services.store.projects() if p.id == key]
        return found[0] if found else None

    def action_note(self) -> None:
        key = self.selected_key()
        if key is None:
            self.notify("No project selected: a adds one.")
            return
        self.memo.write_note(int(key))


class ConceptsPane(ListPane):
    HELP = (
        "Concepts you follow across meetings and mail (an idea, a technology, a theme), each "
        "with a living document the concept_compile agent writes from the facts about it: "
        "scope, distilled insights, and how the understanding evolved. Enter opens one; a "
        "adds a concept; r runs the agent on the selected one."
    )
    EMPTY = "No concepts yet: a adds one, an idea to follow across meetings and mail."
    COLUMNS = ("Concept", "Sections", "Updated")
    BINDINGS = [
        Binding("a", "add", "Add", id="concepts.add"),
        Binding("r", "run", "Compile", id="concepts.run"),
    ]

    def fill(self, services: Services) -> list[Row]:
        return [
            row(
                c.id,
                line(c.name, 48),
                str(c.sections) if c.sections else "none yet (r)",
                (c.updated_at or "")[:16].replace("T", " "),
            )
            for c in services.store.concepts()
        ]

    def action_add(self) -> None:
        self.memo.add_concept()

    def action_run(self) -> None:
        """r: the concept_compile agent on the selected concept."""
        self._run_on_selected("concept_compile")

    def entity_name(self, key: int) -> str | None:
        found = [c.name for c in self.services.store.concepts() if c.id == key]
        return found[0] if found else None


class NewslettersPane(ListPane):
    HELP = (
        "Newsletters and other bulk mail from imported email, by sender: how many messages, "
        "the latest, why memo counts it as bulk (List-Unsubscribe, List-Id, Precedence, a "
        "no-reply sender, or a sender of many messages nobody ever wrote to), and its "
        "unsubscribe address, shown as text: memo never opens it. Bulk mail is kept out of "
        "people and of decisions and action items."
    )
    EMPTY = "No newsletters: they come from imported mail (c takes .mbox, Maildir, .eml)."
    COLUMNS = ("Sender", "Name", "Messages", "Last issue", "Why", "Unsubscribe")

    def fill(self, services: Services) -> list[Row]:
        room = max(16, self.app.size.width - 100)  # the link gets what the rest leave
        return [
            row(
                n.sender,
                line(n.sender, 32),
                line(n.name if n.name != n.sender else "", 20),
                str(n.messages),
                (n.last_seen or "")[:10],
                line(n.reason, 16),
                line(n.unsubscribe, room),
            )
            for n in services.store.newsletters()
        ]


def _to_settle(mentions: list[PendingMention]) -> Cell:
    """A person's pending assignments: the items waiting on names that may be theirs."""
    count = sum(m.action_items + m.decisions for m in mentions)
    return Text(f"{count} (w)", style="bold") if count else ""


def superseded() -> bool:
    """In a worker: a newer one of its group took over (its result would be stale)."""
    from textual.worker import get_current_worker

    return get_current_worker().is_cancelled
