"""The memo app: panes a key away, a capture's detail with its transcript, and Ask.

Every string that came from a transcript, a name or a model goes through
`core.safety.sanitize` and is shown as plain `rich.text.Text`, never as markup.
Database work and answers run in workers, off the UI thread.
"""

from __future__ import annotations

import asyncio
import datetime as dt

from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import (
    Button,
    ContentSwitcher,
    DataTable,
    Footer,
    Input,
    Label,
    OptionList,
    Static,
)
from textual.widgets.option_list import Option

from memo_tui.core.entities.service import EntityService, Pending
from memo_tui.core.llm import select
from memo_tui.core.recall.answer import AnswerDelta, Answered, Cited, Retrieved
from memo_tui.core.recall.search import Hit
from memo_tui.core.safety import sanitize, sanitize_line
from memo_tui.core.services import Services
from store import FactRecord


def plain(text: str) -> Text:
    """Untrusted text as a renderable: controls made visible, no markup read."""
    return Text(sanitize(text))


def cell(text: str, width: int | None = None) -> Text:
    """One line of untrusted text for a table cell (a plain str there is read as markup)."""
    line = sanitize_line(" ".join(text.split()))
    return Text(line[:width] if width else line)


class CaptureScreen(Screen[None]):
    """One capture: summary, decisions with why and who, action items, the transcript."""

    BINDINGS = [Binding("escape", "app.pop_screen", "Back", id="capture.back")]

    def __init__(self, services: Services, capture_id: int, lines: tuple[int, int] | None = None):
        super().__init__()
        self.services = services
        self.capture_id = capture_id
        self.lines = lines

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="capture-detail"):
            yield Static(id="capture-record")
            yield Static(id="capture-transcript")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#capture-detail", VerticalScroll).focus()  # so the keys scroll it
        self.load()

    @work(thread=True, exclusive=True)
    def load(self) -> None:
        store = self.services.store
        title, body, _, _ = store.capture_source(self.capture_id)
        decisions = store.decisions([self.capture_id])
        actions = store.action_items([self.capture_id])
        summary = next((f.text for f in store.facts("summary", capture_id=self.capture_id)), "")
        record = Text()
        record.append(sanitize_line(title) + "\n", style="bold")
        if summary:
            record.append(sanitize(summary) + "\n")
        for d in decisions:
            record.append("\nDecision ", style="bold")
            record.append(_span(d.line_start, d.line_end) + " ")
            record.append(sanitize_line(d.description))
            if d.decided_by:
                record.append(f" (decided by {sanitize_line(d.decided_by)})")
            if d.reasoning:
                record.append("\n  why: " + sanitize_line(d.reasoning))
        for a in actions:
            record.append("\nAction ", style="bold")
            record.append(_span(a.line_start, a.line_end) + " ")
            owner = sanitize_line(a.assignee_raw) if a.assignee_raw else "no owner"
            due = f", due {a.due_date}" if a.due_date else ""
            which = " (which one?)" if a.pending else ""
            record.append(f"{sanitize_line(a.description)} -> {owner}{which}{due}")
        evidence = {
            n
            for item in (*decisions, *actions)
            if item.line_start is not None and item.line_end is not None
            for n in range(item.line_start, item.line_end + 1)
        }
        focus = set(range(self.lines[0], self.lines[1] + 1)) if self.lines else set()
        transcript = Text()
        transcript.append("\nTranscript\n", style="bold")
        for number, line in enumerate(body.split("\n"), 1):
            style = "reverse" if number in focus else "bold" if number in evidence else ""
            transcript.append(f"{number:>5}  ", style="dim")
            transcript.append(sanitize_line(line) + "\n", style=style)
        self.app.call_from_thread(self._show, record, transcript)

    def _show(self, record: Text, transcript: Text) -> None:
        self.query_one("#capture-record", Static).update(record)
        self.query_one("#capture-transcript", Static).update(transcript)
        if self.lines:
            scroller = self.query_one("#capture-detail", VerticalScroll)
            scroller.scroll_to(y=max(0, self.lines[0] - 3), animate=False)


