"""Projects and clients by name: added, listed, renamed and deleted, for `memo
project|client ...` and the app (a concept is added here too).

Rename keeps everything: meetings, notes, the living document, aliases and runs point at a
project or client by id. The old name is not kept as an alias: the usual rename fixes a typo,
which should stop resolving; spellings close to the new name still resolve by spelling; and an
alias is looked up before names, so a kept one would take the old name from any project later
given it.

Delete never deletes a meeting. A project with meetings linked, notes or a living document (a
client with projects or notes) is refused unless forced, with what it has, so nothing is lost
unasked; forced, those links, notes and sections go, a client's projects stay without a
client, and agent runs stay as history.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from memo_tui.core.words import plural
from store import (
    Attached,
    InUseError,
    NameTakenError,
    NotFoundError,
    Renamed,
    Store,
)

Kind = Literal["project", "client"]
_NAMES_SHOWN = 10  # known names an error lists before "..."


class ProjectRefused(Exception):
    """A rename or delete memo will not do: the message says why; nothing was changed."""


class UnknownName(ProjectRefused, LookupError):
    """No project or client of that name."""


class NameClash(ProjectRefused):
    """Another project (or client) already has the new name."""


class EmptyName(ProjectRefused, ValueError):
    """A new name with no letters in it."""


class StillInUse(ProjectRefused):
    """A delete that would lose meetings' links, notes, a document or a client's projects,
    not forced; `attached` says what."""

    def __init__(self, message: str, attached: Attached) -> None:
        super().__init__(message)
        self.attached = attached


class ProjectService:
    """Add projects (and concepts); rename and delete projects and clients, found by their
    exact name (any case)."""

    def __init__(self, store: Store, refreshed: Callable[[], object] | None = None) -> None:
        self.store = store
        self.refreshed = refreshed  # after a rename: its notes' vectors were dropped

    def add(self, name: str, client: str | None = None) -> int:
        """A new project (under `client`, made if new), spacing tidied; its id. NameClash
        when a project has the name in any case."""
        name = _tidy(name, "project")
        try:
            return self.store.projects.add(name, " ".join((client or "").split()) or None)
        except NameTakenError as error:
            raise NameClash(f"{error}: pick another name") from error

    def add_concept(self, name: str) -> int:
        """A new concept (an idea the team keeps coming back to), spacing tidied; its id."""
        name = _tidy(name, "concept")
        try:
            return self.store.concepts.add(name)
        except NameTakenError as error:
            raise NameClash(f"{error}: pick another name") from error

    def find(self, kind: Kind, name: str) -> tuple[int, str]:
        """The id and name of the project or client called `name`; UnknownName if none."""
        if kind == "project":
            known = [(p.id, p.name) for p in self.store.projects.all()]
        else:
            known = [(c.id, c.name) for c in self.store.clients.all()]
        return _named(kind, name, known)

    def attached(self, kind: Kind, name: str) -> Attached:
        """What deleting it would remove or change (for a question before a delete)."""
        entity_id, _ = self.find(kind, name)
        return self.store.projects.attached(kind, entity_id)

    def rename(self, kind: Kind, old: str, new: str) -> Renamed:
        """`old` is called `new` from now on (spacing tidied); everything stays linked."""
        entity_id, _ = self.find(kind, old)
        name = _tidy(new, kind)
        rename = self.store.projects.rename if kind == "project" else self.store.clients.rename
        try:
            renamed = rename(entity_id, name)
        except NameTakenError as error:
            raise NameClash(f"{error}: pick another name, or delete that {kind} first") from error
        except NotFoundError as error:  # deleted since it was found
            raise UnknownName(f"no {kind} called {old!r} any more") from error
        if renamed.notes_reindexed and self.refreshed is not None:
            self.refreshed()
        return renamed

    def delete(self, kind: Kind, name: str, force: bool = False) -> Attached:
        """Delete it; what it had. StillInUse, nothing deleted, when it has something that
        would be lost and not `force`."""
        entity_id, found = self.find(kind, name)
        delete = self.store.projects.delete if kind == "project" else self.store.clients.delete
        try:
            return delete(entity_id, force)
        except InUseError as error:
            raise StillInUse(
                f"{kind} {found!r} has {describe(error.attached)}", error.attached
            ) from error
        except NotFoundError as error:
            raise UnknownName(f"no {kind} called {name!r} any more") from error


def describe(had: Attached) -> str:
    """What a project or client has: "3 meetings linked, 2 notes and a living document
    (4 sections)"; "" for nothing."""
    parts = []
    if had.meetings:
        parts.append(plural(had.meetings, "meeting") + " linked")
    if had.notes:
        parts.append(plural(had.notes, "note"))
    if had.sections:
        parts.append(f"a living document ({plural(had.sections, 'section')})")
    if had.projects:
        parts.append(plural(len(had.projects), "project") + f" ({', '.join(had.projects)})")
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts)


def _tidy(name: str, kind: str) -> str:
    """A name with its spacing tidied; EmptyName when nothing is left."""
    tidy = " ".join(name.split())
    if not tidy:
        raise EmptyName(f"a {kind} needs a name")
    return tidy


def _named(kind: Kind, name: str, known: Sequence[tuple[int, str]]) -> tuple[int, str]:
    """The one `kind` called `name`: exactly, else in any case and spacing."""
    wanted = " ".join(name.split())
    found = [k for k in known if k[1] == wanted] or [
        k for k in known if k[1].casefold() == wanted.casefold()
    ]
    if len(found) == 1:
        return found[0]
    if found:
        said = ", ".join(repr(n) for _, n in found)
        raise UnknownName(f"{name!r} could be any of {said}: give the name exactly")
    names = sorted((n for _, n in known), key=str.casefold)
    listed = ", ".join(names[:_NAMES_SHOWN]) + (", ..." if len(names) > _NAMES_SHOWN else "")
    hint = "memo projects" if kind == "project" else "memo clients"
    raise UnknownName(
        f"no {kind} called {name!r} ({kind}s: {listed or 'none yet'}); {hint} lists them"
    )
