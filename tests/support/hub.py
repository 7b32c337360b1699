"""A fake model hub on loopback: serves a local model folder the way the hub serves a
repository's files (`/{repo}/resolve/main/{file}`), or fails the way a hub can."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


@dataclass
class FakeHub:
    folder: Path  # the model's files
    repo: str = "Qdrant/all-MiniLM-L6-v2-onnx"
    # "serve"; or "missing" (404 for every file), "cut" (model.onnx ends early), "page" (a
    # proxy's web page for every file, with a 200), "garbage" (not HTTP at all), "slow" (each
    # file after a pause)
    mode: str = "serve"
    requests: list[str] = field(default_factory=list)
    url: str = ""


@contextmanager
def fake_hub(folder: Path, mode: str = "serve") -> Iterator[FakeHub]:
    hub = FakeHub(folder, mode=mode)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            hub.requests.append(self.path)
            if hub.mode == "garbage":
                self.wfile.write(b"SSH-2.0-OpenSSH_9.6\r\n\r\n")
                return
            if hub.mode == "slow":
                time.sleep(0.3)
            prefix = f"/{hub.repo}/resolve/main/"
            name = self.path.removeprefix(prefix)
            path = hub.folder / name
            if hub.mode == "missing" or not self.path.startswith(prefix) or not path.is_file():
                self.send_error(404, "Entry not found")
                return
            body = path.read_bytes()
            if hub.mode == "page":
                body = b"<!DOCTYPE html><html><body>Sign in to the guest wifi</body></html>"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if hub.mode == "cut" and name == "model.onnx":
                body = body[: len(body) // 2]  # the connection drops half-way
            self.wfile.write(body)

        def log_message(self, *_: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    hub.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield hub
    finally:
        server.shutdown()
        server.server_close()
