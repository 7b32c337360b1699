"""Replies replayed from exchanges recorded with a real model server (llm-recordings/README.md).

A recorded reply is a status line (`HTTP 200`), the headers as a Python dict on one line, a
blank line, then the body as the server sent it; the recording proxy appended `### ...` notes.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from support.fakes.server import Reply, json_reply

# The fake server frames the body itself; the recorded framing would contradict it.
FRAMING = frozenset({"content-length", "transfer-encoding", "connection", "keep-alive"})


def recorded_reply(path: Path | str) -> Reply:
    """The recorded reply at `path`: an event stream sent as-is, one event to a chunk, or JSON."""
    raw = Path(path).read_bytes()
    head, _, rest = raw.partition(b"\n\n")
    status_line, _, header_line = head.decode().partition("\n")
    status = int(status_line.split()[1])
    recorded: dict[str, str] = ast.literal_eval(header_line)
    headers = {k.lower(): v for k, v in recorded.items() if k.lower() not in FRAMING}
    body = rest.split(b"\n### ", 1)[0]  # the proxy's notes follow the body
    if headers.get("content-type", "").startswith("text/event-stream"):
        events: list[bytes | float] = [e for e in re.split(rb"(?<=\n\n)", body) if e]
        return Reply(status, headers, events)
    return json_reply(json.loads(body), status, headers)
