"""Schema 20: how sure memo is of a change it found across meetings.

`confidence` is the probability the learned closer or linker gave a close or a replacement
(null: found by the rules, or by a model that gave none), `model_version` the model that gave
it. Changes recorded before this step have neither.

Frozen: literal DDL. Never edit it; a change is a new step.
"""

from __future__ import annotations

from sqlalchemy import Connection

from store.migrations._sql import run_script

NAME = "how sure memo is of a change across meetings"

COLUMNS = """
ALTER TABLE changes ADD COLUMN confidence REAL;
ALTER TABLE changes ADD COLUMN model_version TEXT;
"""


def upgrade(conn: Connection) -> None:
    run_script(conn, COLUMNS)
