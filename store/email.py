"""Email messages: stored once by Message-ID, grouped in threads; a human thread becomes a
capture, bulk mail (newsletters) is kept aside. Each function runs inside a caller's
transaction."""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import Connection, text

from store.records import EmailMessageRecord, KnownMessage, NewEmailMessage, NewsletterSummary

# A thread whose capture the user deleted keeps its messages (a re-import finds them
# stored) under this prefix, so it is never captured again.
DELETED = "deleted:"

_COLUMNS = (
    "id, message_id, thread_key, capture_id, sent_at, subject, sender_name, sender_address, "
    "recipients_json, refs_json, body, bulk_reason, list_id, unsubscribe, source_path"
)


def known_messages(conn: Connection) -> list[KnownMessage]:
    """Every stored message's id, references, thread, subject and date (for threading)."""
    rows = conn.execute(
        text(
            "SELECT message_id, refs_json, thread_key, subject, sent_at, sender_address, "
            "(SELECT json_group_array(json_extract(j.value, '$.address')) "
            "FROM json_each(recipients_json) AS j) FROM email_messages"
        )
    )
    return [
        KnownMessage(m, tuple(json.loads(r)), k, s, at, frozenset([who, *json.loads(to)]))
        for m, r, k, s, at, who, to in rows
    ]


def add_messages(conn: Connection, messages: Sequence[NewEmailMessage], now: str) -> int:
    """Store messages not stored yet (by Message-ID); how many were new."""
    if not messages:
        return 0
    done = conn.execute(
        text(
            "INSERT INTO email_messages (message_id, thread_key, sent_at, subject, "
            "sender_name, sender_address, recipients_json, refs_json, body, bulk_reason, "
            "list_id, unsubscribe, source_path, imported_at) VALUES (:mid, :key, :at, "
            ":subject, :name, :address, :recipients, :refs, :body, :bulk, :list_id, "
            ":unsubscribe, :path, :now) ON CONFLICT (message_id) DO NOTHING"
        ),
        [
            {
                "mid": m.message_id,
                "key": m.thread_key,
                "at": m.sent_at,
                "subject": m.subject,
                "name": m.sender_name,
                "address": m.sender_address,
                "recipients": json.dumps(m.recipients, ensure_ascii=False),
                "refs": json.dumps(list(m.references)),
                "body": m.body,
                "bulk": m.bulk_reason,
                "list_id": m.list_id,
                "unsubscribe": m.unsubscribe,
                "path": m.source_path,
                "now": now,
            }
            for m in messages
        ],
    )
    return done.rowcount or 0  # summed over the rows; a known Message-ID adds nothing


_ONE_WAY = """
WITH written_to AS (
    SELECT DISTINCT json_extract(j.value, '$.address') AS address
    FROM email_messages AS r, json_each(r.recipients_json) AS j
), answered AS (
    SELECT thread_key FROM email_messages GROUP BY thread_key
    HAVING count(DISTINCT sender_address) > 1
)
SELECT s.sender_address FROM email_messages AS s
GROUP BY s.sender_address HAVING count(*) >= :least
AND s.sender_address NOT IN (SELECT address FROM written_to WHERE address IS NOT NULL)
AND NOT EXISTS (
    SELECT 1 FROM email_messages AS t
    WHERE t.sender_address = s.sender_address AND t.thread_key IN (SELECT * FROM answered)
)"""


def mark_one_way_senders(conn: Connection, least: int) -> int:
    """Senders of at least `least` messages that nobody ever wrote to, and whose threads
    nobody answered, are bulk: their messages not yet captured say so. A sender marked so
    before who has since been written to (a later import: the sent folder, say) is a person
    again, and their messages wait to be captured. How many messages changed."""
    freed = conn.execute(
        text(
            "UPDATE email_messages SET bulk_reason = NULL WHERE bulk_reason LIKE 'one-way:%' "
            f"AND sender_address NOT IN ({_ONE_WAY})"
        ),
        {"least": least},
    )
    marked = conn.execute(
        text(
            """
UPDATE email_messages SET bulk_reason = 'one-way: ' || (
    SELECT count(*) FROM email_messages AS o WHERE o.sender_address = email_messages.sender_address
) || ' messages, never written to'
WHERE bulk_reason IS NULL AND capture_id IS NULL AND sender_address IN ("""
            + _ONE_WAY
            + ")"
        ),
        {"least": least},
    )
    return (marked.rowcount or 0) - (freed.rowcount or 0)


