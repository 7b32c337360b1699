"""Copying one store into another: a person's SQLite file into the team's PostgreSQL server.

Every row keeps its id, so fact keys, citations and agents' documents still point where they
did; each table is copied in an order where what a row refers to is there first, in batches
that each commit (a copy stopped part way goes on where it stopped when run again). Running
it again copies what is new, and brings rows copied before up to date where they changed
here since (a decision a later meeting replaced, a name confirmed): this store wins for the
rows it copied; rows that are the same are not written.
What the target derives itself is not copied: the search index (its triggers build it as
the facts arrive) and the rollups (rebuilt once at the end). Vectors are copied when the
target has none or has the same model's; else the target embeds the facts itself later.

A target whose rows under the same ids are something else (another person's meetings
copied first) is refused before anything is written: ids would collide.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Table, or_, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import SQLModel

from store import tables as _declared  # noqa: F401  (declares every table)
from store import vectors
from store.errors import StoreError
from store.expressions import among, insert, postgres

if TYPE_CHECKING:
    from store.store import Store

# In the order rows refer to each other (the PostgreSQL schema's order).
ORDER = (
    "clients projects people concepts captures decisions action_items excerpts context_notes "
    "digests capture_people capture_projects changes entity_aliases person_addresses "
    "person_merges sections email_messages llm_calls agent_sessions agent_steps "
    "agent_tool_calls agent_events agent_decisions"
).split()

BATCH = 500

Progress = Callable[[str, int, int], None]  # (table, rows done, rows in all)


@dataclass
class Copied:
    """What a copy did: new rows by table, rows brought up to date, rows the target had as
    they are here, vectors copied."""

    added: dict[str, int] = field(default_factory=dict)
    updated: int = 0
    present: int = 0
    vectors: int = 0
    vectors_skipped: str = ""  # why vectors were not copied, when they were not


def copy_store(source: Store, target: Store, progress: Progress | None = None) -> Copied:
    """Copy every row of `source` that `target` lacks; see the module's docstring."""
    done = Copied()
    with source.reader.connect() as conn:
        _refuse_collisions(conn, target)
    for name in ORDER:
        table = _table(name)
        with source.reader.connect() as conn:
            rows = [dict(r._mapping) for r in conn.execute(select(table).order_by(*_key(table)))]
        added = updated = 0
        for start in range(0, len(rows), BATCH):
            with _said(name), target.writing() as conn:
                new, changed = _put(conn, table, rows[start : start + BATCH])
            added, updated = added + new, updated + changed
            if progress is not None:
                progress(name, min(start + BATCH, len(rows)), len(rows))
        if not rows and progress is not None:
            progress(name, 0, 0)
        done.added[name] = added
        done.updated += updated
        done.present += len(rows) - added - updated
    with target.writing() as conn:
        _ids_go_on(conn)
    _copy_vectors(source, target, done, progress)
    target.reports.rebuild()
    return done


def _table(name: str) -> Table:
    found = SQLModel.metadata.tables[name]  # (declared by store.tables)
    assert isinstance(found, Table)
    return found


def _key(table: Table) -> list[Any]:
    return list(table.primary_key.columns)


@contextmanager
def _said(table: str) -> Iterator[None]:
    """A row the target refuses (a name taken there in another row) named, not a trace."""
    try:
        yield
    except StoreError as error:
        refused = error.__cause__
        if not isinstance(refused, IntegrityError):
            raise
        raise StoreError(
            f"the target refused a row of {table} ({str(refused.orig).splitlines()[0]}); what "
            "was copied before it stays, and running the copy again goes on from there"
        ) from refused


