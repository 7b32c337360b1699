"""The memo app: panes a key away, pages for a meeting, a person and a project, dialogs.

It lays the screen out, moves around it and routes: a key or a widget's message goes to the
controller that does the work (ui.controllers), in workers with progress and cancel. Every
string that came from a transcript, a name or a model goes through `ui.text`, which
sanitizes it and shows it as plain `rich.text.Text`, never as markup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.css.query import NoMatches
from textual.widgets import ContentSwitcher, Label, ProgressBar, Static
from textual.worker import Worker

from memo_tui.core.safety import sanitize
from memo_tui.ui import dialogs, keys, messages
from memo_tui.ui.controllers import Controllers
from memo_tui.ui.widgets.ask import AskPane
from memo_tui.ui.widgets.captures import CapturesPane
from memo_tui.ui.widgets.concepts import ConceptsPane
from memo_tui.ui.widgets.facts import FactsPane
from memo_tui.ui.widgets.footer import KeyFooter
from memo_tui.ui.widgets.newsletters import NewslettersPane
from memo_tui.ui.widgets.pane import Pane
from memo_tui.ui.widgets.people import PeoplePane
from memo_tui.ui.widgets.projects import ProjectsPane
from memo_tui.ui.widgets.runs import RunsPane

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.command import Provider
    from textual.timer import Timer

    from memo_tui.core.services import Services
    from store import FactRecord


def _memo_commands() -> type[Provider]:
    """The palette's memo commands, imported when the palette first opens."""
    from memo_tui.ui.commands import MemoCommands

    return MemoCommands


# Keys that wait until the store is open (it opens just after the first paint).
_NEEDS_THE_STORE = frozenset(
    {"capture", "who", "review_changes", "help", "command_palette", "filter"}
)
# The app's own keys, which wait while a dialog is up (tab, ctrl+q and the rest still work).
_MAIN_SCREEN_ACTIONS = frozenset(
    {"pane", "capture", "filter", "who", "review_changes", "help", "command_palette"}
)


