"""The memo app: panes a key away, pages for a meeting, a person and a project, dialogs,
and long work (capture, embedding, answers) in workers with progress and cancel.

Every string that came from a transcript, a name or a model goes through `ui.text`, which
sanitizes it and shows it as plain `rich.text.Text`, never as markup.
"""

from __future__ import annotations

import datetime as dt
import os
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.css.query import NoMatches
from textual.widgets import ContentSwitcher, DataTable, Label, ProgressBar, Static

from memo_tui.core.safety import sanitize
from memo_tui.ui import dialogs
from memo_tui.ui.text import line, plural
from memo_tui.ui.widgets.ask import AskPane
from memo_tui.ui.widgets.captures import CapturesPane
from memo_tui.ui.widgets.concepts import ConceptsPane
from memo_tui.ui.widgets.facts import FactsPane
from memo_tui.ui.widgets.footer import KeyFooter
from memo_tui.ui.widgets.newsletters import NewslettersPane
from memo_tui.ui.widgets.pane import ListPane, Pane
from memo_tui.ui.widgets.people import PeoplePane
from memo_tui.ui.widgets.projects import ProjectsPane
from memo_tui.ui.widgets.runs import RunsPane
from memo_tui.ui.widgets.table import Row, Table
from memo_tui.ui.workflows import CANCELLABLE, Workflows

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.command import Provider
    from textual.timer import Timer

    from memo_tui.core.services import Services
    from memo_tui.settings import Settings
    from store import FactRecord


def _memo_commands() -> type[Provider]:
    """The palette's memo commands, imported when the palette first opens."""
    from memo_tui.ui.commands import MemoCommands

    return MemoCommands


# Keys that wait until the store is open (it opens just after the first paint).
_NEEDS_THE_STORE = frozenset(
    {"capture", "who", "review_changes", "help", "command_palette", "filter"}
)
# Keys that show only while they can do something; F1 lists them all the same.
_SOMETIMES = {
    "app.who": "Who? (settle a name several people fit, while one waits)",
    "app.review": "Review changes across meetings (while a proposal waits)",
    "app.cancel": "Stop the running job (while one runs)",
}
# The app's own keys, which wait while a dialog is up (tab, ctrl+q and the rest still work).
_MAIN_SCREEN_ACTIONS = frozenset(
    {"pane", "capture", "filter", "who", "review_changes", "help", "command_palette"}
)


