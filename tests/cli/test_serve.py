"""`memo serve`: the app in a browser. A test starts it, fetches the page, and opens the
websocket the page names, as a browser tab does: the app (not the piped text) draws into it.
A tab's app is a process of its own, which ends with the tab and with the server."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import aiohttp
import pytest

from memo_tui.cli import build_parser
from memo_tui.core.services import Services

T = TypeVar("T")
SIZE = json.dumps(["resize", {"width": 120, "height": 40}])  # what a tab sends once open

needs_proc = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads processes in /proc")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(db: Path | str, home: Path, *flags: str) -> tuple[str, subprocess.Popen[str]]:
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


@contextmanager
def serving(
    services: Services, tmp_path: Path, *flags: str
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """`memo --db DEMO_COPY serve FLAGS` on a free port, until the block ends."""
    db = services.store.url or services.store.path
    services.close()
    address, server = start(db, tmp_path / "home", *flags)
    try:
        yield address, server
    finally:
        server.terminate()
        server.wait(10)


@pytest.fixture
def served(services: Services, tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """`memo --db DEMO_COPY serve` on a free port, until the test ends."""
    with serving(services, tmp_path) as started:
        yield started


def until(condition: Callable[[], T], seconds: float) -> T:
    """`condition()` as soon as it is true, or its last value once `seconds` have passed."""
    deadline = time.monotonic() + seconds
    while not (value := condition()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return value


def states() -> dict[int, tuple[str, int]]:
    """Every process's state letter and parent, from /proc."""
    found = {}
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text() if entry.name.isdigit() else ""
        except OSError:  # (it ended meanwhile)
            continue
        if stat:
            state, parent = stat.rsplit(")", 1)[1].split()[:2]
            found[int(entry.name)] = (state, int(parent))
    return found


def descendants(pid: int) -> list[int]:
    """The running processes under `pid` (a tab's app, and whatever it started)."""
    running = {p: parent for p, (state, parent) in states().items() if state != "Z"}
    found, parents = [], [pid]
    while parents:
        under = parents.pop()
        children = [p for p, parent in running.items() if parent == under]
        found += children
        parents += children
    return found


def running(pids: list[int]) -> list[int]:
    """Those of `pids` still running (a zombie has ended)."""
    now = states()
    return [pid for pid in pids if pid in now and now[pid][0] != "Z"]


def page(url: str, host: str | None = None) -> tuple[str, str]:
    """The page at `url` (asked for as `host`), and the websocket URL it opens."""
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200
        html = response.read().decode()
    found = re.search(r'data-session-websocket-url="([^"]+)"', html)
    assert found, "the page names no websocket"
    return html, found.group(1)


async def drawn(tab: aiohttp.ClientWebSocketResponse) -> bytes:
    """What the app draws into an open tab, until its Captures pane shows (or it ends)."""
    got = b""
    while b"Captures" not in got:
        message = await asyncio.wait_for(tab.receive(), 30)
        if message.type not in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):
            break  # the process ended (piped, memo prints text and exits)
        data = message.data
        got += data if isinstance(data, bytes) else str(data).encode()
    return got


async def draws(url: str, origin: str | None = None) -> bytes:
    """What the app draws into a tab opening the websocket at `url` from a page at `origin`."""
    opened = f"{url}?width=100&height=30"
    headers = {"Origin": origin} if origin else {}
    async with (
        aiohttp.ClientSession() as client,
        client.ws_connect(opened, headers=headers) as tab,
    ):
        return await drawn(tab)


async def handshake(url: str, origin: str) -> int:
    """The status answering a websocket opened at `url` by a page at `origin`."""
    async with aiohttp.ClientSession() as client:
        try:
            async with client.ws_connect(url, headers={"Origin": origin}):
                return 101
        except aiohttp.WSServerHandshakeError as error:
            return error.status


