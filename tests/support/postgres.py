"""A PostgreSQL server with pgvector for the tests: PostgreSQL 16 from the pgserver wheel,
started once per test process in its own folder, with a database per test copied from one
that holds memo's schema already (CREATE DATABASE ... TEMPLATE: milliseconds, not a
migration each time).

Where the server cannot start, the tests that need it skip, saying why; under CI
(CI=true) they fail instead, so a broken server never passes for a green run.
"""

from __future__ import annotations

import atexit
import functools
import itertools
import os
import shutil
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from store import Store

_TEMPLATE = "memo_template"
_DEMO = "memo_demo"
_numbers = itertools.count(1)


@dataclass
class Server:
    handle: Any  # pgserver's PostgresServer
    uri: str  # the server's own database (postgres)

    def url(self, database: str) -> str:
        head, _, tail = self.uri.partition("/postgres?")
        return f"{head}/{database}?{tail}"

    def sql(self, statement: str) -> None:
        import psycopg

        with psycopg.connect(self.uri, autocommit=True) as conn:
            conn.execute(statement)  # type: ignore[arg-type]


@functools.cache
def _server() -> Server | str:
    """The running server, or why there is none."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import pgserver

            folder = tempfile.mkdtemp(prefix="memo-pg-")
            # "delete": stopped and its folder removed when the test process ends (a run's
            # databases take gigabytes; "stop" left them behind, run after run)
            handle = pgserver.get_server(folder, cleanup_mode="delete")
    except Exception as error:  # any failure to start means: no server here
        return f"no PostgreSQL server: pgserver could not start one ({error})"
    server = Server(handle, handle.get_uri())
    server.sql(f"CREATE DATABASE {_TEMPLATE}")
    Store(server.url(_TEMPLATE)).open().close()  # the schema, once; no connection stays
    return server


def stop() -> None:
    """Stop the server this process started, if it started one, and remove its folder. Run
    at the session's end: a test process can be ended before its exit handlers are done."""
    if _server.cache_info().currsize:
        found = _server()
        if isinstance(found, Server):
            found.handle.cleanup()
        _server.cache_clear()


def server() -> Server:
    """The tests' server; skips the test where none can start (fails it under CI)."""
    found = _server()
    if isinstance(found, str):
        if os.environ.get("CI"):
            pytest.fail(found)
        pytest.skip(found)
    return found


def fresh_database(template: str = _TEMPLATE) -> str:
    """The URL of a new database holding memo's schema and nothing else (or a copy of
    another template's)."""
    running = server()
    name = f"memo_{os.getpid()}_{next(_numbers)}"
    running.sql(f"CREATE DATABASE {name} TEMPLATE {template}")
    return running.url(name)


@functools.cache
def _demo_template() -> str:
    """A database with the demo seeded by offline services, as the SQLite demo template
    is (conftest's demo_template), once per test process."""
    from memo_tui.core.demo import seed_demo
    from support.services import offline

    running = server()
    running.sql(f"CREATE DATABASE {_DEMO} TEMPLATE {_TEMPLATE}")
    folder = Path(tempfile.mkdtemp(prefix="memo-pg-demo-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    with pytest.MonkeyPatch.context() as monkeypatch:
        built = offline(folder, monkeypatch, location=running.url(_DEMO))
        try:
            seed_demo(built.capture)
        finally:
            built.close()
    return _DEMO


def demo_database() -> str:
    """The URL of a new database holding the demo, as the SQLite demo template does."""
    return fresh_database(_demo_template())
