"""A project's or a client's context notes: written, edited, deleted and listed, each with who
wrote it, when and from where. Shared by `memo note`, `memo notes` and the app's project page.

A note is a fact (the facts view lists it, search finds it): an edit re-indexes it at once and
drops its vector, so after a write the caller's `refreshed` embeds it again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from store import NoteRecord, NotFoundError, Provenance, Store, utc_now

OwnerKind = Literal["project", "client"]
_NAMES_SHOWN = 10  # known names an error lists before "..."


class NoteRefused(Exception):
    """A note memo will not write: the message says why, and nothing was written."""


class UnknownOwner(NoteRefused, LookupError):
    """No project or client of that name."""


class UnknownNote(NoteRefused, LookupError):
    """No note with that id (perhaps deleted meanwhile)."""


class EmptyNote(NoteRefused, ValueError):
    """A note with no text: delete it instead."""


@dataclass(frozen=True)
class NoteOwner:
    """What a note is about: a project or a client memo knows."""

    kind: OwnerKind
    id: int
    name: str

    @property
    def source_id(self) -> str:
        """Where a note about this owner is written from, as its provenance records it (a
        client by name, a project by id)."""
        return f"client:{self.name}" if self.kind == "client" else f"project:{self.id}"


@dataclass(frozen=True)
class Edited:
    note: NoteRecord  # as it now stands
    changed: bool  # False: the text was already this, nothing was written


class NotesService:
    """Notes written by `user`; `refreshed` runs after a note's text is written (e.g. embed
    the facts without a vector)."""

    def __init__(
        self,
        store: Store,
        user: str,
        refreshed: Callable[[], object] | None = None,
        clock: Callable[[], str] = utc_now,
    ) -> None:
        self.store = store
        self.user = user
        self.refreshed = refreshed
        self.clock = clock

    # Who a note is about

    def project(self, name: str) -> NoteOwner:
        """The project called `name` (any case); UnknownOwner when there is none."""
        known = [(p.id, p.name) for p in self.store.projects.all()]
        return _named("project", name, known, "memo projects lists them")

    def client(self, name: str) -> NoteOwner:
        """The client called `name` (any case); UnknownOwner when there is none."""
        known = [(c.id, c.name) for c in self.store.clients.all()]
        return _named("client", name, known, "memo projects lists them with their clients")

    def owners_of(self, project_id: int) -> list[NoteOwner]:
        """What a note written on a project's page may be about: the project, then its
        client when it has one. UnknownOwner when the project is gone."""
        project = self.store.projects.get(project_id)
        if project is None:
            raise UnknownOwner(f"no project {project_id}")
        owners = [NoteOwner("project", project_id, project.summary.name)]
        client = project.summary.client
        found = (
            next((c for c in self.store.clients.all() if c.name == client), None)
            if client
            else None
        )
        if found is not None:
            owners.append(NoteOwner("client", found.id, found.name))
        return owners

    def provenance(self, owner: NoteOwner) -> Provenance:
        """A new note's provenance: the user wrote it, now, about `owner`."""
        return Provenance("note", owner.source_id, self.clock(), self.user)

    # Writing

    def add(self, owner: NoteOwner, body: str) -> NoteRecord:
        """A new note about `owner`, its text trimmed; EmptyNote when there is none."""
        text = _text(body)
        provenance = self.provenance(owner)
        if owner.kind == "client":
            note_id = self.store.notes.add_for_client(owner.name, text, provenance)
        else:
            note_id = self.store.notes.add_for_project(owner.name, text, provenance)
        self._refresh()
        return self.note(note_id)

    def edit(self, note_id: int, body: str) -> Edited:
        """A note's new text (trimmed; its provenance still names who wrote it first).
        UnknownNote or EmptyNote, and nothing written, when it cannot be."""
        text = _text(body)
        before = self.note(note_id)
        if text == before.body:
            return Edited(before, changed=False)
        try:
            self.store.notes.update(note_id, text)
        except NotFoundError as error:  # deleted since it was read
            raise UnknownNote(_unknown(note_id)) from error
        self._refresh()
        return Edited(self.note(note_id), changed=True)

    def delete(self, note_id: int) -> NoteRecord:
        """Delete a note (its search entries and vector go with it); the note as it was.
        UnknownNote when there is no such note."""
        gone = self.note(note_id)
        if not self.store.notes.delete(note_id):
            raise UnknownNote(_unknown(note_id))
        return gone

    # Reading

    def note(self, note_id: int) -> NoteRecord:
        found = self.store.notes.get(note_id)
        if found is None:
            raise UnknownNote(_unknown(note_id))
        return found

    def listed(self, owner: NoteOwner | None = None) -> list[NoteRecord]:
        """Every note by owner; a project's (then its client's, as its page shows them); or
        a client's."""
        if owner is None:
            return self.store.notes.all()
        if owner.kind == "client":
            return self.store.notes.all(client_id=owner.id)
        project = self.store.projects.get(owner.id)
        return project.notes if project is not None else []

    def _refresh(self) -> None:
        if self.refreshed is not None:
            self.refreshed()


def _text(body: str) -> str:
    text = body.strip()
    if not text:
        raise EmptyNote("a note needs some text (to remove a note, delete it)")
    return text


def _unknown(note_id: int) -> str:
    return f"no note {note_id} (memo notes lists them with their ids)"


def _named(kind: OwnerKind, name: str, known: Sequence[tuple[int, str]], hint: str) -> NoteOwner:
    """The one `kind` called `name`: exactly, else in any case and spacing."""
    wanted = " ".join(name.split())
    found = [k for k in known if k[1] == wanted] or [
        k for k in known if k[1].casefold() == wanted.casefold()
    ]
    if len(found) == 1:
        return NoteOwner(kind, *found[0])
    if found:
        said = ", ".join(repr(n) for _, n in found)
        raise UnknownOwner(f"{name!r} could be any of {said}: give the name exactly")
    names = sorted((n for _, n in known), key=str.casefold)
    listed = ", ".join(names[:_NAMES_SHOWN]) + (", ..." if len(names) > _NAMES_SHOWN else "")
    raise UnknownOwner(f"no {kind} called {name!r} ({kind}s: {listed or 'none yet'}); {hint}")
