"""The lists and the status line, from the store in a worker: after a write, after a resize
(cut to the new width), and when another process wrote to the store (`memo capture` in
another shell: one PRAGMA on the writer's connection every couple of seconds)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static
from textual.worker import get_current_worker

from memo_tui.ui.controllers.base import Controller
from memo_tui.ui.text import line, plural
from memo_tui.ui.widgets.ask import AskPane
from memo_tui.ui.widgets.captures import CapturesPane
from memo_tui.ui.widgets.concepts import ConceptsPane
from memo_tui.ui.widgets.facts import FactsPane
from memo_tui.ui.widgets.newsletters import NewslettersPane
from memo_tui.ui.widgets.people import PeoplePane
from memo_tui.ui.widgets.projects import ProjectsPane
from memo_tui.ui.widgets.runs import RunsPane

if TYPE_CHECKING:
    from memo_tui.core.views.lists import Lists, StatusCounts
    from memo_tui.ui.widgets.pane import ListPane
    from memo_tui.ui.widgets.table import Row

LIST_PANES = (CapturesPane, PeoplePane, ProjectsPane, RunsPane, NewslettersPane, ConceptsPane)


@dataclass(frozen=True)
class Status:
    """The status line, and what it counts that the keys depend on (w and v show while
    something waits)."""

    text: Text
    waiting_names: int
    waiting_changes: int


class ListsController(Controller):
    data_version: int | None = None  # the store as the lists last showed it
    counts: StatusCounts | None = None  # what the status line last said, to cut it again
    lists: Lists | None = None  # what they show

    def _panes(self) -> list[ListPane]:
        return [self.app.query_one(kind) for kind in LIST_PANES]

    def refresh(self) -> None:
        """Every list, the facts feed and the status line again (in a worker: the store may
        be large). Runs whose process died (here or in another terminal) are marked
        interrupted first."""
        first = not self.app.query_one(AskPane).asked
        panes, width = self._panes(), self.app.size.width
        self.run_thread(self._refresh, panes, width, first, group="lists", exclusive=True)

    def _refresh(self, panes: list[ListPane], width: int, first: bool) -> None:
        from memo_tui.core.agents.service import interrupt_orphans
        from memo_tui.core.views.lists import past_questions, read_lists, read_status

        self.data_version = self.services.store.data_version()  # what these lists will show
        interrupt_orphans(self.services)
        lists = read_lists(self.services)
        rows = {pane: pane.fill(lists, width) for pane in panes}
        catalog = {
            "person": lists.people_names,
            "project": lists.project_names,
            "capture": [  # titles whole, and the day: recurring meetings share a title
                (c.id, f"{c.title} ({c.occurred_at or c.captured_at[:10]})")
                for c in reversed(lists.captures)
            ],
        }
        # The first load: earlier sessions' questions, to ask again.
        past = past_questions(self.services) if first else None
        self.counts = read_status(self.services)
        status = _status(self.counts, width)
        if get_current_worker().is_cancelled:  # a newer refresh is under way: its rows win
            return
        self.lists = lists  # a resize cuts these again
        self.from_thread(self._show, rows, catalog, lists.clients, status, past)
        self.from_thread(self._resized_since, width)

    def _show(
        self,
        rows: dict[ListPane, list[Row]],
        catalog: dict[str, list[tuple[int, str]]],
        clients: list[str],
        status: Status,
        past: list[str] | None,
    ) -> None:
        app = self.app
        self._rows(rows)
        app.catalog = catalog
        facts = app.query_one(FactsPane)
        facts.suggest_names(
            [name for _, name in catalog["person"]],
            [name for _, name in catalog["project"]],
            clients,
        )
        facts.reload()
        if past is not None:
            app.query_one(AskPane).remember(past)
        app.waiting_names, app.waiting_changes = status.waiting_names, status.waiting_changes
        app.query_one("#status", Static).update(status.text)
        app.controllers.startup.stamp("ready")
        app.refresh_bindings()  # w shows while names wait

    def _resized_since(self, width: int) -> None:
        """A resize while the lists were read (before any were, it had none to cut): cut
        them again to the width the terminal has now."""
        if self.app.size.width != width:
            self.relayout()

    def relayout(self) -> None:
        """The lists cut to the terminal's new width (from what the last refresh read)."""
        if self.lists is None:
            return
        panes, width = self._panes(), self.app.size.width
        self.run_thread(self._relayout, panes, self.lists, width, group="relayout", exclusive=True)

    def _relayout(self, panes: list[ListPane], lists: Lists, width: int) -> None:
        rows = {pane: pane.fill(lists, width) for pane in panes}
        if not get_current_worker().is_cancelled:
            self.from_thread(self._rows, rows)
            if self.counts is not None:
                status = _status(self.counts, width).text
                self.from_thread(self.app.query_one("#status", Static).update, status)

    @staticmethod
    def _rows(rows: dict[ListPane, list[Row]]) -> None:
        for pane, pane_rows in rows.items():
            pane.show_rows(pane_rows)

    # Other processes' writes

    def watch(self) -> None:
        """Look for another process's writes (every `MemoApp.WATCH_EVERY_S`), unless a load is
        under way."""
        jobs = self.app.controllers.jobs
        if not jobs.running("lists") and not jobs.running("watch"):
            self.run_thread(self._outside_writes, group="watch", exclusive=True)

    def _outside_writes(self) -> None:
        """Show them: the lists, the status line and any open page."""
        try:
            version = self.services.store.data_version()
        except Exception:  # noqa: BLE001 - a busy or vanished file: look again next tick
            return
        if self.data_version is not None and version != self.data_version:
            self.from_thread(self.app.refresh_lists)
            self.from_thread(self.app.refresh_pages)
        settings = self.services.settings
        if self.services.embed.unavailable and settings.embed_model_path is None:
            folder = settings.embed_model_folder  # (memo backfill in a terminal fetched it)
            if folder is not None:
                self.from_thread(self.app.controllers.jobs.model_appeared, folder)


