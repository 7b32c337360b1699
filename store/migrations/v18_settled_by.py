"""Schema 18: who said who a name is.

A decision's or action item's name settled by someone (`memo confirm`, the app's "who is
this?") records their MEMO_USER in `settled_by`, beside `triggered_by_user`, who captured
it: on a team's store, which of them vouched for the link. Facts settled before this step,
and those settled at capture, have none.

Frozen: literal DDL. Never edit it; a change is a new step.
"""

from __future__ import annotations

from sqlalchemy import Connection

from store.migrations._sql import run_script

NAME = "who settled a decision's or action item's name"

COLUMNS = """
ALTER TABLE decisions ADD COLUMN settled_by TEXT;
ALTER TABLE action_items ADD COLUMN settled_by TEXT;
"""


def upgrade(conn: Connection) -> None:
    run_script(conn, COLUMNS)
