"""The panes a key away: Captures, Facts, People, Projects and Ask.

Each pane says what it shows (`HELP`, for F1) and owns its keys (each with an id, so a
user's keymap can move it). Loading runs in workers; a pane only ever draws rows.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.suggester import SuggestFromList
from textual.widgets import DataTable, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from memo_tui.ui.text import line, plain, plural, span
from store import FactCursor, FactFilter, FactRecord

if TYPE_CHECKING:
    from memo_tui.core.recall.search import Hit
    from memo_tui.core.services import Services
    from memo_tui.ui.app import MemoApp

Cell = str | Text


@dataclass(frozen=True)
class Row:
    key: str
    cells: tuple[Cell, ...]
    haystack: str  # what `/` matches against, lower-cased


def row(key: object, *cells: Cell) -> Row:
    text = " ".join(c.plain if isinstance(c, Text) else c for c in cells)
    return Row(str(key), cells, text.lower())


class Pane(Vertical):
    """A pane of the main screen."""

    HELP: ClassVar[str] = ""

    @property
    def memo(self) -> MemoApp:
        from memo_tui.ui.app import MemoApp

        assert isinstance(self.app, MemoApp)
        return self.app

    def focus_first(self) -> None:
        """Put the keyboard where the pane's work starts."""
        self.query_one(DataTable).focus()

    def start_filter(self) -> None:
        """`/`: narrow what the pane lists."""


