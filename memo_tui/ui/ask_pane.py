"""The Ask pane: a question, its answer streaming in, the numbered sources, and the
questions asked before."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from memo_tui.ui.panes import Pane
from memo_tui.ui.text import line, plain, span

if TYPE_CHECKING:
    from memo_tui.core.recall.search import Hit
    from store import FactRecord


class AskPane(Pane):
    """A question, its answer as it streams in, its numbered sources, and the questions
    asked before (enter asks one again)."""

    HELP = (
        "Ask your meetings a question. The answer streams in, built only from stored facts, "
        "each claim citing a numbered source; enter on a source opens the meeting at its "
        "lines. Earlier questions stay listed: enter on one asks it again. Escape leaves the "
        "question box."
    )
    BINDINGS = [Binding("escape", "leave", "Leave the box", id="ask.leave")]

    def __init__(self, id: str) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
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
        if not self.memo.ready:
            self.notify("One moment: the store is still opening.")
        elif event.value.strip():
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
