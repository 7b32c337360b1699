"""Capture a file or folder: a path box that completes names and refuses what memo cannot
read, before anything is captured."""

from __future__ import annotations

import os
from itertools import islice
from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.suggester import Suggester
from textual.validation import ValidationResult, Validator
from textual.widgets import Input, Label, Static

from memo_tui.core.safety import sanitize_line
from memo_tui.ui.dialogs.base import Dialog
from memo_tui.ui.text import line


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

    HELP = (
        "A transcript, a chat log, a mailbox or a folder of them to capture. Tab completes the "
        "path from the file system; a file memo has already is not stored twice."
    )

    BINDINGS = [Binding("tab", "complete", "Complete", id="capture.complete", priority=True)]

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
