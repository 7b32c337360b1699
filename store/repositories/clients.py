"""Clients: listed, renamed, deleted."""

from __future__ import annotations

from store import projects
from store.records import Attached, ClientSummary, Renamed
from store.repository import Repository


class Clients(Repository):
    """Clients: listed, renamed, deleted."""

    def all(self) -> list[ClientSummary]:
        with self._read() as conn:
            return projects.clients(conn)

    def rename(self, client_id: int, name: str) -> Renamed:
        """A client's new name; NameTakenError when another client has it (any case)."""
        with self._reporting() as conn:
            return projects.rename(conn, "client", client_id, name)

    def delete(self, client_id: int, force: bool = False) -> Attached:
        """Delete a client, in one transaction; what it had. InUseError, nothing deleted,
        when it has projects or notes and not `force`; its projects stay, without a client."""
        with self._reporting() as conn:
            return projects.delete(conn, "client", client_id, force)
