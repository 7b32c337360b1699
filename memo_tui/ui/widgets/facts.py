"""The Facts pane: every fact in one feed, filtered, paged by keyset, or a hybrid search."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.suggester import SuggestFromList
from textual.widgets import DataTable, Input, Label, Select

from memo_tui.core.safety import sanitize_line
from memo_tui.ui import messages
from memo_tui.ui.text import day, fact_span, line, styled
from memo_tui.ui.widgets.pane import Pane
from memo_tui.ui.widgets.table import Table

if TYPE_CHECKING:
    from store import FactFilter, FactPeople, FactRecord


FACT_TYPES = (
    ("Decisions", "decision"),
    ("Action items", "action_item"),
    ("Summaries", "summary"),
    ("Excerpts", "excerpt"),
    ("Project notes", "project_note"),
    ("Client notes", "client_note"),
    ("Digests", "digest"),
)


STATUS_CHOICES = (
    ("Current decisions", "current"),
    ("Replaced decisions", "superseded"),
    ("Taken-back decisions", "retracted"),
    ("Open items", "open"),
    ("Done items", "done"),
    ("Dropped items", "dropped"),
)
WITHOUT_EXCERPTS = tuple(kind for _, kind in FACT_TYPES if kind != "excerpt")
COLUMNS = ("Type", "Date", "Fact", "Who", "Due", "Meeting", "Lines")
WIDE_FROM = 5  # the columns shown at any width; the meeting and the lines need WIDE
WIDE = 110  # columns of terminal from which the meeting and lines are shown
WHO_WIDTH = 12
# Type (11), date (10), who, due (6), each column's padding (2) and the scrollbar (2).
NARROW_USED = 11 + 10 + WHO_WIDTH + 6 + 5 * 2 + 2
LINES_USED = 9 + 2  # the lines column ("L120-134") and its padding
# "(owner: Tom Ash) (due 2026-11-30)", "(decided by Libby)": shown in their own columns.
_WHO_LABELS = re.compile(r"\s*\((?:owner: |due |decided by )[^()]*\)")


def without_labels(text: str) -> str:
    """A fact's text without the owner, due date and decider its columns show."""
    return _WHO_LABELS.sub("", text)


def told(text: str, who: FactPeople | None) -> str:
    """The fact's text as its row tells it: without what its columns show, and a replaced
    decision with the day it was replaced ("(replaced 16 Feb)", not "(superseded)")."""
    text = without_labels(text)
    if who is not None and who.valid_to:
        text = text.replace(" (superseded)", f" (replaced {due(who.valid_to, who.valid_to)})")
    return text


UNSURE = "unconfirmed · "  # a proposed item's mark, first: a long fact is cut at its end


def _fact_cell(text: str, who: FactPeople | None, room: int) -> Text:
    """The Fact column: its text as the row tells it, a proposed item's marked first."""
    if who is None or who.state != "proposed":
        return line(told(text, who), room)
    said = line(told(text.replace(" (unconfirmed)", ""), who), room - len(UNSURE))
    return Text.assemble((UNSURE, "italic dim"), said)


def due(when: str | None, said_on: str = "", open_: bool = False) -> str | Text:
    """A due date, short: "24 Apr" in the year of the meeting that set it (`said_on`),
    "Apr 27" in another ("" for none); an open item's that has passed in red."""
    if not when:
        return ""
    try:
        date = dt.date.fromisoformat(when[:10])
    except ValueError:
        return line(when, 6)
    same_year = said_on[:4] == str(date.year)
    shown = f"{date.day} {date:%b}" if same_year else f"{date:%b %y}"
    return styled(shown, "red") if open_ and date < dt.date.today() else shown


def short_name(name: str) -> str:
    """A name for the narrow Who column: whole when it fits, else "Priya N."."""
    parts = name.split()
    if len(name) <= WHO_WIDTH or len(parts) < 2:
        return name
    return f"{parts[0]} {parts[-1][0]}."