def _put(conn: Connection, table: Table, rows: Sequence[dict[str, Any]]) -> tuple[int, int]:
    """Rows into `table`: new ones added, ones there already brought up to date where they
    differ. How many were added, and how many updated.

    A decision can name a later decision that replaced it (superseded_by, maybe not there
    yet): that column is written in a second pass, once every decision of the batch is in."""
    if not rows:
        return 0, 0
    keys = [c.name for c in _key(table)]
    present = _present(conn, table, keys, rows)
    later = "superseded_by" if table.name == "decisions" else ""
    values = [c.name for c in table.c if c.name not in keys and c.name != later]
    new = insert(table)
    written = (
        new.on_conflict_do_update(
            index_elements=keys,
            set_={c: new.excluded[c] for c in values},
            where=or_(*(table.c[c].is_distinct_from(new.excluded[c]) for c in values)),
        )
        if values
        else new.on_conflict_do_nothing(index_elements=keys)  # (a link: its key is all of it)
    )
    changed = conn.execute(
        written.execution_options(preserve_rowcount=True),
        [{**row, later: None} if later else row for row in rows],
    ).rowcount
    added = sum(1 for row in rows if tuple(row[k] for k in keys) not in present)
    if later:
        for row in rows:
            conn.execute(
                update(table)
                .where(table.c.id == row["id"])
                .where(table.c.superseded_by.is_distinct_from(row["superseded_by"]))
                .values(superseded_by=row["superseded_by"])
            )
    return added, int(changed or 0) - added


def _present(
    conn: Connection, table: Table, keys: list[str], rows: Sequence[dict[str, Any]]
) -> set[tuple[Any, ...]]:
    """The keys of `rows` the target holds already."""
    if len(keys) == 1:
        wanted = among(table.c[keys[0]], [row[keys[0]] for row in rows])
        return {(k,) for k in conn.execute(select(table.c[keys[0]]).where(wanted)).scalars()}
    return {tuple(r) for r in conn.execute(select(*(table.c[k] for k in keys)))}


def _refuse_collisions(conn: Connection, target: Store) -> None:
    """The target's meetings under the source's ids must be the same meetings."""
    captures = _table("captures")
    ours = dict(conn.execute(select(captures.c.id, captures.c.content_hash)).all())
    with target.reader.connect() as there:
        theirs = dict(there.execute(select(captures.c.id, captures.c.content_hash)).all())
    clashing = [i for i, h in ours.items() if i in theirs and theirs[i] != h]
    if clashing:
        raise StoreError(
            f"{target.location} holds other meetings under {len(clashing)} of this store's "
            "ids (another store was copied there first): memo store copy moves a store into "
            "an empty one, or into one it was copied to before"
        )


def _ids_go_on(conn: Connection) -> None:
    """On PostgreSQL, each table's id sequence is moved past the ids copied in (SQLite
    takes the largest id plus one by itself)."""
    if not postgres(conn):
        return
    for name in ORDER:
        table = _table(name)
        if "id" not in table.c or len(_key(table)) != 1:
            continue
        conn.execute(
            text(
                f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                f"greatest((SELECT max(id) FROM {name}), 1))"
            )
        )


def _copy_vectors(source: Store, target: Store, done: Copied, progress: Progress | None) -> None:
    """The facts' vectors, when the target has none or the same model's."""
    model, dim = source.vectors.space()
    if model is None:
        done.vectors_skipped = "this store has no vectors"
        return
    theirs, _ = target.vectors.space()
    if theirs is not None and theirs != model:
        done.vectors_skipped = f"the target's vectors come from {theirs}, not {model}"
        return
    _, keys, blobs = source.vectors.all()
    hashes = source.vectors.hashes()
    with target.writing() as conn:
        vectors.set_embedding_space(conn, model, dim)
        have = set(vectors.content_hashes(conn))
    items = [(k, b, hashes[k]) for k, b in zip(keys, blobs, strict=True) if k not in have]
    for start in range(0, len(items), BATCH):
        with target.writing() as conn:
            vectors.put_many(conn, items[start : start + BATCH], model)
        if progress is not None:
            progress("vectors", min(start + BATCH, len(items)), len(items))
    done.vectors = len(items)
