"""Email addresses and the people they belong to, decided by rules on strong evidence.

An address is linked to a person when the evidence is strong: it was linked before; it is
one of the user's own addresses and another of them is linked; or exactly one person has
its display name and that person has no address yet or one at the same domain. The same
name at another domain is only a proposal (`proposed_person_id`), for the user to settle.
Each function runs inside a caller's transaction.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection, case, func, select, update
from sqlmodel import col

from store.expressions import insert, postgres
from store.records import AddressRecord
from store.tables import Person
from store.tables import PersonAddress as Address

Participant = tuple[str, str, bool]  # (normalized address, display name, sent by it)


def _domain(address: str) -> str:
    return address.rpartition("@")[2]


def link_participants(
    conn: Connection, participants: Sequence[Participant], mine: Sequence[str], now: str
) -> None:
    """Record each participant's address and link it to a person when the rules allow
    (an address linked before, or settled by the user, stays as it is)."""
    given = [address for address, _, _ in participants]
    known = {
        r.address: (r.person_id, r.display_name, r.settled)
        for r in conn.execute(select(Address).where(col(Address.address).in_(given)))
    }
    for address, display, sent in participants:
        row = known.get(address)
        if row is not None and (row[0] is not None or row[2]):
            continue
        name = display or (row[1] if row else "")
        person, proposed = _decide(conn, address, name, mine, sent)
        written = insert(Address).values(
            address=address,
            person_id=person,
            proposed_person_id=proposed,
            display_name=name,
            created_at=now,
        )
        new = written.excluded
        conn.execute(
            written.on_conflict_do_update(
                index_elements=["address"],
                set_={
                    "person_id": new.person_id,
                    "proposed_person_id": new.proposed_person_id,
                    # a name said before is kept when this message gave none
                    "display_name": case(
                        (new.display_name != "", new.display_name),
                        else_=col(Address.display_name),
                    ),
                },
            )
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
            select(col(Address.person_id))
            .where(col(Address.person_id).is_not(None), col(Address.address).in_(list(mine)))
            .limit(1)
        ).scalar()
        if owner is not None:
            return int(owner), None
        if not sent:
            return None, None
    if not name:
        return None, None
    named = list(
        conn.execute(select(col(Person.id)).where(func.lower(col(Person.name)) == func.lower(name)))
        .scalars()
        .all()
    )
    if len(named) != 1:
        return None, None  # nobody, or several: a name alone cannot say
    person = named[0]
    linked = select(col(Address.address)).where(col(Address.person_id) == person)
    domains = {_domain(address) for address in conn.execute(linked).scalars()}
    if not domains or _domain(address) in domains or address in mine:
        return person, None
    return None, person


def addresses(conn: Connection, person_id: int) -> list[str]:
    rows = conn.execute(
        select(col(Address.address))
        .where(col(Address.person_id) == person_id)
        .order_by(col(Address.address))
    )
    return list(rows.scalars())


def proposals(conn: Connection) -> list[AddressRecord]:
    """Addresses whose display name matches a person known at another domain."""
    rows = conn.execute(
        select(
            col(Address.address),
            col(Address.display_name),
            col(Address.proposed_person_id),
            col(Person.name),
        )
        .join(Person, col(Person.id) == col(Address.proposed_person_id))
        .where(col(Address.person_id).is_(None))
        .order_by(col(Address.address))
    )
    # (the join keeps only addresses with a proposed person)
    return [AddressRecord(a, d, i, n) for a, d, i, n in rows if i is not None]


def merge(conn: Connection, address: str, person_id: int | None) -> bool:
    """The user's answer to a proposal: link the address (or, None, keep it apart)."""
    changed = conn.execute(
        update(Address)
        .where(col(Address.address) == address)
        .values(person_id=person_id, proposed_person_id=None, settled=1)
    )
    return bool(changed.rowcount)


# The people rollup's email columns, for every person at once: each message is read once
# (grouped, then joined), not once per person.
_EMAIL_REPORT = """
WITH owned AS (
    SELECT address, person_id FROM person_addresses WHERE person_id IS NOT NULL
), contact AS (
    SELECT m.id AS message, m.sender_address AS address, 'from' AS role, m.sent_at
    FROM email_messages AS m WHERE m.bulk_reason IS NULL
    UNION ALL
    SELECT m.id, {address}, 'to', m.sent_at
    FROM email_messages AS m, {recipients} WHERE m.bulk_reason IS NULL
), touched AS (
    SELECT DISTINCT o.person_id, c.message, c.role, c.sent_at FROM contact AS c
    JOIN owned AS o ON o.address = c.address
), stats AS (
    SELECT person_id, sum(CASE WHEN role = 'from' THEN 1 ELSE 0 END) AS sent,
        sum(CASE WHEN role = 'to' THEN 1 ELSE 0 END) AS received,
        min(sent_at) AS first, max(sent_at) AS last
    FROM touched GROUP BY person_id
), emails AS (
    SELECT person_id, json_group_array(address) AS list
    FROM (SELECT person_id, address FROM owned ORDER BY address) AS o GROUP BY person_id
), pairs AS (
    SELECT a.person_id, p.name, count(DISTINCT a.message) AS n
    FROM touched AS a JOIN touched AS b ON a.message = b.message AND a.person_id != b.person_id
    JOIN people AS p ON p.id = b.person_id
    GROUP BY a.person_id, b.person_id, p.name
), ranked AS (
    SELECT person_id, name,
        row_number() OVER (PARTITION BY person_id ORDER BY n DESC, name) AS k
    FROM pairs
), correspondents AS (
    SELECT person_id, json_group_array(name) AS list
    FROM (SELECT person_id, name FROM ranked WHERE k <= 3 ORDER BY person_id, k) AS top
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


def recipients_sql(template: str, conn: Connection) -> str:
    """A query that reads messages' recipients (a JSON list of {"name", "address"}) in
    this database's own JSON functions: `{recipients}` is the rows of message `m`'s list,
    `{address}` the address of row `j`."""
    if postgres(conn):
        rows, address = (
            "jsonb_array_elements(m.recipients_json::jsonb) AS j",
            "j.value ->> 'address'",
        )
    else:
        rows, address = "json_each(m.recipients_json) AS j", "json_extract(j.value, '$.address')"
    return template.format(recipients=rows, address=address)


def email_report(conn: Connection) -> str:
    """The statement that fills the people rollup's email columns."""
    return recipients_sql(_EMAIL_REPORT, conn)
