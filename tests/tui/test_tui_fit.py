"""At 80x24 every key of the screen in hand and every choice of a dialog is in view.

Each test drives the app with Pilot on the seeded demo store and checks where widgets were
laid out: a key or a button past the edge of the terminal is one the user cannot see.
"""

from __future__ import annotations

from typing import Any

from support.tui import drive, settle, until
from textual.widgets import Button, Label
from textual.widgets._footer import FooterKey, FooterLabel

from memo_tui.core.services import Services
from memo_tui.ui import dialogs
from memo_tui.ui.app import MemoApp
from memo_tui.ui.screens.project import ProjectPage
from memo_tui.ui.widgets.footer import FOLDED, FULL, HIDDEN, KeyFooter

SMALL = (80, 24)


def footer_keys(app: MemoApp) -> dict[str, FooterKey]:
    """The footer's keys on the screen in hand, by what they do."""
    return {key.action: key for key in app.screen.query_one(KeyFooter).query(FooterKey)}


def in_view(app: MemoApp, widget: Any) -> bool:
    region = widget.region
    width, height = app.size
    return region.width > 0 and region.right <= width and region.bottom <= height


def test_a_project_page_keeps_its_own_keys_in_view_at_80_columns(services: Services) -> None:
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("4", "enter")
        await settle(pilot)
        assert isinstance(app.screen, ProjectPage)
        footer = app.screen.query_one(KeyFooter)
        assert footer.level == HIDDEN
        keys = footer_keys(app)
        for action in ("app.pop_screen", "compile", "new_note", "edit", "delete_note", "collect"):
            assert in_view(app, keys[action]), action
        assert not any(action.startswith("pane(") for action in keys)  # F1 lists them
        hint = footer.query_one(FooterLabel)
        assert str(hint.render()) == "F1 keys" and in_view(app, hint)

    drive(app, script, size=SMALL)


def test_the_pane_keys_fold_on_a_busy_pane_and_unfold_when_there_is_room(
    services: Services,
) -> None:
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("4")  # Projects: a, n and r of its own
        await settle(pilot)
        footer = app.screen.query_one(KeyFooter)
        assert footer.level == FOLDED
        keys = footer_keys(app)
        assert keys["pane('ask')"].description == "" and in_view(app, keys["pane('ask')"])
        assert all(in_view(app, key) for key in keys.values())
        await pilot.resize_terminal(120, 36)
        await settle(pilot)
        assert app.screen.query_one(KeyFooter).level == FULL
        assert footer_keys(app)["pane('ask')"].description == "Ask"

    drive(app, script, size=SMALL)


def test_who_is_it_shows_every_choice_at_80x24(services: Services) -> None:
    """Four candidates and None of these: five buttons that would need 15 lines."""
    waiting = [f"owes: a long action item, number {n}, said in a long meeting" for n in range(6)]
    candidates = [(n, f"Sam Candidate {n}") for n in range(1, 5)]
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        app.push_screen(dialogs.WhoIsIt("Sam", waiting, candidates))
        await until(pilot, lambda: isinstance(app.screen, dialogs.WhoIsIt), "who is Sam?")
        buttons = list(app.screen.query(Button))
        assert len(buttons) == 5
        assert all(in_view(app, button) for button in buttons)

    drive(app, script, size=SMALL)


def test_help_keeps_its_closing_hint_in_view_at_80x24(services: Services) -> None:
    app = MemoApp(services)

    async def script(pilot: Any) -> None:
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, dialogs.Help), "help")
        hint = list(app.screen.query(Label))[-1]
        assert "Escape closes" in str(hint.render()) and in_view(app, hint)

    drive(app, script, size=SMALL)


def test_a_page_reloaded_keeps_every_wrapped_line(services: Services) -> None:
    """A page's entries wrap at 80 columns; reloaded (after a note or an agent run), each
    must still get every line it wraps to. (OptionList measures an entry once, so one
    measured before the scrollbar appeared lost its last line: 'due 2026-11-30' vanished.)"""
    app = MemoApp(services)
    atlas = next(p.id for p in services.store.projects.all() if p.name == "Atlas")

    def stale() -> list[int]:
        entries = app.screen.query_one("#page-entries")
        width = entries.scrollable_content_region.width
        return [
            n
            for n, option in enumerate(entries.options)
            if entries._get_visual(option).get_height(entries.styles, width) != entries._heights[n]
        ]

    async def script(pilot: Any) -> None:
        app.go_to("project", atlas)
        await settle(pilot)
        assert stale() == []
        app.screen.reload()
        await settle(pilot)
        await pilot.pause()
        assert stale() == []

    drive(app, script, size=SMALL)


def test_while_a_job_runs_its_stop_key_comes_first(services: Services) -> None:
    import threading

    app = MemoApp(services)
    gate = threading.Event()

    async def script(pilot: Any) -> None:
        await pilot.press("4", "enter")  # a project page: the busiest footer
        await settle(pilot)
        app.run_worker(gate.wait, thread=True, group="backfill")
        await until(pilot, lambda: "cancel_job" in footer_keys(app), "the stop key")
        footer = app.screen.query_one(KeyFooter)
        first = next(iter(footer.query(FooterKey)))
        assert first.action == "cancel_job" and in_view(app, first)
        gate.set()

    drive(app, script, size=SMALL)


def test_the_lists_follow_the_terminal_when_it_narrows_and_widens(services: Services) -> None:
    """Cells are cut to the width: after a resize the lists are laid out again, their
    columns narrowed too (DataTable alone keeps a column as wide as it ever was)."""
    app = MemoApp(services)

    def widths(table_id: str) -> int:
        table = app.query_one(table_id)
        return sum(c.get_render_width(table) for c in table.columns.values())

    def titles() -> list[str]:
        table = app.query_one("#captures-table")
        return [str(table.get_row_at(n)[0]) for n in range(table.row_count)]

    async def script(pilot: Any) -> None:
        whole = titles()
        assert any(len(title) > 40 for title in whole)
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: titles() != whole, "the titles cut to 80 columns")
        await settle(pilot)
        for table in ("#captures-table", "#people-table", "#runs-table", "#facts-table"):
            assert widths(table) <= 78, table  # (the scrollbar takes 2)
        await pilot.resize_terminal(120, 36)
        await until(pilot, lambda: titles() == whole, "the titles whole again")

    drive(app, script)


def test_the_ask_pane_keeps_the_conversation_in_view_at_80x24(services: Services) -> None:
    """Several questions in: the answer keeps most of the screen (the questions asked before
    take two lines until their list has the keyboard), and the question box is last, over
    the status line, as chat apps have it."""
    app = MemoApp(services)
    questions = ("why did we pick Postgres?", "who owns billing?", "when is the freeze?")

    async def script(pilot: Any) -> None:
        await pilot.press("5")
        for question in questions:
            await pilot.press(*question, "enter")
            await settle(pilot)
        output = app.query_one("#ask-output")
        box = app.query_one("#ask-input")
        history = app.query_one("#ask-history")
        assert history.display and history.option_count == 2
        assert output.size.height >= 10, output.size
        assert box.region.y > output.region.bottom and in_view(app, box)
        history.focus()
        await pilot.pause()
        assert history.size.height >= 2  # the list has the keyboard: all of it shows

    drive(app, script, size=SMALL)