def this_machines_address() -> str | None:
    """An IPv4 address of this machine other than loopback (None if it has none)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # (a datagram socket sends nothing to connect)
            address = str(probe.getsockname()[0])
        except OSError:
            address = ""
    if address and not address.startswith(("127.", "0.")):
        return address
    names = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    return next((str(n[4][0]) for n in names if not str(n[4][0]).startswith("127.")), None)


def test_serve_shows_the_page_and_a_tab_runs_the_app(
    served: tuple[str, subprocess.Popen[str]],
) -> None:
    address, _ = served
    html, socket_url = page(f"http://{address}/")
    assert "textual.js" in html and "memo" in html
    assert socket_url == f"ws://{address}/ws"
    assert b"Captures" in asyncio.run(draws(socket_url))  # the app's pane, drawn in the tab


def test_a_page_opened_at_localhost_runs_the_app(
    served: tuple[str, subprocess.Popen[str]],
) -> None:
    """The page's URLs follow the host the browser asked for: one pinned to 127.0.0.1 sent a
    page opened at localhost to a websocket at 127.0.0.1, whose Origin check refused it."""
    site = f"localhost:{served[0].rsplit(':', 1)[1]}"
    html, socket_url = page(f"http://{site}/")
    assert socket_url == f"ws://{site}/ws"
    assert "127.0.0.1" not in html  # (the assets are on the same server, whatever its name)
    assert b"Captures" in asyncio.run(draws(socket_url, origin=f"http://{site}"))


def test_served_beyond_this_machine_a_page_works_at_its_address(
    services: Services, tmp_path: Path
) -> None:
    """Listening on 0.0.0.0, the page names the address the browser used (not 0.0.0.0, which
    a browser elsewhere cannot reach); any name is served, but still only its own pages."""
    address = this_machines_address()
    if address is None:
        pytest.skip("this machine has no address but loopback")
    with serving(services, tmp_path, "--host", "0.0.0.0") as (local, _):
        port = local.rsplit(":", 1)[1]
        site = f"{address}:{port}"
        html, socket_url = page(f"http://{site}/")
        assert "0.0.0.0" not in html and socket_url == f"ws://{site}/ws"
        assert b"Captures" in asyncio.run(draws(socket_url, origin=f"http://{site}"))
        _, named = page(f"http://{site}/", host=f"memo.lan:{port}")
        assert named == f"ws://memo.lan:{port}/ws"
        assert asyncio.run(handshake(socket_url, "http://evil.test")) == 403
        assert asyncio.run(handshake(socket_url, f"http://memo.lan:{port}")) == 403


@needs_proc
def test_a_tab_closed_while_its_app_starts_leaves_no_process(
    served: tuple[str, subprocess.Popen[str]],
) -> None:
    """textual-serve left such an app to start, read the tab's size and the quit together,
    and lay its screen out forever (Textual 8.2.8), deaf to SIGTERM."""
    address, server = served

    async def open_and_close() -> list[int]:
        url = f"ws://{address}/ws?width=100&height=30"
        async with aiohttp.ClientSession() as client, client.ws_connect(url) as tab:
            await tab.send_str(SIZE)
            return until(lambda: descendants(server.pid), 10)

    started = asyncio.run(open_and_close())
    assert started, "the tab started no app"
    assert until(lambda: not running(started), 5), "the closed tab's app is still running"


@needs_proc
def test_no_tab_process_outlives_memo_serve(
    served: tuple[str, subprocess.Popen[str]],
) -> None:
    """SIGTERM (or ctrl+c) to `memo serve` ends every tab's app: one running, one starting."""
    address, server = served
    url = f"ws://{address}/ws?width=100&height=30"

    async def two_tabs_then_sigterm() -> list[int]:
        async with aiohttp.ClientSession() as client, client.ws_connect(url) as first:
            assert b"Captures" in await drawn(first)
            running_app = descendants(server.pid)
            async with client.ws_connect(url) as second:
                await second.send_str(SIZE)
                starting_app = until(
                    lambda: [p for p in descendants(server.pid) if p not in running_app], 10
                )
                assert running_app and starting_app
                server.send_signal(signal.SIGTERM)
                server.wait(10)
                return running_app + starting_app

    apps = asyncio.run(two_tabs_then_sigterm())
    assert until(lambda: not running(apps), 5), "a tab's app outlived memo serve"


def test_serve_takes_the_store_options_but_not_json(capsys: pytest.CaptureFixture[str]) -> None:
    """--json does nothing for `memo serve`, so it is not offered; other commands keep it."""

    def options(command: str) -> str:
        with pytest.raises(SystemExit):
            build_parser().parse_args([command, "--help"])
        return capsys.readouterr().out

    served = options("serve")
    assert "--json" not in served and "--db" in served and "--demo" in served
    assert "--json" in options("facts")
    with pytest.raises(SystemExit) as refused:
        build_parser().parse_args(["serve", "--json"])
    assert refused.value.code == 2
    assert build_parser().parse_args(["serve", "--demo"]).demo is True


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
    assert asyncio.run(handshake(f"ws://{address}/ws", "http://evil.test")) == 403