def _span(start: int | None, end: int | None) -> str:
    if start is None:
        return "(unverified)"
    return f"L{start}" if start == end else f"L{start}-{end}"


class CapturesPane(Vertical):
    """Every capture: title, date, counts, extractor, truncated."""

    def compose(self) -> ComposeResult:
        table: DataTable[str | Text] = DataTable(id="captures-table", cursor_type="row")
        table.add_columns("Title", "Date", "Decisions", "Actions", "Extractor", "Read")
        yield table

    def fill(self, services: Services) -> None:
        table = self.query_one(DataTable)
        table.clear()
        for c in services.store.captures():
            table.add_row(
                cell(c.title),
                c.occurred_at or c.captured_at[:10],
                str(c.decisions),
                str(c.action_items),
                c.extractor.split()[0],  # "offline", "llm"
                "TRUNCATED" if c.truncated else "whole",
                key=str(c.id),
            )


class FactsPane(Vertical):
    """Every fact, newest meeting first, a page at a time (a store may hold 100,000)."""

    PAGE = 200

    def __init__(self, services: Services, id: str) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.services = services
        self.facts: list[FactRecord] = []
        self.exhausted = False

    def compose(self) -> ComposeResult:
        table: DataTable[str | Text] = DataTable(id="facts-table", cursor_type="row")
        table.add_columns("Type", "Date", "Fact", "Meeting", "Lines")
        yield table

    def add_page(self, page: list[FactRecord]) -> None:
        table = self.query_one(DataTable)
        self.exhausted = len(page) < self.PAGE
        for fact in page:
            table.add_row(
                fact.fact_type.replace("_", " "),
                fact.occurred_at or fact.captured_at[:10],
                cell(fact.text, 70),
                cell(fact.capture_title or "note", 24),
                _span(fact.line_start, fact.line_end),
                key=str(len(self.facts)),
            )
            self.facts.append(fact)

    @on(DataTable.RowHighlighted)
    def near_the_end(self, event: DataTable.RowHighlighted) -> None:
        if not self.exhausted and event.cursor_row >= len(self.facts) - 10:
            self.app.run_worker(self._more, thread=True, exclusive=True, group="facts")

    def _more(self) -> None:
        page = self.services.store.facts(limit=self.PAGE, offset=len(self.facts))
        self.app.call_from_thread(self.add_page, page)


class PeoplePane(Vertical):
    """People with their aliases, open action items, decisions and meetings."""

    def compose(self) -> ComposeResult:
        table: DataTable[str | Text] = DataTable(id="people-table", cursor_type="row")
        table.add_columns("Name", "Also", "Open actions", "Decisions", "Meetings")
        yield table

    def fill(self, services: Services) -> None:
        table = self.query_one(DataTable)
        table.clear()
        for p in services.store.people():
            table.add_row(
                cell(p.name),
                cell(", ".join(p.aliases)),
                str(p.open_action_items),
                str(p.decisions),
                str(p.meetings),
                key=str(p.id),
            )


class AskPane(Vertical):
    """A question, its answer as it streams in, and the numbered sources beneath it."""

    BINDINGS = [Binding("escape", "leave", "Leave the question", id="ask.leave")]

    def action_leave(self) -> None:
        """Out of the question box, so the pane keys work again."""
        self.query_one("#ask-sources", OptionList).focus()

    def compose(self) -> ComposeResult:
        yield Input(placeholder="Ask your meetings, e.g. why did we pick Postgres?", id="ask-input")
        with VerticalScroll(id="ask-output"):
            yield Static(id="ask-answer")
            yield Static(id="ask-note")
        yield OptionList(id="ask-sources")


