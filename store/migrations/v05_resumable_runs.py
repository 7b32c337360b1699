"""Schema 5: an agent run keeps its spec and each step the model's turn, so it can be
resumed.

Frozen: literal DDL, exactly as memo a1ca962 ran it. Never edit it; a change is a new step.
"""

from __future__ import annotations

from sqlalchemy import Connection

from store.migrations._sql import run_script

NAME = "resumable agent runs: spec and step messages"

DDL = """
ALTER TABLE agent_sessions ADD COLUMN spec_json TEXT NOT NULL DEFAULT '{}';
ALTER TABLE agent_steps ADD COLUMN message_json TEXT;
CREATE INDEX agent_tool_calls_step ON agent_tool_calls(step_id);
CREATE INDEX agent_decisions_session ON agent_decisions(session_id);
"""


def upgrade(conn: Connection) -> None:
    run_script(conn, DDL)
