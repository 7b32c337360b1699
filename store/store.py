"""The Store: one SQLite file, or a PostgreSQL server for a team, opened explicitly."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from types import TracebackType

import sqlean
from sqlalchemy import Connection, Engine, text
from sqlalchemy.exc import DBAPIError

from store import engine, facts, postgres, reports, vectors
from store.errors import StoreError, refusal
from store.migrations import current_version, migrate
from store.migrations import postgres as pg_migrations
from store.records import StoreStats
from store.repositories.captures import Captures
from store.repositories.changes import Changes
from store.repositories.clients import Clients
from store.repositories.concepts import Concepts
from store.repositories.email import Email
from store.repositories.facts import Facts
from store.repositories.ledger import Ledger
from store.repositories.notes import Notes
from store.repositories.people import People
from store.repositories.projects import Projects
from store.repositories.reports import Reports
from store.repositories.review import Review
from store.repositories.runs import Runs
from store.repositories.search import Search
from store.repositories.sections import Sections
from store.repositories.vectors import Vectors
from store.repository import utc_now


class Store:
    """Persistence for memo. Build it with a file's path (or a postgresql:// URL), then
    `open()` it (or use `with`).

    The Store holds the engines, the transactions and the migrations; what is stored is
    reached through one repository per area: `store.captures`, `store.people`,
    `store.runs`, `store.email`, ... (see `store/repositories/`)."""

    def __init__(self, location: Path | str, busy_timeout_ms: int = 5_000) -> None:
        self.url = str(location) if postgres.is_postgres(location) else None
        self.path = Path(location) if self.url is None else Path()
        # What to call the store in messages: the file, or the server (without its password)
        self.location = str(self.path) if self.url is None else postgres.shown(self.url)
        self._busy_timeout_ms = busy_timeout_ms
        self._writer: Engine | None = None
        self._own: set[int] = set()  # this process's writer sessions (PostgreSQL)
        self._listener = postgres.Listener(self.url, self._own) if self.url else None
        self._presence = postgres.Presence(self.url) if self.url else None
        self._reader: Engine | None = None
        self._opening = threading.Lock()
        self._joined = threading.local()  # this thread's open `atomically()` transaction
        self.captures = Captures(self)
        self.changes = Changes(self)
        self.clients = Clients(self)
        self.concepts = Concepts(self)
        self.email = Email(self)
        self.facts = Facts(self)
        self.ledger = Ledger(self)
        self.notes = Notes(self)
        self.people = People(self)
        self.projects = Projects(self)
        self.reports = Reports(self)
        self.review = Review(self)
        self.runs = Runs(self)
        self.search = Search(self)
        self.sections = Sections(self)
        self.vectors = Vectors(self)

    def open(self) -> Store:
        """Create the file if needed and bring its schema up to date (once)."""
        with self._opening:
            if self._reader is None:
                self._open()
        return self

    @property
    def on_postgres(self) -> bool:
        return self.url is not None

    def _open(self) -> None:
        try:
            if self.url is not None:
                self._writer = postgres.writer_engine(self.url, self._busy_timeout_ms, self._own)
                pg_migrations.migrate(self._writer)
                self._reader = postgres.reader_engine(self.url, self._busy_timeout_ms)
                return
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._writer = engine.writer_engine(self.path, self._busy_timeout_ms)
            migrate(self._writer)
        except StoreError:
            self.close()
            raise
        except (OSError, DBAPIError, sqlean.Error) as error:
            self.close()
            reason = getattr(error, "orig", None) or error
            fix = "check the URL and that the server is up" if self.url else "check the path"
            raise StoreError(
                f"cannot open {self.location} as a memo store ({reason}): {fix}, or pick "
                "another store with --db"
            ) from error
        self._reader = engine.reader_engine(self.path, self._busy_timeout_ms)

    def close(self) -> None:
        """Checkpoint from the writer (the one connection that may) and release the file.

        Readers go first: the last connection to close would checkpoint the WAL itself.
        """
        if self._listener is not None:
            self._listener.close()
        if self._presence is not None:
            self._presence.close()
        if self._reader is not None:
            self._reader.dispose()
        if self._writer is not None:
            if self._reader is not None and self.url is None:  # a healthy SQLite file
                raw = self._writer.raw_connection()
                try:
                    raw.driver_connection.execute("PRAGMA wal_checkpoint(PASSIVE)")  # type: ignore[union-attr]
                finally:
                    raw.close()
            self._writer.dispose()
        self._writer = self._reader = None

    def data_version(self) -> int:
        """A number that changes when another process commits to the store: SQLite's
        `PRAGMA data_version`, read on the writer's own connection, so this process's writes
        leave it as it was (they are shown already). Cheap: no transaction, no table read.

        On PostgreSQL: how many writes of other sessions the store has told of (NOTIFY
        memo_changed, read on a listening connection of its own)."""
        if self._listener is not None:
            self.open()  # (so the schema that notifies is there)
            return self._listener.count()
        raw = self.writer.raw_connection()
        try:
            row = raw.driver_connection.execute("PRAGMA data_version").fetchone()  # type: ignore[union-attr]
        finally:
            raw.close()
        return int(row[0])

    def __enter__(self) -> Store:
        return self  # opened on first use

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def writer(self) -> Engine:
        """The write engine. The store opens on first use: a run that writes nothing
        creates no file."""
        if self._reader is None:
            self.open()
        assert self._writer is not None
        return self._writer

    @property
    def reader(self) -> Engine:
        if self._reader is None:
            self.open()
        assert self._reader is not None
        return self._reader

    def key_held(self, key: str) -> AbstractContextManager[None]:
        """What two writers must not do at once, held across processes and, on a team
        store, machines (an agent's writes to one entity): a PostgreSQL advisory lock; on a
        SQLite file each write is the file's alone already, so nothing more is taken."""
        if self.url is None:
            return nullcontext()
        return postgres.key_held(self.url, key)

    def presence(self) -> str | None:
        """A key that says this process is alive to every other process on a team store,
        held until the store closes or the process dies; None on a SQLite file (whose
        processes are all on this machine: their pids say)."""
        return self._presence.held_key() if self._presence is not None else None

    def present(self, key: str) -> bool | None:
        """Whether the process that holds `presence()` key `key` is alive; None when this
        store cannot tell (a SQLite file)."""
        return self._presence.present(key) if self._presence is not None else None

    @contextmanager
    def atomically(self) -> Iterator[None]:
        """Every write this thread makes inside the block lands in one transaction, or none
        does (an agent's write and the record that it was made, say)."""
        if getattr(self._joined, "conn", None) is not None:
            yield  # already inside one: join it
            return
        with _refusals(), self.writer.begin() as conn:
            self._joined.conn = conn
            try:
                yield
            finally:
                self._joined.conn = None

    @contextmanager
    def reporting(self) -> Iterator[Connection]:
        """A write that changes what the rollups count: they are rebuilt before it commits,
        so people_report and projects_report never disagree with the tables (inside
        `reports_deferred()`, once at its end instead)."""
        with self.writing() as conn:
            yield conn
            if not getattr(self._joined, "defer", False):
                reports.rebuild(conn, utc_now())

    @contextmanager
    def reports_deferred(self) -> Iterator[None]:
        """The rollups rebuilt once when the block ends, not after each of its writes (an
        import of thousands of threads)."""
        if getattr(self._joined, "defer", False):
            yield
            return
        self._joined.defer = True
        try:
            yield
        finally:
            self._joined.defer = False
            self.reports.rebuild()

    @contextmanager
    def writing(self) -> Iterator[Connection]:
        """A write transaction: this thread's `atomically()` one, or a new one."""
        joined: Connection | None = getattr(self._joined, "conn", None)
        if joined is not None:
            yield joined
            return
        with _refusals(), self.writer.begin() as conn:
            yield conn

    # The file as a whole

    def stats(self) -> StoreStats:
        with self.reader.connect() as conn:
            if self.url is None:
                versions = "SELECT sqlite_version(), vec_version()"
                version = current_version(conn)
            else:
                versions = _PG_VERSIONS
                version = pg_migrations.current_version(conn)
            sqlite_version, vec_version = conn.execute(text(versions)).one()
            model, dim = vectors.embedding_space(conn)
            return StoreStats(
                path=self.location,
                schema_version=version,
                sqlite_version=sqlite_version,
                vec_version=vec_version,
                captures=facts.scalar(conn, "SELECT count(*) FROM captures"),
                facts_by_type=facts.count_facts_by_type(conn),
                fts_rows=facts.scalar(conn, "SELECT count(*) FROM facts_fts"),
                vectors=facts.scalar(conn, "SELECT count(*) FROM fact_vectors"),
                embedding_model=model,
                embedding_dim=dim,
            )

    def integrity_check(self) -> str:
        """SQLite's own verdict on the file ("ok" when healthy). A PostgreSQL server keeps
        its own pages whole: "ok" once it answers."""
        with self.reader.connect() as conn:
            if self.url is not None:
                conn.exec_driver_sql("SELECT 1")
                return "ok"
            return str(conn.execute(text("PRAGMA integrity_check")).scalar_one())


_PG_VERSIONS = (
    "SELECT 'PostgreSQL ' || current_setting('server_version'), "
    "(SELECT 'pgvector ' || extversion FROM pg_extension WHERE extname = 'vector')"
)


@contextmanager
def _refusals() -> Iterator[None]:
    """A write the database refused (a lock held past the timeout, a constraint, a lost
    server) as a StoreError that names the reason only: the driver's own message carries
    the statement and its parameters, the user's text among them. Nothing was written."""
    try:
        yield
    except DBAPIError as error:
        raise refusal(error) from error
