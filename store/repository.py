"""The base of the store's repositories: one per area, each reading and writing through the
store's engines and transactions, so an area's queries never open a connection of their own."""

from __future__ import annotations

import datetime as dt
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from sqlalchemy import Connection

if TYPE_CHECKING:
    from store.store import Store


def utc_now() -> str:
    """Timestamps in the store: ISO 8601, UTC, seconds."""
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()


class Repository:
    """One area's reads and writes. Reads take the reader engine; writes join this thread's
    `store.atomically()` transaction or open their own."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def _read(self) -> AbstractContextManager[Connection]:
        """A connection for reads (WAL: it never waits on a writer)."""
        return self._store.reader.connect()

    def _write(self) -> AbstractContextManager[Connection]:
        """A write transaction: this thread's `store.atomically()` one, or a new one."""
        return self._store.writing()

    def _reporting(self) -> AbstractContextManager[Connection]:
        """A write that changes what the rollups count (they are rebuilt before it commits)."""
        return self._store.reporting()