class MemoApp(Workflows):
    """memo in the terminal."""

    TITLE = "memo"
    COMMANDS = App.COMMANDS | {_memo_commands}
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
    #ask-output .exchange { margin: 0 0 1 0; color: $text-muted; }
    #ask-sources, #ask-history {  /* (a scrollbar always: see detail.Page's note) */
        height: auto; border: round $panel; border-title-color: $text-muted;
        overflow-y: scroll;
    }
    #ask-sources { max-height: 9; }
    #ask-history { max-height: 6; }
    #capture-detail { padding: 0 1; }
    .empty { height: auto; padding: 1 2; }
    """
    BINDINGS = [
        Binding("1", "pane('captures')", "Captures", id="pane.captures"),
        Binding("2", "pane('facts')", "Facts", id="pane.facts"),
        Binding("3", "pane('people')", "People", id="pane.people"),
        Binding("4", "pane('projects')", "Projects", id="pane.projects"),
        Binding("5", "pane('ask')", "Ask", id="pane.ask"),
        Binding("6", "pane('runs')", "Runs", id="pane.runs"),
        # 7 and 8 leave the footer to the keys of the pane in hand (F1 and ctrl+p list them).
        Binding("7", "pane('newsletters')", "News", id="pane.newsletters", show=False),
        Binding("8", "pane('concepts')", "Concepts", id="pane.concepts", show=False),
        Binding("c", "capture", "Capture", id="app.capture"),
        Binding("slash", "filter", "Filter", id="app.filter", show=False),
        Binding("w", "who", "Who?", id="app.who"),
        Binding("v", "review_changes", "Review", id="app.review"),
        Binding("f1,question_mark", "help", "Help", id="app.help", show=False),
        Binding("ctrl+p", "command_palette", "Palette", id="app.palette", show=False),
        Binding("ctrl+x", "cancel_job", "Stop", id="app.cancel"),
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True, show=False),
    ]

    def __init__(
        self,
        services: Services | None = None,
        seed_demo: bool = False,
        *,
        opener: Callable[[], Services] | None = None,
    ) -> None:
        """On `services`, or on what `opener` returns: the app then paints first, and reads
        the settings and opens the store (with the imports those need) in a worker."""
        super().__init__()
        if services is None and opener is None:
            raise ValueError("MemoApp needs services or an opener")
        self._services = services
        self.opener = opener
        self.seed_demo = seed_demo
        self.catalog: dict[str, list[tuple[int, str]]] = {}  # for the command palette
        self.waiting_names = 0  # names several people fit, waiting for the user
        self.waiting_changes = 0  # changes across meetings proposed, waiting for the user
        self.probe: Path | None = None  # `memo bench startup` times the start into it
        self.stamped: set[str] = set()  # what the probe has been told
        self.animation_level = "none"  # until the settings say otherwise
        self._relayout: Timer | None = None  # lays the lists out again after a resize
        self._data_version: int | None = None  # the store as the lists last showed it

    # Layout and start

    def compose(self) -> ComposeResult:
        with ContentSwitcher(initial="captures", id="panes"):
            yield CapturesPane(id="captures")
            yield FactsPane(id="facts")
            yield PeoplePane(id="people")
            yield ProjectsPane(id="projects")
            yield AskPane(id="ask")
            yield RunsPane(id="runs")
            yield NewslettersPane(id="newsletters")
            yield ConceptsPane(id="concepts")
        with Horizontal(id="job"):
            yield Label(id="job-label")
            yield ProgressBar(id="job-progress", show_eta=False)
        yield Static(Text("Opening the store…", style="dim"), id="status")
        yield KeyFooter(show_command_palette=False)

    def on_mount(self) -> None:
        probe = os.environ.get("MEMO_STARTUP_PROBE")
        if probe:  # `memo bench startup`: note when the first screen is drawn
            self.probe = Path(probe)
            self.call_after_refresh(self._stamp, "painted")
        self.query_one(CapturesPane).focus_first()
        if self._services is None:  # after the first paint: the imports would slow it
            self.call_after_refresh(self.open_store)
        else:
            self._start()

    def _apply_settings(self, settings: Settings) -> None:
        """Theme, animation and the user's keymap."""
        self.animation_level = "full" if settings.animations else "none"
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

    def _stamp(self, what: str) -> None:
        """`memo bench startup`: first paint, the lists filled and the facts feed's first
        page shown (then leave)."""
        if self.probe is None or what in self.stamped:
            return
        with self.probe.open("a", encoding="utf-8") as out:
            out.write(f"{what} {time.time()}\n")
        self.stamped.add(what)
        if {"ready", "feed"} <= self.stamped:
            self.exit()

    @work(thread=True, exclusive=True, group="open", exit_on_error=False)
    def open_store(self) -> None:
        """Open the store (importing SQLAlchemy and the rest) after the first paint."""
        assert self.opener is not None
        try:
            services = self.opener()
            seed = self.seed_demo and not services.store.captures()
        except Exception as error:  # noqa: BLE001 - the app cannot work without its store
            bad_settings = isinstance(error, ValueError)  # (the opener says which setting)
            message = f"memo: {error}" if bad_settings else f"memo: cannot open the store: {error}"
            code = 2 if bad_settings else 1  # the CLI's usage and refused exit codes
            self.call_from_thread(self.exit, return_code=code, message=line(message))
            return
        self.call_from_thread(self._opened, services, seed)

    def _opened(self, services: Services, seed: bool) -> None:
        self._services = services
        self.seed_demo = seed
        self.refresh_bindings()
        self._start()

    def _start(self) -> None:
        self._apply_settings(self.services.settings)
        if self.seed_demo:
            self.seed()
        else:
            self.refresh_lists()
        self.set_interval(self.WATCH_EVERY_S, self._watch_store)

    # How often the app looks for writes by another process (`memo capture` in another
    # shell): one PRAGMA on the writer's connection, in a worker.
    WATCH_EVERY_S = 2.0

    def _watch_store(self) -> None:
        if not self.running("lists") and not self.running("watch"):
            self._outside_writes()

    @work(thread=True, exclusive=True, group="watch", exit_on_error=False)
    def _outside_writes(self) -> None:
        """Show another process's writes: the lists, the status line and any open page."""
        try:
            version = self.services.store.data_version()
        except Exception:  # noqa: BLE001 - a busy or vanished file: look again next tick
            return
        if self._data_version is not None and version != self._data_version:
            self.call_from_thread(self.refresh_lists)
            self.call_from_thread(self.refresh_pages)

    def _apply_keymap(self, keymap: dict[str, str]) -> None:
        from memo_tui.ui.screens.capture import CaptureScreen
        from memo_tui.ui.screens.page import Page
        from memo_tui.ui.screens.run import RunScreen

        known = {b.id for _, b in self._bindings} | {
            b.id
            for cls in (
                *Pane.__subclasses__(),
                *ListPane.__subclasses__(),
                Page,
                *Page.__subclasses__(),
                CaptureScreen,
                RunScreen,
                Table,
                dialogs.Dialog,
                *dialogs.Dialog.__subclasses__(),
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
        """Lists and the status line from the store (a worker: the store may be large).
        Runs whose process died (here or in another terminal) are marked interrupted first."""
        from memo_tui.core.agents.service import interrupt_orphans

        store = self.services.store
        self._data_version = store.data_version()  # what these lists will show
        interrupt_orphans(self.services)
        rows = self._fill_lists()
        directory = store.directory()
        self.catalog = {
            "person": [(p.id, p.name) for p in directory.people],
            "project": [(p.id, p.name) for p in directory.projects],
            "capture": [  # titles whole, and the day: recurring meetings share a title
                (c.id, f"{c.title} ({c.occurred_at or c.captured_at[:10]})")
                for c in reversed(store.captures())
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
        ask = self.query_one(AskPane)
        if not ask.asked:  # the first load: earlier sessions' questions, to ask again
            self.call_from_thread(ask.remember, ask.past_questions(self.services))
        self.call_from_thread(self.query_one("#status", Static).update, status)
        self.call_from_thread(self._stamp, "ready")
        self.call_from_thread(self.refresh_bindings)  # w shows while names wait

    def _fill_lists(self) -> dict[ListPane, list[Row]]:
        """Each list pane's rows, cut to the terminal's width (in a worker)."""
        panes = (CapturesPane, PeoplePane, ProjectsPane, RunsPane, NewslettersPane, ConceptsPane)
        return {(pane := self.query_one(kind)): pane.fill(self.services) for kind in panes}

    def on_resize(self) -> None:
        """Cells are cut to the width: lay the lists out again once the resizing stops."""
        if self._relayout is not None:
            self._relayout.stop()
        self._relayout = self.set_timer(0.3, self._lay_out_again)

    def _lay_out_again(self) -> None:
        if not self.ready:
            return
        try:
            facts = self.query_one(FactsPane)
        except NoMatches:  # a resize timer that fires as the app closes: nothing to lay out
            return
        self.relayout_lists()
        facts.relayout()

    @work(thread=True, exclusive=True, group="relayout", exit_on_error=False)
    def relayout_lists(self) -> None:
        for pane, pane_rows in self._fill_lists().items():
            self.call_from_thread(pane.show_rows, pane_rows)

    def _status_line(self) -> Text:
        from memo_tui.core.llm import select

        services = self.services
        provider = services.provider.name
        model = "" if provider == "offline" else " " + select.model_for(services.settings, "answer")
        vectors = services.store.embedding_model()
        search = "keyword search only" if services.embed.unavailable or not vectors else vectors
        waiting = self.waiting_names = len(services.store.pending_mentions()) + len(
            services.store.address_proposals()
        )
        today = dt.datetime.now(dt.UTC).date().isoformat()  # the ledger keeps UTC
        spend = sum(cost.cost_microdollars for cost in services.store.llm_costs("day", today))
        parts = [f"{provider}{model}", search]
        if waiting:
            parts.append(f"{plural(waiting, 'name')} to settle (w)")
        changes = self.waiting_changes = len(services.store.changes(("proposed",)))
        if changes:
            parts.append(f"{plural(changes, 'change')} to review (v)")
        parts.append(f"today ${spend / 1e6:.2f}")
        parts.append("F1 help")
        return line("  |  ".join(parts))

    # Moving around

    def current_pane(self) -> Pane:
        return self.query_one(f"#{self.query_one(ContentSwitcher).current}", Pane)

    async def on_event(self, event: events.Event) -> None:
        """Pasted text is drawn as it is typed: its controls are made visible first (a page
        copied from the web can hide an escape sequence)."""
        if isinstance(event, events.Paste):
            event.text = sanitize(event.text)
        await super().on_event(event)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A dialog on top owns the keyboard: the app's keys wait (ctrl+q still quits)."""
        if isinstance(self.screen, dialogs.Dialog) and action in _MAIN_SCREEN_ACTIONS:
            return False
        if action in _NEEDS_THE_STORE and not self.ready:
            return False
        if action == "who":  # shown while names wait (the status line says how many)
            return self.waiting_names > 0
        if action == "review_changes":
            return self.waiting_changes > 0
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
        active = [(key, a.binding) for key, a in screen.active_bindings.items()]
        later = [(key, b) for key, b in self._bindings if b.id in _SOMETIMES]  # (when hidden)
        for key, binding in [*active, *later]:
            if binding.description and binding.id:
                does = _SOMETIMES.get(binding.id, binding.description)
                shown = keys.setdefault(binding.id, ([], does))[0]
                display = self.get_key_display(replace(binding, key=key)) or key
                if display not in shown:
                    shown.append(display)
        rows = [(" ".join(k), does, binding_id) for binding_id, (k, does) in keys.items()]
        self.push_screen(dialogs.Help(f"{title}: keys", about, rows))

    @on(DataTable.RowSelected)
    def open_row(self, event: DataTable.RowSelected) -> None:
        key = event.row_key.value
        pane = event.data_table.parent
        if key is None or not isinstance(pane, ListPane):
            return
        if isinstance(pane, CapturesPane):
            self.open_capture(int(key))
        elif isinstance(pane, PeoplePane):
            self.go_to("person", int(key))
        elif isinstance(pane, ProjectsPane):
            self.go_to("project", int(key))
        elif isinstance(pane, ConceptsPane):
            self.go_to("concept", int(key))
        elif isinstance(pane, RunsPane):
            from memo_tui.ui.screens.run import RunScreen

            self.push_screen(RunScreen(self.services, int(key)))

    def open_capture(self, capture_id: int, lines: tuple[int, int] | None = None) -> None:
        from memo_tui.ui.screens.capture import CaptureScreen

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
        """A person's or project's page, or a meeting."""
        from memo_tui.ui.screens.concept import ConceptPage
        from memo_tui.ui.screens.person import PersonPage
        from memo_tui.ui.screens.project import ProjectPage

        if kind == "concept":
            self.push_screen(ConceptPage(self.services, entity_id))
        elif kind == "person":
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
