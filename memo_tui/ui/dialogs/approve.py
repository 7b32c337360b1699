"""An agent asks before a write: what it would write, and the lines it found."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label, Static

from memo_tui.ui.dialogs.base import Dialog
from memo_tui.ui.text import line, plain


class Approve(Dialog[bool]):
    """An agent asks before it writes: what it proposes and why, with the time left to
    answer (then the proposal is skipped). Nothing is focused at first: it may pop up while
    the user types."""

    HELP = (
        "An agent asks before it changes something: what it proposes and why. Answer before the "
        "time runs out, or the proposal is skipped (the run goes on without it)."
    )

    AUTO_FOCUS = ""

    def __init__(self, agent: str, proposal: str, timeout_s: float) -> None:
        super().__init__()
        self.agent = agent
        self.proposal = proposal
        self.left = int(timeout_s)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(line(f"The {self.agent} agent asks"), classes="title")
            yield Static(plain(self.proposal))
            yield Label("", id="approve-left")
            with Horizontal(classes="buttons"):
                yield Button("Accept", id="yes", variant="primary")
                yield Button("Reject", id="no")

    def on_mount(self) -> None:
        self._tick()
        self.countdown = self.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        if self.left <= 0:
            self.withdraw(None)  # no answer in time: skipped
            return
        self.query_one("#approve-left", Label).update(
            Text(f"{self.left} s to answer, then it is skipped. Tab to a button.", style="dim")
        )
        self.left -= 1

    @on(Button.Pressed)
    def answer(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")
