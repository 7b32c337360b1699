"""The UI is a shell: a key in a pane posts a message saying what the user asked for (the
tests record them), the app routes it to a controller, and a pane's rows are built from the
store without the screen, so a worker can build them."""

from __future__ import annotations

import asyncio
from typing import Any

from support.tui import drive, settle, until
from textual.message import Message

from memo_tui.core.services import Services
from memo_tui.ui import dialogs, messages
from memo_tui.ui.app import MemoApp
from memo_tui.ui.controllers.lists import LIST_PANES
from memo_tui.ui.screens.capture import CaptureScreen
from memo_tui.ui.screens.person import PersonPage
from memo_tui.ui.screens.project import ProjectPage
from memo_tui.ui.widgets.captures import CapturesPane

REQUESTS = (
    messages.RowOpened,
    messages.CaptureDeleteRequested,
    messages.PersonMergeRequested,
    messages.ProjectAddRequested,
    messages.NoteWriteRequested,
    messages.AgentRunRequested,
)


def recorded(app: MemoApp, script: Any) -> list[Message]:
    """Run `script(pilot)` on the app; the requests its widgets posted, in order."""
    seen: list[Message] = []

    async def run() -> None:
        async with app.run_test(size=(120, 36), message_hook=seen.append) as pilot:
            await settle(pilot)
            await script(pilot)

    asyncio.run(run())
    # (each is seen at every node it bubbles through: once is enough)
    return list({id(m): m for m in seen if isinstance(m, REQUESTS)}.values())


async def dismissed(pilot: Any, kind: type, what: str) -> None:
    await until(pilot, lambda: isinstance(pilot.app.screen, kind), what)
    await pilot.press("escape")
    await settle(pilot)


def test_keys_post_what_the_user_asked_for_and_the_app_routes_it(services: Services) -> None:
    store = services.store
    newest = store.captures.all()[-1]  # the Captures pane lists the newest first
    priya = next(p.id for p in store.people.all() if p.name == "Priya Natarajan")
    before = store.captures.all()
    first_project = store.reports.projects()[0]  # the first row of the Projects pane
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("enter")
        await dismissed(pilot, CaptureScreen, "the meeting")
        await pilot.press("d")
        await dismissed(pilot, dialogs.Confirm, "the question before deleting")
        app.go_to("person", priya)
        await dismissed(pilot, PersonPage, "Priya's page")
        await pilot.press("3", "m")
        await dismissed(pilot, dialogs.PickPerson, "who they really are")
        await pilot.press("4", "a")
        await dismissed(pilot, dialogs.NewProject, "the new project")
        await pilot.press("n")
        await dismissed(pilot, dialogs.NoteEditor, "the note")
        app.go_to("project", first_project.project_id)  # a page over the main screen
        await until(pilot, lambda: isinstance(app.screen, ProjectPage), "the project's page")
        await pilot.press("n")
        await dismissed(pilot, dialogs.NoteEditor, "the note, from the page")
        await pilot.press("escape", "4")
        await pilot.press("r")
        await until(pilot, lambda: not app.running("agent"), "the project_compile run")

    seen = recorded(app, script)
    said = [(type(m).__name__, *_fields(m)) for m in seen]
    assert said == [
        ("RowOpened", "capture", newest.id),
        ("CaptureDeleteRequested", newest.id),
        ("PersonMergeRequested", said[2][1]),
        ("ProjectAddRequested",),
        ("NoteWriteRequested", first_project.project_id),
        ("NoteWriteRequested", first_project.project_id),
        ("AgentRunRequested", "project_compile", ("project", first_project.project_id)),
    ]
    assert said[2][1] in {p.id for p in store.people.all()}
    assert store.captures.all() == before  # each dialog was dismissed: nothing changed
    [run] = store.runs.all()
    assert (run.agent_type, run.status) == ("project_compile", "completed")


