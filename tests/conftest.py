"""Shared fixtures: a real SQLite store in tmp_path, offline services on a copy of the demo
store, the demo embedded with the real model, and a `memo` subprocess runner. Helpers that
tests import live in `support/`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from support import postgres
from support.embedding import INT8_FOLDER
from support.embedding import embedder as real_embedder
from support.paths import DEMO
from support.postgres import demo_database, fresh_database
from support.services import offline

from memo_tui.core.capture import CaptureOptions, CaptureService
from store import Store

if TYPE_CHECKING:
    from memo_tui.core.services import Services

# No test downloads the embedding model from the real hub: those that test the download
# serve it from a fake hub on loopback and say so.
os.environ["MEMO_EMBED_DOWNLOAD"] = "0"


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """This test process's PostgreSQL server goes with its folder (gigabytes of databases)."""
    postgres.stop()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test module that says `BOTH_STORES = True` runs each test that reaches a store on a
    SQLite file and again on a PostgreSQL database (support.postgres)."""
    if "backend" in metafunc.fixturenames and getattr(metafunc.module, "BOTH_STORES", False):
        on_server = pytest.param("postgres", marks=pytest.mark.postgres)
        metafunc.parametrize("backend", ["sqlite", on_server], scope="module")


@pytest.fixture(scope="module")
def backend() -> str:
    """Which database a test's store is on (see pytest_generate_tests)."""
    return "sqlite"


def location(backend: str, folder: Path) -> Path | str:
    """A new, empty store's location on `backend`."""
    return folder / "memo.db" if backend == "sqlite" else fresh_database()


@pytest.fixture
def store(tmp_path: Path, backend: str) -> Iterator[Store]:
    with Store(location(backend, tmp_path)) as opened:
        yield opened


@pytest.fixture(scope="session")
def demo_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo meetings captured once a session (offline); each test gets a copy."""
    from memo_tui.core.demo import seed_demo

    folder = tmp_path_factory.mktemp("demo-template")
    with pytest.MonkeyPatch.context() as monkeypatch:
        built = offline(folder, monkeypatch)
        try:
            seed_demo(built.capture)
        finally:
            built.close()  # (closing checkpoints the WAL into memo.db)
    return folder


@pytest.fixture
def services(
    demo_template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, backend: str
) -> Iterator[Services]:
    """Offline services on this test's own copy of the demo store (agents, chat, the app)."""
    if backend == "postgres":
        built = offline(tmp_path, monkeypatch, location=demo_database())
        yield built
        built.close()
        return
    for name in ("memo.db", "memo.db-wal"):
        if (demo_template / name).exists():
            shutil.copy(demo_template / name, tmp_path / name)
    built = offline(tmp_path, monkeypatch)
    yield built
    built.close()


@pytest.fixture
def service(store: Store) -> CaptureService:
    return CaptureService(store, CaptureOptions(max_chars=100_000, user="tester"))


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


@pytest.fixture
def memo(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Run the real `memo` command in a subprocess with a hermetic MEMO_HOME."""
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMO_")}
    env["MEMO_HOME"] = str(home)
    env["MEMO_EMBED_INT8_DIR"] = str(INT8_FOLDER)  # the model's int8 copy, made once
    env["MEMO_EMBED_DOWNLOAD"] = "0"  # a test that wants a download names its fake hub

    def run(
        *args: str,
        timeout: float = 120,
        extra_env: dict[str, str] | None = None,
        stdin: str | None = None,  # text on stdin (a pipe, never a terminal)
    ) -> Run:
        done = subprocess.run(
            [sys.executable, "-m", "memo_tui", *args],
            capture_output=True,
            text=True,
            env={**env, **(extra_env or {})},
            timeout=timeout,
            cwd=tmp_path,
            input=stdin,
        )
        return Run(done.returncode, done.stdout, done.stderr)

    run.home = home  # type: ignore[attr-defined]
    run.env = env  # type: ignore[attr-defined]
    return run


@pytest.fixture(scope="module")
def demo_search_store(
    tmp_path_factory: pytest.TempPathFactory, backend: str
) -> Iterator[tuple[Store, object]]:
    """The demo meetings captured and embedded once per module, with the real model."""
    from memo_tui.core.embed import EmbedService

    embedder = real_embedder()
    with Store(location(backend, tmp_path_factory.mktemp("demo"))) as store:
        embed = EmbedService(store, embedder)
        capture = CaptureService(store, CaptureOptions(user="t"), after_commit=embed.embed_capture)
        capture.capture_paths([DEMO])
        yield store, embedder


@pytest.fixture(scope="module")
def demo(demo_search_store: tuple[Store, object]) -> Store:
    return demo_search_store[0]


@pytest.fixture(scope="module")
def embedder(demo_search_store: tuple[Store, object]) -> object:
    return demo_search_store[1]
