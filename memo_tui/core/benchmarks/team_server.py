"""The PostgreSQL server `memo bench team` runs on: one the user names (--server), or one
started for the run from the pgserver wheel where it is installed; either way the bench
works in scratch databases of its own, dropped at the end."""

from __future__ import annotations

import importlib
import itertools
import os
import tempfile
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit


class NoServer(Exception):
    """No server named and none can be started here."""


class Scratch:
    """Scratch databases on a server, made on demand and dropped on close."""

    def __init__(self, admin_url: str) -> None:
        self.admin_url = admin_url
        self.made: list[str] = []
        self._numbers = itertools.count(1)

    def __call__(self) -> str:
        """A new empty database's URL."""
        name = f"memo_bench_team_{os.getpid()}_{next(self._numbers)}"
        self._sql(f"CREATE DATABASE {name}")
        self.made.append(name)
        return _with_database(self.admin_url, name)

    def close(self) -> None:
        for name in self.made:
            self._sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def _sql(self, statement: str) -> None:
        import psycopg

        with psycopg.connect(_driverless(self.admin_url), autocommit=True) as conn:
            conn.execute(statement)


def _driverless(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


@contextmanager
def server(url: str | None) -> Iterator[tuple[Scratch, str]]:
    """Scratch databases on the server at `url`, else on one started now (pgserver)."""
    if url:
        scratch = Scratch(url)
        try:
            yield scratch, "the server given"
        finally:
            scratch.close()
        return
    handle = _start()
    scratch = Scratch(handle.get_uri())
    try:
        yield scratch, "PostgreSQL started for this run (pgserver)"
    finally:
        scratch.close()
        handle.cleanup()


def _start() -> Any:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pgserver = importlib.import_module("pgserver")  # (a test extra, not a dependency)
            folder = tempfile.mkdtemp(prefix="memo-bench-pg-")
            return pgserver.get_server(folder, cleanup_mode="delete")  # its folder goes too
    except ImportError as error:
        raise NoServer(
            "memo bench team needs a PostgreSQL 16 server with pgvector: name one with "
            "--server postgresql://user@host/postgres, or pip install pgserver"
        ) from error
    except Exception as error:  # pgserver's own failures come in many kinds
        raise NoServer(f"could not start PostgreSQL with pgserver ({error})") from error
