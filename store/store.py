"""The Store: one SQLite file, handed its path, opened explicitly."""

from __future__ import annotations

import datetime as dt
import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any

import sqlean
from sqlalchemy import Connection, Engine, text
from sqlalchemy.exc import DBAPIError, IntegrityError

from store import (
    addresses,
    agents,
    captures,
    changes,
    concepts,
    email,
    facts,
    ledger,
    merges,
    notes,
    people,
    projects,
    reports,
    search,
    sections,
    vectors,
)
from store.engine import reader_engine, writer_engine
from store.errors import DuplicateCaptureError, StoreError
from store.migrations import current_version, migrate
from store.person_detail import owed_counts, person_detail
from store.projects import NamedKind
from store.records import (
    ActionItemRecord,
    AddressRecord,
    Approval,
    Attached,
    Backfill,
    CaptureCandidate,
    CaptureRef,
    CaptureSummary,
    ChangeRecord,
    ClientSummary,
    ConceptSummary,
    DecisionRecord,
    Directory,
    EmailMessageRecord,
    EventRecord,
    FactCursor,
    FactPeople,
    FactRecord,
    HistoryDecision,
    KnownMessage,
    NewCapture,
    NewChange,
    NewEmailMessage,
    NewsletterSummary,
    NoteRecord,
    OpenItem,
    PendingMention,
    PersonDetail,
    PersonMerge,
    PersonReport,
    PersonSummary,
    ProjectDetail,
    ProjectReport,
    ProjectSummary,
    Provenance,
    Renamed,
    RunDecisionRecord,
    RunRecord,
    RunStatus,
    SectionAuthor,
    SectionRecord,
    SectionWrite,
    StepRecord,
    StoreStats,
    ToolCallRecord,
    WrittenCapture,
)
from store.search import FactFilter


def utc_now() -> str:
    """Timestamps in the store: ISO 8601, UTC, seconds."""
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()