class ListPane(Pane):
    """A table of rows with a `/` filter: type to narrow, escape to clear."""

    COLUMNS: ClassVar[tuple[str, ...]] = ()
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
        table: DataTable[Cell] = DataTable(
            id=f"{self.id}-table", cursor_type="row", zebra_stripes=True
        )
        table.add_columns(*self.COLUMNS)
        yield table

    def on_mount(self) -> None:
        self.query_one(".filter", Input).display = False

    def show_rows(self, rows: list[Row]) -> None:
        self.rows = rows
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
        "Every captured meeting, newest first: title, date, how many decisions and action "
        "items, which extractor read it, and whether it was read whole or truncated. Enter "
        "opens one with its transcript; c captures a file; d deletes the selected one."
    )
    COLUMNS = ("Title", "Date", "Decisions", "Actions", "Extractor", "Read")
    BINDINGS = [Binding("d", "delete", "Delete", id="captures.delete")]

    def fill(self, services: Services) -> list[Row]:
        return [
            row(
                c.id,
                line(c.title, 40),
                c.occurred_at or c.captured_at[:10],
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
        "the decisions they made and the meetings they attended. Enter opens a person; w "
        "settles names that could be several people."
    )
    COLUMNS = ("Name", "Also", "Open actions", "Decisions", "Meetings")

    def fill(self, services: Services) -> list[Row]:
        return [
            row(
                p.id,
                line(p.name, 32),
                line(", ".join(p.aliases), 30),
                str(p.open_action_items),
                str(p.decisions),
                str(p.meetings),
            )
            for p in services.store.people()
        ]


class ProjectsPane(ListPane):
    HELP = (
        "Projects with their client, linked meetings, the facts about them and your notes. "
        "Enter opens a project (its notes and facts); a adds a project; n writes a note "
        "about the selected one."
    )
    COLUMNS = ("Project", "Client", "Meetings", "Facts", "Notes", "Last meeting")
    BINDINGS = [
        Binding("a", "add", "Add project", id="projects.add"),
        Binding("n", "note", "Note", id="projects.note"),
    ]

    def fill(self, services: Services) -> list[Row]:
        return [
            row(
                p.id,
                line(p.name, 32),
                line(p.client or "", 24),
                str(p.meetings),
                str(p.facts),
                str(p.notes),
                p.last_meeting or "",
            )
            for p in services.store.projects()
        ]

    def action_add(self) -> None:
        self.memo.add_project()

    def action_note(self) -> None:
        key = self.selected_key()
        if key is None:
            self.notify("No project selected: a adds one.")
            return
        self.memo.write_note(int(key))


FACT_TYPES = (
    ("Decisions", "decision"),
    ("Action items", "action_item"),
    ("Summaries", "summary"),
    ("Excerpts", "excerpt"),
    ("Project notes", "project_note"),
    ("Client notes", "client_note"),
    ("Digests", "digest"),
)


class FactsPane(Pane):
    """One feed of every fact, newest first, a page at a time; or a hybrid search's hits."""

    HELP = (
        "Every fact in one feed, newest meeting first: decisions, action items, summaries, "
        "excerpts, notes and digests. Narrow it by type, person, project and dates (enter in "
        "a box applies it), or type a search (keyword + semantic) and press enter. Enter on "
        "a fact opens its meeting at its lines. The feed loads a page at a time."
    )
    PAGE = 200
    BINDINGS = [Binding("escape", "clear", "Clear search", show=False, id="facts.clear")]

    def __init__(self, services: Services, id: str) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.services = services
        self.facts: list[FactRecord] = []
        self.flt = FactFilter()
        self.exhausted = False
        self.searching = False

    def compose(self) -> ComposeResult:
        with Horizontal(classes="bar"):
            yield Input(placeholder="Search facts (enter)", id="facts-search", compact=True)
            yield Select(FACT_TYPES, prompt="All types", id="facts-type", compact=True)
        with Horizontal(classes="bar"):
            yield Input(placeholder="person", id="facts-person", compact=True)
            yield Input(placeholder="project", id="facts-project", compact=True)
            yield Input(placeholder="since YYYY-MM-DD", id="facts-since", compact=True)
            yield Input(placeholder="until YYYY-MM-DD", id="facts-until", compact=True)
        yield Label("", id="facts-info")
        table: DataTable[Cell] = DataTable(id="facts-table", cursor_type="row", zebra_stripes=True)
        table.add_columns("Type", "Date", "Fact", "Meeting", "Lines")
        yield table

    def start_filter(self) -> None:
        self.query_one("#facts-search", Input).focus()

    def suggest_names(self, people: Sequence[str], projects: Sequence[str]) -> None:
        self.query_one("#facts-person", Input).suggester = SuggestFromList(people)
        self.query_one("#facts-project", Input).suggester = SuggestFromList(projects)

    def action_clear(self) -> None:
        """Escape: out of a box first; then clear the search and filters."""
        if not isinstance(self.screen.focused, DataTable):
            self.focus_first()
            return
        for box in self.query(Input):
            box.value = ""
        self.query_one(Select).clear()
        self.reload()

    @on(Input.Submitted, ".bar Input")
    @on(Select.Changed)
    def reload(self) -> None:
        typed = self._typed()
        doing = f"Searching for {typed['search']!r}…" if typed["search"] else "Loading…"
        self.query_one("#facts-info", Label).update(line(doing, style="dim"))
        self.app.refresh_bindings()  # ctrl+x can stop it
        self.load(typed)

    def _typed(self) -> dict[str, str]:
        return {
            name: self.query_one(f"#facts-{name}", Input).value.strip()
            for name in ("search", "person", "project", "since", "until")
        }

    @work(thread=True, exclusive=True, group="facts")
    def load(self, typed: dict[str, str]) -> None:
        """The first page of the feed, or the search's hits, under the typed filters."""
        chosen = self.query_one(Select).value
        types = (str(chosen),) if isinstance(chosen, str) else ()
        flt, problems = self._filter(typed, types)
        if typed["search"]:
            hits = self._search(typed["search"], flt)
            info = f"{plural(len(hits), 'result')} for {typed['search']!r}"
            facts = [hit.fact for hit in hits]
        else:
            facts = self.services.store.facts_page(flt, self.PAGE)
            info = "newest first" + ("" if len(facts) < self.PAGE else "; more load as you scroll")
        if not flt.empty:
            info += " · filtered"
        if problems:
            info += " · " + "; ".join(problems)
        self.app.call_from_thread(self._show, facts, flt, bool(typed["search"]), info)

    def _filter(
        self, typed: dict[str, str], types: tuple[str, ...]
    ) -> tuple[FactFilter, list[str]]:
        from memo_tui.core.entities.resolve import Resolved, resolve

        problems: list[str] = []
        directory = self.services.store.directory() if typed["person"] or typed["project"] else None
        ids: dict[str, tuple[int, ...]] = {"person": (), "project": ()}
        for kind in ("person", "project"):
            if typed[kind] and directory is not None:
                found = resolve(typed[kind], directory, kind)
                if isinstance(found, Resolved):
                    ids[kind] = (found.entity.id,)
                else:
                    problems.append(f"no single {kind} called {typed[kind]!r}")
        dates: dict[str, str | None] = {"since": None, "until": None}
        for bound in dates:
            if typed[bound]:
                try:
                    dates[bound] = dt.date.fromisoformat(typed[bound]).isoformat()
                except ValueError:
                    problems.append(f"{bound} wants a date like 2026-03-01")
        flt = FactFilter(
            fact_types=types,
            since=dates["since"],
            until=dates["until"],
            person_ids=ids["person"],
            project_ids=ids["project"],
        )
        return flt, problems

    def _search(self, query: str, flt: FactFilter) -> list[Hit]:
        from memo_tui.core.recall.search import hybrid_search

        services = self.services
        embedder = None if services.embed.unavailable else services.embed.embedder
        result = hybrid_search(
            services.store,
            embedder,
            query,
            flt,
            limit=100,
            min_similarity=services.settings.min_similarity,
            index=services.vectors,
        )
        return result.hits

    def _show(self, facts: list[FactRecord], flt: FactFilter, searching: bool, info: str) -> None:
        self.facts, self.flt, self.searching = [], flt, searching
        self.query_one(DataTable).clear()
        self.query_one("#facts-info", Label).update(line(info, style="dim"))
        self.add_page(facts)
        self.exhausted = searching or len(facts) < self.PAGE
        self.app.refresh_bindings()

    def add_page(self, page: Iterable[FactRecord]) -> None:
        table = self.query_one(DataTable)
        room = max(30, self.size.width - 60)  # the fact gets what the other columns leave
        added = 0
        for fact in page:
            table.add_row(
                fact.fact_type.replace("_", " "),
                fact.occurred_at or fact.captured_at[:10],
                line(fact.text, room),
                line(fact.capture_title or "note", 20),
                span(fact.line_start, fact.line_end),
                key=str(len(self.facts)),
            )
            self.facts.append(fact)
            added += 1
        self.exhausted = added < self.PAGE

    @on(DataTable.RowHighlighted)
    def near_the_end(self, event: DataTable.RowHighlighted) -> None:
        if not self.exhausted and not self.searching and event.cursor_row >= len(self.facts) - 10:
            self.more(FactCursor.after(self.facts[-1]), self.flt)

    @work(thread=True, exclusive=True, group="facts-more")
    def more(self, after: FactCursor, flt: FactFilter) -> None:
        page = self.services.store.facts_page(flt, self.PAGE, after)
        self.app.call_from_thread(self._more_shown, page, flt)

    def _more_shown(self, page: list[FactRecord], flt: FactFilter) -> None:
        if flt == self.flt and not self.searching:  # the filter did not change meanwhile
            self.add_page(page)

    @on(DataTable.RowSelected)
    def open_fact(self, event: DataTable.RowSelected) -> None:
        self.memo.open_fact(self.facts[int(event.row_key.value or 0)])


class AskPane(Pane):
    """A question, its answer as it streams in, its numbered sources, and the questions
    asked before (enter asks one again)."""

    HELP = (
        "Ask your meetings a question. The answer streams in, built only from stored facts, "
        "each claim citing a numbered source; enter on a source opens the meeting at its "
        "lines. Earlier questions stay listed: enter on one asks it again. Escape leaves the "
        "question box."
    )
    BINDINGS = [Binding("escape", "leave", "Leave the question", id="ask.leave")]

    def __init__(self, services: Services, id: str) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.services = services
        self.hits: list[Hit] = []
        self.asked: list[str] = []

    def compose(self) -> ComposeResult:
        yield Input(placeholder="Ask your meetings, e.g. why did we pick Postgres?", id="ask-input")
        with VerticalScroll(id="ask-output"):
            yield Static(id="ask-answer")
            yield Static(id="ask-note")
        yield OptionList(id="ask-sources")
        yield OptionList(id="ask-history")

    def on_mount(self) -> None:
        self.query_one("#ask-sources", OptionList).border_title = "Sources"
        history = self.query_one("#ask-history", OptionList)
        history.border_title = "Asked before (enter asks again)"
        history.display = False

    def focus_first(self) -> None:
        self.query_one("#ask-input", Input).focus()

    def start_filter(self) -> None:
        self.focus_first()

    def action_leave(self) -> None:
        """Out of the question box, so the pane keys work again."""
        if self.query_one("#ask-input", Input).has_focus:
            self.query_one("#ask-sources", OptionList).focus()

    @on(Input.Submitted, "#ask-input")
    def submitted(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.ask(event.value.strip())

    @on(OptionList.OptionSelected, "#ask-history")
    def again(self, event: OptionList.OptionSelected) -> None:
        question = self.asked[int(event.option.id or 0)]
        self.query_one("#ask-input", Input).value = question
        self.ask(question)

    def ask(self, question: str) -> None:
        if question in self.asked:
            self.asked.remove(question)
        self.asked.insert(0, question)
        history = self.query_one("#ask-history", OptionList)
        history.clear_options()
        history.add_options(Option(line(q, 200), id=str(n)) for n, q in enumerate(self.asked) if n)
        history.display = len(self.asked) > 1
        self.answer(question)

    @work(exclusive=True, group="ask")
    async def answer(self, question: str) -> None:
        """Stream the answer in; sources appear as they are cited."""
        from memo_tui.core.recall.answer import AnswerDelta, Answered, Cited, Retrieved

        answer = self.query_one("#ask-answer", Static)
        note = self.query_one("#ask-note", Static)
        sources = self.query_one("#ask-sources", OptionList)
        answer.update(Text("Searching…", style="dim"))
        note.update("")
        sources.clear_options()
        shown = ""
        self.app.refresh_bindings()  # ctrl+x can stop it
        try:
            async for event in self.services.ask(question, index=self.services.vectors):
                if isinstance(event, Retrieved):
                    self.hits = list(event.hits)
                    answer.update(Text("Writing the answer…", style="dim"))
                elif isinstance(event, AnswerDelta):
                    shown += event.text
                    answer.update(plain(shown))
                elif isinstance(event, Cited):
                    sources.add_option(Option(_source_label(event.n, event.hit.fact), str(event.n)))
                elif isinstance(event, Answered):
                    result = event.result
                    answer.update(plain(result.answer))
                    notes = [result.note] if result.note else []
                    notes += [f'"{n}" could be several people' for n in result.filters.unresolved]
                    note.update(line("; ".join(notes), style="dim"))
        except asyncio.CancelledError:
            note.update(Text("Stopped (ctrl+x).", style="dim"))
            raise
        except Exception as error:  # noqa: BLE001 - any failure is shown, the app stays usable
            answer.update(Text(f"Could not answer: {line(str(error)).plain}", style="red"))
        finally:
            self.app.call_later(self.app.refresh_bindings)

    @on(OptionList.OptionSelected, "#ask-sources")
    def open_source(self, event: OptionList.OptionSelected) -> None:
        number = int(event.option.id or 0)
        if 1 <= number <= len(self.hits):
            self.memo.open_fact(self.hits[number - 1].fact)


def _source_label(n: int, fact: FactRecord) -> Text:
    where = f"{fact.capture_title or 'note'} {span(fact.line_start, fact.line_end)}"
    return line(f"[{n}] {fact.fact_type.replace('_', ' ')} · {where} ({fact.occurred_at or ''})")
