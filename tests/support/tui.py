"""Driving the app with Textual's Pilot: build it offline, run a script, wait on state."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any

from textual.message import Message

from memo_tui.ui import dialogs, messages
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


def memo_messages() -> frozenset[type[Message]]:
    """Every message class `memo_tui.ui.messages` declares (what widgets tell the app)."""
    return frozenset(
        kind
        for kind in vars(messages).values()
        if isinstance(kind, type)
        and issubclass(kind, Message)
        and kind.__module__ == messages.__name__
    )


def recorded(
    app: MemoApp,
    script: Callable[[Any], Awaitable[None]],
    kinds: Iterable[type[Message]] | None = None,
    size: tuple[int, int] = (120, 36),
) -> list[Message]:
    """Run `script(pilot)` on the app, after its first lists have loaded; the messages of
    `kinds` (every memo message when None) posted while it ran, in order, each once."""
    kept = tuple(memo_messages() if kinds is None else kinds)
    seen: list[Message] = []

    def hook(message: Message) -> None:
        if isinstance(message, kept):
            seen.append(message)

    start = 0

    async def run() -> None:
        nonlocal start
        async with app.run_test(size=size, message_hook=hook) as pilot:
            await settle(pilot)
            start = len(seen)  # what the start posted (the feed's first page) is no key's
            await script(pilot)

    asyncio.run(run())
    earlier = {id(m) for m in seen[:start]}
    # (each is seen at every node it bubbles through: once is enough)
    return list({id(m): m for m in seen[start:] if id(m) not in earlier}.values())


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


def select(page: Any, kind: type, where: Callable[[Any], bool] = lambda _: True) -> Any:
    """Highlight the first entry of a page that opens a `kind` (a note, a section, a meeting's
    lines: `tuple`) for which `where` holds; what it opens."""
    entries = page.query_one("OptionList")
    for n in range(entries.option_count):
        target = page.targets.get(entries.get_option_at_index(n).id or "")
        if isinstance(target, kind) and where(target):
            entries.highlighted = n
            return target
    raise AssertionError(f"no such {kind.__name__} on the page")


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
