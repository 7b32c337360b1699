"""One agent run, step by step."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from memo_tui.ui.text import line, plain, plural, styled
from memo_tui.ui.widgets.footer import KeyFooter
from memo_tui.ui.widgets.runs import LIVE
from memo_tui.ui.workers import superseded

if TYPE_CHECKING:
    from memo_tui.core.services import Services
    from store import EventRecord


class RunScreen(Screen[None]):
    """One run's steps: model text, tool calls with their arguments and results, repair
    turns and waits for the user, replayed and then followed live."""

    HELP = (
        "An agent run as it happens: what the model said, each tool call with its arguments "
        "and result, repair turns and waits for your approval. Escape leaves the view; the "
        "run goes on."
    )
    BINDINGS = [Binding("escape", "app.pop_screen", "Back", id="run.back")]

    def __init__(self, services: Services, run_id: int) -> None:
        super().__init__()
        self.services = services
        self.run_id = run_id
        self.seen = 0  # the last event seq shown
        self.shown = Text()

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="run-log"):
            yield Static(id="run-head")
            yield Static(id="run-events")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#run-log").focus()
        self.follow()
        self.polling = self.set_interval(0.5, self.follow)

    @work(thread=True, exclusive=True, group="run-view", exit_on_error=False)
    def follow(self) -> None:
        """New events since the last seen (all of them the first time)."""
        from memo_tui.core.views.pages import run_view

        view = run_view(self.services, self.run_id, self.seen)
        if superseded() or view is None:
            return
        found, events = view.run, view.events
        head = line(f"Run {found.id}: {found.agent_type}", style="bold")
        head.append(
            line(
                f"  {found.entity_name or ''}  {found.status}  {found.steps} steps, "
                f"{found.tool_calls} tool calls, ${found.cost_microdollars / 1e6:.4f}"
            )
        )
        if found.error:
            head.append("\n")
            head.append(line(found.error, style="red"))
        self.app.call_from_thread(self._show, head, events, found.status in LIVE)

    def _show(self, head: Text, events: list[EventRecord], live: bool) -> None:
        self.query_one("#run-head", Static).update(head)
        if not live:  # all its events are in: nothing more to follow
            self.polling.stop()
        if not events:
            return
        for event in events:
            if event.seq <= self.seen:
                continue
            self.shown.append(describe(event.seq, event.kind, json.loads(event.payload_json)))
            self.seen = event.seq
        self.query_one("#run-events", Static).update(self.shown)
        self.query_one("#run-log", VerticalScroll).scroll_end(animate=False)


def describe(seq: int, kind: str, payload: dict[str, Any]) -> Text:
    """One event as a line or two of the log (everything from the model shown as plain
    text)."""
    out = styled(f"{seq:>4} ", "dim")
    if kind == "model_text":
        out.append(plain(str(payload.get("text", ""))))
    elif kind == "tool_call":
        out.append(styled(f"→ {payload.get('name')} ", "bold"))
        out.append(line(summary(payload.get("arguments", {})), 200))
    elif kind == "tool_result":
        out.append(styled(f"← {payload.get('name')} ", "dim"))
        out.append(line(summary(payload.get("result", {})) or "done", 200, style="dim"))
    elif kind == "repair":
        out.append(styled("repair turn: missing ", "bold"))
        out.append(line(", ".join(payload.get("missing", []))))
    elif kind == "approval_needed":
        out.append(styled("waiting for your answer ", "bold"))
        out.append(line(summary(payload.get("arguments", {})), 200))
    elif kind == "approval":
        out.append(line(f"you: {payload.get('decision')} ({payload.get('decided_by')})"))
    elif kind == "finished":
        out.append(styled(f"finished: {payload.get('status')}", "bold"))
        if payload.get("error"):
            out.append(line(f" ({payload['error']})"))
    else:
        out.append(line(f"{kind.replace('_', ' ')} {summary(payload)}", 200))
    out.append("\n")
    return out


def _internal(key: str) -> bool:
    """A key that holds memo's own ids (a fact's, a meeting's), not something to read."""
    return key == "id" or key.endswith(("_id", "_ids", "_key", "_keys"))


def summary(value: Any) -> str:
    """Arguments or a result as text: `key: value` for each plain field, how many for a
    list, no ids, no braces or quotes ("name: Beacon, client: Halvorsen, meetings: 3")."""
    if isinstance(value, dict):
        parts = []
        for key, held in value.items():
            if _internal(str(key)) or held in (None, "", [], {}):
                continue
            if isinstance(held, list | dict):
                parts.append(f"{key}: {len(held)}")
            else:
                parts.append(f"{key}: {held}")
        return ", ".join(parts)
    if isinstance(value, list):
        return plural(len(value), "item")
    return "" if value is None else str(value)
