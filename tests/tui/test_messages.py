"""The UI is a shell: a key in a pane, page or dialog posts a message saying what the user
asked for (the tests record them, with what each carries), the app routes it to a
controller (the tests see what it did), and a pane's rows are built from the store without
the screen, so a worker can build them. Every message `memo_tui.ui.messages` declares is
among the kinds a scripted test below posts; a new one fails
`test_every_message_the_widgets_can_post_is_checked_here` until a test posts it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from support.tui import drive, memo_messages, recorded, select, shown, until
from textual.message import Message
from textual.widgets import DataTable, Input, Label, Static, TextArea

from memo_tui.core.services import Services
from memo_tui.ui import dialogs, messages
from memo_tui.ui.app import MemoApp
from memo_tui.ui.controllers.lists import LIST_PANES
from memo_tui.ui.screens.capture import CaptureScreen
from memo_tui.ui.screens.concept import ConceptPage
from memo_tui.ui.screens.person import PersonPage
from memo_tui.ui.screens.project import ProjectPage
from memo_tui.ui.screens.run import RunScreen
from memo_tui.ui.widgets.ask import AskPane
from memo_tui.ui.widgets.captures import CapturesPane
from memo_tui.ui.widgets.concepts import ConceptsPane
from memo_tui.ui.widgets.facts import WITHOUT_EXCERPTS, FactsPane
from memo_tui.ui.widgets.pane import ListPane
from memo_tui.ui.widgets.people import PeoplePane
from memo_tui.ui.widgets.projects import ProjectsPane
from memo_tui.ui.widgets.runs import RunsPane
from store import NoteRecord, ProjectSummary, SectionRecord

# The messages each scripted test has keys post (it checks what they carry, and what the app
# did with them), by area; together, every message memo declares.
CAPTURES_AND_FEED = (
    messages.RowOpened,
    messages.CaptureDeleteRequested,
    messages.FeedRequested,
    messages.FeedShown,
    messages.FeedPageRequested,
    messages.FactOpened,
)
ASKING = (messages.AnswerRequested, messages.FactOpened, messages.NewChatRequested)
PEOPLE_PROJECTS_CONCEPTS = (
    messages.PersonMergeRequested,
    messages.PersonSplitRequested,
    messages.ProjectAddRequested,
    messages.RowOpened,
    messages.ProjectRenameRequested,
    messages.ProjectDeleteRequested,
    messages.ConceptAddRequested,
)
NOTES_AND_SECTIONS = (
    messages.NoteWriteRequested,
    messages.RowOpened,
    messages.NoteEditRequested,
    messages.NoteDeleteRequested,
    messages.SectionEditRequested,
    messages.SectionResetRequested,
    messages.SourceOpened,
)
AGENTS = (messages.AgentRunRequested, messages.RowOpened)
CHECKED = (CAPTURES_AND_FEED, ASKING, PEOPLE_PROJECTS_CONCEPTS, NOTES_AND_SECTIONS, AGENTS)

M = TypeVar("M", bound=Message)


def of(seen: list[Message], kind: type[M]) -> list[M]:
    """The messages of `kind` recorded, in the order they were posted."""
    return [m for m in seen if type(m) is kind]


def posted_all(seen: list[Message], kinds: tuple[type[Message], ...]) -> None:
    """Each of `kinds` was posted (and `recorded` kept nothing else)."""
    missing = sorted(k.__name__ for k in set(kinds) - {type(m) for m in seen})
    assert not missing, f"never posted: {missing}"


async def up(pilot: Any, kind: type, **has: Any) -> None:
    """Wait for a `kind` of screen or dialog on top, whose attributes are `has`."""

    def on_top() -> bool:
        screen = pilot.app.screen
        return isinstance(screen, kind) and all(getattr(screen, k) == v for k, v in has.items())

    await until(pilot, on_top, f"a {kind.__name__} with {has}")


async def done(pilot: Any, condition: Callable[[], bool], what: str, group: str = "edit") -> None:
    """Wait until `condition` holds and the workers of `group` have ended (the group is
    exclusive: the next key's worker would cancel one still finishing)."""
    await until(pilot, lambda: condition() and not pilot.app.running(group), what)


async def confirmed(pilot: Any, yes: bool) -> None:
    """Answer the Confirm dialog the last key asked for."""
    await up(pilot, dialogs.Confirm)
    if yes:
        await pilot.click("#yes")
    else:
        await pilot.press("escape")


def put(box: Input | TextArea, text: str) -> None:
    """`text` in a box at once (typed, each key costs a fifth of a second: the keys that
    post are pressed)."""
    if isinstance(box, TextArea):
        box.text = text
    else:
        box.value = text
        box.cursor_position = len(text)


async def filtered(pilot: Any, pane: ListPane, text: str) -> None:
    """`/`, `text` in the pane's filter, enter: the table, narrowed, has the keyboard."""
    await pilot.press("slash")
    put(pane.query_one(".filter", Input), text)
    await pilot.press("enter")


def notified(app: MemoApp) -> list[str]:
    """What the app notifies from now on, as text."""
    notes: list[str] = []
    notify = app.notify

    def keep(message: str, **options: Any) -> None:
        notes.append(str(message))
        notify(message, **options)

    app.notify = keep  # type: ignore[method-assign]
    return notes


def test_captures_and_facts_keys_open_search_page_and_delete(services: Services) -> None:
    """Captures: enter opens a meeting, d asks before deleting it (there and on its page).
    Facts: a search, x and the search cleared ask for the feed; the rows near the end ask
    for the next page; enter opens a fact's meeting at its lines; a page shown is stamped."""
    store = services.store
    newest = store.captures.all()[-1]  # the Captures pane lists the newest first
    meetings = len(store.captures.all())
    app = MemoApp(services)
    stamps: list[str] = []  # `memo bench startup`'s, where the app routes FeedShown
    got: dict[str, Any] = {}

    async def script(pilot: Any) -> None:
        app.controllers.startup.stamp = stamps.append  # type: ignore[method-assign,assignment]
        await pilot.press("enter")
        await up(pilot, CaptureScreen, capture_id=newest.id)
        await pilot.press("escape", "d")
        await confirmed(pilot, yes=False)
        pane = got["pane"] = app.query_one(FactsPane)
        pane.PAGE = 10
        info = pane.query_one("#facts-info", Label)

        def says() -> str:
            return str(info.render())

        await pilot.press("2", "slash", *"Postgres", "enter")
        await until(pilot, lambda: pane.searching and "excerpts hidden" in says(), "the hits")
        assert "for 'Postgres'" in says()
        await pilot.press("escape", "x")  # out of the box; excerpts in
        await until(pilot, lambda: "result" in says() and "hidden" not in says(), "with excerpts")
        await pilot.press("escape")  # the search cleared: the feed, a page at a time
        await until(pilot, lambda: says().startswith("newest first"), "the feed")
        assert not pane.searching and "hidden" not in says()
        got["page"], got["flt"] = list(pane.facts), pane.flt
        table = pane.query_one(DataTable)
        await pilot.press("down")
        await until(pilot, lambda: len(pane.facts) > 10, "the next page")
        while pane.facts[table.cursor_row].capture_id is None:  # a note: no meeting to open
            await pilot.press("down")
        fact = got["fact"] = pane.facts[table.cursor_row]
        await pilot.press("enter")
        await up(pilot, CaptureScreen, capture_id=fact.capture_id)
        assert app.screen.lines == (fact.line_start, fact.line_end)  # type: ignore[attr-defined]
        await pilot.press("d")
        await confirmed(pilot, yes=True)
        await done(pilot, lambda: len(store.captures.all()) < meetings, "the meeting deleted")
        await until(pilot, lambda: not isinstance(app.screen, CaptureScreen), "its page left")

    seen = recorded(app, script, CAPTURES_AND_FEED)
    posted_all(seen, CAPTURES_AND_FEED)
    pane, fact = got["pane"], got["fact"]
    assert [(m.kind, m.key) for m in of(seen, messages.RowOpened)] == [("capture", newest.id)]
    deleted = [m.capture_id for m in of(seen, messages.CaptureDeleteRequested)]
    assert deleted == [newest.id, fact.capture_id]  # the pane's d (answered no), the page's
    assert store.captures.get(fact.capture_id) is None
    assert len(store.captures.all()) == meetings - 1
    asked = of(seen, messages.FeedRequested)
    assert [(m.typed["search"], m.types, m.hiding_excerpts) for m in asked[:3]] == [
        ("Postgres", WITHOUT_EXCERPTS, True),
        ("Postgres", (), False),
        ("", (), False),
    ]
    assert all(m.pane is pane and m.page == 10 for m in asked)
    assert len(asked) > 3  # the lists read again after the delete, and the feed with them
    assert len(of(seen, messages.FeedShown)) >= 3 and stamps.count("feed") >= 3  # routed
    pages = of(seen, messages.FeedPageRequested)
    assert pages[0].last == got["page"][9]  # the first page's last (the next may be in)
    assert all(m.pane is pane and m.flt == got["flt"] and m.page == 10 for m in pages)
    assert [m.fact for m in of(seen, messages.FactOpened)] == [fact]


def test_ask_keys_post_the_question_open_a_source_and_start_afresh(services: Services) -> None:
    """Enter asks (the chat agent answers, in the app's worker), enter on a source opens its
    meeting at its lines, ctrl+l forgets the conversation."""
    app = MemoApp(services)
    question = "why did we pick Postgres?"
    got: dict[str, Any] = {}

    async def script(pilot: Any) -> None:
        pane = got["pane"] = app.query_one(AskPane)
        note = pane.query_one("#ask-note", Static)
        await pilot.press("5")
        put(pane.query_one("#ask-input", Input), question)
        await pilot.press("enter")
        await done(pilot, lambda: str(note.render()).startswith("run "), "the answer", "ask")
        chat = app.controllers.ask.chat
        assert chat is not None and chat.history and pane.sources
        await pilot.press("escape", "enter")  # out of the box: enter opens the first source
        fact = got["fact"] = pane.sources[min(pane.sources)]
        await up(pilot, CaptureScreen, capture_id=fact.capture_id)
        assert app.screen.lines == (fact.line_start, fact.line_end)  # type: ignore[attr-defined]
        await pilot.press("5", "ctrl+l")
        await until(pilot, lambda: not chat.history, "the conversation forgotten")

    seen = recorded(app, script, ASKING)
    posted_all(seen, ASKING)
    [asked] = of(seen, messages.AnswerRequested)
    assert asked.question == question and asked.pane is got["pane"]
    assert [m.fact for m in of(seen, messages.FactOpened)] == [got["fact"]]
    assert len(of(seen, messages.NewChatRequested)) == 1
    [run] = services.store.runs.all()
    assert (run.agent_type, run.status) == ("chat", "completed")


def test_people_project_and_concept_keys_merge_add_rename_and_delete(
    services: Services,
) -> None:
    """People: m merges the selected person into who they pick, u splits them back. Projects:
    a adds one, enter opens it, R and C rename it and its client, D deletes it. Concepts: a
    adds one, enter opens it."""
    store = services.store
    app = MemoApp(services)
    got: dict[str, Any] = {}

    def person_names() -> set[str]:
        return {p.name for p in store.people.all()}

    def project(name: str) -> ProjectSummary | None:
        return next((p for p in store.projects.all() if p.name == name), None)

    def client_of(name: str) -> str | None:
        found = project(name)
        return found.client if found else None

    async def renamed(pilot: Any, key: str, new: str) -> None:
        await pilot.press(key)
        await up(pilot, dialogs.Rename)
        put(pilot.app.screen.query_one("#new-name", Input), new)
        await pilot.press("enter")

    async def script(pilot: Any) -> None:
        await pilot.press("3")
        people = app.query_one(PeoplePane)
        merged = got["merged"] = store.people.get(int(people.selected_key() or 0))
        assert merged is not None
        await pilot.press("m")
        await up(pilot, dialogs.PickPerson)
        got["kept"], kept_name = app.screen.people[0]  # type: ignore[attr-defined]
        await pilot.press("enter")  # the likeliest, listed first
        await confirmed(pilot, yes=True)
        await done(pilot, lambda: merged.name not in person_names(), "the merge")
        await filtered(pilot, people, kept_name)
        await until(pilot, lambda: people.selected_key() == str(got["kept"]), "them selected")
        await pilot.press("u")
        await confirmed(pilot, yes=True)
        await done(pilot, lambda: merged.name in person_names(), "the split")
        await pilot.press("4", "a")
        await up(pilot, dialogs.NewProject)
        put(app.screen.query_one("#project-name", Input), "Zephyr")
        put(app.screen.query_one("#project-client", Input), "Acme")
        await pilot.press("enter")
        await done(pilot, lambda: project("Zephyr") is not None, "the project added")
        zephyr = got["project"] = next(p.id for p in store.projects.all() if p.name == "Zephyr")
        projects = app.query_one(ProjectsPane)
        await until(pilot, lambda: str(zephyr) in {r.key for r in projects.rows}, "it listed")
        await filtered(pilot, projects, "Zephyr")
        await pilot.press("enter")
        await up(pilot, ProjectPage, entity_name="Zephyr")
        page = got["page"] = app.screen
        await renamed(pilot, "R", "Zephyr two")
        await done(pilot, lambda: project("Zephyr two") is not None, "the project renamed")
        await renamed(pilot, "C", "Acme Ltd")
        await done(pilot, lambda: client_of("Zephyr two") == "Acme Ltd", "the client renamed")
        await pilot.press("D")
        await confirmed(pilot, yes=True)
        await done(pilot, lambda: store.projects.get(zephyr) is None, "the project deleted")
        await until(pilot, lambda: app.screen is not page, "its page closed")
        await pilot.press("8", "a")
        await up(pilot, dialogs.NewConcept)
        put(app.screen.query_one("#concept-name", Input), "Event sourcing")
        await pilot.press("enter")
        concepts = app.query_one(ConceptsPane)
        await until(pilot, lambda: len(concepts.rows) == 1, "the concept added and listed")
        got["concept"] = int(concepts.rows[0].key)
        await pilot.press("enter")
        await up(pilot, ConceptPage, entity_id=got["concept"])

    seen = recorded(app, script, PEOPLE_PROJECTS_CONCEPTS)
    posted_all(seen, PEOPLE_PROJECTS_CONCEPTS)
    zephyr, page = got["project"], got["page"]
    assert [m.person_id for m in of(seen, messages.PersonMergeRequested)] == [got["merged"].id]
    assert [m.person_id for m in of(seen, messages.PersonSplitRequested)] == [got["kept"]]
    assert len(of(seen, messages.ProjectAddRequested)) == 1
    assert [(m.kind, m.key) for m in of(seen, messages.RowOpened)] == [
        ("project", zephyr),
        ("concept", got["concept"]),
    ]
    renames = [(m.project_id, m.page, m.kind) for m in of(seen, messages.ProjectRenameRequested)]
    assert renames == [(zephyr, page, "project"), (zephyr, page, "client")]
    deleted = [(m.project_id, m.page) for m in of(seen, messages.ProjectDeleteRequested)]
    assert deleted == [(zephyr, page)]
    assert len(of(seen, messages.ConceptAddRequested)) == 1
    assert [c.name for c in store.concepts.all()] == ["Event sourcing"]


def test_note_and_section_keys_write_edit_delete_and_give_back(services: Services) -> None:
    """n writes a note (in the Projects pane and on a project's page), e edits it, x deletes
    it; e edits a living document's section, u gives it back to the agent; enter on a
    meeting's entry opens it at its lines."""
    store = services.store
    beacon = next(p.id for p in store.projects.all() if p.name == "Beacon")
    store.sections.write("project", beacon, "summary", "The agent's summary.", [], "agent")
    app = MemoApp(services)
    got: dict[str, Any] = {}

    def notes(project_id: int) -> set[str]:
        found = store.projects.get(project_id)
        return {n.body for n in found.notes} if found else set()

    def summary() -> SectionRecord:
        return next(s for s in store.sections.all("project", beacon) if s.key == "summary")

    def listed(page: Any, kind: type, **has: Any) -> bool:
        return any(
            isinstance(t, kind) and all(getattr(t, k) == v for k, v in has.items())
            for t in page.targets.values()
        )

    async def edited(pilot: Any, key: str, text: str) -> None:
        """`key` opens the editor; `text` is saved."""
        await pilot.press(key)
        await up(pilot, dialogs.NoteEditor)
        put(pilot.app.screen.query_one("#note-body", TextArea), text)
        await pilot.press("ctrl+s")

    async def script(pilot: Any) -> None:
        await pilot.press("4")
        projects = app.query_one(ProjectsPane)
        first = got["first"] = int(projects.selected_key() or 0)
        await edited(pilot, "n", "Said from the list")
        await done(pilot, lambda: "Said from the list" in notes(first), "the note written")
        await filtered(pilot, projects, "Beacon")
        await pilot.press("enter")
        await up(pilot, ProjectPage, project_id=beacon)
        page = got["page"] = app.screen
        await until(pilot, lambda: listed(page, SectionRecord), "its document")
        await edited(pilot, "n", "Kickoff moved to March")
        await done(
            pilot, lambda: listed(page, NoteRecord, body="Kickoff moved to March"), "written"
        )
        got["note"] = select(page, NoteRecord, lambda n: n.body == "Kickoff moved to March")
        await edited(pilot, "e", "Kickoff moved to April")
        await done(pilot, lambda: listed(page, NoteRecord, body="Kickoff moved to April"), "edited")
        got["edited"] = select(page, NoteRecord, lambda n: n.body == "Kickoff moved to April")
        await pilot.press("x")
        await confirmed(pilot, yes=True)
        await done(pilot, lambda: not listed(page, NoteRecord, id=got["note"].id), "deleted")
        got["section"] = select(page, SectionRecord, lambda s: s.key == "summary")
        await edited(pilot, "e", "Our own summary.")
        await done(pilot, lambda: listed(page, SectionRecord, edited_by="user"), "the edit")
        got["ours"] = select(page, SectionRecord, lambda s: s.edited_by == "user")
        await pilot.press("u")
        await done(pilot, lambda: listed(page, SectionRecord, edited_by="agent"), "given back")
        got["source"] = select(page, tuple)
        await pilot.press("enter")
        await up(pilot, CaptureScreen, capture_id=got["source"][0], lines=got["source"][1])

    seen = recorded(app, script, NOTES_AND_SECTIONS)
    posted_all(seen, NOTES_AND_SECTIONS)
    page = got["page"]
    assert [(m.kind, m.key) for m in of(seen, messages.RowOpened)] == [("project", beacon)]
    written = [(m.project_id, m.page) for m in of(seen, messages.NoteWriteRequested)]
    assert written == [(got["first"], None), (beacon, page)]
    assert [(m.note, m.page) for m in of(seen, messages.NoteEditRequested)] == [(got["note"], page)]
    deleted = [(m.note, m.page) for m in of(seen, messages.NoteDeleteRequested)]
    assert deleted == [(got["edited"], page)]
    assert "Kickoff moved to April" not in notes(beacon) and got["note"].id == got["edited"].id
    [edit] = of(seen, messages.SectionEditRequested)
    assert (edit.entity_type, edit.entity_id, edit.section, edit.page) == (
        "project",
        beacon,
        got["section"],
        page,
    )
    [reset] = of(seen, messages.SectionResetRequested)
    assert (reset.entity_type, reset.entity_id, reset.section, reset.page) == (
        "project",
        beacon,
        got["ours"],
        page,
    )
    assert (summary().body, summary().edited_by) == ("Our own summary.", "agent")
    [source] = of(seen, messages.SourceOpened)
    assert (source.capture_id, source.lines) == got["source"]


def test_agent_keys_run_on_a_row_on_a_page_and_resume_from_runs(services: Services) -> None:
    """r runs a pane's agent on its selected row and a page's on its entity; in Runs, r
    resumes the selected run (a finished one: the app says why not) and enter opens it."""
    store = services.store
    app = MemoApp(services)
    notes = notified(app)
    got: dict[str, Any] = {}

    def statuses() -> list[str]:
        return [r.status for r in store.runs.all()]

    async def script(pilot: Any) -> None:
        await pilot.press("4")
        got["project"] = int(app.query_one(ProjectsPane).selected_key() or 0)
        await pilot.press("r")
        await done(
            pilot, lambda: statuses() == ["completed"], "project_compile on the row", "agent"
        )
        await pilot.press("3")
        person = got["person"] = int(app.query_one(PeoplePane).selected_key() or 0)
        await pilot.press("enter")
        await up(pilot, PersonPage, person_id=person)
        page = got["page"] = app.screen
        await until(pilot, lambda: bool(getattr(page, "entity_name", "")), "its page read")
        got["name"] = getattr(page, "entity_name", "")
        await pilot.press("r")
        await done(
            pilot, lambda: statuses() == ["completed"] * 2, "person_enrich on the page", "agent"
        )
        newest = got["run"] = store.runs.all()[0].id
        runs = app.query_one(RunsPane)
        await pilot.press("6")
        await until(pilot, lambda: runs.selected_key() == str(newest), "the new run selected")
        await pilot.press("r")
        await until(pilot, lambda: any("only interrupted" in n for n in notes), "why it does not")
        await pilot.press("enter")
        await up(pilot, RunScreen, run_id=newest)

    seen = recorded(app, script, AGENTS)
    posted_all(seen, AGENTS)
    run_on = of(seen, messages.AgentRunRequested)
    assert [(m.agent, m.entity, m.page, m.resume, m.on) for m in run_on] == [
        ("project_compile", "", None, None, ("project", got["project"])),
        ("person_enrich", got["name"], got["page"], None, None),
        ("", "", None, got["run"], None),
    ]
    assert [(m.kind, m.key) for m in of(seen, messages.RowOpened)] == [
        ("person", got["person"]),
        ("run", got["run"]),
    ]
    assert [r.agent_type for r in store.runs.all()] == ["person_enrich", "project_compile"]
    assert store.sections.all("person", got["person"])  # its page's document, written


def test_every_message_the_widgets_can_post_is_checked_here() -> None:
    """A message class added to memo_tui.ui.messages needs a scripted test above that posts
    it from its key and sees the app route it: its kinds, in CHECKED."""
    declared = memo_messages()
    assert {messages.RowOpened, messages.AgentRunRequested} <= declared  # it finds them
    checked = {kind for kinds in CHECKED for kind in kinds}
    unchecked = sorted(kind.__name__ for kind in declared - checked)
    assert not unchecked, f"no test in this file posts {unchecked}"
    assert checked <= declared


def test_a_panes_rows_are_built_from_what_the_store_held_alone(services: Services) -> None:
    """No app is running here: a pane that read the screen (its width, its widgets) from
    the worker that builds its rows would fail; and it is given what the store held, never
    the store."""
    from memo_tui.core.views.lists import read_lists

    lists = read_lists(services)
    for kind in LIST_PANES:
        pane = kind(id=f"test-{kind.__name__}")
        assert isinstance(pane.fill(lists, 80), list)
    captures = CapturesPane(id="captures")
    narrow, wide = captures.fill(lists, 80), captures.fill(lists, 200)
    assert [r.key for r in narrow] == [str(c.id) for c in reversed(lists.captures)]
    longest = max(len(c.title) for c in lists.captures)
    assert max(len(str(r.cells[0])) for r in narrow) < longest  # cut to 80 columns
    assert max(len(str(r.cells[0])) for r in wide) == longest


def test_lists_read_while_the_terminal_was_resized_are_cut_again(services: Services) -> None:
    """A resize while the lists were being read (before any were, there was nothing to cut)
    leaves rows cut for the old width: the refresh cuts them again for the width now."""
    app = MemoApp(services)

    def titles(rows: list[Any]) -> list[str]:
        return [str(r.cells[0]) for r in rows]

    async def script(pilot: Any) -> None:
        lists = app.controllers.lists
        assert lists.lists is not None
        pane = app.query_one(CapturesPane)
        wide, now = pane.fill(lists.lists, 200), pane.fill(lists.lists, app.size.width)
        assert titles(wide) != titles(now)
        pane.show_rows(wide)  # cut for a terminal it no longer has
        lists._resized_since(200)
        await until(pilot, lambda: titles(pane.rows) == titles(now), "the rows cut again")

    drive(app, script, size=(80, 24))


def test_a_streamed_answer_is_appended_line_by_line() -> None:
    """A finished line is drawn once and kept; only the line being written changes."""
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    from memo_tui.ui.widgets.answer import AnswerView

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield AnswerView(id="answer")

    async def run() -> None:
        app = One()
        async with app.run_test() as pilot:
            view = app.query_one(AnswerView)
            view.start("> why?")
            view.append("We picked ")
            view.append("Postgres [1].\nIt has ")
            await pilot.pause()
            [first] = view.query(".answer-line")
            view.append("JSONB [2].\nAnd PostGIS")
            await pilot.pause()
            lines = list(view.query(".answer-line"))
            assert lines[0] is first  # kept, not drawn again
            assert [str(line.render()) for line in lines] == [
                "We picked Postgres [1].",
                "It has JSONB [2].",
            ]
            assert str(view.query_one(".answer-tail", Static).render()) == "And PostGIS"
            assert view.shown == "> why?\nWe picked Postgres [1].\nIt has JSONB [2].\nAnd PostGIS"
            view.show("> why?", "Searching…")  # a status, or the final answer: drawn whole
            await pilot.pause()
            assert not view.query(".answer-line") and view.text == "Searching…"

    asyncio.run(run())


def test_ctrl_x_goes_from_the_footer_when_the_feed_has_loaded(services: Services) -> None:
    """A pane's worker tells only its pane it is done: the pane has the keys shown again
    (the footer kept "^x Stop" after the first load, with nothing left to stop)."""
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await until(pilot, lambda: "Stop" not in shown(app), "ctrl+x gone from the footer")

    drive(app, script, size=(100, 30))


def test_the_ask_pane_posts_each_question_and_ctrl_x_stops_the_answer(
    services: Services, monkeypatch: Any
) -> None:
    """The conversation is the ask controller's: the pane posts the question (and ctrl+l),
    the answer runs in the app's worker, so ctrl+x stops it like any other job."""
    from memo_tui.core.agents.chat import Chat, Looking

    async def slow(self: Chat, question: str) -> Any:
        yield Looking("search_facts", {"query": question})
        await asyncio.sleep(30)

    monkeypatch.setattr(Chat, "ask", slow)
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        pane = app.query_one(AskPane)
        note = pane.query_one("#ask-note")
        await pilot.press("5", *"why Postgres?", "enter")
        await until(pilot, lambda: "search facts" in str(note.render()), "the look-up")
        assert app.controllers.jobs.cancellable()
        await pilot.press("ctrl+x")
        await until(pilot, lambda: "Stopped (ctrl+x)" in str(note.render()), "the stop")
        await pilot.press("ctrl+l")
        await until(pilot, lambda: not pane.sources and not app.running("ask"), "a new chat")

    kinds = (messages.AnswerRequested, messages.NewChatRequested)
    said = recorded(app, script, kinds)
    assert [type(m) for m in said] == list(kinds)
    assert of(said, messages.AnswerRequested)[0].question == "why Postgres?"
