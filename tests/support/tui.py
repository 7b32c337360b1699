"""Driving the app with Textual's Pilot: build it offline, run a script, wait on state."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from memo_tui.ui import dialogs
from memo_tui.ui.app import MemoApp


def drive(
    app: MemoApp, script: Callable[[Any], Awaitable[None]], size: tuple[int, int] = (120, 36)
) -> None:
    """Run `script(pilot)` against the app, after its first lists have loaded."""

    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await script(pilot)

    asyncio.run(run())


async def settle(pilot: Any) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def until(pilot: Any, condition: Callable[[], bool], what: str) -> None:
    """Let the app run until `condition` holds (a worker may be waiting on a dialog, so
    waiting for every worker would never end)."""
    for _ in range(400):
        if condition():
            await pilot.pause()  # drawn, too
            return
        await pilot.pause(0.05)
    raise AssertionError(f"never happened: {what}")


def select(page: Any, kind: type) -> None:
    """Highlight the first entry of a page that opens a `kind` (a note, a section)."""
    entries = page.query_one("OptionList")
    for n in range(entries.option_count):
        if isinstance(page.targets.get(entries.get_option_at_index(n).id or ""), kind):
            entries.highlighted = n
            return
    raise AssertionError(f"no {kind.__name__} on the page")


async def path_dialog(pilot: Any) -> None:
    """`c`, and wait for the path dialog."""
    await pilot.press("c")
    await until(pilot, lambda: isinstance(pilot.app.screen, dialogs.CaptureFile), "path dialog")


async def enter_path(pilot: Any, path: Path | str) -> None:
    """Put a path in the capture dialog and press enter. (Typed key by key, with the
    completion looking at the folder after each one, a long temporary path takes seconds;
    the completion has a test of its own.)"""
    box = pilot.app.screen.query_one("#capture-path")
    box.value = str(path)
    box.cursor_position = len(box.value)
    await pilot.press("enter")


def shown(app: MemoApp) -> str:
    return app.export_screenshot().replace("&#160;", " ")


def as_text(renderable: Any) -> str:
    """What a widget's content reads as, drawn 120 wide."""
    from rich.console import Console

    console = Console(width=120, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def palette_hits(app: MemoApp) -> str:
    """The command palette's hits as plain text (empty when it is not open)."""
    from textual.command import CommandList

    found = app.screen.query(CommandList)
    if not found:
        return ""
    hits = found.first()
    return "\n".join(str(hits.get_option_at_index(n).prompt) for n in range(hits.option_count))
