"""Running provider coroutines from sync code (the CLI, thread workers, or under a TUI loop)."""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Generic, TypeVar

T = TypeVar("T")


def run_sync(work: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to the end, even when this thread already runs an event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(work)
    context = contextvars.copy_context()
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(context.run, asyncio.run, work).result()


class InThread(Generic[T]):
    """A coroutine run on an event loop of its own in a worker thread, awaited from another
    loop (the app's, which it never blocks: its SQL and its writes happen in the thread) and
    cancelled from it at once, as a task of that loop would be."""

    def __init__(self, work: Callable[[], Coroutine[Any, Any, T]]) -> None:
        self.work = work
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[T] | None = None
        self._cancelled = False
        self._lock = threading.Lock()

    async def result(self) -> T:
        """Start it in a thread and wait for its result (or its exception); cancelling the
        wait cancels the run too."""
        context = contextvars.copy_context()
        try:
            return await asyncio.get_running_loop().run_in_executor(
                None, context.run, asyncio.run, self._main()
            )
        except asyncio.CancelledError:
            self.cancel()
            raise

    async def _main(self) -> T:
        task = asyncio.ensure_future(self.work())
        with self._lock:
            self._loop, self._task = asyncio.get_running_loop(), task
            if self._cancelled:
                task.cancel()
        try:
            return await task
        finally:
            with self._lock:  # its loop closes next: nothing may be scheduled on it
                self._loop = self._task = None

    def cancel(self) -> None:
        """Cancel it where it is (from any thread); before it started, it never runs; once
        it has finished, this does nothing."""
        with self._lock:
            self._cancelled = True
            if self._loop is not None and self._task is not None:
                self._loop.call_soon_threadsafe(self._task.cancel)
