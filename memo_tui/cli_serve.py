"""`memo serve`: the app in a browser, through textual-serve, on this machine only by default.

Each browser tab runs its own `memo` process on the same store, as another terminal would;
the store's locking keeps their writes apart. A request must name this server as its host
(a page from another site that rebinds its name to 127.0.0.1 names its own), and a page
that opens the app's websocket must come from this server (another site's page, open in
the same browser, cannot drive memo). A page is drawn for the host the browser asked for,
and a tab's process ends when the tab closes, and when `memo serve` does."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import re
import shlex
import signal
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from memo_tui.render import warn

if TYPE_CHECKING:
    from asyncio.subprocess import Process

    from aiohttp import web

    from memo_tui.core.services import Services

EXIT_OK = 0
LOCAL = ("127.0.0.1", "localhost", "::1")
WILDCARDS = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}  # what a browser here opens
HOST_HEADER = re.compile(r"(?:[A-Za-z0-9.-]+|\[[0-9A-Za-z:.%]+\])(?::[0-9]{1,5})?")
QUIT_GRACE_S = 3.0  # how long a tab's app has to quit before its processes are killed
log = logging.getLogger("textual-serve")


def add_parser(commands: Any, stores: argparse.ArgumentParser) -> None:
    """`memo serve` takes the store options (`stores`), and no --json: it prints nothing
    for a script to read."""
    serve = commands.add_parser(
        "serve",
        parents=[stores],
        help="the app in a browser (http://127.0.0.1:8000 unless --host/--port)",
    )
    serve.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: this machine only)",
    )


def serve(args: argparse.Namespace, services: Services) -> int:
    if args.host not in LOCAL:
        warn(
            f"memo serve: listening on {args.host}: anyone who can reach it can read and "
            "change this store; there is no password"
        )
    store = ["--demo"] if args.demo else ["--db", services.store.url or str(services.store.path)]
    command = shlex.join([sys.executable, "-m", "memo_tui", *store])
    warn(f"memo serve: open {_url(args.host, args.port)} (ctrl+c stops it)")
    guarded(command, args.host, args.port).serve()
    return EXIT_OK


def _url(host: str, port: int) -> str:
    """Where a browser on this machine finds the server (listening everywhere, at this
    machine's own address)."""
    return f"http://{_bracketed(WILDCARDS.get(host, host))}:{port}"


def _bracketed(host: str) -> str:
    """A host as a URL names it: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host else host


def guarded(command: str, host: str, port: int) -> Any:
    """textual-serve's server, refusing requests for another host or from another site."""
    return _server_type()(command, host=host, port=port, title="memo", public_url=_url(host, port))


def _same_site(host: str, port: int) -> Any:
    """A middleware refusing a request for another host (unless the server listens beyond
    this machine, whose names it cannot know), and a websocket opened by another site's page:
    its Origin must be the host it asks for."""
    from aiohttp import web

    known = ("127.0.0.1", "localhost", "[::1]", _bracketed(host))
    names = {f"{name}:{port}" for name in known} | (set(known) if port == 80 else set())

    @web.middleware
    async def same_site(request: web.Request, handler: Any) -> web.StreamResponse:
        if not HOST_HEADER.fullmatch(request.host):
            raise web.HTTPBadRequest(text="memo serve: not a host name")
        if host in LOCAL and request.host not in names:
            raise web.HTTPForbidden(text="memo serve answers for this machine only")
        origin = request.headers.get("Origin")
        if origin is not None and origin.split("://", 1)[-1] != request.host:
            raise web.HTTPForbidden(text="memo serve answers its own pages only")
        return await handler(request)

    return same_site


def _page(request: web.Request, title: str) -> dict[str, Any]:
    """The page's template values: its websocket at the host the browser asked for, its
    assets on the same server (textual-serve's would name the host it listens on, which the
    browser may know by another name, or be unable to reach)."""
    from textual_serve.server import to_int

    router = request.app.router
    scheme = "wss" if request.secure else "ws"
    return {
        "font_size": to_int(request.query.get("fontsize", "16"), 16),
        "app_websocket_url": f"{scheme}://{request.host}{router['websocket'].url_for()}",
        "config": {"static": {"url": str(router["static"].url_for(filename="/"))}},
        "application": {"name": title},
    }


def _server_type() -> type[Any]:
    """textual-serve's Server, guarded, drawing pages for the host asked for, its tabs'
    processes ended with their tabs and with it (built when used: its imports are slow)."""
    import aiohttp_jinja2
    from aiohttp import web
    from textual_serve.server import Server, to_int

    tab_type = _tab_type()

    class Guarded(Server):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.tabs: dict[Any, web.WebSocketResponse] = {}  # the open tabs: their sockets

        async def _make_app(self) -> web.Application:
            app: web.Application = await super()._make_app()
            app.middlewares.append(_same_site(self.host, self.port))
            return app

        @aiohttp_jinja2.template("app_index.html")  # type: ignore[misc]
        async def handle_index(self, request: web.Request) -> dict[str, Any]:
            return _page(request, self.title)

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            """A tab: its own `memo` process, for as long as its websocket is open."""
            websocket = web.WebSocketResponse(heartbeat=15)
            await websocket.prepare(request)
            tab = tab_type(
                self.command,
                write_bytes=_unless_closed(websocket.send_bytes),
                write_str=_unless_closed(websocket.send_str),
                close=websocket.close,
                download_manager=self.download_manager,
                debug=self.debug,
            )
            self.tabs[tab] = websocket
            size = [to_int(request.query.get(n, ""), d) for n, d in (("width", 80), ("height", 24))]
            await _run_tab(tab, websocket, size, self._process_messages)
            self.tabs.pop(tab, None)
            return websocket

        async def on_shutdown(self, app: web.Application) -> None:
            """`memo serve` is ending: every tab's process ends, and its websocket closes."""
            await asyncio.gather(*(tab.stop() for tab in list(self.tabs)))
            await asyncio.gather(*(socket.close() for socket in list(self.tabs.values())))

        def serve(self, debug: bool = False) -> None:
            """Serve until ctrl+c or SIGTERM; no tab's process outlives the server."""
            try:
                super().serve(debug)
            finally:
                for tab in list(self.tabs):
                    tab.kill()

    return Guarded


async def _run_tab(
    tab: Any,
    websocket: web.WebSocketResponse,
    size: list[int],
    process_messages: Callable[[web.WebSocketResponse, Any], Awaitable[None]],
) -> None:
    """Start a tab's app and pass it the tab's messages until the tab closes; then (or if the
    app failed to start, or the tab sent what it should not) end the app."""
    try:
        await tab.start(*size)
        await process_messages(websocket, tab)
    except ConnectionResetError:
        pass  # the tab went while it was being answered
    except Exception as error:  # noqa: BLE001 - one tab's failure: logged, the server goes on
        log.exception(error)
    finally:
        await asyncio.shield(tab.stop())  # (even if the server is cancelling this tab)
        await websocket.close()


def _unless_closed(send: Callable[[Any], Awaitable[None]]) -> Callable[[Any], Awaitable[None]]:
    """`send`, doing nothing once the tab has closed: the app's output is still read (and
    dropped), so the app never waits to write while it quits."""

    async def sending(data: Any) -> None:
        with contextlib.suppress(ConnectionResetError):
            await send(data)

    return sending


def _tab_type() -> type[Any]:
    """textual-serve's AppService for one tab: the app in a process group of its own (not
    started through a shell), which ends with the tab at any moment, and with the server."""
    from textual_serve.app_service import AppService

    class Tab(AppService):  # type: ignore[misc]
        async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
            self._process = process = await asyncio.create_subprocess_exec(
                *shlex.split(self.command),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=self._build_environment(width=width, height=height),
                start_new_session=True,  # ctrl+c reaches `memo serve`, which ends the tabs
            )
            self._stdin = process.stdin
            return process

        async def stop(self) -> None:
            """End the app (once, however often asked)."""
            run, self._task = self._task, None
            if run is not None:
                await self._download_manager.cancel_app_downloads(
                    app_service_id=self.app_service_id
                )
                await _end(self._process, run)

        def kill(self) -> None:
            """The last resort, as `memo serve` exits: the whole process group, at once."""
            if self._process is not None:
                _signal_group(self._process, signal.SIGKILL)

    return Tab


async def _end(process: Process, run: asyncio.Task[None]) -> None:
    """Ask a tab's app to quit with SIGTERM (a running app quits as on textual-serve's quit
    message; one still importing ends at once, rather than start first), kill what is left of
    its process group after QUIT_GRACE_S, and read its output to the end.

    Textual 8.2.8, told to quit before its first paint with a resize pending, lays its screen
    out forever and heeds no signal but SIGKILL."""
    with contextlib.suppress(ProcessLookupError):
        process.terminate()
    try:
        await asyncio.wait_for(process.wait(), QUIT_GRACE_S)
    except TimeoutError:
        log.warning("memo serve: a tab's app did not quit in %ss; killing it", QUIT_GRACE_S)
    _signal_group(process, signal.SIGKILL)  # (and whatever the app started)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(run, 1)


def _signal_group(process: Process, number: int) -> None:
    """Signal a tab's process group: its app, and any process the app started."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, number)
