"""The memo app: panes a key away, pages for a meeting, a person and a project, dialogs,
and long work (capture, embedding, answers) in workers with progress and cancel.

Every string that came from a transcript, a name or a model goes through `ui.text`, which
sanitizes it and shows it as plain `rich.text.Text`, never as markup.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import time
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import ContentSwitcher, DataTable, Footer, Label, ProgressBar, Static
from textual.worker import Worker, WorkerState

from memo_tui.ui import modals
from memo_tui.ui.capture_view import CaptureScreen
from memo_tui.ui.commands import MemoCommands
from memo_tui.ui.detail import Page, PersonPage, ProjectPage
from memo_tui.ui.panes import (
    AskPane,
    CapturesPane,
    FactsPane,
    ListPane,
    Pane,
    PeoplePane,
    ProjectsPane,
    Row,
)
from memo_tui.ui.text import line, plural
from store import FactRecord, NoteRecord, Provenance

if TYPE_CHECKING:
    from memo_tui.core.capture import CaptureResult, Replacement
    from memo_tui.core.services import Services

PANES = ("captures", "facts", "people", "projects", "ask")
JOBS = ("capture", "backfill", "seed")  # worker groups the job bar reports
CANCELLABLE = (*JOBS, "ask", "facts")  # worker groups ctrl+x stops
# The app's own keys, which wait while a dialog is up (tab, ctrl+q and the rest still work).
_MAIN_SCREEN_ACTIONS = frozenset(
    {"pane", "capture", "filter", "who", "help", "command_palette"}
)  # worker groups the job bar reports and ctrl+x cancels


class MemoApp(App[None]):
    """memo in the terminal."""

    TITLE = "memo"
    COMMANDS = App.COMMANDS | {MemoCommands}
    CSS = """
    #panes { height: 1fr; }
    #status { height: 1; background: $panel; padding: 0 1; }
    #job { height: 1; padding: 0 1; background: $boost; display: none; }
    #job.running { display: block; }
    #job Label { width: auto; margin: 0 2 0 0; }
    #job ProgressBar { width: 1fr; }
    .bar { height: 1; }
    .bar Input { width: 1fr; margin: 0 1 0 0; }
    .bar Select { width: 20; }
    #facts-info { height: 1; padding: 0 1; }
    #ask-input { margin: 0 0 0 0; }
    #ask-output { height: 1fr; padding: 0 1; }
    #ask-sources { height: auto; max-height: 9; border: round $panel; }
    #ask-history { height: auto; max-height: 6; border: round $panel; }
    #capture-detail { padding: 0 1; }
    """
    BINDINGS = [
        Binding("1", "pane('captures')", "Captures", id="pane.captures"),
        Binding("2", "pane('facts')", "Facts", id="pane.facts"),
        Binding("3", "pane('people')", "People", id="pane.people"),
        Binding("4", "pane('projects')", "Projects", id="pane.projects"),
        Binding("5", "pane('ask')", "Ask", id="pane.ask"),
        Binding("c", "capture", "Capture", id="app.capture"),
        Binding("slash", "filter", "Filter", id="app.filter", show=False),
        Binding("w", "who", "Who?", id="app.who"),
        Binding("f1,question_mark", "help", "Help", id="app.help"),
        Binding("ctrl+p", "command_palette", "Palette", id="app.palette", show=False),
        Binding("ctrl+x", "cancel_job", "Cancel job", id="app.cancel"),
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True, show=False),
    ]

    def __init__(self, services: Services, seed_demo: bool = False) -> None:
        super().__init__()
        self.services = services
        self.seed_demo = seed_demo
        self.catalog: dict[str, list[tuple[int, str]]] = {}  # for the command palette
        self.animation_level = "full" if services.settings.animations else "none"

    # Layout and start

    def compose(self) -> ComposeResult:
        with ContentSwitcher(initial="captures", id="panes"):
            yield CapturesPane(id="captures")
            yield FactsPane(self.services, id="facts")
            yield PeoplePane(id="people")
            yield ProjectsPane(id="projects")
            yield AskPane(self.services, id="ask")
        with Horizontal(id="job"):
            yield Label(id="job-label")
            yield ProgressBar(id="job-progress", show_eta=False)
        yield Static(id="status")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        settings = self.services.settings
        if settings.theme in self.available_themes:
            self.theme = settings.theme
        else:
            self.notify(
                f"Unknown theme {settings.theme!r}; try one of: "
                + ", ".join(sorted(self.available_themes)),
                severity="warning",
                markup=False,
            )
        self._apply_keymap(settings.keymap)
        probe = os.environ.get("MEMO_STARTUP_PROBE")
        if probe:  # `memo bench startup`: note when the first screen is drawn, then leave
            self.call_after_refresh(self._first_paint, Path(probe))
        self.query_one(CapturesPane).focus_first()
        if self.seed_demo:
            self.seed()
        else:
            self.refresh_lists()

    def _first_paint(self, probe: Path) -> None:
        probe.write_text(f"{time.time()}\n", encoding="utf-8")
        self.exit()

    def _apply_keymap(self, keymap: dict[str, str]) -> None:
        known = {b.id for _, b in self._bindings} | {
            b.id
            for cls in (
                *Pane.__subclasses__(),
                *ListPane.__subclasses__(),
                Page,
                *Page.__subclasses__(),
                CaptureScreen,
            )
            for b in getattr(cls, "BINDINGS", [])
            if isinstance(b, Binding)
        }
        unknown = sorted(set(keymap) - known)
        if unknown:
            self.notify(
                f"keymap: no binding has the id {', '.join(unknown)} (F1 lists them)",
                severity="warning",
                markup=False,
            )
        self.set_keymap({k: v for k, v in keymap.items() if k in known})

    # Lists and the status line

    @work(thread=True, exclusive=True, group="lists", exit_on_error=False)
    def refresh_lists(self) -> None:
        """Lists and the status line from the store (a worker: the store may be large)."""
        store = self.services.store
        captures = self.query_one(CapturesPane)
        rows: dict[ListPane, list[Row]] = {
            captures: captures.fill(self.services),
            self.query_one(PeoplePane): self.query_one(PeoplePane).fill(self.services),
            self.query_one(ProjectsPane): self.query_one(ProjectsPane).fill(self.services),
        }
        directory = store.directory()
        self.catalog = {
            "person": [(p.id, p.name) for p in directory.people],
            "project": [(p.id, p.name) for p in directory.projects],
            "capture": [
                (int(r.key), r.cells[0].plain if isinstance(r.cells[0], Text) else "")
                for r in rows[captures]
            ],
        }
        status = self._status_line()
        for pane, pane_rows in rows.items():
            self.call_from_thread(pane.show_rows, pane_rows)
        facts = self.query_one(FactsPane)
        self.call_from_thread(
            facts.suggest_names,
            [name for _, name in self.catalog["person"]],
            [name for _, name in self.catalog["project"]],
        )
        self.call_from_thread(facts.reload)
        self.call_from_thread(self.query_one("#status", Static).update, status)
        if not rows[captures]:
            self.call_from_thread(
                self.notify,
                "No captures yet: press c to capture a transcript (or try memo --demo).",
                timeout=10,
            )

    def _status_line(self) -> Text:
        from memo_tui.core.llm import select

        services = self.services
        provider = services.provider.name
        model = "" if provider == "offline" else " " + select.model_for(services.settings, "answer")
        vectors = services.store.embedding_model()
        search = "keyword search only" if services.embed.unavailable or not vectors else vectors
        waiting = len(services.store.pending_mentions())
        today = dt.datetime.now(dt.UTC).date().isoformat()  # the ledger keeps UTC
        spend = sum(cost.cost_microdollars for cost in services.store.llm_costs("day", today))
        parts = [f"{provider}{model}", search]
        if waiting:
            parts.append(f"{plural(waiting, 'name')} to settle (w)")
        parts.append(f"today ${spend / 1e6:.2f}")
        return line("  |  ".join(parts))

    # Moving around

    def current_pane(self) -> Pane:
        return self.query_one(f"#{self.query_one(ContentSwitcher).current}", Pane)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A dialog on top owns the keyboard: the app's keys wait (ctrl+q still quits)."""
        if isinstance(self.screen, modals.Dialog) and action in _MAIN_SCREEN_ACTIONS:
            return False
        if action == "cancel_job":  # shown only while there is something to stop
            return any(w.group in CANCELLABLE and w.is_running for w in self.workers)
        return True

    def action_pane(self, name: str) -> None:
        while len(self.screen_stack) > 1:  # back to the panes from a meeting or a page
            self.pop_screen()
        self.query_one(ContentSwitcher).current = name
        self.current_pane().focus_first()

    def action_filter(self) -> None:
        if len(self.screen_stack) == 1:
            self.current_pane().start_filter()

    def action_help(self) -> None:
        """The focused pane's (or page's) purpose and its keys, with their binding ids."""
        screen = self.screen
        about = getattr(screen, "HELP", "") if len(self.screen_stack) > 1 else ""
        title = type(screen).__name__.removesuffix("Screen").removesuffix("Page")
        if not about:
            pane = self.current_pane()
            about, title = pane.HELP, str(pane.id).title()
        keys: dict[str, tuple[list[str], str]] = {}  # binding id: its keys, what it does
        for key, active in screen.active_bindings.items():
            binding = active.binding
            if binding.description and binding.id:
                shown = keys.setdefault(binding.id, ([], binding.description))[0]
                shown.append(self.get_key_display(replace(binding, key=key)) or key)
        rows = [(" ".join(k), does, binding_id) for binding_id, (k, does) in keys.items()]
        self.push_screen(modals.Help(f"{title}: keys", about, rows))

    @on(DataTable.RowSelected)
    def open_row(self, event: DataTable.RowSelected) -> None:
        key = event.row_key.value
        pane = event.data_table.parent
        if key is None or not isinstance(pane, ListPane):
            return
        if isinstance(pane, CapturesPane):
            self.open_capture(int(key))
        elif isinstance(pane, PeoplePane):
            self.push_screen(PersonPage(self.services, int(key)))
        elif isinstance(pane, ProjectsPane):
            self.push_screen(ProjectPage(self.services, int(key)))

    def open_capture(self, capture_id: int, lines: tuple[int, int] | None = None) -> None:
        self.push_screen(CaptureScreen(self.services, capture_id, lines))

    def open_fact(self, fact: FactRecord) -> None:
        if fact.capture_id is None:
            self.notify("A note: it has no transcript to open.")
            return
        lines = (
            (fact.line_start, fact.line_end)
            if fact.line_start is not None and fact.line_end is not None
            else None
        )
        self.open_capture(fact.capture_id, lines)

    def go_to(self, kind: str, entity_id: int) -> None:
        """From the command palette: a person, project or meeting."""
        if kind == "person":
            self.push_screen(PersonPage(self.services, entity_id))
        elif kind == "project":
            self.push_screen(ProjectPage(self.services, entity_id))
        else:
            self.open_capture(entity_id)

    def ask(self, question: str) -> None:
        self.action_pane("ask")
        pane = self.query_one(AskPane)
        pane.query_one("#ask-input").value = question  # type: ignore[attr-defined]
        pane.ask(question)

    # Names

    @work(exclusive=True, group="who", exit_on_error=False)
    async def action_who(self, only: list[str] | None = None) -> None:
        """Settle the names waiting for the user, one dialog each (`only` those names)."""
        from memo_tui.core.entities.service import EntityService

        entities = EntityService(self.services.store, self.services.settings.user_name)
        waiting = await asyncio.to_thread(entities.pending)
        if only is not None:
            waiting = [w for w in waiting if w.mention.mention in only]
        if not waiting:
            if only is None:
                self.notify("No names are waiting: every owner and decider is settled.")
            return
        for item in waiting:
            mention = item.mention
            candidates = [(c.id, c.name) for c in item.resolution.candidates]
            dialog = modals.WhoIsIt(
                mention.mention, mention.action_items + mention.decisions, candidates
            )
            choice = await self.push_screen_wait(dialog)
            if choice is None:
                break
            person = (
                next(p for p in self.services.store.directory().people if p.id == choice)
                if choice
                else None
            )
            filled = await asyncio.to_thread(entities.confirm, mention.mention, person)
            who = person.name if person else "none of the people memo knows"
            self.notify(
                line(
                    f"{mention.mention} = {who}: "
                    f"{plural(filled.action_items + filled.decisions, 'item')} updated"
                ).plain,
                markup=False,  # names come from transcripts
            )
        self.refresh_lists()
        self.refresh_pages()

    def refresh_pages(self) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, Page):
                screen.reload()
            elif isinstance(screen, CaptureScreen):
                screen.load()

    # Capture

    def action_capture(self) -> None:
        def chosen(path: Path | None) -> None:
            if path is not None:
                self.capture_job(path)

        self.push_screen(modals.CaptureFile(), chosen)

    @work(thread=True, exclusive=True, group="capture", exit_on_error=False)
    def capture_job(self, path: Path) -> None:
        """Capture a file or a folder, one file at a time; ctrl+x stops between files."""
        from memo_tui.core.capture import iter_sources

        worker = self._current_worker()
        sources = list(iter_sources([path]))
        results: list[CaptureResult] = []
        self.call_from_thread(self._job, "Capturing", 0, len(sources))
        for number, (source, problem) in enumerate(sources):
            if worker.is_cancelled:
                break
            self.call_from_thread(self._job, f"Capturing {source.name}", number, len(sources))
            if problem is not None:
                from memo_tui.core.capture import CaptureResult

                results.append(CaptureResult(str(source), "rejected", error=problem.message))
                continue
            results.append(
                self.services.capture.capture_file(source, ask_replace=self._ask_replace)
            )
        self.call_from_thread(self._captured, results, len(sources), worker.is_cancelled)

    def _ask_replace(self, replacement: Replacement) -> bool:
        """From the capture worker: show what would change and wait for the answer."""
        store = self.services.store
        stored = store.capture(replacement.stored_id)
        title, body, _, _ = store.capture_source(replacement.stored_id)
        new = replacement.new
        dialog = modals.replace_dialog(
            replacement.name,
            modals.Version(
                title,
                stored.occurred_at if stored else None,
                stored.decisions if stored else 0,
                stored.action_items if stored else 0,
                body.count("\n") + 1,
            ),
            modals.Version(
                new.title,
                new.occurred_at,
                len(new.decisions),
                len(new.action_items),
                new.line_count,
            ),
        )
        answer: Future[bool | None] = Future()
        self.call_from_thread(self.push_screen, dialog, answer.set_result)
        return bool(answer.result())

    def _captured(self, results: list[CaptureResult], total: int, cancelled: bool) -> None:
        self._job_done()
        counts: dict[str, int] = {}
        for result in results:
            counts[result.status] = counts.get(result.status, 0) + 1
        said = ", ".join(f"{n} {status.replace('_', ' ')}" for status, n in counts.items())
        if cancelled:
            said += f"; stopped after {len(results)} of {total} (ctrl+x)"
        problems = [r.error for r in results if r.status == "rejected" and r.error]
        kept = [r.error for r in results if r.status == "needs_replace" and r.error]
        self.notify(line(said or "nothing captured").plain, markup=False)
        if problems:
            self.push_screen(
                modals.ErrorDialog(
                    f"{plural(len(problems), 'file')} not captured",
                    "\n".join(problems[:20]) + ("\n..." if len(problems) > 20 else ""),
                )
            )
        for message in kept:
            self.notify(line(message).plain, markup=False)
        self.refresh_lists()
        names = [name for r in results if r.ok for name in r.pending_names]
        if names:  # the meeting named someone several people fit: ask now
            self.action_who(list(dict.fromkeys(names)))

    # Delete, projects, notes

    @work(exclusive=True, group="edit", exit_on_error=False)
    async def delete_capture(self, capture_id: int) -> None:
        store = self.services.store
        found = await asyncio.to_thread(store.capture, capture_id)
        if found is None:
            return
        dialog = modals.delete_dialog(
            found.title, found.occurred_at, found.decisions, found.action_items
        )
        if not await self.push_screen_wait(dialog):
            return
        await asyncio.to_thread(store.delete_capture, capture_id)
        if isinstance(self.screen, CaptureScreen) and self.screen.capture_id == capture_id:
            self.pop_screen()
        self.notify(line(f"Deleted {found.title}").plain, markup=False)
        self.refresh_lists()

    @work(exclusive=True, group="edit", exit_on_error=False)
    async def add_project(self) -> None:
        answer = await self.push_screen_wait(modals.NewProject())
        if answer is None:
            return
        name, client = answer
        try:
            await asyncio.to_thread(self.services.store.add_project, name, client)
        except Exception as error:  # noqa: BLE001 - e.g. the name is taken: say so
            self.push_screen(modals.ErrorDialog("Project not added", str(error)))
            return
        self.notify(line(f"Added project {name}").plain, markup=False)
        self.refresh_lists()

    @work(exclusive=True, group="edit", exit_on_error=False)
    async def write_note(self, project_id: int, page: Page | None = None) -> None:
        store = self.services.store
        project = await asyncio.to_thread(store.project, project_id)
        if project is None:
            return
        body = await self.push_screen_wait(
            modals.NoteEditor(f"A note about {project.summary.name}")
        )
        if body is None:
            return
        provenance = Provenance(
            "note", f"project:{project_id}", _now(), self.services.settings.user_name
        )
        await asyncio.to_thread(store.add_project_note, project.summary.name, body, provenance)
        await self._noted(page)

    @work(exclusive=True, group="edit", exit_on_error=False)
    async def edit_note(self, note: NoteRecord, page: Page | None = None) -> None:
        about = f"Your note about {note.owner}" + (" (the client)" if note.kind == "client" else "")
        body = await self.push_screen_wait(modals.NoteEditor(about, note.body))
        if body is None or body == note.body:
            return
        await asyncio.to_thread(self.services.store.update_note, note.id, body)
        await self._noted(page)

    @work(exclusive=True, group="edit", exit_on_error=False)
    async def delete_note(self, note: NoteRecord, page: Page | None = None) -> None:
        dialog = modals.Confirm("Delete this note?", line(note.body, 200), "Delete", danger=True)
        if not await self.push_screen_wait(dialog):
            return
        await asyncio.to_thread(self.services.store.delete_note, note.id)
        await self._noted(page)

    async def _noted(self, page: Page | None) -> None:
        """A note changed: embed it (best effort), refresh what shows it."""
        if not self.services.embed.unavailable:
            self.backfill(quiet=True)
        if page is not None:
            page.reload()
        self.refresh_lists()

    # Embeddings and the demo

    def action_backfill(self) -> None:
        self.backfill()

    @work(thread=True, exclusive=True, group="backfill", exit_on_error=False)
    def backfill(self, quiet: bool = False) -> None:
        """Embed every fact without a vector, a batch at a time (ctrl+x stops)."""
        worker = self._current_worker()
        embed = self.services.embed
        total = self.services.store.count_without_vectors()
        if not quiet:
            self.call_from_thread(self._job, "Embedding facts", 0, total)

        def progress(result: Any) -> None:
            if worker.is_cancelled:
                raise _Stopped
            if not quiet:
                done = result.embedded + result.reused
                self.call_from_thread(self._job, "Embedding facts", done, total)

        try:
            result = embed.backfill(progress=progress)
        except _Stopped:
            self.call_from_thread(self._job_done, "Embedding stopped; memo backfill resumes it")
            return
        said = (
            f"Embedded {result.embedded}, reused {result.reused}; "
            f"{result.remaining} without a vector" + (f" ({result.error})" if result.error else "")
        )
        self.call_from_thread(self._job_done, None if quiet and not result.error else said)
        self.call_from_thread(self.refresh_lists)

    @work(thread=True, exclusive=True, group="seed", exit_on_error=False)
    def seed(self) -> None:
        """The demo store on first use: capture the sample meetings, showing progress."""
        from memo_tui.core.demo import demo_meetings, seed_demo

        total = len(demo_meetings())
        self.call_from_thread(self._job, "Seeding the demo meetings", 0, total)
        done = 0

        def one(_: object) -> None:
            nonlocal done
            done += 1
            self.call_from_thread(self._job, "Seeding the demo meetings", done, total)

        seed_demo(self.services.capture, progress=one)
        self.call_from_thread(self._job_done)
        self.call_from_thread(self.refresh_lists)

    # The job bar, cancel and failures

    def _job(self, label: str, done: int, total: int) -> None:
        bar = self.query_one("#job")
        if not bar.has_class("running"):
            bar.add_class("running")
            self.refresh_bindings()  # ctrl+x appears
        self.query_one("#job-label", Label).update(line(f"{label} ({done}/{total}) · ctrl+x stops"))
        self.query_one(ProgressBar).update(total=max(total, 1), progress=done)

    def _job_done(self, message: str | None = None) -> None:
        self.query_one("#job").remove_class("running")
        self.refresh_bindings()
        if message:
            self.notify(line(message).plain, markup=False)

    def action_cancel_job(self) -> None:
        running = [w for w in self.workers if w.group in (*JOBS, "ask", "facts") and w.is_running]
        if not running:
            self.notify("Nothing is running.")
            return
        for worker in running:
            worker.cancel()
        self.notify("Stopping…")

    def _current_worker(self) -> Worker[Any]:
        from textual.worker import get_current_worker

        return get_current_worker()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A worker failed: say what happened; the app carries on."""
        if event.state is WorkerState.ERROR:
            self._job_done()
            what = event.worker.group or event.worker.name or "work"
            self.push_screen(
                modals.ErrorDialog(f"Something went wrong ({what})", str(event.worker.error))
            )


class _Stopped(Exception):
    """The user pressed ctrl+x during a backfill."""


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
