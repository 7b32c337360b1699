"""Dialogs with typed results; escape always cancels.

Each returns what the caller needs and nothing more: a person's id, a yes or no, a path, a
note's text. The caller does the work, in a worker, so a dialog never touches the store.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Generic, TypeVar

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.suggester import Suggester, SuggestFromList
from textual.validation import ValidationResult, Validator
from textual.widgets import Button, Input, Label, OptionList, Select, Static, TextArea
from textual.widgets.option_list import Option

from memo_tui.core.safety import sanitize, sanitize_line
from memo_tui.ui.text import line, plain, plural

DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 72; max-width: 100%; height: auto; max-height: 100%;
    border: round $accent; padding: 0 1; background: $surface;
}}
{name} .title {{ text-style: bold; margin: 0 0 1 0; }}
{name} .buttons {{ height: auto; margin: 1 0 0 0; }}
{name} .buttons Button {{ margin: 0 1 0 0; }}
"""


T = TypeVar("T")


class Dialog(ModalScreen[T | None], Generic[T]):
    """A centred box; escape dismisses with None. The arrow keys move between buttons (a
    box or a list that has the keyboard keeps its own arrows)."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="dialog.cancel"),
        Binding("left,up", "app.focus_previous", "Previous", id="dialog.previous", show=False),
        Binding("right,down", "app.focus_next", "Next", id="dialog.next", show=False),
    ]

    def action_cancel(self) -> None:
        self.dismiss(None)


class WhoIsIt(Dialog[int]):
    """Which person a name means: a button per candidate, and "None of these".

    Dismisses with the person's id, 0 for "none of these", or None when escaped."""

    DEFAULT_CSS = DIALOG_CSS.format(name="WhoIsIt") + (
        "WhoIsIt Button { width: 1fr; } WhoIsIt Button.-textual-compact { margin: 0 0 1 0; }"
        "WhoIsIt VerticalScroll { height: auto; margin: 0 0 1 0; }"
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


class PickPerson(Dialog[int]):
    """Who a person really is: the other people, likeliest first. Dismisses with the id
    picked, or None when escaped."""

    DEFAULT_CSS = DIALOG_CSS.format(name="PickPerson") + (
        "PickPerson OptionList { height: auto; max-height: 12; margin: 0 0 1 0; }"
    )

    def __init__(self, name: str, people: Sequence[tuple[int, str]], note: str = "") -> None:
        super().__init__()
        self.person_name = name
        self.people = people
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical():
            title = Text("Who is ")
            title.append(line(self.person_name))
            title.append(", really?")
            yield Label(title, classes="title")
            yield OptionList(*(Option(line(name), id=str(i)) for i, name in self.people))
            if self.note:
                yield Static(line(self.note, style="italic"))

    @on(OptionList.OptionSelected)
    def pick(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))


