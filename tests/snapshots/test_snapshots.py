"""Snapshots of every pane, page and dialog, at 80x24 and at 120x36 (pytest-textual-snapshot).

The demo store is seeded once per module and its clock-made timestamps pinned, so a shot is
the same on every run and every machine; each test gets its own copy of that store. After a
deliberate change to the UI, regenerate with
`pytest tests/snapshots/test_snapshots.py --snapshot-update` and look at the changed SVGs
under `tests/snapshots/__snapshots__/` before committing.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from support.paths import DEMO
from support.services import offline
from support.tui import settle, until
from textual.command import CommandList, CommandPalette
from textual.screen import Screen
from textual.widgets import Input, TextArea

from memo_tui.core.agents.proposals import Found, described
from memo_tui.core.demo import seed_demo
from memo_tui.core.services import Services
from memo_tui.ui import dialogs
from memo_tui.ui.app import MemoApp
from store import Store

SIZES = pytest.mark.parametrize(
    "size", [pytest.param((80, 24), id="80x24"), pytest.param((120, 36), id="120x36")]
)
# Every timestamp the store takes from the clock becomes this one instant.
PINNED_AT = "2026-12-04T09:00:00+00:00"
ENVIRONMENT = ("NO_COLOR", "TEXTUAL_THEME", "TEXTUAL_ANIMATIONS", "TEXTUAL_COLOR_SYSTEM")

Snap = Callable[..., bool]
Script = Callable[[Any], Awaitable[None]]


def hermetic(monkeypatch: pytest.MonkeyPatch) -> None:
    """No MEMO_ setting and no Textual look from the developer's shell reaches the app."""
    for name in [*ENVIRONMENT, *(n for n in os.environ if n.startswith("MEMO_"))]:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MEMO_EMBED_DOWNLOAD", "0")  # no model download from a test


def pin_timestamps(store: Store) -> None:
    """Set every `*_at` column but a meeting's or a message's own date to PINNED_AT, in every
    table (the clock's times change from run to run; those dates come from the sources)."""
    with store.writer.begin() as conn:
        tables = conn.execute(
            text(
                "SELECT name FROM sqlite_master "
                "WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'"
            )
        ).scalars()
        for table in list(tables):
            for column in [c[1] for c in conn.execute(text(f"PRAGMA table_info({table})"))]:
                if column.endswith("_at") and column not in ("occurred_at", "sent_at"):
                    conn.execute(
                        text(f"UPDATE {table} SET {column} = :at WHERE {column} IS NOT NULL"),
                        {"at": PINNED_AT},
                    )


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of the demo store, seeded once for the module, its timestamps pinned."""
    folder = tmp_path_factory.mktemp("template")
    with pytest.MonkeyPatch.context() as monkeypatch:
        hermetic(monkeypatch)
        built = offline(folder, monkeypatch, user="tester")
        try:
            seed_demo(built.capture)
            pin_timestamps(built.store)
        finally:
            built.close()
    return folder


@pytest.fixture
def services(template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Services]:
    """Offline services on this test's own copy of the template store."""
    hermetic(monkeypatch)
    for name in ("memo.db", "memo.db-wal"):  # closing checkpoints the WAL; copy any left over
        if (template / name).exists():
            shutil.copy(template / name, tmp_path / name)
    built = offline(tmp_path, monkeypatch, user="tester")
    yield built
    built.close()


async def steady(pilot: Any) -> None:
    """Right before the shot: text cursors that do not blink (a shot never lands between
    blinks), and footers redrawn from what is running now (the app redraws them when a job
    starts or ends, not when a quick load that ctrl+x could stop ends)."""
    for box in [*pilot.app.screen.query(Input), *pilot.app.screen.query(TextArea)]:
        box.cursor_blink = False
    for screen in pilot.app.screen_stack:
        screen.refresh_bindings()
    await pilot.pause()


def keys(*pressed: str, until_screen: type[Screen[Any]] | None = None) -> Script:
    """Before the shot: let the lists load, press `pressed`, then let the work finish, or,
    for a dialog a worker waits on, wait until the screen on top is an `until_screen`."""

    async def script(pilot: Any) -> None:
        await settle(pilot)
        await pilot.press(*pressed)
        if until_screen is None:
            await settle(pilot)
        else:
            await until(
                pilot, lambda: isinstance(pilot.app.screen, until_screen), until_screen.__name__
            )
        await steady(pilot)

    return script


def shot(snap_compare: Snap, services: Services, size: tuple[int, int], script: Script) -> bool:
    return snap_compare(MemoApp(services), terminal_size=size, run_before=script)


