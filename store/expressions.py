"""Expressions several query modules share, over the table classes.

A statement run for every thread or capture of an import is built once, at import, with
bound parameters: building and caching a statement on each call costs more than running it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from sqlalchemy import (
    BindParameter,
    Boolean,
    ColumnElement,
    Connection,
    CursorResult,
    Dialect,
    FunctionElement,
    bindparam,
    func,
)
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.visitors import InternalTraversal
from sqlalchemy.types import NullType, Text, TypeDecorator
from sqlmodel import col

from store.tables import Capture

# INSERT ... ON CONFLICT for both stores: PostgreSQL's construct, which SQLite's compiler
# renders as well (SQLite's own lacks what PostgreSQL's compiler reads).
__all__ = [
    "among",
    "among_bound",
    "among_sql",
    "listed",
    "capture_day",
    "columns",
    "insert",
    "new_id",
    "now",
    "postgres",
]


def postgres(conn: Connection) -> bool:
    """Whether a connection is to a PostgreSQL store (else SQLite)."""
    return conn.dialect.name == "postgresql"


def new_id(result: CursorResult[Any]) -> int:
    """The id a one-row INSERT gave its row (RETURNING on PostgreSQL, the rowid on SQLite)."""
    return int(result.inserted_primary_key[0])  # type: ignore[index]


def columns(table: Any, names: str) -> list[Any]:
    """A table's columns by name ("id title ..."), in the order a record's fields take them."""
    return [col(getattr(table, name)) for name in names.split()]


def capture_day(capture: Any = Capture) -> ColumnElement[str]:
    """A capture's day: its meeting's date, else the day it was captured (`capture` may be
    an alias of the table)."""
    return func.coalesce(col(capture.occurred_at), func.substr(col(capture.captured_at), 1, 10))


class _Listed(TypeDecorator[list[Any]]):
    """A list bound as one parameter, however long (a parameter per value would meet
    SQLite's limit): JSON text for SQLite's json_each, an array for PostgreSQL."""

    impl = NullType
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        listed = list(value)
        return listed if dialect.name == "postgresql" else json.dumps(listed)


class _Among(ColumnElement[bool]):
    """`column IN (values)` with the values in one parameter (see `among`)."""

    inherit_cache = True
    type = Boolean()
    _traverse_internals = [
        ("column", InternalTraversal.dp_clauseelement),
        ("values", InternalTraversal.dp_clauseelement),
        ("nocase", InternalTraversal.dp_boolean),
    ]

    def __init__(
        self, column: ColumnElement[Any], values: BindParameter[Any], nocase: bool = False
    ) -> None:
        self.column = column
        self.values = values
        self.nocase = nocase


@compiles(_Among)
def _among_in_sqlite(element: _Among, compiler: SQLCompiler, **kw: Any) -> str:
    column, values = compiler.process(element.column, **kw), compiler.process(element.values, **kw)
    collation = " COLLATE NOCASE" if element.nocase else ""
    return f"{column}{collation} IN (SELECT value FROM json_each({values}))"


@compiles(_Among, "postgresql")
def _among_in_postgres(element: _Among, compiler: SQLCompiler, **kw: Any) -> str:
    column, values = compiler.process(element.column, **kw), compiler.process(element.values, **kw)
    if element.nocase:
        return f"lower({column}) = ANY(SELECT lower(v) FROM unnest(CAST({values} AS text[])) AS v)"
    return f"{column} = ANY({values})"


class now(FunctionElement[str]):
    """The time now in UTC as the store's text ('YYYY-MM-DD HH:MM:SS'), computed by the
    database."""

    inherit_cache = True
    type = Text()


@compiles(now)
def _now_in_sqlite(element: now, compiler: SQLCompiler, **kw: Any) -> str:
    return "datetime('now')"


@compiles(now, "postgresql")
def _now_in_postgres(element: now, compiler: SQLCompiler, **kw: Any) -> str:
    return "memo_now()"


def among(column: Any, values: Iterable[object], nocase: bool = False) -> ColumnElement[bool]:
    """`column IN values`, however many values, on either store; `nocase` compares text in
    any case (SQLite's NOCASE)."""
    listed = bindparam(None, list(values), type_=_Listed(), unique=True)
    return _Among(column, listed, nocase)


def among_sql(conn: Connection, column: str, name: str) -> str:
    """`among` inside a text() query: `column` among the values bound to parameter `name`
    (bind `listed(conn, values)` to it)."""
    if postgres(conn):
        return f"{column} = ANY(:{name})"
    return f"{column} IN (SELECT value FROM json_each(:{name}))"


def listed(conn: Connection, values: Iterable[object]) -> Any:
    """Values as `among_sql`'s parameter takes them on this connection's database."""
    return _Listed().process_bind_param(values, conn.dialect)


def among_bound(column: Any, name: str) -> ColumnElement[bool]:
    """`among` for a statement built once: the values come as a list in parameter `name`."""
    return _Among(column, bindparam(name, type_=_Listed()))
