"""Schema 7: email. Each message once (by Message-ID), its thread, and the capture the
thread became; newsletters and other bulk mail are kept, with why, but never captured.

Frozen: literal DDL, exactly as memo ac1f2eb ran it. Never edit it; a change is a new step.
"""

from __future__ import annotations

from sqlalchemy import Connection

from store.migrations._sql import run_script

NAME = "email messages, threads and newsletters"

DDL = """
CREATE TABLE email_messages (
    id INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE,
    thread_key TEXT NOT NULL,
    capture_id INTEGER REFERENCES captures(id) ON DELETE SET NULL,
    sent_at TEXT,
    subject TEXT NOT NULL,
    sender_name TEXT NOT NULL,
    sender_address TEXT NOT NULL,
    recipients_json TEXT NOT NULL,
    refs_json TEXT NOT NULL,
    body TEXT NOT NULL,
    bulk_reason TEXT,
    list_id TEXT NOT NULL DEFAULT '',
    unsubscribe TEXT NOT NULL DEFAULT '',
    source_path TEXT,
    imported_at TEXT NOT NULL
);
CREATE INDEX email_messages_thread ON email_messages(thread_key);
CREATE INDEX email_messages_capture ON email_messages(capture_id);
CREATE INDEX email_messages_sender ON email_messages(sender_address);
"""


def upgrade(conn: Connection) -> None:
    run_script(conn, DDL)