# Panes


@SIZES
def test_captures_pane(snap_compare: Snap, services: Services, size: tuple[int, int]) -> None:
    """The start: the demo meetings, newest first; the status line; the footer."""
    assert shot(snap_compare, services, size, keys())


@SIZES
def test_facts_pane(snap_compare: Snap, services: Services, size: tuple[int, int]) -> None:
    """The facts feed with its search and filter boxes."""
    assert shot(snap_compare, services, size, keys("2"))


@SIZES
def test_people_pane(snap_compare: Snap, services: Services, size: tuple[int, int]) -> None:
    assert shot(snap_compare, services, size, keys("3"))


@SIZES
def test_projects_pane(snap_compare: Snap, services: Services, size: tuple[int, int]) -> None:
    assert shot(snap_compare, services, size, keys("4"))


@SIZES
def test_ask_pane_with_an_answer(
    snap_compare: Snap, services: Services, size: tuple[int, int]
) -> None:
    """A streamed, cited answer (offline) and its numbered sources."""
    assert shot(snap_compare, services, size, keys("5", *"why did we pick Postgres?", "enter"))


# Pages


@SIZES
def test_capture_page(snap_compare: Snap, services: Services, size: tuple[int, int]) -> None:
    """The newest meeting (below the two newer mail threads): summary, decisions, action
    items, provenance, transcript."""
    assert shot(snap_compare, services, size, keys("down", "down", "enter"))


@SIZES
def test_person_page(snap_compare: Snap, services: Services, size: tuple[int, int]) -> None:
    """Priya Natarajan: what she owes, what she decided, her meetings."""
    script = keys("3", "slash", *"Priya", "enter", "enter")
    assert shot(snap_compare, services, size, script)


@SIZES
def test_project_page(snap_compare: Snap, services: Services, size: tuple[int, int]) -> None:
    """Beacon: its client, the project and client notes, meetings and facts."""
    script = keys("4", "slash", *"Beacon", "enter", "enter")
    assert shot(snap_compare, services, size, script)


# Dialogs


@SIZES
def test_help_dialog(snap_compare: Snap, services: Services, size: tuple[int, int]) -> None:
    """F1 on the Captures pane: what the pane is for and its keys with their ids."""
    assert shot(snap_compare, services, size, keys("f1", until_screen=dialogs.Help))


@SIZES
def test_who_is_it_dialog(snap_compare: Snap, services: Services, size: tuple[int, int]) -> None:
    """The demo's "Sam": Sam Chen or Sam Cheng?"""
    assert shot(snap_compare, services, size, keys("w", until_screen=dialogs.WhoIsIt))


@SIZES
def test_capture_file_dialog(snap_compare: Snap, services: Services, size: tuple[int, int]) -> None:
    """Empty, so no path of the test machine is in the shot."""
    assert shot(snap_compare, services, size, keys("c", until_screen=dialogs.CaptureFile))


@SIZES
def test_delete_dialog(snap_compare: Snap, services: Services, size: tuple[int, int]) -> None:
    assert shot(snap_compare, services, size, keys("d", until_screen=dialogs.Confirm))


@SIZES
def test_replace_dialog(
    snap_compare: Snap, services: Services, size: tuple[int, int], tmp_path: Path
) -> None:
    """A new version of the Atlas retro (one more decision): stored and new side by side,
    under a running capture job. The dialog names the file, never its folder."""
    name = "2026-10-20-atlas-migration-retro.txt"
    edited = tmp_path / name
    edited.write_text(
        (DEMO / name).read_text(encoding="utf-8")
        + "\nPriya: We decided to keep the old cluster for one more week as a fallback.\n",
        encoding="utf-8",
    )

    async def script(pilot: Any) -> None:
        app = pilot.app
        await keys("c", until_screen=dialogs.CaptureFile)(pilot)
        app.screen.query_one("#capture-path", Input).value = str(edited)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, dialogs.Confirm), "the replace dialog")
        await steady(pilot)
        dialog, leave = app.screen, app.exit

        def answer_then_leave(*args: Any, **kwargs: Any) -> None:
            """The capture worker's thread waits on the dialog: unanswered, it would keep
            the process alive after the shot."""
            dialog.dismiss(False)
            leave(*args, **kwargs)

        app.exit = answer_then_leave

    assert shot(snap_compare, services, size, script)