class MemoApp(App[None]):
    """memo in the terminal: the panes and the status line; keys and the widgets' messages
    routed to the controllers that do the work."""

    TITLE = "memo"
    COMMANDS = App.COMMANDS | {_memo_commands}
    CSS_PATH = "styles/memo.tcss"
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
        # (over the boxes too: a question typed and asked leaves the keyboard in its box; with
        # nothing to stop, ctrl+x is the box's own, cut)
        Binding("ctrl+x", "cancel_job", "Stop", id="app.cancel", priority=True),
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
        self.controllers = Controllers(self)
        self.opener = opener
        self.seed_demo = seed_demo
        self.catalog: dict[str, list[tuple[int, str]]] = {}  # for the command palette
        self.waiting_names = 0  # names several people fit, waiting for the user
        self.waiting_changes = 0  # changes across meetings proposed, waiting for the user
        self.animation_level = "none"  # until the settings say otherwise
        self._relayout: Timer | None = None  # lays the lists out again after a resize

    @property
    def services(self) -> Services:
        if self._services is None:
            raise RuntimeError("the store is still opening")
        return self._services

    @property
    def ready(self) -> bool:
        """The store is open (until then only moving around and quitting work)."""
        return self._services is not None

    def running(self, group: str) -> bool:
        """A worker of `group` is running."""
        return self.controllers.jobs.running(group)

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
        self.query_one(CapturesPane).focus_first()
        self.controllers.startup.mount()

    def opened(self, services: Services, seed: bool) -> None:
        """The store is open (the startup controller opened it in a worker)."""
        self._services = services
        self.seed_demo = seed

    # How often the app looks for writes by another process (`memo capture` in another
    # shell): one PRAGMA on the writer's connection, in a worker.
    WATCH_EVERY_S = 2.0

    # Lists and the status line

    def refresh_lists(self) -> None:
        """Lists, the facts feed and the status line again, from the store (in a worker)."""
        self.controllers.lists.refresh()

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
        self.controllers.lists.relayout()
        facts.relayout()

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
        """A dialog on top owns the keyboard: the app's keys wait (ctrl+q still quits, and F1
        explains the dialog)."""
        if isinstance(self.screen, dialogs.Dialog) and action in _MAIN_SCREEN_ACTIONS:
            return action == "help" and not isinstance(self.screen, dialogs.Help)
        if action in _NEEDS_THE_STORE and not self.ready:
            return False
        if action == "who":  # shown while names wait (the status line says how many)
            return self.waiting_names > 0
        if action == "review_changes":
            return self.waiting_changes > 0
        if action == "cancel_job":  # shown only while there is something to stop
            return self.controllers.jobs.cancellable()
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
        if isinstance(screen, dialogs.Dialog):  # what it asks, and its own keys only
            rows = keys.help_rows(self, screen, app_keys=False)
            self.push_screen(dialogs.Help(f"{screen.help_title()}: keys", screen.HELP, rows))
            return
        about = getattr(screen, "HELP", "") if len(self.screen_stack) > 1 else ""
        title = type(screen).__name__.removesuffix("Screen").removesuffix("Page")
        if not about:
            pane = self.current_pane()
            about, title = pane.HELP, str(pane.id).title()
        self.push_screen(dialogs.Help(f"{title}: keys", about, keys.help_rows(self, screen)))

    def refresh_pages(self) -> None:
        """The open pages again, from the store (after a write that may show on them)."""
        from memo_tui.ui.screens.capture import CaptureScreen
        from memo_tui.ui.screens.page import Page

        for screen in self.screen_stack:
            if isinstance(screen, Page):
                screen.reload()
            elif isinstance(screen, CaptureScreen):
                screen.load()

    @on(messages.RowOpened)
    def open_row(self, event: messages.RowOpened) -> None:
        if event.kind == "run":
            from memo_tui.ui.screens.run import RunScreen

            self.push_screen(RunScreen(self.services, event.key))
        else:
            self.go_to(event.kind, event.key)

    @on(messages.FactOpened)
    def _fact_opened(self, event: messages.FactOpened) -> None:
        self.open_fact(event.fact)

    @on(messages.SourceOpened)
    def _source_opened(self, event: messages.SourceOpened) -> None:
        self.open_capture(event.capture_id, event.lines)

    @on(messages.AnswerRequested)
    def _answer(self, event: messages.AnswerRequested) -> None:
        self.controllers.ask.answer(event.pane, event.question)

    @on(messages.NewChatRequested)
    def _new_chat(self) -> None:
        self.controllers.ask.new_chat()

    @on(messages.FeedRequested)
    def _load_feed(self, event: messages.FeedRequested) -> None:
        self.controllers.facts.load(event)

    @on(messages.FeedPageRequested)
    def _load_feed_page(self, event: messages.FeedPageRequested) -> None:
        self.controllers.facts.more(event)

    @on(messages.FeedShown)
    def _feed_shown(self) -> None:
        self.controllers.startup.stamp(
            "feed"
        )  # `memo bench startup`: the feed's first page is shown

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

    # The work, each kind to its controller

    def action_capture(self) -> None:
        self.controllers.capture.choose()

    def action_who(self) -> None:
        self.controllers.names.who()

    def action_review_changes(self) -> None:
        self.controllers.changes.review()

    def action_backfill(self) -> None:
        self.controllers.jobs.start_backfill()

    def action_cancel_job(self) -> None:
        self.controllers.jobs.cancel()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        self.controllers.jobs.changed(event)

    @on(messages.CaptureDeleteRequested)
    def _delete_capture(self, event: messages.CaptureDeleteRequested) -> None:
        self.controllers.capture.delete(event.capture_id)

    @on(messages.PersonMergeRequested)
    def _merge_person(self, event: messages.PersonMergeRequested) -> None:
        self.controllers.names.merge(event.person_id)

    @on(messages.PersonSplitRequested)
    def _split_person(self, event: messages.PersonSplitRequested) -> None:
        self.controllers.names.split(event.person_id)

    @on(messages.ProjectAddRequested)
    def _add_project(self) -> None:
        self.controllers.notes.add_project()

    @on(messages.ConceptAddRequested)
    def _add_concept(self) -> None:
        self.controllers.notes.add_concept()

    @on(messages.ProjectRenameRequested)
    def _rename_project(self, event: messages.ProjectRenameRequested) -> None:
        self.controllers.projects.rename(event.project_id, event.page, event.kind)

    @on(messages.ProjectDeleteRequested)
    def _delete_project(self, event: messages.ProjectDeleteRequested) -> None:
        self.controllers.projects.delete(event.project_id, event.page)

    @on(messages.NoteWriteRequested)
    def _write_note(self, event: messages.NoteWriteRequested) -> None:
        self.controllers.notes.write(event.project_id, event.page)

    @on(messages.NoteEditRequested)
    def _edit_note(self, event: messages.NoteEditRequested) -> None:
        self.controllers.notes.edit(event.note, event.page)

    @on(messages.NoteDeleteRequested)
    def _delete_note(self, event: messages.NoteDeleteRequested) -> None:
        self.controllers.notes.delete(event.note, event.page)

    @on(messages.SectionEditRequested)
    def _edit_section(self, event: messages.SectionEditRequested) -> None:
        self.controllers.notes.edit_section(
            event.entity_type, event.entity_id, event.section, event.page
        )

    @on(messages.SectionResetRequested)
    def _reset_section(self, event: messages.SectionResetRequested) -> None:
        self.controllers.projects.reset_section(
            event.entity_type, event.entity_id, event.section, event.page
        )

    @on(messages.AgentRunRequested)
    def _run_agent(self, event: messages.AgentRunRequested) -> None:
        self.controllers.agents.run_agent(
            event.agent, event.entity, event.page, event.resume, event.on
        )
