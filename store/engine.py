"""SQLAlchemy engines on the sqlean driver with sqlite-vec loaded on every connection.

Two engines per store: one writer connection (pool of one) that starts every transaction
with BEGIN IMMEDIATE and is the only connection that checkpoints the WAL, and a small pool
of readers with automatic checkpoints off. SQLite 3.50.x (bundled by sqlean) has the
WAL-reset bug, which needs two connections checkpointing at once.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path
from typing import Any

import sqlean
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.pool import QueuePool


@cache
def _vec0_path() -> str:
    """The sqlite-vec extension shipped in the sqlite_vec package, found without importing
    the package (its import pulls in NumPy: a tenth of a second at every start)."""
    spec = importlib.util.find_spec("sqlite_vec")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("sqlite-vec is not installed: pip install sqlite-vec")
    return str(Path(next(iter(spec.submodule_search_locations))) / "vec0")


def _load_extensions(dbapi_conn: Any) -> None:
    dbapi_conn.enable_load_extension(True)
    try:
        dbapi_conn.load_extension(_vec0_path())
    finally:
        dbapi_conn.enable_load_extension(False)


def _make_engine(path: Path, *, writer: bool, busy_timeout_ms: int) -> Engine:
    engine = create_engine(
        f"sqlite:///{path}",
        module=sqlean,
        poolclass=QueuePool,
        pool_size=1 if writer else 4,
        max_overflow=0 if writer else 4,
        pool_timeout=max(busy_timeout_ms / 1000, 1.0) * 6,
        connect_args={"check_same_thread": False, "timeout": busy_timeout_ms / 1000},
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # The driver's own transaction handling is off; the begin event below decides.
        dbapi_conn.isolation_level = None
        _load_extensions(dbapi_conn)
        cursor = dbapi_conn.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA synchronous = NORMAL")
        if writer:
            cursor.execute("PRAGMA journal_mode = WAL")
        else:
            cursor.execute("PRAGMA wal_autocheckpoint = 0")
            cursor.execute("PRAGMA query_only = ON")
        cursor.close()

    begin_sql = "BEGIN IMMEDIATE" if writer else "BEGIN"

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql(begin_sql)

    return engine


def writer_engine(path: Path, busy_timeout_ms: int = 5_000) -> Engine:
    """The one connection that writes and checkpoints."""
    return _make_engine(path, writer=True, busy_timeout_ms=busy_timeout_ms)


def reader_engine(path: Path, busy_timeout_ms: int = 5_000) -> Engine:
    """Read-only connections that never checkpoint."""
    return _make_engine(path, writer=False, busy_timeout_ms=busy_timeout_ms)
