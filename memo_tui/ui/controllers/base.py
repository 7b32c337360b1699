"""What a controller is: the app's work on one subject, run in workers the app owns.

A controller gets its inputs as arguments (never by reading widgets from a thread), shows
dialogs and waits for their answers, calls the core services off the UI loop (a thread
worker, or `asyncio.to_thread` in an async one; a write the user asked for through
`commit`, so that it lands whole), and reports with notifications, the job bar
and `refresh_lists`. Widgets never call a controller: they post messages, the app routes them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import Future
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from textual.worker import Worker

from memo_tui.ui.text import line

if TYPE_CHECKING:
    from memo_tui.core.services import Services
    from memo_tui.ui.app import MemoApp
    from memo_tui.ui.dialogs import Dialog


T = TypeVar("T")


class Controller:
    def __init__(self, app: MemoApp) -> None:
        self.app = app

    @property
    def services(self) -> Services:
        return self.app.services

    def run(
        self, work: Coroutine[Any, Any, None], group: str, exclusive: bool = True
    ) -> Worker[None]:
        """`work` in an async worker of the app (it may wait on dialogs)."""
        return self.app.run_worker(work, group=group, exclusive=exclusive, exit_on_error=False)

    def run_thread(
        self, work: Callable[..., None], *args: Any, group: str, exclusive: bool = False
    ) -> Worker[None]:
        """`work(*args)` in a thread worker of the app (it may block on the store)."""
        return self.app.run_worker(
            partial(work, *args), group=group, exclusive=exclusive, thread=True, exit_on_error=False
        )

    async def commit(self, write: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """`write(*args, **kwargs)` off the UI loop: a change the user has asked for. It
        lands even when this worker is cancelled meanwhile (another edit started in its
        exclusive group); the lists and open pages are refreshed when it does, since the
        worker will not be."""
        landing = asyncio.ensure_future(asyncio.to_thread(write, *args, **kwargs))
        try:
            return await asyncio.shield(landing)
        except asyncio.CancelledError:
            landing.add_done_callback(self._landed_late)
            raise

    def _landed_late(self, landing: asyncio.Future[Any]) -> None:
        if landing.cancelled():
            return
        if (error := landing.exception()) is not None:
            self.app.notify(f"A change was not saved: {error}", severity="error", markup=False)
        self.app.refresh_lists()
        self.app.refresh_pages()

    def say(self, text: str) -> None:
        """A notification of untrusted text (names, titles): sanitized, never markup."""
        self.app.notify(line(text).plain, markup=False)

    def from_thread(self, callback: Callable[..., Any], *args: Any) -> Any:
        """`callback(*args)` on the app's thread, from a worker's."""
        return self.app.call_from_thread(callback, *args)

    def ask_from_thread(self, dialog: Dialog[bool]) -> Future[bool | None]:
        """From a worker's thread: show `dialog` on the app's thread; its answer arrives in
        the future (once: a dialog taken away after its question lapsed answers no one)."""
        answer: Future[bool | None] = Future()

        def answered(choice: bool | None) -> None:
            if not answer.done():
                answer.set_result(choice)

        self.app.call_from_thread(self.app.push_screen, dialog, answered)
        return answer
