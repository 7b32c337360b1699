"""The store suite runs on both backends: each test that takes `store` runs once on a SQLite
file and once on a PostgreSQL database of its own (support.postgres)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.postgres import fresh_database

from store import Store


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    location = tmp_path / "memo.db" if request.param == "sqlite" else fresh_database()
    with Store(location) as opened:
        yield opened


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[Store]:
    """A SQLite store only: for what only SQLite has (pragmas, the WAL, vec0's rowids)."""
    with Store(tmp_path / "memo.db") as opened:
        yield opened
