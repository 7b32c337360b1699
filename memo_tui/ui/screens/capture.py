"""One capture: summary, decisions with why and who, action items, provenance, transcript.

Evidence lines are bold in the transcript; the lines a citation points at are reversed and
scrolled into view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from memo_tui.core.capture.formats.base import describe_skipped
from memo_tui.ui import messages
from memo_tui.ui.text import items, line, plain, span, styled
from memo_tui.ui.widgets.footer import KeyFooter
from memo_tui.ui.workers import superseded

if TYPE_CHECKING:
    from memo_tui.core.services import Services
    from store import ActionItemRecord, DecisionRecord


class CaptureScreen(Screen[None]):
    HELP = (
        "A captured meeting: its summary, decisions (with why and who decided), action items "
        "(owner, due date), where it came from, and the transcript with line numbers. Bold "
        "lines are evidence for a decision or action item; reversed lines are the ones a "
        "citation points at."
    )
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back", id="capture.back"),
        Binding("d", "delete", "Delete", id="capture.delete"),
    ]

    def __init__(self, services: Services, capture_id: int, lines: tuple[int, int] | None = None):
        super().__init__()
        self.services = services
        self.capture_id = capture_id
        self.lines = lines
        self._before_focus: Table | None = None  # the transcript above the cited lines

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="capture-detail"):
            yield Static(id="capture-record")
            yield Static(id="capture-transcript")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#capture-detail", VerticalScroll).focus()  # so the keys scroll it
        self.load()

    def action_delete(self) -> None:
        self.post_message(messages.CaptureDeleteRequested(self.capture_id))

    @work(thread=True, exclusive=True, exit_on_error=False)
    def load(self) -> None:
        record, transcript, above = self.render_capture()
        if not superseded():
            self.app.call_from_thread(self._show, record, transcript, above)

    def render_capture(self) -> tuple[RenderableType, RenderableType, Table | None]:
        from memo_tui.core.views.pages import capture_view

        view = capture_view(self.services, self.capture_id)
        if view is None:
            return styled("This capture is gone (deleted).", "bold"), Text(), None
        found, source = view.source.capture, view.source
        head = line(source.title, style="bold")
        head.append(f"\n{found.occurred_at or 'no meeting date'}", style="dim")
        if view.chat_of is not None:
            head.append("\nthe chat of ", style="dim")
            head.append(
                line(f"{view.chat_of.title} (capture {view.chat_of.id})", style="dim italic")
            )
        parts: list[RenderableType] = [head]
        if view.summary:
            parts += [Text(), plain(view.summary)]
        parts += _facts(source.decisions, source.actions)
        for chat in view.chats:
            parts += [
                Text(),
                styled(f"From the meeting's chat (capture {chat.capture.id})", "bold"),
            ]
            chat_facts = _facts(chat.decisions, chat.actions, "chat ")
            parts += chat_facts or [styled("no decisions or action items", "dim")]
        read = "; TRUNCATED: the extractor read only the start" if found.truncated else ""
        parts += [
            Text(),
            styled("Provenance", "bold underline"),
            line(
                f"{view.source_path or 'typed in'} ({view.source_format}), captured "
                f"{found.captured_at[:16].replace('T', ' ')} UTC by the {found.extractor}{read}"
            ),
        ]
        if view.meta.get("source_lines"):
            parts.append(line("stored a turn a line; each keeps the file lines it came from"))
        if view.meta.get("skipped"):
            parts.append(line(f"left out of the file: {describe_skipped(view.meta['skipped'])}"))
        transcript, above = self._transcript(source.body, [*source.decisions, *source.actions])
        for chat in view.chats:
            transcript.renderables.append(_numbered_lines(chat.body, "Chat"))
        return Group(*parts), transcript, above

    def _transcript(self, body: str, items: list[object]) -> tuple[Group, Table]:
        """The numbered transcript, a long line wrapping under its own text, and the lines
        above the cited ones (to scroll past)."""
        evidence = {
            n
            for item in items
            if (start := getattr(item, "line_start", None)) is not None
            for n in range(start, getattr(item, "line_end", start) + 1)
        }
        focus = set(range(self.lines[0], self.lines[1] + 1)) if self.lines else set()
        numbered = _numbered()
        above = _numbered()  # the lines above the cited ones, to scroll past
        for number, text in enumerate(body.split("\n"), 1):
            style = "reverse" if number in focus else "bold" if number in evidence else ""
            numbered.add_row(str(number), line(text, style=style))
            if self.lines and number < self.lines[0]:
                above.add_row(str(number), line(text, style=style))
        return Group(styled("\n\nTranscript", "bold underline"), numbered), above

    def _show(
        self, record: RenderableType, transcript: RenderableType, above: Table | None
    ) -> None:
        self._before_focus = above if self.lines else None
        self.query_one("#capture-record", Static).update(record)
        self.query_one("#capture-transcript", Static).update(transcript)
        if self.lines:
            self.call_after_refresh(self._scroll_to_lines)

    def _scroll_to_lines(self) -> None:
        """Bring the cited lines into view, a few lines of context above them (long lines
        wrap, so count rows as they are drawn, not transcript lines)."""
        if self._before_focus is None:
            return
        transcript = self.query_one("#capture-transcript", Static)
        width = max(transcript.content_region.width, 10)
        options = self.app.console.options.update_width(width)
        rows = 3 + len(self.app.console.render_lines(self._before_focus, options, pad=False))
        scroller = self.query_one("#capture-detail", VerticalScroll)
        scroller.scroll_to(y=max(0, transcript.virtual_region.y + rows - 3), animate=False)


def _facts(
    decisions: list[DecisionRecord], actions: list[ActionItemRecord], where: str = ""
) -> list[RenderableType]:
    """Decisions with why and who, then action items, each under its lines (`where` names
    a side channel's: "chat L3")."""
    parts: list[RenderableType] = []
    holds = [d for d in decisions if d.current]
    if holds:
        parts += [Text(), styled("Decisions", "bold underline")]
        rows: list[tuple[str, Text]] = []
        for d in holds:
            said = line(d.description)
            if d.decider:
                who = d.decider + (" (which one?)" if d.pending else "")
                said.append(line(f" (decided by {who})", style="italic"))
            rows.append((where + span(d.line_start, d.line_end), said))
            if d.reasoning:
                rows.append(("", styled("why: ", "dim") + line(d.reasoning)))
        parts.append(items(rows))
    history = [d for d in decisions if not d.current]
    if history:
        parts += [Text(), styled("Replaced during the meeting", "bold underline")]
        later = {d.id: d for d in decisions}
        rows = []
        for d in history:
            rows.append((where + span(d.line_start, d.line_end), line(d.description, style="dim")))
            now = later.get(d.superseded_by or 0)
            if now is not None:
                rows.append(("", styled("now: ", "dim") + line(now.description)))
        parts.append(items(rows))
    if actions:
        parts += [Text(), styled("Action items", "bold underline")]
        rows = []
        for a in actions:
            said = line(a.description, style="dim" if a.status in ("done", "dropped") else "")
            owner = (a.owner or "no owner") + (" (which one?)" if a.pending else "")
            said.append(line(f" -> {owner}", style="italic"))
            if a.due_date:
                said.append(f", due {a.due_date}")
            if a.status in ("done", "dropped"):
                said.append(" (done)" if a.status == "done" else " (turned down)", style="bold")
            rows.append((where + span(a.line_start, a.line_end), said))
        parts.append(items(rows))
    return parts


def _numbered_lines(body: str, heading: str) -> Group:
    """A side channel's lines under a heading of their own."""
    numbered = _numbered()
    for number, text in enumerate(body.split("\n"), 1):
        numbered.add_row(str(number), line(text))
    return Group(styled(f"\n\n{heading}", "bold underline"), numbered)


def _numbered() -> Table:
    """Transcript lines beside their numbers (5 digits: up to the longest capture)."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(justify="right", no_wrap=True, style="dim", min_width=5)
    grid.add_column(ratio=1)
    return grid