def _fields(message: Message) -> tuple[Any, ...]:
    if isinstance(message, messages.RowOpened):
        return message.kind, message.key
    if isinstance(message, messages.CaptureDeleteRequested):
        return (message.capture_id,)
    if isinstance(message, messages.PersonMergeRequested):
        return (message.person_id,)
    if isinstance(message, messages.NoteWriteRequested):
        return (message.project_id,)
    if isinstance(message, messages.AgentRunRequested):
        return message.agent, message.on
    return ()


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
    from support.tui import drive, shown

    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await until(pilot, lambda: "Stop" not in shown(app), "ctrl+x gone from the footer")

    drive(app, script, size=(100, 30))


def test_the_facts_pane_asks_for_its_pages_and_only_draws_them(services: Services) -> None:
    """The pane posts what it wants read (the boxes as typed, the types, whether excerpts
    are left out) and the next page near the end; the facts controller reads them in the
    app's workers and hands back what to draw."""
    from memo_tui.ui.widgets.facts import WITHOUT_EXCERPTS, FactsPane

    seen: list[Message] = []
    app = MemoApp(services)

    async def run() -> None:
        async with app.run_test(size=(120, 36), message_hook=seen.append) as pilot:
            await settle(pilot)
            pane = app.query_one(FactsPane)
            pane.PAGE = 10
            await pilot.press("2", "slash", *"Postgres", "enter")
            await settle(pilot)
            await pilot.press("escape", "escape", "x")  # cleared, then excerpts shown
            await settle(pilot)
            pane.query_one("#facts-table").focus()
            await pilot.press("down")
            await settle(pilot)
            assert len(pane.facts) > 10  # the next page came

    asyncio.run(run())
    asked = list({id(m): m for m in seen if isinstance(m, messages.FeedRequested)}.values())
    search = next(m for m in asked if m.typed["search"] == "Postgres")
    assert search.types == WITHOUT_EXCERPTS and search.hiding_excerpts
    assert not asked[-1].typed["search"] and asked[-1].types == ()
    assert not asked[-1].hiding_excerpts  # x: excerpts in
    pages = {id(m): m for m in seen if isinstance(m, messages.FeedPageRequested)}
    assert pages and all(m.page == 10 for m in pages.values())


def test_the_ask_pane_posts_each_question_and_ctrl_x_stops_the_answer(
    services: Services, monkeypatch: Any
) -> None:
    """The conversation is the ask controller's: the pane posts the question (and ctrl+l),
    the answer runs in the app's worker, so ctrl+x stops it like any other job."""
    from memo_tui.core.agents.chat import Chat, Looking
    from memo_tui.ui.widgets.ask import AskPane

    async def slow(self: Chat, question: str) -> Any:
        yield Looking("search_facts", {"query": question})
        await asyncio.sleep(30)

    monkeypatch.setattr(Chat, "ask", slow)
    seen: list[Message] = []
    app = MemoApp(services)

    async def run() -> None:
        async with app.run_test(size=(120, 36), message_hook=seen.append) as pilot:
            await settle(pilot)
            await pilot.press("5", *"why Postgres?", "enter")
            note = app.query_one("#ask-note")
            await until(pilot, lambda: "search facts" in str(note.render()), "the look-up")
            assert app.controllers.jobs.cancellable()
            await pilot.press("ctrl+x")
            await until(pilot, lambda: "Stopped (ctrl+x)" in str(note.render()), "the stop")
            await pilot.press("ctrl+l")
            await settle(pilot)
            assert not app.query_one(AskPane).sources

    asyncio.run(run())
    kinds = (messages.AnswerRequested, messages.NewChatRequested)
    said = list({id(m): m for m in seen if isinstance(m, kinds)}.values())
    assert [type(m).__name__ for m in said] == ["AnswerRequested", "NewChatRequested"]
    assert said[0].question == "why Postgres?"  # type: ignore[attr-defined]
