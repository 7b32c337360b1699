"""SQLAlchemy engines on a PostgreSQL server (psycopg 3) for a shared, team store.

The same two roles as SQLite's engines (store.engine): a writer whose transactions take one
advisory lock first, so writes are serialized across every process and machine as SQLite's
BEGIN IMMEDIATE serializes them, and readers that see one snapshot per transaction
(REPEATABLE READ, as a SQLite read transaction does).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from sqlalchemy import Engine, create_engine, event

# pg_advisory_xact_lock's key for writing (any number memo uses for nothing else).
WRITING = 0x6D656D6F0002

SCHEMES = ("postgresql://", "postgres://", "postgresql+psycopg://")


def is_postgres(location: object) -> bool:
    """Whether a store location names a PostgreSQL server rather than a file."""
    return isinstance(location, str) and location.startswith(SCHEMES)


def shown(url: str) -> str:
    """The URL with its password left out (for messages and `memo doctor`)."""
    parts = urlsplit(url)
    if not parts.password:
        return url
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))


def _driver_url(url: str) -> str:
    scheme, rest = url.split("://", 1)
    return f"postgresql+psycopg://{rest}" if scheme != "postgresql+psycopg" else url


def _make_engine(url: str, *, writer: bool, timeout_ms: int, own: set[int] | None = None) -> Engine:
    engine = create_engine(
        _driver_url(url),
        pool_size=1 if writer else 4,
        max_overflow=0 if writer else 4,
        pool_pre_ping=True,
        isolation_level="READ COMMITTED" if writer else "REPEATABLE READ",
        connect_args={"connect_timeout": max(int(timeout_ms / 1000), 2)},
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        with dbapi_conn.cursor() as cursor:
            cursor.execute(f"SET lock_timeout = {int(timeout_ms) * 6}")
            cursor.execute("SET TIME ZONE 'UTC'")
            # HNSW returns at most ef_search rows: search asks for up to 50 candidates
            cursor.execute("SET hnsw.ef_search = 100")
            if not writer:
                cursor.execute("SET default_transaction_read_only = on")
            elif own is not None:  # (its writes are this process's own: see Listener)
                cursor.execute("SELECT pg_backend_pid()")
                own.add(int(cursor.fetchone()[0]))
        dbapi_conn.commit()

    if writer:

        @event.listens_for(engine, "begin")
        def _on_begin(conn: Any) -> None:
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({WRITING})")

    return engine


class Listener:
    """A connection that LISTENs for memo_changed: how many writes other sessions told of.

    Opened on first use; each `count()` reads what has arrived without waiting. Writes of
    the sessions in `own` (this process's writer connections) are not counted."""

    def __init__(self, url: str, own: set[int]) -> None:
        self.url, self.own = url, own
        self.heard = 0
        self._conn: Any = None

    def count(self) -> int:
        if self._conn is None:
            import psycopg

            self._conn = psycopg.connect(_plain_url(self.url), autocommit=True)
            self._conn.execute("LISTEN memo_changed")
        for note in self._conn.notifies(timeout=0):
            if not note.payload.isdigit() or int(note.payload) not in self.own:
                self.heard += 1
        return self.heard

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


@contextmanager
def key_held(url: str, key: str) -> Iterator[None]:
    """`key` held by this process until the block ends, against every other session of the
    server (a session advisory lock on a connection of its own: waits while another holds
    it; a connection that dies lets it go)."""
    import psycopg

    with psycopg.connect(_plain_url(url), autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", (key,))
        try:
            yield
        finally:
            conn.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", (key,))


class Presence:
    """This process, known to be alive by every session of the server: a session advisory
    lock on a connection of its own, held until the process closes the store or dies (the
    server lets go of a dead connection's locks). Taken on first use."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.key = f"memo-presence:{uuid.uuid4()}"
        self._conn: Any = None

    def held_key(self) -> str:
        """The key this process holds (taking it now if need be)."""
        if self._conn is None:
            import psycopg

            conn = psycopg.connect(_plain_url(self.url), autocommit=True)
            conn.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", (self.key,))
            self._conn = conn
        return self.key

    def present(self, key: str) -> bool:
        """Whether some live session holds `key` (this process's own included)."""
        import psycopg

        with psycopg.connect(_plain_url(self.url), autocommit=True) as conn:
            row = conn.execute(
                "SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", (key,)
            ).fetchone()
            taken = bool(row and row[0])
            if taken:  # nobody held it: let it go again
                conn.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", (key,))
        return not taken

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def _plain_url(url: str) -> str:
    """The URL as psycopg itself takes it (no SQLAlchemy driver name)."""
    return "postgresql://" + url.split("://", 1)[1]


def writer_engine(url: str, timeout_ms: int = 5_000, own: set[int] | None = None) -> Engine:
    """Connections whose every transaction holds memo's write lock; their backend pids go
    into `own`."""
    return _make_engine(url, writer=True, timeout_ms=timeout_ms, own=own)


def reader_engine(url: str, timeout_ms: int = 5_000) -> Engine:
    """Read-only connections, a snapshot per transaction."""
    return _make_engine(url, writer=False, timeout_ms=timeout_ms)
