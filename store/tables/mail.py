"""Imported mail: one row per message, grouped into threads; a thread becomes a capture."""

from __future__ import annotations

from sqlmodel import Field, SQLModel


class EmailMessage(SQLModel, table=True):
    __tablename__ = "email_messages"
    id: int = Field(default=None, primary_key=True)
    message_id: str  # unique
    thread_key: str
    capture_id: int | None = None
    sent_at: str | None = None
    subject: str
    sender_name: str
    sender_address: str
    recipients_json: str
    refs_json: str
    body: str
    bulk_reason: str | None = None  # why it is left out of the record (a newsletter, …)
    list_id: str = ""
    unsubscribe: str = ""
    source_path: str | None = None
    imported_at: str
