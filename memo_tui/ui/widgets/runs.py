"""The Runs pane: every agent run, live ones first, with how long each took."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.widgets import DataTable

from memo_tui.ui import messages
from memo_tui.ui.text import line, styled
from memo_tui.ui.widgets.pane import ListPane
from memo_tui.ui.widgets.table import Cell, Row, row

if TYPE_CHECKING:
    from memo_tui.core.views.lists import Lists


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
    OPENS = "run"
    BINDINGS = [Binding("r", "resume", "Resume", id="runs.resume")]
    wanted: str | None = None  # a run to select as soon as the list shows it

    def select_run(self, run_id: int) -> None:
        """A run just started: it is selected when the list first shows it (a redraw
        already under way may not have it yet)."""
        self.wanted = str(run_id)

    def show_rows(self, rows: list[Row]) -> None:
        super().show_rows(rows)
        keys = [r.key for r in rows]
        if self.wanted in keys:
            self.query_one(DataTable).move_cursor(row=keys.index(self.wanted), animate=False)
            self.wanted = None

    def fill(self, lists: Lists, width: int) -> list[Row]:
        room = max(10, width - 68)  # what it worked on gets what is left
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
            for r in lists.runs
        ]

    def action_resume(self) -> None:
        """r: go on with an interrupted or failed run (the agent says if it cannot)."""
        key = self.selected_key()
        if key is not None:
            self.post_message(messages.AgentRunRequested("", resume=int(key)))


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
