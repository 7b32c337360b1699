"""Email addresses and the people they belong to, decided by rules on strong evidence.

An address is linked to a person when the evidence is strong: it was linked before; it is
one of the user's own addresses and another of them is linked; or exactly one person has
its display name and that person has no address yet or one at the same domain. The same
name at another domain is only a proposal (`proposed_person_id`), for the user to settle.
Each function runs inside a caller's transaction.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import Connection, text

from store.records import AddressRecord

Participant = tuple[str, str, bool]  # (normalized address, display name, sent by it)


def _domain(address: str) -> str:
    return address.rpartition("@")[2]


def link_participants(
    conn: Connection, participants: Sequence[Participant], mine: Sequence[str], now: str
) -> None:
    """Record each participant's address and link it to a person when the rules allow
    (an address linked before, or settled by the user, stays as it is)."""
    known = {
        str(a): (p, n, s)
        for a, p, n, s in conn.execute(
            text(
                "SELECT address, person_id, display_name, settled FROM person_addresses "
                "WHERE address IN (SELECT value FROM json_each(:a))"
            ),
            {"a": json.dumps([address for address, _, _ in participants])},
        )
    }
    for address, display, sent in participants:
        row = known.get(address)
        if row is not None and (row[0] is not None or row[2]):
            continue
        name = display or (row[1] if row else "")
        person, proposed = _decide(conn, address, name, mine, sent)
        conn.execute(
            text(
                "INSERT INTO person_addresses (address, person_id, proposed_person_id, "
                "display_name, created_at) VALUES (:a, :p, :q, :n, :now) "
                "ON CONFLICT (address) DO UPDATE SET person_id = excluded.person_id, "
                "proposed_person_id = excluded.proposed_person_id, "
                "display_name = CASE WHEN excluded.display_name != '' "
                "THEN excluded.display_name ELSE person_addresses.display_name END"
            ),
            {"a": address, "p": person, "q": proposed, "n": name, "now": now},
        )
        known[address] = (person, name, False)  # an address given twice reads what was written


def _decide(
    conn: Connection, address: str, name: str, mine: Sequence[str], sent: bool
) -> tuple[int | None, int | None]:
    """(person, proposed person) for an address not linked yet. The user's own addresses
    go only to the user: to whoever another of them belongs to, else by the name on mail
    they sent (the name others put on mail to you says nothing)."""
    if address in mine:
        owner = conn.execute(
            text(
                "SELECT person_id FROM person_addresses WHERE person_id IS NOT NULL AND "
                "address IN (SELECT value FROM json_each(:mine)) LIMIT 1"
            ),
            {"mine": json.dumps(list(mine))},
        ).scalar()
        if owner is not None:
            return int(owner), None
        if not sent:
            return None, None
    if not name:
        return None, None
    named = [
        int(r[0])
        for r in conn.execute(
            text("SELECT id FROM people WHERE name = :n COLLATE NOCASE"), {"n": name}
        )
    ]
    if len(named) != 1:
        return None, None  # nobody, or several: a name alone cannot say
    person = named[0]
    domains = {
        _domain(str(r[0]))
        for r in conn.execute(
            text("SELECT address FROM person_addresses WHERE person_id = :p"), {"p": person}
        )
    }
    if not domains or _domain(address) in domains or address in mine:
        return person, None
    return None, person


def addresses(conn: Connection, person_id: int) -> list[str]:
    rows = conn.execute(
        text("SELECT address FROM person_addresses WHERE person_id = :p ORDER BY address"),
        {"p": person_id},
    )
    return [str(r[0]) for r in rows]


def proposals(conn: Connection) -> list[AddressRecord]:
    """Addresses whose display name matches a person known at another domain."""
    rows = conn.execute(
        text(
            "SELECT a.address, a.display_name, a.proposed_person_id, p.name "
            "FROM person_addresses AS a JOIN people AS p ON p.id = a.proposed_person_id "
            "WHERE a.person_id IS NULL ORDER BY a.address"
        )
    )
    return [AddressRecord(str(a), str(d), int(i), str(n)) for a, d, i, n in rows]


def merge(conn: Connection, address: str, person_id: int | None) -> bool:
    """The user's answer to a proposal: link the address (or, None, keep it apart)."""
    changed = conn.execute(
        text(
            "UPDATE person_addresses SET person_id = :p, proposed_person_id = NULL, "
            "settled = 1 WHERE address = :a"
        ),
        {"p": person_id, "a": address},
    )
    return bool(changed.rowcount)


# The people rollup's email columns, for every person at once: each message is read once
# (grouped, then joined), not once per person.
EMAIL_REPORT = """
WITH owned AS (
    SELECT address, person_id FROM person_addresses WHERE person_id IS NOT NULL
), contact AS (
    SELECT m.id AS message, m.sender_address AS address, 'from' AS role, m.sent_at
    FROM email_messages AS m WHERE m.bulk_reason IS NULL
    UNION ALL
    SELECT m.id, json_extract(j.value, '$.address'), 'to', m.sent_at
    FROM email_messages AS m, json_each(m.recipients_json) AS j WHERE m.bulk_reason IS NULL
), touched AS (
    SELECT DISTINCT o.person_id, c.message, c.role, c.sent_at FROM contact AS c
    JOIN owned AS o ON o.address = c.address
), stats AS (
    SELECT person_id, sum(role = 'from') AS sent, sum(role = 'to') AS received,
        min(sent_at) AS first, max(sent_at) AS last
    FROM touched GROUP BY person_id
), emails AS (
    SELECT person_id, json_group_array(address) AS list
    FROM (SELECT person_id, address FROM owned ORDER BY address) GROUP BY person_id
), pairs AS (
    SELECT a.person_id, p.name, count(DISTINCT a.message) AS n
    FROM touched AS a JOIN touched AS b ON a.message = b.message AND a.person_id != b.person_id
    JOIN people AS p ON p.id = b.person_id
    GROUP BY a.person_id, b.person_id
), ranked AS (
    SELECT person_id, name,
        row_number() OVER (PARTITION BY person_id ORDER BY n DESC, name) AS k
    FROM pairs
), correspondents AS (
    SELECT person_id, json_group_array(name) AS list
    FROM (SELECT person_id, name FROM ranked WHERE k <= 3 ORDER BY person_id, k)
    GROUP BY person_id
), rolled AS (
    SELECT r.person_id, coalesce(e.list, '[]') AS emails, coalesce(s.sent, 0) AS sent,
        coalesce(s.received, 0) AS received, s.first, s.last,
        coalesce(c.list, '[]') AS correspondents
    FROM people_report AS r LEFT JOIN emails AS e ON e.person_id = r.person_id
    LEFT JOIN stats AS s ON s.person_id = r.person_id
    LEFT JOIN correspondents AS c ON c.person_id = r.person_id
)
UPDATE people_report SET emails_json = rolled.emails, messages_sent = rolled.sent,
    messages_received = rolled.received, first_contact = rolled.first,
    last_contact = rolled.last, correspondents_json = rolled.correspondents
FROM rolled WHERE rolled.person_id = people_report.person_id
"""
