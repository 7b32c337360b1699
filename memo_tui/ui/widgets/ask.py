"""The Ask pane: a question, its answer streaming in, the numbered sources, and the
questions asked before. The conversation itself is the ask controller's: the pane posts
each question and draws what the controller hands it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from memo_tui.ui import messages
from memo_tui.ui.text import fact_span, line, plain, plural
from memo_tui.ui.widgets.answer import AnswerView
from memo_tui.ui.widgets.pane import Pane

if TYPE_CHECKING:
    from memo_tui.core.agents.chat import Replied
    from store import FactRecord


class AskPane(Pane):
    """A conversation: each question answered by the chat agent, its answer streaming in
    with numbered sources; earlier exchanges stay above it, and earlier questions are listed
    (enter asks one again)."""

    HELP = (
        "Ask your meetings a question. The chat agent looks things up with read-only tools "
        "(offline: a scripted search that quotes the best matches) and the answer streams "
        "in, built only from stored facts, each claim citing a numbered source; a citation "
        "that names no fact it found is removed. Enter on a source opens the meeting at its "
        "lines. Follow-up questions are read with the conversation so far; ctrl+l starts a "
        "new one. Earlier questions stay listed: enter on one asks it again. Escape leaves "
        "the question box."
    )
    BINDINGS = [
        Binding("escape", "leave", "Leave the box", id="ask.leave"),
        Binding("ctrl+l", "new_chat", "New chat", id="ask.new"),
    ]

    def __init__(self, id: str) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.sources: dict[int, FactRecord] = {}
        self.asked: list[str] = []
        self.answered: tuple[str, Text] | None = None  # the last exchange, question and answer
        self.question = ""  # the question being answered
        self.looked: list[str] = []  # what the agent looked up for it

    def compose(self) -> ComposeResult:
        # As chat apps have it: the conversation, its sources, the questions asked before
        # (a line or two until the list has the keyboard), and the question box last.
        with VerticalScroll(id="ask-output"):
            yield AnswerView(id="ask-answer")
            yield Static(id="ask-note")
        yield OptionList(id="ask-sources")
        yield OptionList(id="ask-history")
        yield Input(placeholder="Ask your meetings, e.g. why did we pick Postgres?", id="ask-input")

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

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """A list focused (escape or tab) has its first entry highlighted, so enter opens
        it at once."""
        listed = event.widget
        if isinstance(listed, OptionList) and listed.highlighted is None and listed.option_count:
            listed.highlighted = 0

    def action_new_chat(self) -> None:
        """Forget the conversation: the next question starts afresh."""
        self.post_message(messages.NewChatRequested())
        self.query(".exchange").remove()
        self.answered = None
        self.query_one("#ask-answer", AnswerView).show("")
        self.query_one("#ask-input", Input).value = ""
        self.query_one("#ask-note", Static).update(Text("A new conversation.", style="dim"))
        self.query_one("#ask-sources", OptionList).clear_options()
        self.sources = {}

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
        self.query_one("#ask-input", Input).value = ""  # ready for the next question
        if question in self.asked:
            self.asked.remove(question)
        self.asked.insert(0, question)
        self._show_history(skip_first=True)
        self.post_message(messages.AnswerRequested(self, question))

    def remember(self, questions: list[str]) -> None:
        """Earlier sessions' questions, listed to ask again (before any of this one's)."""
        if not self.asked and questions:
            self.asked = list(questions)
            self._show_history(skip_first=False)

    def _show_history(self, skip_first: bool) -> None:
        """The questions asked before (the one being answered, `skip_first`, is not)."""
        history = self.query_one("#ask-history", OptionList)
        history.clear_options()
        first = 1 if skip_first else 0
        history.add_options(
            Option(line(q, 200), id=str(n)) for n, q in enumerate(self.asked) if n >= first
        )
        history.display = history.option_count > 0

    def _keep_exchange(self) -> None:
        """The last answer becomes part of the conversation shown above the next one."""
        if self.answered is None:
            return
        question, answer = self.answered
        self.answered = None
        block = Text.assemble(line(f"> {question}", style="bold"), "\n", answer)
        self.query_one("#ask-output", VerticalScroll).mount(
            Static(block, classes="exchange"), before=self.query_one("#ask-answer", AnswerView)
        )

    # What the conversation's controller shows as the answer comes

    def asking(self, question: str) -> None:
        """A new question under way: the last answer joins the conversation above."""
        self._keep_exchange()
        self.question, self.looked = question, []
        self._show(Text("Searching…", style="dim"))
        self.query_one("#ask-note", Static).update("")
        self.query_one("#ask-sources", OptionList).clear_options()
        self.sources = {}  # each answer numbers its own sources from [1]

    def _show(self, body: Text) -> None:
        """A status, or the whole answer, under its question."""
        self.query_one("#ask-answer", AnswerView).show(self._heading(), body)

    def _heading(self) -> Text:
        return line(f"> {self.question}", style="bold")

    def looking(self, name: str, arguments: dict[str, Any]) -> None:
        self.looked.append(_looked(name, arguments))
        self._show(Text("Looking things up…", style="dim"))
        note = line("; ".join(self.looked), 300, style="dim")
        self.query_one("#ask-note", Static).update(note)

    def answer_starts(self) -> None:
        self.query_one("#ask-answer", AnswerView).start(self._heading())

    def answer_grows(self, text: str) -> None:
        self.query_one("#ask-answer", AnswerView).append(text)

    def source_cited(self, n: int, fact: FactRecord) -> None:
        self.sources[n] = fact
        sources = self.query_one("#ask-sources", OptionList)
        sources.add_option(Option(_source_label(n, fact), str(n)))

    def replied(self, reply: Replied) -> None:
        self._show(plain(reply.answer))
        self._list_sources(sorted(reply.sources.items()))
        if reply.status == "completed":
            self.answered = (self.question, plain(reply.answer))
        note = line(_reply_note(reply, self.looked), 300, style="dim")
        self.query_one("#ask-note", Static).update(note)

    def scroll_to_end(self) -> None:
        self.query_one("#ask-output", VerticalScroll).scroll_end(animate=False)

    def stopped(self) -> None:
        self.query_one("#ask-note", Static).update(Text("Stopped (ctrl+x).", style="dim"))

    def failed(self, error: Exception) -> None:
        self._show(Text(f"Could not answer: {line(str(error)).plain}", style="red"))

    def _list_sources(self, cited: list[tuple[int, FactRecord]]) -> None:
        """The sources in the order of their numbers (they arrive as they are cited)."""
        sources = self.query_one("#ask-sources", OptionList)
        highlighted = sources.highlighted
        sources.clear_options()
        sources.add_options(Option(_source_label(n, fact), str(n)) for n, fact in cited)
        if highlighted is not None and highlighted < sources.option_count:
            sources.highlighted = highlighted

    @on(OptionList.OptionSelected, "#ask-sources")
    def open_source(self, event: OptionList.OptionSelected) -> None:
        fact = self.sources.get(int(event.option.id or 0))
        if fact is not None:
            self.post_message(messages.FactOpened(fact))


def _looked(name: str, arguments: dict[str, Any]) -> str:
    said = ", ".join(
        f"{v}" for k, v in arguments.items() if k != "limit" and isinstance(v, str | int)
    )
    return f"{name.replace('_', ' ')}: {said}" if said else name.replace("_", " ")


def _reply_note(reply: Replied, looked: list[str]) -> str:
    parts = [f"run {reply.run_id}", f"looked up: {'; '.join(looked)}" if looked else ""]
    if reply.removed_citations:
        parts.append(f"{plural(reply.removed_citations, 'citation')} naming no fact removed")
    if reply.status != "completed":
        parts.append(f"{reply.status}: {reply.error or ''}")
    return " · ".join(p for p in parts if p)


def _source_label(n: int, fact: FactRecord) -> Text:
    where = f"{fact.capture_title or 'note'} {fact_span(fact)}".rstrip()
    return line(f"[{n}] {fact.fact_type.replace('_', ' ')} · {where} ({fact.occurred_at or ''})")