class Confirm(Dialog[bool]):
    """A question with a yes button (named for what it does) and a no."""

    DEFAULT_CSS = DIALOG_CSS.format(name="Confirm")

    def __init__(
        self, title: str, body: Text | Table, yes: str, no: str = "Cancel", danger: bool = False
    ) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.yes = yes
        self.no = no
        self.danger = danger

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(line(self.title_text), classes="title")
            yield Static(self.body)
            with Horizontal(classes="buttons"):
                yield Button(self.yes, id="yes", variant="error" if self.danger else "primary")
                yield Button(self.no, id="no")

    def on_mount(self) -> None:
        self.query_one("#no" if self.danger else "#yes", Button).focus()

    @on(Button.Pressed)
    def answer(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


@dataclass(frozen=True)
class Version:
    """One side of a replace: what a capture holds."""

    title: str
    date: str | None
    decisions: int
    action_items: int
    lines: int


@dataclass(frozen=True)
class Change:
    """Where two versions of a transcript differ: how many lines, and the first of them."""

    lines: int
    first: int  # its number in the new version
    was: str
    now: str


def what_changed(stored: str, new: str) -> Change | None:
    """The lines `new` changes, adds or drops from `stored` (None: the same lines)."""
    old_lines, new_lines = stored.split("\n"), new.split("\n")
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    edits = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    if not edits:
        return None
    _, i1, i2, j1, j2 = edits[0]
    count = sum(max(b - a, d - c) for _, a, b, c, d in edits)
    was = old_lines[i1] if i1 < i2 else "(nothing)"
    now = new_lines[j1] if j1 < j2 else "(nothing)"
    return Change(count, j1 + 1, *_from_the_difference(was, now))


def _from_the_difference(was: str, now: str, before: int = 12) -> tuple[str, str]:
    """Both lines from a little before where they first differ (a long shared start is
    cut to an ellipsis), so a cut cell still shows the change."""
    same = len(os.path.commonprefix([was, now]))
    if same <= before:
        return was, now
    start = same - before
    return "…" + was[start:], "…" + now[start:]


def replace_dialog(
    name: str, stored: Version, new: Version, change: Change | None = None
) -> Confirm:
    """ "Replace the stored meeting with this file?", showing what would change."""
    table = Table(box=None, pad_edge=False, show_edge=False)
    table.add_column("")
    table.add_column("Stored", overflow="fold")
    table.add_column("This file", overflow="fold")
    rows = [
        ("Title", stored.title, new.title),
        ("Date", stored.date or "none", new.date or "none"),
        ("Decisions", str(stored.decisions), str(new.decisions)),
        ("Action items", str(stored.action_items), str(new.action_items)),
        ("Lines", str(stored.lines), str(new.lines)),
    ]
    if change is not None:
        rows.append(("Changed", "", f"{plural(change.lines, 'line')}, from L{change.first}"))
        rows.append((f"L{change.first}", change.was, change.now))
    for label, old, fresh in rows:
        style = "bold" if old != fresh else "dim"
        table.add_row(label, line(old, 30), line(fresh, 30, style=style))
    intro = line(f"{name} looks like a new version of a stored meeting.")
    body = Table.grid()
    body.add_row(intro)
    body.add_row(table)
    body.add_row(Text("Replacing keeps nothing of the stored version.", style="dim"))
    return Confirm(
        "Replace the stored meeting?", body, "Replace", "Keep the stored one", danger=True
    )


def delete_dialog(title: str, date: str | None, decisions: int, action_items: int) -> Confirm:
    body = line(f"{title} ({date or 'no date'})")
    body.append(
        f"\n{plural(decisions, 'decision')}, {plural(action_items, 'action item')}, its "
        "transcript and its search entries go too. This cannot be undone."
    )
    return Confirm("Delete this capture?", body, "Delete", danger=True)


class ErrorDialog(Dialog[None]):
    """Something failed: what, and what to do. The app carries on."""

    DEFAULT_CSS = DIALOG_CSS.format(name="ErrorDialog") + (
        "ErrorDialog > Vertical { border: round $error; }"
    )

    def __init__(self, title: str, message: str) -> None:
        super().__init__()
        self.title_text = title
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(line(self.title_text), classes="title")
            yield Static(plain(self.message))
            with Horizontal(classes="buttons"):
                yield Button("OK", id="ok", variant="primary")

    def on_mount(self) -> None:
        self.query_one(Button).focus()

    @on(Button.Pressed)
    def close(self) -> None:
        self.dismiss(None)


class PathSuggester(Suggester):
    """Completes a path from the file system: folders and transcript files, as you type."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)

    async def get_suggestion(self, value: str) -> str | None:
        if not value:
            return None
        typed = Path(os.path.expanduser(value))
        folder, prefix = (typed, "") if value.endswith(os.sep) else (typed.parent, typed.name)
        try:
            names = sorted(entry.name for entry in os.scandir(folder) if _capturable(entry))
        except OSError:
            return None
        for name in names:
            if sanitize_line(name) != name:  # a control character in a name: never echo it
                continue
            if name.startswith(prefix) and name != prefix and not name.startswith("."):
                completed = value + name[len(prefix) :]
                return completed + os.sep if (folder / name).is_dir() else completed
        return None


def allowed_suffixes() -> tuple[str, ...]:
    """What memo captures, transcripts and mail (imported when first asked: the capture
    package is heavy)."""
    from memo_tui.core.capture.guards import ALLOWED_SUFFIXES
    from memo_tui.core.email.read import MAIL_SUFFIXES

    return (*ALLOWED_SUFFIXES, *MAIL_SUFFIXES)


def _capturable(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir() or Path(entry.name).suffix.lower() in allowed_suffixes()
    except OSError:
        return False


class CapturablePath(Validator):
    """A transcript file memo reads, or a folder holding at least one."""

    def validate(self, value: str) -> ValidationResult:
        suffixes = allowed_suffixes()
        if not value.strip():
            return self.failure("Type the path of a transcript or a folder of them.")
        if sanitize_line(value) != value:
            return self.failure("That path holds control characters; rename the file first.")
        path = Path(os.path.expanduser(value.strip()))
        if not path.exists():
            return self.failure(f"No such file or folder: {path}")
        from memo_tui.core.email.read import is_maildir

        if is_maildir(path):
            return self.success()
        if path.is_dir():
            # The first 10,000 entries at most: a home folder is big, the check must be quick.
            if any(p.suffix.lower() in suffixes for p in islice(path.rglob("*"), 10_000)):
                return self.success()
            return self.failure(f"No {', '.join(suffixes)} files in that folder.")
        if path.suffix.lower() not in suffixes:
            kind = f"{path.suffix} files are" if path.suffix else "A file with no extension is"
            return self.failure(
                f"{path.name}: {kind} not captured; memo reads {', '.join(suffixes)} files "
                "and Maildir folders."
            )
        if not os.access(path, os.R_OK):
            return self.failure("That file cannot be read (permissions).")
        return self.success()


class CaptureFile(Dialog[Path]):
    """The path of a transcript or folder to capture: completed as you type (tab or right
    arrow accepts), checked before it is accepted."""

    BINDINGS = [Binding("tab", "complete", "Complete", id="capture.complete", priority=True)]
    DEFAULT_CSS = DIALOG_CSS.format(name="CaptureFile") + "#capture-problem { color: $error; }"

    def __init__(self, start: str = "") -> None:
        super().__init__()
        self.start = start

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Capture a transcript or a folder of them", classes="title")
            yield Input(
                self.start,
                placeholder="~/meetings/standup.txt",
                suggester=PathSuggester(),
                validators=[CapturablePath()],
                validate_on=["submitted"],
                id="capture-path",
            )
            yield Static("", id="capture-problem")  # (a Static wraps a long reason)
            yield Static(
                Text(
                    f"{', '.join(allowed_suffixes())}; a folder is read recursively. "
                    "Tab completes, enter captures, escape cancels.",
                    style="dim",
                )
            )

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def action_complete(self) -> None:
        """Tab takes the suggested completion (the right arrow does too)."""
        box = self.query_one(Input)
        box.cursor_position = len(box.value)
        box.action_cursor_right()

    @on(Input.Changed)
    def typing(self) -> None:
        """A half-typed path is not wrong yet: the problem shows again on enter."""
        self.query_one("#capture-problem", Static).update("")

    @on(Input.Submitted)
    def submit(self, event: Input.Submitted) -> None:
        result = event.validation_result
        if result is not None and not result.is_valid:
            problem = line(result.failure_descriptions[0])
            self.query_one("#capture-problem", Static).update(problem)
            return
        self.dismiss(Path(os.path.expanduser(event.value.strip())))


@dataclass(frozen=True)
class Written:
    """A note's text, and which of the offered owners it is about (0: the first)."""

    body: str
    about: int = 0


class NoteEditor(Dialog[Written]):
    """Write or edit a note; ctrl+s saves, escape leaves it as it was. With several owners
    offered (a project and its client), the note can be about either.

    The text it is given (an agent's section, a note) is shown sanitized, controls made
    visible; saved unchanged, it dismisses with None, so nothing is rewritten or marked as
    the user's."""

    BINDINGS = [Binding("ctrl+s", "save", "Save", id="note.save")]
    DEFAULT_CSS = DIALOG_CSS.format(name="NoteEditor") + (
        "NoteEditor TextArea { height: 10; } NoteEditor Select { margin: 0 0 1 0; }"
    )

    def __init__(self, title: str, body: str = "", owners: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.title_text = title
        self.body = sanitize(body)
        self.owners = owners

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(line(self.title_text), classes="title")
            if len(self.owners) > 1:
                yield Select(
                    [(line(f"About {owner}"), n) for n, owner in enumerate(self.owners)],
                    value=0,
                    allow_blank=False,
                    compact=True,
                    id="note-about",
                )
            yield TextArea(self.body, id="note-body", soft_wrap=True, show_line_numbers=False)
            with Horizontal(classes="buttons"):
                yield Button("Save (ctrl+s)", id="save", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one(TextArea).focus()
        self.warned = False

    def action_cancel(self) -> None:
        """Escape; with text typed and not saved, the first one only says so."""
        if self.query_one(TextArea).text.strip() != self.body.strip() and not self.warned:
            self.warned = True
            self.notify("Not saved: ctrl+s saves it, escape again leaves without it.")
            return
        self.dismiss(None)

    def action_save(self) -> None:
        body = self.query_one(TextArea).text.strip()
        if not body:
            self.notify(
                "A note needs some text (escape leaves without saving).", severity="warning"
            )
            return
        if body == self.body.strip():
            self.dismiss(None)  # as it was
            return
        about = self.query("#note-about")
        chosen = about.first(Select).value if about else 0
        self.dismiss(Written(body, chosen if isinstance(chosen, int) else 0))

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        else:
            self.dismiss(None)


class NewProject(Dialog[tuple[str, str | None]]):
    """A project's name and, optionally, its client (the clients memo knows complete as
    you type: tab or the right arrow takes one)."""

    BINDINGS = [Binding("tab", "complete", "Complete", id="project.complete", priority=True)]
    DEFAULT_CSS = DIALOG_CSS.format(name="NewProject")

    def __init__(self, clients: Sequence[str] = ()) -> None:
        super().__init__()
        self.clients = [name for name in clients if sanitize_line(name) == name]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("New project", classes="title")
            yield Input(placeholder="Project name", id="project-name")
            yield Input(
                placeholder="Client (optional; known ones complete)",
                suggester=SuggestFromList(self.clients, case_sensitive=False),
                id="project-client",
            )
            with Horizontal(classes="buttons"):
                yield Button("Add", id="add", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#project-name", Input).focus()

    def action_complete(self) -> None:
        """Tab: in the client box, take the suggested client; elsewhere, move on."""
        box = self.focused
        if isinstance(box, Input) and box.id == "project-client":
            typed = box.value
            box.cursor_position = len(typed)
            box.action_cursor_right()  # (at the end of the text, this takes the suggestion)
            if box.value != typed:
                return
        self.focus_next()

    @on(Input.Submitted)
    @on(Button.Pressed, "#add")
    def add(self) -> None:
        name = " ".join(self.query_one("#project-name", Input).value.split())
        client = " ".join(self.query_one("#project-client", Input).value.split())
        if not name:
            self.notify("The project needs a name.", severity="warning")
            self.query_one("#project-name", Input).focus()
            return
        self.dismiss((name, client or None))

    @on(Button.Pressed, "#cancel")
    def cancel(self) -> None:
        self.dismiss(None)


class NewConcept(Dialog[str]):
    """A concept's name: an idea to follow across meetings and mail."""

    DEFAULT_CSS = DIALOG_CSS.format(name="NewConcept")

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("New concept (an idea to follow, e.g. event sourcing)", classes="title")
            yield Input(placeholder="Concept name", id="concept-name")
            with Horizontal(classes="buttons"):
                yield Button("Add", id="add", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#concept-name", Input).focus()

    @on(Input.Submitted)
    @on(Button.Pressed, "#add")
    def add(self) -> None:
        name = " ".join(self.query_one("#concept-name", Input).value.split())
        if not name:
            self.notify("The concept needs a name.", severity="warning")
            return
        self.dismiss(name)

    @on(Button.Pressed, "#cancel")
    def cancel(self) -> None:
        self.dismiss(None)


class Help(Dialog[None]):
    """The keys of the focused pane, then the app's, with their binding ids for keymaps."""

    BINDINGS = [Binding("f1,question_mark,q", "cancel", "Close", id="help.close")]
    DEFAULT_CSS = DIALOG_CSS.format(name="Help") + (
        "Help > Vertical { width: 84; } Help VerticalScroll { height: auto; }"
    )

    def __init__(self, title: str, about: str, keys: list[tuple[str, str, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.about = about
        self.keys = keys

    def compose(self) -> ComposeResult:
        table = Table(box=None, pad_edge=False, show_edge=False, expand=True)
        table.add_column("Key", style="bold", no_wrap=True)
        table.add_column("Does")
        table.add_column("Binding id", style="dim", no_wrap=True)
        for key, does, binding_id in self.keys:
            table.add_row(key, does, binding_id)
        with Vertical():
            yield Label(self.title_text, classes="title")
            with VerticalScroll():
                yield Static(Text(self.about + "\n"))
                yield Static(table)
            yield Label(
                Text(
                    'Rebind any key in config.toml: [keymap] "pane.ask" = "a". Escape closes.',
                    style="dim",
                )
            )

    def on_resize(self) -> None:
        """What does not fit the terminal scrolls (the title and the hint stay in view)."""
        self.query_one(VerticalScroll).styles.max_height = max(3, self.size.height - 5)


class Approve(Dialog[bool]):
    """An agent asks before it writes: what it proposes and why, with the time left to
    answer (then the proposal is skipped). Nothing is focused at first: it may pop up while
    the user types."""

    DEFAULT_CSS = DIALOG_CSS.format(name="Approve")
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
            self.dismiss(None)  # no answer in time: skipped
            return
        self.query_one("#approve-left", Label).update(
            Text(f"{self.left} s to answer, then it is skipped. Tab to a button.", style="dim")
        )
        self.left -= 1

    @on(Button.Pressed)
    def answer(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")