def _status(counts: StatusCounts, width: int) -> Status:
    """The status line: the model answering, the search, what waits, today's spend, and
    "F1 help" last. At the terminal's width the model's and the search's names give way
    (cut short with "…"), never the rest."""
    waiting = []
    if counts.waiting_names:
        waiting.append(f"{plural(counts.waiting_names, 'name')} to settle (w)")
    # What memo applied on its own is said when captured; v shows it with the rest.
    unsure = [(counts.proposed_items, "item"), (counts.proposed_changes, "change")]
    if said := [plural(n, what) for n, what in unsure if n]:
        waiting.append(f"{' and '.join(said)} to review (v)")
    tail = [*waiting, f"today ${counts.spend_microdollars / 1e6:.2f}", "F1 help"]
    fits = width - 2  # (the bar's padding)
    named = [f"{counts.provider} {counts.model}".strip(), counts.search]
    sep = SEPARATOR if len(SEPARATOR.join([*named, *tail])) <= fits else " | "
    text = sep.join([*_named_to_fit(named, fits - len(sep.join(tail)), sep), *tail])
    return Status(line(text), counts.waiting_names, counts.to_review)


def _named_to_fit(named: list[str], room: int, sep: str) -> list[str]:
    """The model's and the search's names in `room` (each with its separator): cut short
    with "…", the search's left out before the model's, both when there is no room."""
    model, search = named
    if len(model) + len(search) + 2 * len(sep) <= room:
        return named
    room -= 2 * len(sep)
    if room >= 24:
        search = _cut(search, max(10, room - len(model)))
        return [_cut(model, room - len(search)), search]
    room += len(sep)  # the search left out: one separator fewer
    return [_cut(model, room)] if room >= 8 else []


SEPARATOR = "  |  "


def _cut(text: str, room: int) -> str:
    return text if len(text) <= room else text[: room - 1].rstrip() + "…"
