"""`memo serve`: the app in a browser. A test starts it, fetches the page, and opens the
websocket a browser tab opens: the app (not the piped text) draws into it."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from memo_tui.core.services import Services


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(db: Path, home: Path, *flags: str) -> tuple[str, subprocess.Popen[str]]:
    """`memo --db DB serve FLAGS` on a free port, once it accepts connections."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMO_")}
    env |= {"MEMO_HOME": str(home), "MEMO_PROVIDER": "offline", "MEMO_EMBED_DOWNLOAD": "0"}
    command = [sys.executable, "-m", "memo_tui", "--db", str(db), "serve", "--port", str(port)]
    server = subprocess.Popen(
        [*command, *flags], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return f"127.0.0.1:{port}", server
        if server.poll() is not None:
            break
        time.sleep(0.1)
    server.kill()
    raise AssertionError(f"memo serve did not start: {server.communicate()[1]}")


@pytest.fixture
def served(services: Services, tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """`memo --db DEMO_COPY serve` on a free port, until the test ends."""
    db = services.store.url or services.store.path
    services.close()
    address, server = start(db, tmp_path / "home")
    try:
        yield address, server
    finally:
        server.terminate()
        server.wait(10)


def test_serve_shows_the_page_and_a_tab_runs_the_app(
    served: tuple[str, subprocess.Popen[str]],
) -> None:
    address, _ = served
    with urllib.request.urlopen(f"http://{address}/", timeout=10) as page:
        assert page.status == 200
        html = page.read().decode()
    assert "textual.js" in html and "memo" in html

    async def drawn() -> bytes:
        got = b""
        url = f"ws://{address}/ws?width=100&height=30"
        async with aiohttp.ClientSession() as client, client.ws_connect(url) as tab:
            while b"Captures" not in got:
                message = await asyncio.wait_for(tab.receive(), 30)
                if message.type not in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):
                    break  # the process ended (piped, memo prints text and exits)
                data = message.data
                got += data if isinstance(data, bytes) else str(data).encode()
        return got

    assert b"Captures" in asyncio.run(drawn())  # the app's pane, drawn in the tab


def test_serve_warns_when_it_listens_beyond_this_machine(tmp_path: Path) -> None:
    _, server = start(tmp_path / "m.db", tmp_path / "home", "--host", "0.0.0.0")
    server.terminate()
    _, said = server.communicate(timeout=10)
    assert "anyone who can reach it can read and change this store" in said


def test_serve_refuses_another_host_and_another_sites_page(
    served: tuple[str, subprocess.Popen[str]],
) -> None:
    address, _ = served
    port = address.rsplit(":", 1)[1]
    rebound = urllib.request.Request(f"http://{address}/", headers={"Host": f"evil.test:{port}"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(rebound, timeout=10)
    assert refused.value.code == 403

    async def hijack() -> int:
        async with aiohttp.ClientSession() as client:
            try:
                async with client.ws_connect(
                    f"ws://{address}/ws", headers={"Origin": "http://evil.test"}
                ):
                    return 101
            except aiohttp.WSServerHandshakeError as error:
                return error.status

    assert asyncio.run(hijack()) == 403
