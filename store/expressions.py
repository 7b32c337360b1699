"""Expressions several query modules share, over the table classes.

A statement run for every thread or capture of an import is built once, at import, with
bound parameters: building and caching a statement on each call costs more than running it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from sqlalchemy import ColumnElement, Select, bindparam, func, select
from sqlmodel import col

from store.tables import Capture


def columns(table: Any, names: str) -> list[Any]:
    """A table's columns by name ("id title ..."), in the order a record's fields take them."""
    return [col(getattr(table, name)) for name in names.split()]


def capture_day(capture: Any = Capture) -> ColumnElement[str]:
    """A capture's day: its meeting's date, else the day it was captured (`capture` may be
    an alias of the table)."""
    return func.coalesce(col(capture.occurred_at), func.substr(col(capture.captured_at), 1, 10))


def each(values: Iterable[object]) -> Select[Any]:
    """Values to match with IN, as one JSON parameter: no limit on how many (a parameter per
    value would meet SQLite's)."""
    return select(func.json_each(json.dumps(list(values))).table_valued("value").c.value)


def each_of(name: str) -> Select[Any]:
    """`each` for a statement built once: the values come as JSON in parameter `name`."""
    return select(func.json_each(bindparam(name)).table_valued("value").c.value)
