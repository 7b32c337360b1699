"""Schema 16: who asked for an action item.

The speaker of the line that assigned it, when that is someone other than its owner
("Raj, quotes." said by Libby); a person's page lists what others owe them from it. Filled
in for items already stored, from their meeting's text, by this step's own rule.

Frozen: as memo e7aeb16 ran it. Never edit it (nor its rule); a change is a new step.
"""

from __future__ import annotations

import re

from sqlalchemy import Connection

NAME = "who asked for an action item"

# "Name: words" at the start of a stored line: the turn's speaker.
SPEAKER = re.compile(r"^([A-Z][\w.'’-]*(?: [A-Z][\w.'’-]*){0,3}): \S")


def upgrade(conn: Connection) -> None:
    conn.exec_driver_sql("ALTER TABLE action_items ADD COLUMN asked_by TEXT")
    rows = conn.exec_driver_sql(
        "SELECT a.id, a.line_start, a.assignee_raw, c.id, c.text FROM action_items a "
        "JOIN captures c ON c.id = a.capture_id "
        "WHERE a.line_start IS NOT NULL AND coalesce(a.assignee_raw, '') != '' "
        "ORDER BY a.capture_id"
    ).all()
    lines: list[str] = []
    lines_of = None
    for item_id, line_start, owner, capture_id, body in rows:
        if capture_id != lines_of:
            lines_of, lines = capture_id, (body or "").splitlines()
        said = SPEAKER.match(lines[line_start - 1]) if 0 < line_start <= len(lines) else None
        owner_words = {w.lower() for w in re.findall(r"\w+", owner)}
        if said and not owner_words & {w.lower() for w in re.findall(r"\w+", said[1])}:
            conn.exec_driver_sql(
                "UPDATE action_items SET asked_by = ? WHERE id = ?", (said[1], item_id)
            )