class WhoIsIt(ModalScreen[int | None]):
    """Which person a name means: a button per candidate, and "None of these".

    Dismisses with the person's id, 0 for "none of these", or None when escaped."""

    BINDINGS = [Binding("escape", "cancel", "Not now", id="who.cancel")]
    DEFAULT_CSS = """
    WhoIsIt { align: center middle; }
    #who { width: 64; height: auto; border: round $accent; padding: 1 2; background: $surface; }
    #who Button { width: 1fr; margin: 0 0 1 0; }
    """

    def __init__(self, waiting: Pending) -> None:
        super().__init__()
        self.waiting = waiting

    def compose(self) -> ComposeResult:
        mention = self.waiting.mention
        count = mention.action_items + mention.decisions
        with Vertical(id="who"):
            yield Label(
                Text(
                    f'Who is "{sanitize_line(mention.mention)}"? '
                    f"{count} item{'s' if count != 1 else ''} wait for the answer."
                )
            )
            for c in self.waiting.resolution.candidates:
                yield Button(Text(sanitize_line(c.name)), id=f"person-{c.id}")
            yield Button("None of these", id="person-0", variant="warning")

    @on(Button.Pressed)
    def choose(self, event: Button.Pressed) -> None:
        self.dismiss(int((event.button.id or "person-0").removeprefix("person-")))

    def action_cancel(self) -> None:
        self.dismiss(None)


