"""Email messages: stored once by Message-ID, grouped in threads; a human thread becomes a
capture, bulk mail (newsletters) is kept aside. Each function runs inside a caller's
transaction. Queries go through the EmailMessage table class, but for the one-way senders',
which read every message's recipients with json_each and stay SQL."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, Row, Select, bindparam, func, select, text, update
from sqlalchemy.orm import aliased
from sqlmodel import col

from store.addresses import recipients_sql
from store.expressions import insert
from store.records import EmailMessageRecord, KnownMessage, NewEmailMessage, NewsletterSummary
from store.tables import EmailMessage

# A thread whose capture the user deleted keeps its messages (a re-import finds them
# stored) under this prefix, so it is never captured again.
DELETED = "deleted:"

_SENT = func.coalesce(col(EmailMessage.sent_at), "")  # undated mail sorts first


def known_messages(conn: Connection) -> list[KnownMessage]:
    """Every stored message's id, references, thread, subject and date (for threading)."""
    m = EmailMessage
    rows = conn.execute(
        select(
            col(m.message_id),
            col(m.refs_json),
            col(m.thread_key),
            col(m.subject),
            col(m.sent_at),
            col(m.sender_address),
            col(m.recipients_json),
        )
    )
    return [
        KnownMessage(
            mid,
            tuple(json.loads(refs)),
            key,
            subject,
            at,
            frozenset([who, *(r.get("address") for r in json.loads(to))]),
        )
        for mid, refs, key, subject, at, who, to in rows
    ]


def add_messages(conn: Connection, messages: Sequence[NewEmailMessage], now: str) -> int:
    """Store messages not stored yet (by Message-ID); how many were new."""
    if not messages:
        return 0
    rows = [
        {
            "message_id": m.message_id,
            "thread_key": m.thread_key,
            "sent_at": m.sent_at,
            "subject": m.subject,
            "sender_name": m.sender_name,
            "sender_address": m.sender_address,
            "recipients_json": json.dumps(m.recipients, ensure_ascii=False),
            "refs_json": json.dumps(list(m.references)),
            "body": m.body,
            "bulk_reason": m.bulk_reason,
            "list_id": m.list_id,
            "unsubscribe": m.unsubscribe,
            "source_path": m.source_path,
            "imported_at": now,
        }
        for m in messages
    ]
    done = conn.execute(
        insert(EmailMessage)
        .on_conflict_do_nothing(index_elements=["message_id"])
        .execution_options(preserve_rowcount=True),  # (an INSERT's count is kept only if asked)
        rows,
    )
    return done.rowcount or 0  # summed over the rows; a known Message-ID adds nothing


_ONE_WAY = """
WITH written_to AS (
    SELECT DISTINCT {address} AS address
    FROM email_messages AS m, {recipients}
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
    one_way = recipients_sql(_ONE_WAY, conn)
    freed = conn.execute(
        text(
            "UPDATE email_messages SET bulk_reason = NULL WHERE bulk_reason LIKE 'one-way:%' "
            f"AND sender_address NOT IN ({one_way})"
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
            + one_way
            + ")"
        ),
        {"least": least},
    )
    return (marked.rowcount or 0) - (freed.rowcount or 0)


def pending_threads(conn: Connection) -> list[str]:
    """Threads with human messages not captured yet, oldest first."""
    m = EmailMessage
    rows = conn.execute(
        select(col(m.thread_key))
        .where(
            col(m.bulk_reason).is_(None),
            col(m.capture_id).is_(None),
            col(m.thread_key).not_like(f"{DELETED}%"),
        )
        .group_by(col(m.thread_key))
        .order_by(func.min(_SENT))
    ).scalars()
    return [str(r) for r in rows]


def _messages() -> Select[Any]:
    """Messages in the order they were sent."""
    return select(EmailMessage).order_by(_SENT, col(EmailMessage.id))


_HUMAN = col(EmailMessage.bulk_reason).is_(None)
_OF_THREAD = col(EmailMessage.thread_key) == bindparam("key")
_THREAD_MESSAGES = _messages().where(_OF_THREAD, _HUMAN)
_THREAD_CAPTURE = (
    select(col(EmailMessage.capture_id))
    .where(_OF_THREAD, col(EmailMessage.capture_id).is_not(None))
    .limit(1)
)
_ATTACH = update(EmailMessage).where(_OF_THREAD, _HUMAN).values(capture_id=bindparam("capture"))


def thread_messages(conn: Connection, thread_key: str) -> list[EmailMessageRecord]:
    """A thread's human messages, oldest first."""
    return [_record(r) for r in conn.execute(_THREAD_MESSAGES, {"key": thread_key})]


def thread_capture(conn: Connection, thread_key: str) -> int | None:
    """The capture a thread became earlier, if any."""
    found = conn.execute(_THREAD_CAPTURE, {"key": thread_key}).scalar()
    return None if found is None else int(found)


def forget_thread(conn: Connection, capture_id: int) -> None:
    """The user deleted this thread's capture: its messages stay, set aside for good."""
    m = EmailMessage
    its = select(col(m.thread_key)).where(col(m.capture_id) == capture_id)
    conn.execute(
        update(m)
        .where(col(m.thread_key).in_(its), col(m.thread_key).not_like(f"{DELETED}%"))
        .values(thread_key=DELETED + col(m.thread_key))
    )


def attach_thread(conn: Connection, thread_key: str, capture_id: int) -> None:
    conn.execute(_ATTACH, {"key": thread_key, "capture": capture_id})


def capture_messages(conn: Connection, capture_id: int) -> list[EmailMessageRecord]:
    query = _messages().where(col(EmailMessage.capture_id) == capture_id)
    return [_record(r) for r in conn.execute(query)]


def newsletters(conn: Connection) -> list[NewsletterSummary]:
    """Bulk senders: how much they sent, their latest issue and how to unsubscribe."""
    b, m = EmailMessage, aliased(EmailMessage)

    def latest(column: Any, *where: Any) -> Any:
        """The column of the sender's latest message (of those `where` allows)."""
        return (
            select(column)
            .where(col(m.sender_address) == col(b.sender_address), *where)
            .order_by(func.coalesce(col(m.sent_at), "").desc())
            .limit(1)
            .scalar_subquery()
        )

    named = func.coalesce(
        func.nullif(col(m.sender_name), ""), func.nullif(col(m.list_id), ""), col(m.sender_address)
    )
    rows = conn.execute(
        select(
            col(b.sender_address),
            latest(named),
            func.count(),
            func.max(col(b.sent_at)),
            latest(col(m.unsubscribe), col(m.unsubscribe) != ""),
            latest(col(m.bulk_reason), col(m.bulk_reason).is_not(None)),
        )
        .where(col(b.bulk_reason).is_not(None))
        .group_by(col(b.sender_address))
        .order_by(func.count().desc(), col(b.sender_address))
    )
    return [
        NewsletterSummary(str(a), str(n), int(c), last, u or "", str(why))
        for a, n, c, last, u, why in rows
    ]


def _record(r: Row[Any]) -> EmailMessageRecord:
    return EmailMessageRecord(
        id=r.id,
        message_id=r.message_id,
        thread_key=r.thread_key,
        capture_id=r.capture_id,
        sent_at=r.sent_at,
        subject=r.subject,
        sender_name=r.sender_name,
        sender_address=r.sender_address,
        recipients=json.loads(r.recipients_json),
        references=tuple(json.loads(r.refs_json)),
        body=r.body,
        bulk_reason=r.bulk_reason,
        list_id=r.list_id,
        unsubscribe=r.unsubscribe,
        source_path=r.source_path,
    )
