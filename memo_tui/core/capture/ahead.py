"""Work ahead of the writer, for bulk work such as a mail import.

Reading a transcript with the offline extractor (and building the rows it gives) is a pure
function of the transcript, so while one thread's capture is written (names linked, rows
inserted), a second process prepares the next few: on two cores an import takes the longer
of the two stages rather than their sum. Each item is still written in order, one
transaction each, so a stop or a crash leaves what it always left. When no process can be
started, the work goes on in this process; when it dies, the item it died on is reported
failed and the rest are done in this process.
"""

from __future__ import annotations

import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")
A = TypeVar("A")
DEPTH = 8  # items prepared ahead: enough to keep the worker busy, little to hold
LEAST = 32  # fewer items are not worth starting a process (about a second)


@dataclass(frozen=True)
class Ahead(Generic[T]):
    """One item in order, with what the worker made of it (nothing: do the work here)."""

    item: T
    result: object | None = None
    error: Exception | None = None  # the worker died on this item: it is not done again

    def done(self) -> object | None:
        """The worker's result, or None: do the work here (work that raised in the worker
        is done again here, so its error comes where and when it always did). Raises when
        the worker died on this item."""
        if self.error is not None:
            raise self.error
        return self.result


def worked_ahead(
    items: Iterable[tuple[T, A]], work: Callable[[A], object] | None, total: int
) -> Iterator[Ahead[T]]:
    """Each item in order, with `work(its input)` done in a worker process up to DEPTH
    items ahead. Without `work`, or for fewer than LEAST items, nothing runs ahead."""
    if work is None or total < LEAST:
        yield from (Ahead(item) for item, _ in items)
        return
    pending: deque[tuple[T, Future[object] | None]] = deque()
    source = iter(items)
    pool: ProcessPoolExecutor | None = None
    try:
        pool = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),  # no fork of a threaded app
            initializer=_worker_start,
        )
    except (OSError, NotImplementedError, ImportError, RuntimeError) as error:
        log.warning("no worker process (%s); working here", error)  # (no semaphores, say)
    try:
        while True:
            while pool is not None and len(pending) < DEPTH:
                nxt = next(source, None)
                if nxt is None:
                    break
                future = _submit(pool, work, nxt[1])
                if future is None:
                    _close(pool)
                    pool = None
                pending.append((nxt[0], future))
            if not pending:
                nxt = next(source, None)  # no worker: the rest are done here
                if nxt is None:
                    return
                pending.append((nxt[0], None))
            item, future = pending.popleft()
            if future is None:
                yield Ahead(item)
                continue
            try:
                done = Ahead(item, future.result())
            except BrokenProcessPool as error:
                # The item it died on may be what killed it: reported failed (a later import
                # tries it again), not run here, where it could take the importer down too.
                log.warning("the worker process stopped (%s); working here", error)
                _close(pool)
                pool = None
                pending = deque((i, None) for i, _ in pending)
                done = Ahead(item, error=error)
            except Exception as error:  # noqa: BLE001 - the item's own failure: done again here
                log.debug("work ahead failed on an item (%s); it is done here", error)
                done = Ahead(item)
            yield done
    finally:
        _close(pool)


def _submit(
    pool: ProcessPoolExecutor, work: Callable[[A], object], job: A
) -> Future[object] | None:
    try:
        return pool.submit(work, job)
    except (BrokenProcessPool, OSError, RuntimeError) as error:
        log.warning("no worker process (%s); working here", error)
        return None


def _close(pool: ProcessPoolExecutor | None) -> None:
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def _worker_start() -> None:
    """In the worker: ctrl+c is the parent's to handle (it stops the worker), nothing is
    logged over the parent's screen, and the worker leaves as soon as the process that
    started it is gone (killed with -9, say) rather than wait forever for work."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    logging.getLogger().addHandler(logging.NullHandler())
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
