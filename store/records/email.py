"""Mail: messages, addresses and newsletters."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class NewEmailMessage:
    """A message to store: `recipients` as [{"name", "address", "kind": "to"|"cc"}];
    `bulk_reason` says why it is a newsletter or other bulk mail (None: from a person)."""

    message_id: str
    thread_key: str
    sent_at: str | None
    subject: str
    sender_name: str
    sender_address: str
    recipients: list[dict[str, str]]
    references: tuple[str, ...]
    body: str
    bulk_reason: str | None
    list_id: str = ""
    unsubscribe: str = ""
    source_path: str | None = None


@dataclass(frozen=True)
class EmailMessageRecord:
    id: int
    message_id: str
    thread_key: str
    capture_id: int | None
    sent_at: str | None
    subject: str
    sender_name: str
    sender_address: str
    recipients: list[dict[str, str]]
    references: tuple[str, ...]
    body: str
    bulk_reason: str | None
    list_id: str
    unsubscribe: str
    source_path: str | None


@dataclass(frozen=True)
class KnownMessage:
    """What threading needs of a stored message."""

    message_id: str
    references: tuple[str, ...]
    thread_key: str
    subject: str
    sent_at: str | None
    people: frozenset[str] = frozenset()  # its sender's and recipients' addresses


@dataclass(frozen=True)
class AddressRecord:
    """An address whose display name matches a person known at another domain: the same
    person, perhaps; the user says."""

    address: str
    display_name: str
    proposed_person_id: int
    proposed_name: str


@dataclass(frozen=True)
class NewsletterSummary:
    """A bulk sender: its name, how many messages, the latest, and its unsubscribe header
    (as text: memo never opens it)."""

    sender: str
    name: str
    messages: int
    last_seen: str | None
    unsubscribe: str
    reason: str