@SIZES
def test_error_dialog(snap_compare: Snap, services: Services, size: tuple[int, int]) -> None:
    async def script(pilot: Any) -> None:
        await settle(pilot)
        pilot.app.push_screen(
            dialogs.ErrorDialog(
                "Could not capture",
                "standup.txt is not UTF-8 text (byte 0xff at position 12). Save it as UTF-8 "
                "and capture it again; nothing was stored.",
            )
        )
        await until(pilot, lambda: isinstance(pilot.app.screen, dialogs.ErrorDialog), "the error")
        await steady(pilot)

    assert shot(snap_compare, services, size, script)


@SIZES
def test_note_editor(snap_compare: Snap, services: Services, size: tuple[int, int]) -> None:
    """n on the Projects pane: a note about the selected project."""
    assert shot(snap_compare, services, size, keys("4", "n", until_screen=dialogs.NoteEditor))


@SIZES
def test_new_project_dialog(snap_compare: Snap, services: Services, size: tuple[int, int]) -> None:
    assert shot(snap_compare, services, size, keys("4", "a", until_screen=dialogs.NewProject))


@SIZES
def test_command_palette(snap_compare: Snap, services: Services, size: tuple[int, int]) -> None:
    """ctrl+p, then "person": everyone memo knows, a key away. (Before anything is typed,
    memo's commands and Textual's come in an order that changes run to run: Textual keeps
    the command providers in a set.)"""

    async def script(pilot: Any) -> None:
        await keys("ctrl+p", until_screen=CommandPalette)(pilot)
        await pilot.press(*"person")
        hits = pilot.app.screen.query_one(CommandList)
        await until(pilot, lambda: hits.option_count > 0, "the hits")
        await settle(pilot)
        await steady(pilot)

    assert shot(snap_compare, services, size, script)


@SIZES
def test_runs_pane(snap_compare: Snap, services: Services, size: tuple[int, int]) -> None:
    """6, after an offline project_compile run (its timestamps pinned too)."""
    from memo_tui.core.agents.service import run_agent

    run_agent(services, "project_compile", "Beacon")
    pin_timestamps(services.store)
    assert shot(snap_compare, services, size, keys("6"))


@SIZES
def test_newsletters_pane(snap_compare: Snap, services: Services, size: tuple[int, int]) -> None:
    """7: the demo mailbox's newsletters, by sender."""
    assert shot(snap_compare, services, size, keys("7"))


@SIZES
def test_concepts_pane(snap_compare: Snap, services: Services, size: tuple[int, int]) -> None:
    """8, after an offline concept_compile on one concept (its timestamps pinned)."""
    from memo_tui.core.agents.service import run_agent

    services.store.concepts.add("Postgres")
    run_agent(services, "concept_compile", "Postgres")
    pin_timestamps(services.store)
    assert shot(snap_compare, services, size, keys("8"))


@SIZES
def test_approve_dialog(snap_compare: Snap, services: Services, size: tuple[int, int]) -> None:
    async def script(pilot: Any) -> None:
        await settle(pilot)
        pilot.app.push_screen(
            dialogs.Approve(
                "collector",
                "\n".join(
                    described(
                        {"reason": "Cobalt billing design names it 3x"},
                        [
                            Found(
                                4, "Cobalt billing design", ((3, "Priya: Cobalt bills per seat."),)
                            )
                        ],
                    )
                ),
                90,
            )
        )
        await until(pilot, lambda: isinstance(pilot.app.screen, dialogs.Approve), "the question")
        dialog = pilot.app.screen
        dialog.countdown.pause()  # a busy machine must not show a second gone by
        dialog.left = 90
        dialog._tick()
        await steady(pilot)

    assert shot(snap_compare, services, size, script)


@SIZES
def test_run_view(snap_compare: Snap, services: Services, size: tuple[int, int]) -> None:
    """enter on a finished project_compile run in Runs: its numbered steps, replayed."""
    from memo_tui.core.agents.service import run_agent
    from memo_tui.ui.screens.run import RunScreen

    run_agent(services, "project_compile", "Beacon")
    pin_timestamps(services.store)
    assert shot(snap_compare, services, size, keys("6", "enter", until_screen=RunScreen))


@SIZES
def test_concept_page(snap_compare: Snap, services: Services, size: tuple[int, int]) -> None:
    """enter on a compiled concept: its living document, section by section."""
    from memo_tui.core.agents.service import run_agent

    services.store.concepts.add("Postgres")
    run_agent(services, "concept_compile", "Postgres")
    pin_timestamps(services.store)
    assert shot(snap_compare, services, size, keys("8", "enter"))


@SIZES
def test_new_concept_dialog(snap_compare: Snap, services: Services, size: tuple[int, int]) -> None:
    assert shot(snap_compare, services, size, keys("8", "a", until_screen=dialogs.NewConcept))