class MemoApp(App[None]):
    """memo in the terminal."""

    TITLE = "memo"
    CSS = """
    #panes { height: 1fr; }
    #status { height: 1; background: $panel; padding: 0 1; }
    #ask-input { margin: 0 0 1 0; }
    #ask-output { height: 1fr; }
    #ask-note { color: $text-muted; }
    #ask-sources { height: auto; max-height: 12; }
    #capture-detail { padding: 0 1; }
    """
    BINDINGS = [
        Binding("1", "pane('captures')", "Captures", id="pane.captures"),
        Binding("2", "pane('facts')", "Facts", id="pane.facts"),
        Binding("3", "pane('people')", "People", id="pane.people"),
        Binding("5", "pane('ask')", "Ask", id="pane.ask"),
        Binding("w", "who", "Who is it?", id="app.who"),
        Binding("ctrl+q", "quit", "Quit", id="app.quit"),
    ]

    def __init__(self, services: Services) -> None:
        super().__init__()
        self.services = services
        self.hits: list[Hit] = []

    def compose(self) -> ComposeResult:
        with ContentSwitcher(initial="captures", id="panes"):
            yield CapturesPane(id="captures")
            yield FactsPane(self.services, id="facts")
            yield PeoplePane(id="people")
            yield AskPane(id="ask")
        yield Static(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_lists()

    @work(thread=True, exclusive=True, group="lists")
    def refresh_lists(self) -> None:
        """Lists and the status line from the store (a worker: the store may be large)."""
        services = self.services
        status = self._status_line()
        self.call_from_thread(self.query_one(CapturesPane).fill, services)
        self.call_from_thread(self.query_one(PeoplePane).fill, services)
        facts = self.query_one(FactsPane)
        if not facts.facts:
            self.call_from_thread(facts.add_page, services.store.facts(limit=FactsPane.PAGE))
        self.call_from_thread(self.query_one("#status", Static).update, status)
        if not services.store.captures():
            self.call_from_thread(
                self.notify,
                "No captures yet. In a shell: memo capture meeting.txt (or try memo --demo).",
                timeout=10,
            )

    def _status_line(self) -> Text:
        services = self.services
        provider = services.provider.name
        model = "" if provider == "offline" else " " + select.model_for(services.settings, "answer")
        vectors = services.store.embedding_model()
        search = "keyword search only" if services.embed.unavailable or not vectors else vectors
        waiting = len(services.store.pending_mentions())
        today = dt.datetime.now(dt.UTC).date().isoformat()  # the ledger keeps UTC
        spend = sum(line.cost_microdollars for line in services.store.llm_costs("day", today))
        parts = [f"{provider}{model}", search]
        if waiting:
            parts.append(f"{waiting} name{'s' if waiting != 1 else ''} to settle")
        parts.append(f"today ${spend / 1e6:.2f}")
        return Text(sanitize_line("  |  ".join(parts)))

    @work(exclusive=True, group="who")
    async def action_who(self) -> None:
        """Settle the names waiting for the user, one dialog each."""
        entities = EntityService(self.services.store, self.services.settings.user_name)
        waiting = await asyncio.to_thread(entities.pending)
        if not waiting:
            self.notify("No names are waiting: every owner and decider is settled.")
            return
        for item in waiting:
            choice = await self.push_screen_wait(WhoIsIt(item))
            if choice is None:
                break
            person = (
                next(p for p in self.services.store.directory().people if p.id == choice)
                if choice
                else None
            )
            filled = await asyncio.to_thread(entities.confirm, item.mention.mention, person)
            who = sanitize_line(person.name) if person else "none of the people memo knows"
            self.notify(
                f"{sanitize_line(item.mention.mention)} = {who}: "
                f"{filled.action_items + filled.decisions} item(s) updated",
                markup=False,  # names come from transcripts
            )
        self.refresh_lists()

    def action_pane(self, name: str) -> None:
        self.query_one(ContentSwitcher).current = name
        if name == "ask":
            self.query_one("#ask-input", Input).focus()
        else:
            self.query_one(f"#{name} DataTable", DataTable).focus()

    @on(DataTable.RowSelected, "#captures-table")
    def open_capture(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            self.push_screen(CaptureScreen(self.services, int(event.row_key.value)))

    @on(Input.Submitted, "#ask-input")
    def ask(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.answer(event.value.strip())

    @work(exclusive=True, group="ask")
    async def answer(self, question: str) -> None:
        """Stream the answer in; sources appear as they are cited."""
        answer = self.query_one("#ask-answer", Static)
        note = self.query_one("#ask-note", Static)
        sources = self.query_one("#ask-sources", OptionList)
        answer.update(Text("Searching…", style="dim"))
        note.update("")
        sources.clear_options()
        shown = ""
        events = self.services.ask(question, index=self.services.vectors)
        try:
            async for event in events:
                if isinstance(event, Retrieved):
                    self.hits = list(event.hits)
                    answer.update("")
                elif isinstance(event, AnswerDelta):
                    shown += event.text
                    answer.update(plain(shown))
                elif isinstance(event, Cited):
                    fact = event.hit.fact
                    where = (
                        f"{fact.capture_title or 'note'} {_span(fact.line_start, fact.line_end)}"
                    )
                    label = f"[{event.n}] {fact.fact_type} - {where} ({fact.occurred_at or ''})"
                    sources.add_option(Option(Text(sanitize_line(label)), id=str(event.n)))
                elif isinstance(event, Answered):
                    result = event.result
                    answer.update(plain(result.answer))
                    notes = [result.note] if result.note else []
                    notes += [f'"{n}" could be several people' for n in result.filters.unresolved]
                    note.update(Text(sanitize_line("; ".join(notes))))
        except Exception as error:  # noqa: BLE001 - any failure is shown, the app stays usable
            answer.update(Text(f"Could not answer: {sanitize_line(str(error))}", style="red"))

    @on(DataTable.RowSelected, "#facts-table")
    def open_fact(self, event: DataTable.RowSelected) -> None:
        fact = self.query_one(FactsPane).facts[int(event.row_key.value or 0)]
        self._open(fact)

    def _open(self, fact: FactRecord) -> None:
        if fact.capture_id is None:
            self.notify("A note: it has no transcript to open.")
            return
        lines = (fact.line_start, fact.line_end) if fact.line_start is not None else None
        self.push_screen(CaptureScreen(self.services, fact.capture_id, lines))

    @on(OptionList.OptionSelected, "#ask-sources")
    def open_source(self, event: OptionList.OptionSelected) -> None:
        number = int(event.option.id or 0)
        if not 1 <= number <= len(self.hits):
            return
        self._open(self.hits[number - 1].fact)
