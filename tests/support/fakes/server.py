"""A scripted HTTP server on 127.0.0.1 for fake model APIs: each request takes the next reply.

Replies are plain data (status, headers, body chunks with optional pauses), so a test says
exactly what the wire carries: JSON, SSE streams, error statuses, slow or broken streams.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    chunks: list[bytes | float] = field(default_factory=list)  # a float pauses that long
    drop: bool = False  # close the connection without answering


@dataclass
class Seen:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


Script = Reply | Callable[[dict[str, Any]], Reply]


class FakeServer:
    """Start with `with FakeServer() as server:`; queue replies with `server.push(...)`."""

    def __init__(self) -> None:
        self.replies: deque[Script] = deque()
        self.seen: list[Seen] = []
        self.default: Script | None = None
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b"{}"
                self._answer(json.loads(raw or b"{}"))

            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                self._answer({})  # a GET (a model list) has no body: scripts see {}

            def _answer(self, body: dict[str, Any]) -> None:
                outer.seen.append(
                    Seen(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                )
                script = outer.replies.popleft() if outer.replies else outer.default
                if script is None:
                    reply = Reply(500, {}, [b'{"error": "fake server has no reply queued"}'])
                else:
                    reply = script(body) if callable(script) else script
                self._send(reply)

            def _send(self, reply: Reply) -> None:
                if reply.drop:
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                self.send_response(reply.status)
                streaming = reply.headers.get("content-type", "").startswith("text/event-stream")
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                if streaming:
                    self.send_header("transfer-encoding", "chunked")
                else:
                    size = sum(len(c) for c in reply.chunks if isinstance(c, bytes))
                    self.send_header("content-length", str(size))
                self.send_header("connection", "close")
                self.end_headers()
                try:
                    for chunk in reply.chunks:
                        if isinstance(chunk, float):
                            time.sleep(chunk)
                            continue
                        if streaming:
                            self.wfile.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
                        else:
                            self.wfile.write(chunk)
                        self.wfile.flush()
                    if streaming:
                        self.wfile.write(b"0\r\n\r\n")
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a deadline): fine

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def push(self, *replies: Script) -> None:
        self.replies.extend(replies)

    def __enter__(self) -> FakeServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


def json_reply(
    payload: dict[str, Any], status: int = 200, headers: dict[str, str] | None = None
) -> Reply:
    return Reply(
        status,
        {"content-type": "application/json", **(headers or {})},
        [json.dumps(payload).encode()],
    )


def sse_reply(events: list[tuple[str, dict[str, Any]] | float], data_only: bool = False) -> Reply:
    """(event name, data) pairs; `data_only` drops `event:` lines (the OpenAI style)."""
    chunks: list[bytes | float] = []
    for event in events:
        if isinstance(event, float):
            chunks.append(event)
            continue
        name, data = event
        payload = data if isinstance(data, str) else json.dumps(data)
        line = f"data: {payload}\n\n" if data_only else f"event: {name}\ndata: {payload}\n\n"
        chunks.append(line.encode())
    return Reply(200, {"content-type": "text/event-stream", "cache-control": "no-cache"}, chunks)
