"""An answer as it streams in: a finished line is drawn once; only the line being written is
drawn again as text arrives (a long answer costs each delta one line, not the whole text)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from memo_tui.ui.text import plain


class AnswerView(Vertical):
    def __init__(self, id: str) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.text = ""  # the answer's text so far (after its heading)
        self.heading = ""
        self._head = Static(classes="answer-head")
        self._tail = Static(classes="answer-tail")
        self._partial = ""  # the line being written

    def compose(self) -> ComposeResult:
        yield self._head
        yield self._tail

    @property
    def shown(self) -> str:
        """The heading and the answer, as plain text."""
        return f"{self.heading}\n{self.text}" if self.heading else self.text

    def _clear(self, head: Text | str) -> None:
        self.query(".answer-line").remove()
        self._head.update(head)
        self.heading = head.plain if isinstance(head, Text) else head
        self.text = self._partial = ""

    def show(self, head: Text | str, body: Text | str = "") -> None:
        """The heading and a whole body, drawn at once (a status, or the final answer)."""
        self._clear(head)
        self._tail.update(body)
        self.text = body.plain if isinstance(body, Text) else body

    def start(self, head: Text | str) -> None:
        """A heading, and an empty answer to append to."""
        self._clear(head)
        self._tail.update("")

    def append(self, delta: str) -> None:
        """More of the answer: the lines it finishes are mounted once, above the one being
        written, which alone is drawn again."""
        self.text += delta
        *done, self._partial = (self._partial + delta).split("\n")
        for finished in done:
            self.mount(Static(plain(finished), classes="answer-line"), before=self._tail)
        self._tail.update(plain(self._partial))
