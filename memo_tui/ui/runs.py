"""Agent runs: the Runs pane (6) and a run's live view.

The view replays a run's numbered events from the store, then follows new ones as they are
written (by this app or by `memo run` in another terminal). Leaving the view does not stop
the run.
"""

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

from memo_tui.ui.footer import KeyFooter
from memo_tui.ui.panes import Cell, ListPane, Row, row, superseded
from memo_tui.ui.text import line, plain, styled

if TYPE_CHECKING:
    from memo_tui.core.services import Services
    from store import EventRecord

LIVE = ("running", "waiting_for_user")


class RunsPane(ListPane):
    HELP = (
        "Agent runs, newest first: the agent, what it worked on, its status, its cost, when "
        "it started (UTC) and how long it took. Enter opens a run's steps as they happen; a run "
        "goes on when you leave its view; ctrl+x stops it after its current step. r resumes "
        "an interrupted or failed run from its last completed step. Start runs with r on a "
        "person's or project's page; chat runs are the Ask pane's questions."
    )
    EMPTY = "No agent runs yet: r on a person's, project's or concept's page runs its agent."
    COLUMNS = ("Run", "Agent", "On", "Status", "Cost", "Started", "Took")
    BINDINGS = [Binding("r", "resume", "Resume", id="runs.resume")]

    def fill(self, services: Services) -> list[Row]:
        room = max(10, self.app.size.width - 68)  # what it worked on gets what is left
        return [
            row(
                r.id,
                str(r.id),
                r.agent_type,
                line(r.entity_name or json.loads(r.spec_json or "{}").get("entity", ""), room),
                _status(r.status),
                f"${r.cost_microdollars / 1e6:.4f}",
                r.started_at[5:16].replace("T", " "),  # UTC, as stored
                took(r.started_at, r.finished_at),
            )
            for r in services.store.runs()
        ]

    def action_resume(self) -> None:
        key = self.selected_key()
        run = self.services.store.run(int(key)) if key is not None else None
        if run is None:
            return
        if run.status not in ("interrupted", "failed"):
            self.notify(f"Run {run.id} is {run.status}: only interrupted or failed runs resume.")
        elif run.agent_type == "chat":
            self.notify("A chat run is not resumed: ask the question again (5).")
        else:
            self.memo.run_agent_job(run.agent_type, "", None, resume=run.id)


def _status(status: str) -> Cell:
    """A live run's status stands out; waiting_for_user is shown as "waiting"."""
    if status not in LIVE:
        return status
    return styled("waiting" if status == "waiting_for_user" else status, "bold")


def took(started: str, finished: str | None) -> str:
    """How long a run took, in the largest unit that keeps it readable."""
    import datetime as dt

    if finished is None:
        return ""
    elapsed = dt.datetime.fromisoformat(finished) - dt.datetime.fromisoformat(started)
    seconds = int(elapsed.total_seconds())
    for unit, size in (("d", 86_400), ("h", 3_600), ("min", 60)):
        if seconds >= 2 * size:
            return f"{seconds // size} {unit}"
    return f"{seconds} s"


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
        store = self.services.store
        found = store.run(self.run_id)
        events = store.events(self.run_id, after_seq=self.seen)
        if superseded() or found is None:
            return
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
        out.append(line(json.dumps(payload.get("arguments", {}), ensure_ascii=False), 200))
    elif kind == "tool_result":
        out.append(styled(f"← {payload.get('name')} ", "dim"))
        out.append(line(json.dumps(payload.get("result", {}), ensure_ascii=False), 200))
    elif kind == "repair":
        out.append(styled("repair turn: missing ", "bold"))
        out.append(line(", ".join(payload.get("missing", []))))
    elif kind == "approval_needed":
        out.append(styled("waiting for your answer ", "bold"))
        out.append(line(json.dumps(payload.get("arguments", {}), ensure_ascii=False), 200))
    elif kind == "approval":
        out.append(line(f"you: {payload.get('decision')} ({payload.get('decided_by')})"))
    elif kind == "finished":
        out.append(styled(f"finished: {payload.get('status')}", "bold"))
        if payload.get("error"):
            out.append(line(f" ({payload['error']})"))
    else:
        out.append(line(f"{kind} {json.dumps(payload, ensure_ascii=False)}", 200))
    out.append("\n")
    return out