class FactsPane(Pane):
    """One feed of every fact, newest first, a page at a time; or a hybrid search's hits."""

    HELP = (
        "Every fact in one feed, newest meeting first: decisions, action items, summaries, "
        "notes and digests, with who owns or decided each and when it is due. Transcript "
        "excerpts are left out until x shows them (or the type box asks for them). Narrow "
        "it by type, status, person, project, client and dates (enter in a box applies it), "
        "or type a search (keyword + semantic) and press enter. Enter on a fact opens its "
        "meeting at its lines. The feed loads a page at a time."
    )
    PAGE = 200
    BINDINGS = [
        Binding("escape", "clear", "Clear search", show=False, id="facts.clear"),
        Binding("down", "into_results", "To the results", show=False, id="facts.results"),
        Binding("x", "toggle_excerpts", "Excerpts", id="facts.excerpts"),
    ]

    def __init__(self, id: str) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.facts: list[FactRecord] = []
        self.flt: FactFilter | None = None  # what the feed shows; None before the first load
        self.exhausted = False
        self.searching = False
        self.loading_more = False
        self.excerpts = False  # transcript excerpts in the feed (x)
        self.people: dict[int, FactPeople] = {}  # who owns or decided each shown fact

    def compose(self) -> ComposeResult:
        with Horizontal(classes="bar"):
            yield Input(placeholder="Search facts (enter)", id="facts-search", compact=True)
            yield Select(FACT_TYPES, prompt="All types", id="facts-type", compact=True)
            yield Select(STATUS_CHOICES, prompt="Any status", id="facts-status", compact=True)
        with Horizontal(classes="bar"):
            yield Input(placeholder="person", id="facts-person", compact=True)
            yield Input(placeholder="project", id="facts-project", compact=True)
            yield Input(placeholder="client", id="facts-client", compact=True)
            yield Input(placeholder="since date", id="facts-since", compact=True)
            yield Input(placeholder="until date", id="facts-until", compact=True)
        yield Label("", id="facts-info")
        yield Table(id="facts-table", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self._columns()

    def _columns(self) -> None:
        """The table's columns for the terminal's width: who and when due always; the
        meeting and the lines when there is room beside a readable fact."""
        table = self.query_one(DataTable)
        table.clear(columns=True)
        table.add_columns(*COLUMNS[: len(COLUMNS) if self._wide else WIDE_FROM])

    @property
    def _wide(self) -> bool:
        return self.app.size.width >= WIDE

    def start_filter(self) -> None:
        self.query_one("#facts-search", Input).focus()

    def suggest_names(
        self, people: Sequence[str], projects: Sequence[str], clients: Sequence[str] = ()
    ) -> None:
        """Complete the person, project and client boxes from known names (never one
        holding a control character: a suggestion is drawn as it is)."""
        boxes = (
            ("#facts-person", people),
            ("#facts-project", projects),
            ("#facts-client", clients),
        )
        for box, names in boxes:
            safe = [name for name in names if sanitize_line(name) == name]
            self.query_one(box, Input).suggester = SuggestFromList(safe)

    def action_toggle_excerpts(self) -> None:
        """x: transcript excerpts in the feed and the search's hits, or not."""
        self.excerpts = not self.excerpts
        self.reload()

    def action_into_results(self) -> None:
        """Down from a search or filter box: into the results, at the first."""
        self.query_one(DataTable).focus()

    def action_clear(self) -> None:
        """Escape: out of a box first; then clear the search and filters."""
        if not isinstance(self.screen.focused, DataTable):
            self.focus_first()
            return
        for box in self.query(Input):
            box.value = ""
        chosen = [select for select in self.query(Select) if not select.is_blank()]
        for select in chosen:
            with select.prevent(Select.Changed):
                select.clear()
        self.reload()

    @on(Input.Submitted, ".bar Input")
    @on(Select.Changed)
    def reload(self) -> None:
        if not self.memo.ready:
            return  # the first load comes when the store is open
        typed = self._typed()
        doing = f"Searching for {typed['search']!r}…" if typed["search"] else "Loading…"
        self.query_one("#facts-info", Label).update(line(doing, style="dim"))
        chosen = self.query_one("#facts-type", Select).value
        types = (str(chosen),) if isinstance(chosen, str) else ()
        hiding = not self.excerpts and not types
        asked = WITHOUT_EXCERPTS if hiding else types
        self.post_message(messages.FeedRequested(self, typed, asked, hiding, self.PAGE))

    def _typed(self) -> dict[str, str]:
        typed = {
            name: self.query_one(f"#facts-{name}", Input).value.strip()
            for name in ("search", "person", "project", "client", "since", "until")
        }
        status = self.query_one("#facts-status", Select).value
        typed["status"] = status if isinstance(status, str) else ""
        return typed

    def show(
        self,
        facts: list[FactRecord],
        people: dict[int, FactPeople],
        flt: FactFilter,
        searching: bool,
        info: str,
    ) -> None:
        """The first page of the feed, or a search's hits, as read under `flt`."""
        self.facts, self.flt, self.searching, self.people = [], flt, searching, {}
        self.query_one(DataTable).clear()
        self.query_one("#facts-info", Label).update(line(info, style="dim"))
        self.add_page(facts, people)
        self.exhausted = searching or len(facts) < self.PAGE
        self.app.refresh_bindings()
        self.post_message(messages.FeedShown())

    def relayout(self) -> None:
        """The rows shown again, cut to the terminal's new width (the cursor stays)."""
        table = self.query_one(DataTable)
        shown, row, exhausted = self.facts, table.cursor_row, self.exhausted
        self.facts = []
        self._columns()
        self.add_page(shown, self.people)
        self.exhausted = exhausted
        table.move_cursor(row=row, animate=False)

    def add_page(self, page: Iterable[FactRecord], people: dict[int, FactPeople]) -> None:
        table = self.query_one(DataTable)
        self.people.update(people)
        # What type, date, who and due leave (80 columns: 30); when wide, the meeting and
        # the lines take their share of the rest.
        room = self.app.size.width - NARROW_USED
        meeting = min(24, (room - LINES_USED) // 3) if self._wide else 0
        fact_room = room - (meeting + 2 + LINES_USED if self._wide else 0)
        added = 0
        for fact in page:
            who = people.get(fact.fact_key)
            cells: list[str | Text] = [
                fact.fact_type.replace("_", " "),
                day(fact.occurred_at, fact.captured_at),
                _fact_cell(fact.text, who, fact_room),
                line(short_name((who.owner or who.decided_by or "") if who else ""), WHO_WIDTH),
                due(
                    who.due_date if who else None,
                    fact.occurred_at or fact.captured_at,
                    open_=who is not None and who.status == "open",
                ),
            ]
            if self._wide:
                cells += [line(fact.capture_title or "note", meeting), fact_span(fact)]
            table.add_row(*cells, key=str(len(self.facts)))
            self.facts.append(fact)
            added += 1
        self.exhausted = added < self.PAGE

    @on(DataTable.RowHighlighted)
    def near_the_end(self, event: DataTable.RowHighlighted) -> None:
        if self.flt is None or self.exhausted or self.searching or self.loading_more:
            return
        if event.cursor_row >= len(self.facts) - 10:
            self.loading_more = True  # one page at a time, however fast the cursor moves
            self.post_message(messages.FeedPageRequested(self, self.facts[-1], self.flt, self.PAGE))

    def more_shown(
        self,
        page: list[FactRecord],
        people: dict[int, FactPeople],
        flt: FactFilter,
        last: FactRecord,
    ) -> None:
        """The next page, added when the feed did not move on meanwhile."""
        still = flt == self.flt and not self.searching and self.facts
        if still and self.facts[-1] == last:
            self.add_page(page, people)

    @on(DataTable.RowSelected)
    def open_fact(self, event: DataTable.RowSelected) -> None:
        self.post_message(messages.FactOpened(self.facts[int(event.row_key.value or 0)]))
