"""Mail: messages, threads, addresses and newsletters."""

from __future__ import annotations

from collections.abc import Sequence

from store import addresses, email
from store.records import (
    AddressRecord,
    EmailMessageRecord,
    KnownMessage,
    NewEmailMessage,
    NewsletterSummary,
)
from store.repository import Repository, utc_now


class Email(Repository):
    """Mail: messages, threads, addresses and newsletters."""

    def known_messages(self) -> list[KnownMessage]:
        with self._read() as conn:
            return email.known_messages(conn)

    def add_messages(self, messages: Sequence[NewEmailMessage]) -> int:
        """Messages not stored yet (by Message-ID), in one transaction; how many were new."""
        with self._write() as conn:
            return email.add_messages(conn, messages, utc_now())

    def mark_one_way_senders(self, least: int = 5) -> int:
        with self._write() as conn:
            return email.mark_one_way_senders(conn, least)

    def pending_threads(self) -> list[str]:
        with self._read() as conn:
            return email.pending_threads(conn)

    def thread_messages(self, thread_key: str) -> list[EmailMessageRecord]:
        with self._read() as conn:
            return email.thread_messages(conn, thread_key)

    def thread_capture(self, thread_key: str) -> int | None:
        with self._read() as conn:
            return email.thread_capture(conn, thread_key)

    def attach_thread(self, thread_key: str, capture_id: int) -> None:
        """The thread's messages point at its capture (use inside `atomically()` with the
        capture's write, so the two land together)."""
        with self._write() as conn:
            email.attach_thread(conn, thread_key, capture_id)

    def capture_messages(self, capture_id: int) -> list[EmailMessageRecord]:
        with self._read() as conn:
            return email.capture_messages(conn, capture_id)

    def link_participants(
        self, participants: Sequence[tuple[str, str, bool]], mine: Sequence[str]
    ) -> None:
        """Each (address, display name) recorded and, on strong evidence, linked to its
        person (use inside `atomically()` with the thread's capture)."""
        with self._reporting() as conn:
            addresses.link_participants(conn, participants, mine, utc_now())

    def person_addresses(self, person_id: int) -> list[str]:
        with self._read() as conn:
            return addresses.addresses(conn, person_id)

    def address_proposals(self) -> list[AddressRecord]:
        with self._read() as conn:
            return addresses.proposals(conn)

    def merge_address(self, address: str, person_id: int | None) -> bool:
        """Settle a proposal: the address is that person's (or, None, nobody known)."""
        with self._reporting() as conn:
            return addresses.merge(conn, address, person_id)

    def newsletters(self) -> list[NewsletterSummary]:
        with self._read() as conn:
            return email.newsletters(conn)
