"""Who is it? A name in a meeting that could be several people: the lines around it, the
people it could be, and "none of these"."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Button, Label, Static

from memo_tui.ui.dialogs.base import Dialog
from memo_tui.ui.text import line, plural


class WhoIsIt(Dialog[int]):
    """Which person a name means: a button per candidate, and "None of these".

    Dismisses with the person's id, 0 for "none of these", or None when escaped."""

    HELP = (
        "A name in a meeting could mean more than one person: pick who was meant, and memo "
        "remembers the answer for that name. 'None of these' means nobody memo knows."
    )

    # Nothing chosen on opening: it may pop up while the user types elsewhere, and a stray
    # enter must not answer for them (tab moves to the choices).
    AUTO_FOCUS = ""

    def __init__(
        self,
        mention: str,
        waiting: list[str],
        candidates: list[tuple[int, str]],
        note: str = "",
        context: Sequence[tuple[str, bool]] = (),
    ) -> None:
        """`waiting`: the items that wait, each with its meeting; `note`: what the answer
        will do; `context`: the transcript around the one item asked about, each line
        with whether the item came from it."""
        super().__init__()
        self.mention = mention
        self.waiting = waiting
        self.candidates = candidates
        self.note = note
        self.context = context

    def compose(self) -> ComposeResult:
        with Vertical():
            question = Text("Who is ")
            question.append(line(f'"{self.mention}"'))
            if self.context:
                question.append(" here?")
            else:
                question.append(f"? {plural(len(self.waiting), 'item')} wait for the answer:")
            yield Label(question, classes="title")
            shown = Text("\n").join(Text("• ") + line(said, 160) for said in self.waiting[:4])
            if len(self.waiting) > 4:
                shown.append(f"\nand {len(self.waiting) - 4} more", style="dim")
            if self.context:
                shown.append("\n")
            for said, cited in self.context:
                shown.append("\n")
                shown.append(line(said, 160, style="" if cited else "dim"))
            if self.note:
                shown.append("\n")
                shown.append(line(self.note, style="italic"))
            self.shown = shown
            with VerticalScroll(can_focus=False):
                yield Static(shown)
            for person_id, name in self.candidates:
                yield Button(line(name), id=f"person-{person_id}")
            yield Button("None of these", id="person-0")

    def on_resize(self) -> None:
        """In a short terminal every choice stays in view: buttons a line high, and the
        waiting items scroll."""
        buttons = list(self.query(Button))
        width = max(10, min(72, self.size.width) - 4)  # inside the border and padding
        rows = len(self.shown.wrap(self.app.console, width))
        room = self.size.height - 5  # less the border, the title and the gap under the items
        compact = rows + 3 * len(buttons) > room
        for button in buttons:
            button.compact = compact
        left = room - len(buttons) * (2 if compact else 3)
        self.query_one(VerticalScroll).styles.max_height = max(2, left)

    @on(Button.Pressed)
    def choose(self, event: Button.Pressed) -> None:
        self.dismiss(int((event.button.id or "person-0").removeprefix("person-")))
