"""Errors the store raises, each with a message a user can act on."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlalchemy.exc import DBAPIError

    from store.records import Attached


class StoreError(Exception):
    """Base class for store failures."""


class ProvenanceError(StoreError):
    """A fact row would have no trigger: neither a user nor an agent produced it."""


class SchemaTooNewError(StoreError):
    """The database was written by a newer memo than this one."""


class DuplicateCaptureError(StoreError):
    """The same text was stored meanwhile (by another process)."""


class VectorError(StoreError):
    """An embedding vector is malformed (wrong dimension, NaN or infinity)."""


class NameTakenError(StoreError):
    """A project or client with this name (in any case) already exists."""

    def __init__(self, message: str, existing_id: int) -> None:
        super().__init__(message)
        self.existing_id = existing_id


class NotFoundError(StoreError):
    """The row to change is gone (deleted meanwhile, perhaps by another process)."""


class MergeError(StoreError):
    """A merge or split that cannot be done (the same person twice, nothing to split)."""


class ChangeStateError(StoreError):
    """A change that cannot move that way (accepting one already applied, undoing a proposal)."""


class InUseError(StoreError):
    """A project or client that still has meetings, notes, a document or projects: deleting
    it needs `force`. `attached` says what it has; nothing was deleted."""

    def __init__(self, message: str, attached: Attached) -> None:
        super().__init__(message)
        self.attached = attached


def refusal(error: DBAPIError) -> StoreError:
    """A write the database refused, as the StoreError to raise: the same text stored twice
    (SQLite names the column, PostgreSQL the constraint) is a DuplicateCaptureError; any
    other names the reason alone (the driver's message carries the statement and its
    parameters, the user's text among them)."""
    constraint = getattr(getattr(error.orig, "diag", None), "constraint_name", None)
    reason = str(error.orig).strip().splitlines()[0] if error.orig else type(error).__name__
    if constraint == "captures_content_hash_key" or "captures.content_hash" in reason:
        return DuplicateCaptureError("the same text is already stored")
    return StoreError(f"the store refused a write ({reason}); nothing was written")