class Store:
    """Persistence for memo. Build it with a path, then `open()` it (or use `with`)."""

    def __init__(self, path: Path, busy_timeout_ms: int = 5_000) -> None:
        self.path = Path(path)
        self._busy_timeout_ms = busy_timeout_ms
        self._writer: Engine | None = None
        self._reader: Engine | None = None
        self._opening = threading.Lock()
        self._joined = threading.local()  # this thread's open `atomically()` transaction

    def open(self) -> Store:
        """Create the file if needed and bring its schema up to date (once)."""
        with self._opening:
            if self._reader is None:
                self._open()
        return self

    def _open(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._writer = writer_engine(self.path, self._busy_timeout_ms)
            migrate(self._writer)
        except StoreError:
            self.close()
            raise
        except (OSError, DBAPIError, sqlean.Error) as error:
            self.close()
            reason = getattr(error, "orig", None) or error
            raise StoreError(
                f"cannot open {self.path} as a memo store ({reason}): check the path, or "
                "pick another file with --db"
            ) from error
        self._reader = reader_engine(self.path, self._busy_timeout_ms)

    def close(self) -> None:
        """Checkpoint from the writer (the one connection that may) and release the file.

        Readers go first: the last connection to close would checkpoint the WAL itself.
        """
        if self._reader is not None:
            self._reader.dispose()
        if self._writer is not None:
            if self._reader is not None:  # fully opened: the file is a healthy store
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
        leave it as it was (they are shown already). Cheap: no transaction, no table read."""
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

    @contextmanager
    def atomically(self) -> Iterator[None]:
        """Every write this thread makes inside the block lands in one transaction, or none
        does (an agent's write and the record that it was made, say)."""
        if getattr(self._joined, "conn", None) is not None:
            yield  # already inside one: join it
            return
        with self.writer.begin() as conn:
            self._joined.conn = conn
            try:
                yield
            finally:
                self._joined.conn = None

    @contextmanager
    def _reporting(self) -> Iterator[Connection]:
        """A write that changes what the rollups count: they are rebuilt before it commits,
        so people_report and projects_report never disagree with the tables (inside
        `reports_deferred()`, once at its end instead)."""
        with self._write() as conn:
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
            self.rebuild_reports()

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        """A write transaction: this thread's `atomically()` one, or a new one."""
        joined: Connection | None = getattr(self._joined, "conn", None)
        if joined is not None:
            yield joined
            return
        with self.writer.begin() as conn:
            yield conn

    # Captures

    def capture_by_hash(self, content_hash: str) -> CaptureRef | None:
        with self.reader.connect() as conn:
            return captures.capture_by_hash(conn, content_hash)

    def captures(self) -> list[CaptureSummary]:
        with self.reader.connect() as conn:
            return captures.list_captures(conn)

    def capture(self, capture_id: int) -> CaptureSummary | None:
        with self.reader.connect() as conn:
            return captures.capture_summary(conn, capture_id)

    def delete_capture(self, capture_id: int) -> bool:
        """A capture and all it owns (facts, links, index entries, vectors) in one
        transaction. False when there was no such capture."""
        with self._reporting() as conn:
            return captures.delete_capture(conn, capture_id)

    # People, merged and split

    # Changes across meetings

    def capture_decisions(self, capture_id: int) -> list[HistoryDecision]:
        with self.reader.connect() as conn:
            return changes.capture_decisions(conn, capture_id)

    def earlier_current_decisions(
        self, capture_id: int, day: str, limit: int = 2000
    ) -> list[HistoryDecision]:
        with self.reader.connect() as conn:
            return changes.earlier_current_decisions(conn, capture_id, day, limit)

    def captures_of(self, decision_ids: Sequence[int], item_ids: Sequence[int] = ()) -> list[int]:
        """The captures these decisions and action items belong to."""
        if not decision_ids and not item_ids:
            return []
        with self.reader.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT capture_id FROM decisions "
                    "WHERE id IN (SELECT value FROM json_each(:d)) UNION "
                    "SELECT capture_id FROM action_items "
                    "WHERE id IN (SELECT value FROM json_each(:a))"
                ),
                {"d": json.dumps(list(decision_ids)), "a": json.dumps(list(item_ids))},
            ).all()
        return sorted(int(r[0]) for r in rows)

    def open_items_before(self, capture_id: int) -> list[OpenItem]:
        with self.reader.connect() as conn:
            return changes.open_items_before(conn, capture_id)

    def capture_text(self, capture_id: int) -> str:
        """A capture's text as memo stores it (what line numbers refer to)."""
        with self.reader.connect() as conn:
            found = conn.execute(
                text("SELECT text FROM captures WHERE id = :c"), {"c": capture_id}
            ).scalar()
        return str(found or "")

    def capture_ids_by_date(self) -> list[int]:
        """Every capture, oldest meeting first (then in the order captured)."""
        with self.reader.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT id FROM captures "
                    "ORDER BY coalesce(occurred_at, substr(captured_at, 1, 10)), captured_at, id"
                )
            ).all()
        return [int(r[0]) for r in rows]

    def decision_subjects(self) -> list[str]:
        with self.reader.connect() as conn:
            return changes.decision_subjects(conn)

    def set_decision_subjects(self, subjects: dict[int, str]) -> None:
        """What decisions are about (their search index follows), in one transaction."""
        with self.writer.begin() as conn:
            conn.execute(
                text("UPDATE decisions SET subject = :s WHERE id = :d"),
                [{"d": d, "s": subject} for d, subject in subjects.items()],
            )

    def add_changes(self, found: Sequence[NewChange]) -> list[int]:
        """Record changes in one transaction; strong ones take effect (rollups with them)."""
        with self._reporting() as conn:
            now = utc_now()
            return [changes.add_change(conn, change, now) for change in found]

    def decide_change(self, change_id: int, status: str, by: str) -> ChangeRecord:
        """Apply ("applied"), reject ("rejected") or undo ("undone") change `change_id`."""
        with self._reporting() as conn:
            return changes.decide(conn, change_id, status, by, utc_now())

    def changes(self, statuses: Sequence[str] = ()) -> list[ChangeRecord]:
        with self.reader.connect() as conn:
            return changes.changes(conn, statuses)

    def change(self, change_id: int) -> ChangeRecord | None:
        with self.reader.connect() as conn:
            return changes.change_by_id(conn, change_id)

    def merge_people(self, merged: int, kept: int, user: str) -> PersonMerge:
        """Person `merged` is `kept`: everything of theirs moves over, in one transaction
        (the rollups with it); split undoes it."""
        with self._reporting() as conn:
            return merges.merge(conn, merged, kept, user, utc_now())

    def merges_into(self, kept: int) -> list[PersonMerge]:
        with self.reader.connect() as conn:
            return merges.merges_into(conn, kept)

    def split_person(self, merge_id: int) -> int:
        """Undo merge `merge_id`; the id the merged person has again."""
        with self._reporting() as conn:
            return merges.split(conn, merge_id, utc_now())

    def capture_meta(self, capture_id: int) -> dict[str, Any]:
        """What the extractor and the reader noted about a capture (attendees, topics,
        `source_lines`, `skipped`)."""
        with self.reader.connect() as conn:
            return captures.capture_meta(conn, capture_id)

    def side_channels(self, capture_id: int) -> list[CaptureSummary]:
        """The chat logs captured beside a meeting."""
        with self.reader.connect() as conn:
            return captures.side_channels(conn, capture_id)

    def link_side_channel(self, chat_id: int, meeting_id: int) -> None:
        with self._write() as conn:
            captures.link_side_channel(conn, chat_id, meeting_id)

    def capture_candidates(self) -> list[CaptureCandidate]:
        with self.reader.connect() as conn:
            return captures.capture_candidates(conn)

    def write_capture(self, new: NewCapture, replace_id: int | None = None) -> WrittenCapture:
        """All rows of one capture in one BEGIN IMMEDIATE transaction, or none."""
        try:
            with self._reporting() as conn:
                return captures.write_capture(conn, new, replace_id)
        except IntegrityError as error:
            if "captures.content_hash" in str(error.orig):
                raise DuplicateCaptureError(f"{new.title!r} is already stored") from error
            raise

    def decisions(self, capture_ids: Sequence[int]) -> list[DecisionRecord]:
        with self.reader.connect() as conn:
            return captures.decisions_for(conn, capture_ids)

    def action_items(self, capture_ids: Sequence[int]) -> list[ActionItemRecord]:
        with self.reader.connect() as conn:
            return captures.action_items_for(conn, capture_ids)

    # People and names

    def directory(self) -> Directory:
        with self.reader.connect() as conn:
            return people.directory(conn)

    def people(self) -> list[PersonSummary]:
        with self.reader.connect() as conn:
            return people.summaries(conn)

    def person(self, person_id: int) -> PersonDetail | None:
        with self.reader.connect() as conn:
            return person_detail(conn, person_id)

    def owed_counts(self) -> dict[int, int]:
        with self.reader.connect() as conn:
            return owed_counts(conn)

    def pending_mentions(self) -> list[PendingMention]:
        with self.reader.connect() as conn:
            return people.pending_mentions(conn)

    def attendees(self, capture_ids: Sequence[int]) -> list[int]:
        with self.reader.connect() as conn:
            return people.attendees(conn, capture_ids)

    def unlinked_captures(self) -> list[int]:
        with self.reader.connect() as conn:
            return people.unlinked_captures(conn)

    def capture_source(self, capture_id: int) -> tuple[str, str, str, str | None]:
        """(title, stored text, source format, source path) of a capture."""
        with self.reader.connect() as conn:
            row = conn.execute(
                text("SELECT title, text, source_format, source_path FROM captures WHERE id = :c"),
                {"c": capture_id},
            ).one()
        return str(row[0]), str(row[1]), str(row[2]), row[3]

    def relink_capture(
        self,
        capture_id: int,
        new: NewCapture,
        decision_ids: Sequence[int],
        action_ids: Sequence[int],
        changing: Sequence[tuple[str, int]],
    ) -> dict[str, int]:
        """A capture's names applied afresh, with the links of the facts `changing`, in
        one transaction; the ids of the people it created, by name."""
        with self._reporting() as conn:
            return people.relink(conn, capture_id, new, decision_ids, action_ids, changing)

    def capture_raw(self, capture_id: int) -> str:
        """The text of a capture as its file gave it (a direct message left out)."""
        with self.reader.connect() as conn:
            found = conn.execute(
                text("SELECT raw_text FROM captures WHERE id = :c"), {"c": capture_id}
            ).scalar()
        return str(found or "")

    def add_person(self, name: str) -> int:
        with self._reporting() as conn:
            return people.add_person(conn, name, utc_now())

    def cache_alias(self, entity_type: str, alias: str, entity_id: int, confidence: float) -> None:
        with self._reporting() as conn:
            people.put_alias(conn, entity_type, alias, entity_id, confidence, True, utc_now())

    def confirm_alias(
        self,
        entity_type: str,
        mention: str,
        entity_id: int | None,
        user: str,
        capture_ids: Sequence[int] | None = None,
        spellings: Sequence[str] = (),
        remember: bool | None = None,
    ) -> Backfill:
        """The user's answer to "who is this?", back-filled in the same transaction (see
        people.confirm for `capture_ids` and `remember`)."""
        with self._reporting() as conn:
            return people.confirm(
                conn,
                entity_type,
                mention,
                entity_id,
                user,
                utc_now(),
                capture_ids,
                spellings,
                remember,
            )

    def settle_facts(
        self, person_id: int | None, action_item_ids: Sequence[int], decision_ids: Sequence[int]
    ) -> Backfill:
        """The user's answer for single waiting facts (no alias), in one transaction."""
        with self._reporting() as conn:
            return people.settle(conn, person_id, action_item_ids, decision_ids)

    # Clients, projects, notes, digests

    def add_client_note(self, client: str, body: str, provenance: Provenance) -> int:
        """A note about a client (created if new); returns the note's id."""
        with self._write() as conn:
            client_id = notes.ensure_client(conn, client, utc_now())
            return notes.add_note(conn, body, provenance, client_id=client_id)

    def add_project_note(
        self, project: str, body: str, provenance: Provenance, client: str | None = None
    ) -> int:
        """A note about a project (created if new, under `client` when given)."""
        with self._reporting() as conn:
            now = utc_now()
            client_id = notes.ensure_client(conn, client, now) if client else None
            project_id = notes.ensure_project(conn, project, client_id, now)
            return notes.add_note(conn, body, provenance, project_id=project_id)

    def projects(self) -> list[ProjectSummary]:
        with self.reader.connect() as conn:
            return projects.summaries(conn)

    def project(self, project_id: int) -> ProjectDetail | None:
        with self.reader.connect() as conn:
            return projects.detail(conn, project_id)

    def add_project(self, name: str, client: str | None = None) -> int:
        """A new project, under `client` (created if new) when given; its id. A name already
        taken, in any case, raises NameTakenError (which carries the existing id)."""
        with self._reporting() as conn:
            return projects.add_project(conn, name, client, utc_now())

    def link_captures(self, project_id: int, capture_ids: Sequence[int], linked_by: str) -> int:
        """Link meetings to a project (`linked_by`: 'user', 'agent', ...); how many were new."""
        with self._reporting() as conn:
            return projects.link_captures(conn, project_id, capture_ids, linked_by, utc_now())

    def unlinked_mentions(self, project_id: int, name: str) -> list[tuple[int, str, int]]:
        with self.reader.connect() as conn:
            return projects.unlinked_mentions(conn, project_id, name)

    def clients(self) -> list[ClientSummary]:
        with self.reader.connect() as conn:
            return projects.clients(conn)

    def rename_project(self, project_id: int, name: str) -> Renamed:
        """A project's new name; NameTakenError when another project has it (any case)."""
        with self._reporting() as conn:
            return projects.rename(conn, "project", project_id, name)

    def rename_client(self, client_id: int, name: str) -> Renamed:
        """A client's new name; NameTakenError when another client has it (any case)."""
        with self._reporting() as conn:
            return projects.rename(conn, "client", client_id, name)

    def attached(self, kind: NamedKind, entity_id: int) -> Attached:
        """What hangs off a project or client (what deleting it would remove or change)."""
        with self.reader.connect() as conn:
            return projects.attached(conn, kind, entity_id)

    def delete_project(self, project_id: int, force: bool = False) -> Attached:
        """Delete a project, in one transaction; what it had. InUseError, nothing deleted,
        when it has meetings, notes or a document and not `force` (see projects.delete)."""
        with self._reporting() as conn:
            return projects.delete(conn, "project", project_id, force)

    def delete_client(self, client_id: int, force: bool = False) -> Attached:
        """Delete a client, in one transaction; what it had. InUseError, nothing deleted,
        when it has projects or notes and not `force`; its projects stay, without a client."""
        with self._reporting() as conn:
            return projects.delete(conn, "client", client_id, force)

    def update_note(self, note_id: int, body: str) -> None:
        """A note's new text; search finds the new words at once, and its vector is dropped
        until the next embedding backfill. NotFoundError when the note is gone."""
        with self._write() as conn:
            notes.update_note(conn, note_id, body, utc_now())

    def delete_note(self, note_id: int) -> bool:
        with self._write() as conn:
            return notes.delete_note(conn, note_id)

    def note(self, note_id: int) -> NoteRecord | None:
        with self.reader.connect() as conn:
            return notes.note(conn, note_id)

    def notes(self, client_id: int | None = None) -> list[NoteRecord]:
        """Every note (or one client's) by its owner's name, each owner's newest first."""
        with self.reader.connect() as conn:
            return notes.list_notes(conn, client_id)

    def add_digest(
        self, period_start: str, period_end: str, body: str, provenance: Provenance
    ) -> int:
        with self._write() as conn:
            return notes.add_digest(conn, period_start, period_end, body, provenance)

    # Facts

    def facts(
        self,
        fact_type: str | None = None,
        since: str | None = None,
        capture_id: int | None = None,
        limit: int | None = None,
        offset: int = 0,
        current: bool = False,
    ) -> list[FactRecord]:
        with self.reader.connect() as conn:
            return facts.list_facts(conn, fact_type, since, capture_id, limit, offset, current)

    def filtered_facts(
        self, flt: FactFilter, limit: int | None = None, offset: int = 0
    ) -> list[FactRecord]:
        """The facts a filter allows, in `facts`'s order (`memo facts`)."""
        with self.reader.connect() as conn:
            return facts.filtered_facts(conn, flt, limit, offset)

    def fact_people(self, found: Sequence[FactRecord]) -> dict[int, FactPeople]:
        """Who each decision and action item among `found` is about, by fact key."""
        with self.reader.connect() as conn:
            return facts.fact_people(conn, found)

    def facts_page(
        self, flt: FactFilter, limit: int, after: FactCursor | None = None
    ) -> list[FactRecord]:
        """A page of the facts feed: newest meeting first, filtered as search filters. Pass
        `FactCursor.after(page[-1])` for the next page."""
        with self.reader.connect() as conn:
            return facts.facts_page(conn, flt, limit, after)

    def fact(self, fact_key: int) -> FactRecord | None:
        return self.facts_by_keys([fact_key]).get(fact_key)

    def keyword_search(
        self, query: str, flt: FactFilter, limit: int, stopwords: frozenset[str] = frozenset()
    ) -> list[tuple[int, float]]:
        with self.reader.connect() as conn:
            return search.keyword(conn, query, flt, limit, stopwords)

    def term_coverage(self, words: Sequence[str], keys: Sequence[int]) -> search.TermCoverage:
        """How many facts hold each word, and which of `keys` do."""
        with self.reader.connect() as conn:
            return search.term_coverage(conn, words, keys)

    def vector_search(
        self, vector: list[float], flt: FactFilter, limit: int, min_similarity: float
    ) -> list[tuple[int, float]]:
        with self.reader.connect() as conn:
            return search.semantic(conn, vector, flt, limit, min_similarity)

    def embedding_model(self) -> str | None:
        """The model that made the stored vectors (None before the first)."""
        with self.reader.connect() as conn:
            return vectors.embedding_space(conn)[0]

    def facts_by_keys(self, keys: list[int]) -> dict[int, FactRecord]:
        with self.reader.connect() as conn:
            return facts.facts_by_keys(conn, keys)

    def vector_epoch(self) -> tuple[str | None, int]:
        with self.reader.connect() as conn:
            return vectors.vector_epoch(conn)

    def all_vectors(self) -> tuple[int, list[int], list[bytes]]:
        """The vector epoch and every stored vector (packed float32) with its fact key."""
        with self.reader.connect() as conn:
            return vectors.all_vectors(conn)

    def allowed_keys(self, flt: FactFilter) -> list[int]:
        with self.reader.connect() as conn:
            return search.allowed_keys(conn, flt)

    def set_embedding_space(self, model: str, dim: int) -> bool:
        with self._write() as conn:
            return vectors.set_embedding_space(conn, model, dim)

    def facts_without_vectors(
        self, limit: int, capture_id: int | None = None
    ) -> list[tuple[int, str]]:
        with self.reader.connect() as conn:
            return vectors.facts_without_vectors(conn, limit, capture_id)

    def count_without_vectors(self) -> int:
        with self.reader.connect() as conn:
            return vectors.count_without_vectors(conn)

    def cached_vectors(self, hashes: list[str], model: str) -> dict[str, bytes]:
        with self.reader.connect() as conn:
            return vectors.cached_vectors(conn, hashes, model)

    def put_embeddings(
        self, items: Sequence[tuple[int, Sequence[float] | bytes, str]], model: str
    ) -> None:
        """Several vectors (fact_key, vector or packed vector, content hash) in one transaction."""
        with self._write() as conn:
            vectors.put_many(conn, items, model)

    def nearest(self, vector: Sequence[float], k: int) -> list[tuple[int, float]]:
        with self.reader.connect() as conn:
            return vectors.nearest(conn, vector, k)

    def put_embedding(
        self, fact_key: int, vector: Sequence[float], model: str, content_hash: str
    ) -> None:
        with self._write() as conn:
            vectors.put_embedding(conn, fact_key, vector, model, content_hash)

    # Cost ledger

    def record_llm_call(self, row: ledger.LLMCallRow) -> int:
        with self._write() as conn:
            return ledger.record_call(conn, row)

    def llm_costs(self, by: str, since: str | None = None) -> list[ledger.CostLine]:
        with self.reader.connect() as conn:
            return ledger.summarize(conn, by, since)

    def llm_calls(self) -> list[ledger.LLMCallRow]:
        """Every ledger row, oldest first (for tests and exports)."""
        with self.reader.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT provider, model, trigger, status, input_tokens, output_tokens, "
                    "cost_microdollars, latency_ms, error, capture_id, run_id, created_at "
                    "FROM llm_calls ORDER BY id"
                )
            ).all()
        return [ledger.LLMCallRow(*row) for row in rows]

    # Agent runs: written as they happen, so a viewer replays them and a crashed one resumes

    def start_run(
        self,
        agent_type: str,
        entity_type: str | None,
        entity_id: int | None,
        model: str | None,
        spec_json: str,
    ) -> int:
        """A new run, status 'running'; its id."""
        with self._write() as conn:
            return agents.start_run(
                conn, agent_type, entity_type, entity_id, model, spec_json, utc_now()
            )

    def set_run_status(self, run_id: int, status: RunStatus, error: str | None = None) -> None:
        """completed, failed and interrupted set finished_at; any other status clears it."""
        with self._write() as conn:
            agents.set_run_status(conn, run_id, status, error, utc_now())

    def set_run_spec(self, run_id: int, spec_json: str) -> None:
        with self._write() as conn:
            agents.set_run_spec(conn, run_id, spec_json)

    def add_run_usage(
        self, run_id: int, input_tokens: int, output_tokens: int, cost_microdollars: int
    ) -> None:
        """Add one model call's tokens and cost to the run's totals."""
        with self._write() as conn:
            agents.add_run_usage(conn, run_id, input_tokens, output_tokens, cost_microdollars)

    def run(self, run_id: int) -> RunRecord | None:
        with self.reader.connect() as conn:
            return agents.run(conn, run_id)

    def runs(self, limit: int = 100) -> list[RunRecord]:
        """The latest runs, newest first."""
        with self.reader.connect() as conn:
            return agents.runs(conn, limit)

    def mark_interrupted(self) -> list[int]:
        """At process start: every run still running or waiting for the user was cut off.
        They become 'interrupted'; returns their ids."""
        with self._write() as conn:
            return agents.mark_interrupted(conn, utc_now())

    def start_step(self, run_id: int, step_index: int, kind: str) -> int:
        with self._write() as conn:
            return agents.start_step(conn, run_id, step_index, kind, utc_now())

    def finish_step(
        self,
        step_id: int,
        status: str,
        input_tokens: int,
        output_tokens: int,
        message_json: str | None,
    ) -> None:
        """`message_json`: the assistant's turn (text and tool calls), to resume from."""
        with self._write() as conn:
            agents.finish_step(
                conn, step_id, status, input_tokens, output_tokens, message_json, utc_now()
            )

    def steps(self, run_id: int) -> list[StepRecord]:
        with self.reader.connect() as conn:
            return agents.steps(conn, run_id)

    def start_tool_call(
        self,
        run_id: int,
        step_id: int | None,
        call_id: str,
        tool_name: str,
        arguments_json: str,
        mutating: bool,
    ) -> int:
        """A call, status 'running'. One that finished already raises StoreError: resume
        with `completed_tool_call` instead."""
        with self._write() as conn:
            return agents.start_tool_call(
                conn, run_id, step_id, call_id, tool_name, arguments_json, mutating, utc_now()
            )

    def finish_tool_call(
        self, run_id: int, call_id: str, status: str, result_json: str | None
    ) -> None:
        with self._write() as conn:
            agents.finish_tool_call(conn, run_id, call_id, status, result_json, utc_now())

    def tool_calls(self, run_id: int) -> list[ToolCallRecord]:
        with self.reader.connect() as conn:
            return agents.tool_calls(conn, run_id)

    def completed_tool_call(self, run_id: int, call_id: str) -> ToolCallRecord | None:
        """The call and its result if it finished (whatever its status): a resumed run
        reuses it rather than calling the tool again."""
        with self.reader.connect() as conn:
            return agents.completed_tool_call(conn, run_id, call_id)

    def append_event(self, run_id: int, kind: str, payload_json: str) -> int:
        """The event's seq: 1, 2, 3... per run, without gaps, whoever appends."""
        with self._write() as conn:
            return agents.append_event(conn, run_id, kind, payload_json, utc_now())

    def events(self, run_id: int, after_seq: int = 0) -> list[EventRecord]:
        with self.reader.connect() as conn:
            return agents.events(conn, run_id, after_seq)

    def record_decision(
        self,
        run_id: int,
        tool_call_id: int | None,
        decision: Approval,
        decided_by: str,
        payload_json: str = "{}",
    ) -> int:
        """The human's answer to a run's request (`tool_call_id`: the row id of the call
        that asked)."""
        with self._write() as conn:
            return agents.record_decision(
                conn, run_id, tool_call_id, decision, decided_by, payload_json, utc_now()
            )

    def run_decisions(self, run_id: int) -> list[RunDecisionRecord]:
        with self.reader.connect() as conn:
            return agents.decisions(conn, run_id)

    # Living documents and rollups

    def write_section(
        self,
        entity_type: str,
        entity_id: int,
        key: str,
        body: str,
        cited_fact_keys: Sequence[int],
        by: SectionAuthor,
    ) -> SectionWrite:
        """'written', 'unchanged', or 'skipped_user_edit': an agent never overwrites a
        section the user edited."""
        with self._write() as conn:
            return sections.write_section(
                conn, entity_type, entity_id, key, body, cited_fact_keys, by, utc_now()
            )

    def sections(self, entity_type: str, entity_id: int) -> list[SectionRecord]:
        with self.reader.connect() as conn:
            return sections.sections(conn, entity_type, entity_id)

    def reset_section(self, entity_type: str, entity_id: int, key: str) -> bool:
        """A section the user edited goes back to the agents (its text kept until one
        rewrites it); False when it was theirs already, NotFoundError when there is none."""
        with self._write() as conn:
            return sections.reset_section(conn, entity_type, entity_id, key, utc_now())

    def rebuild_reports(self) -> None:
        """people_report and projects_report from the current tables, in one transaction."""
        with self._write() as conn:
            reports.rebuild(conn, utc_now())

    def people_report(self) -> list[PersonReport]:
        with self.reader.connect() as conn:
            return reports.people_report(conn)

    def projects_report(self) -> list[ProjectReport]:
        with self.reader.connect() as conn:
            return reports.projects_report(conn)

    # Email

    def known_messages(self) -> list[KnownMessage]:
        with self.reader.connect() as conn:
            return email.known_messages(conn)

    def add_email_messages(self, messages: Sequence[NewEmailMessage]) -> int:
        """Messages not stored yet (by Message-ID), in one transaction; how many were new."""
        with self._write() as conn:
            return email.add_messages(conn, messages, utc_now())

    def mark_one_way_senders(self, least: int = 5) -> int:
        with self._write() as conn:
            return email.mark_one_way_senders(conn, least)

    def pending_threads(self) -> list[str]:
        with self.reader.connect() as conn:
            return email.pending_threads(conn)

    def thread_messages(self, thread_key: str) -> list[EmailMessageRecord]:
        with self.reader.connect() as conn:
            return email.thread_messages(conn, thread_key)

    def thread_capture(self, thread_key: str) -> int | None:
        with self.reader.connect() as conn:
            return email.thread_capture(conn, thread_key)

    def attach_thread(self, thread_key: str, capture_id: int) -> None:
        """The thread's messages point at its capture (use inside `atomically()` with the
        capture's write, so the two land together)."""
        with self._write() as conn:
            email.attach_thread(conn, thread_key, capture_id)

    def capture_messages(self, capture_id: int) -> list[EmailMessageRecord]:
        with self.reader.connect() as conn:
            return email.capture_messages(conn, capture_id)

    def link_participants(
        self, participants: Sequence[tuple[str, str, bool]], mine: Sequence[str]
    ) -> None:
        """Each (address, display name) recorded and, on strong evidence, linked to its
        person (use inside `atomically()` with the thread's capture)."""
        with self._reporting() as conn:
            addresses.link_participants(conn, participants, mine, utc_now())

    def person_addresses(self, person_id: int) -> list[str]:
        with self.reader.connect() as conn:
            return addresses.addresses(conn, person_id)

    def address_proposals(self) -> list[AddressRecord]:
        with self.reader.connect() as conn:
            return addresses.proposals(conn)

    def merge_address(self, address: str, person_id: int | None) -> bool:
        """Settle a proposal: the address is that person's (or, None, nobody known)."""
        with self._reporting() as conn:
            return addresses.merge(conn, address, person_id)

    def add_concept(self, name: str) -> int:
        """A new concept; a name already taken (any case) raises NameTakenError."""
        with self._write() as conn:
            return concepts.add_concept(conn, name, utc_now())

    def concepts(self) -> list[ConceptSummary]:
        with self.reader.connect() as conn:
            return concepts.concepts(conn)

    def newsletters(self) -> list[NewsletterSummary]:
        with self.reader.connect() as conn:
            return email.newsletters(conn)

    # Health

    def stats(self) -> StoreStats:
        with self.reader.connect() as conn:
            sqlite_version, vec_version = conn.execute(
                text("SELECT sqlite_version(), vec_version()")
            ).one()
            model, dim = vectors.embedding_space(conn)
            return StoreStats(
                path=str(self.path),
                schema_version=current_version(conn),
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
        """SQLite's own verdict on the file ("ok" when healthy)."""
        with self.reader.connect() as conn:
            return str(conn.execute(text("PRAGMA integrity_check")).scalar_one())