def pending_threads(conn: Connection) -> list[str]:
    """Threads with human messages not captured yet, oldest first."""
    rows = conn.execute(
        text(
            "SELECT thread_key FROM email_messages WHERE bulk_reason IS NULL "
            f"AND capture_id IS NULL AND thread_key NOT LIKE '{DELETED}%' "
            "GROUP BY thread_key ORDER BY min(coalesce(sent_at, ''))"
        )
    )
    return [str(r[0]) for r in rows]


def thread_messages(conn: Connection, thread_key: str) -> list[EmailMessageRecord]:
    """A thread's human messages, oldest first."""
    rows = conn.execute(
        text(
            f"SELECT {_COLUMNS} FROM email_messages WHERE thread_key = :k "
            "AND bulk_reason IS NULL ORDER BY coalesce(sent_at, ''), id"
        ),
        {"k": thread_key},
    )
    return [_record(r) for r in rows]


def thread_capture(conn: Connection, thread_key: str) -> int | None:
    """The capture a thread became earlier, if any."""
    found = conn.execute(
        text(
            "SELECT capture_id FROM email_messages WHERE thread_key = :k "
            "AND capture_id IS NOT NULL LIMIT 1"
        ),
        {"k": thread_key},
    ).scalar()
    return None if found is None else int(found)


def forget_thread(conn: Connection, capture_id: int) -> None:
    """The user deleted this thread's capture: its messages stay, set aside for good."""
    conn.execute(
        text(
            "UPDATE email_messages SET thread_key = :d || thread_key WHERE thread_key IN "
            "(SELECT thread_key FROM email_messages WHERE capture_id = :c) "
            "AND thread_key NOT LIKE :like"
        ),
        {"d": DELETED, "c": capture_id, "like": f"{DELETED}%"},
    )


def attach_thread(conn: Connection, thread_key: str, capture_id: int) -> None:
    conn.execute(
        text(
            "UPDATE email_messages SET capture_id = :c "
            "WHERE thread_key = :k AND bulk_reason IS NULL"
        ),
        {"c": capture_id, "k": thread_key},
    )


def capture_messages(conn: Connection, capture_id: int) -> list[EmailMessageRecord]:
    rows = conn.execute(
        text(
            f"SELECT {_COLUMNS} FROM email_messages WHERE capture_id = :c "
            "ORDER BY coalesce(sent_at, ''), id"
        ),
        {"c": capture_id},
    )
    return [_record(r) for r in rows]


def newsletters(conn: Connection) -> list[NewsletterSummary]:
    """Bulk senders: how much they sent, their latest issue and how to unsubscribe."""
    rows = conn.execute(
        text(
            """
SELECT sender_address,
    (SELECT coalesce(nullif(m.sender_name, ''), nullif(m.list_id, ''), m.sender_address)
     FROM email_messages AS m WHERE m.sender_address = b.sender_address
     ORDER BY coalesce(m.sent_at, '') DESC LIMIT 1),
    count(*), max(sent_at),
    (SELECT m.unsubscribe FROM email_messages AS m
     WHERE m.sender_address = b.sender_address AND m.unsubscribe != ''
     ORDER BY coalesce(m.sent_at, '') DESC LIMIT 1),
    (SELECT m.bulk_reason FROM email_messages AS m WHERE m.sender_address = b.sender_address
     AND m.bulk_reason IS NOT NULL ORDER BY coalesce(m.sent_at, '') DESC LIMIT 1)
FROM email_messages AS b WHERE bulk_reason IS NOT NULL
GROUP BY sender_address ORDER BY count(*) DESC, sender_address"""
        )
    )
    return [
        NewsletterSummary(str(a), str(n), int(c), last, u or "", str(why))
        for a, n, c, last, u, why in rows
    ]


def _record(r: Sequence[object]) -> EmailMessageRecord:
    return EmailMessageRecord(
        id=int(r[0]),  # type: ignore[call-overload]
        message_id=str(r[1]),
        thread_key=str(r[2]),
        capture_id=None if r[3] is None else int(r[3]),  # type: ignore[call-overload]
        sent_at=None if r[4] is None else str(r[4]),
        subject=str(r[5]),
        sender_name=str(r[6]),
        sender_address=str(r[7]),
        recipients=json.loads(str(r[8])),
        references=tuple(json.loads(str(r[9]))),
        body=str(r[10]),
        bulk_reason=None if r[11] is None else str(r[11]),
        list_id=str(r[12]),
        unsubscribe=str(r[13]),
        source_path=None if r[14] is None else str(r[14]),
    )
