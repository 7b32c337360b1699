"""`memo serve`: the app in a browser, through textual-serve, on this machine only by default.

Each browser tab runs its own `memo` process on the same store, as another terminal would;
the store's locking keeps their writes apart. A request must name this server as its host
(a page from another site that rebinds its name to 127.0.0.1 names its own), and a page
that opens the app's websocket must come from this server (another site's page, open in
the same browser, cannot drive memo)."""

from __future__ import annotations

import argparse
import shlex
import sys
from typing import TYPE_CHECKING, Any

from memo_tui.render import warn

if TYPE_CHECKING:
    from memo_tui.core.services import Services

EXIT_OK = 0
LOCAL = ("127.0.0.1", "localhost", "::1")


def add_parser(commands: Any, common: argparse.ArgumentParser) -> None:
    serve = commands.add_parser(
        "serve",
        parents=[common],
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
    warn(f"memo serve: open http://{args.host}:{args.port} (ctrl+c stops it)")
    guarded(command, args.host, args.port).serve()
    return EXIT_OK


def guarded(command: str, host: str, port: int) -> Any:
    """textual-serve's server, refusing requests for another host or from another site."""
    from aiohttp import web
    from textual_serve.server import Server

    names = {f"{name}:{port}" for name in ("127.0.0.1", "localhost", "[::1]", host)}

    @web.middleware
    async def same_site(request: web.Request, handler: Any) -> web.StreamResponse:
        if host in LOCAL and request.host not in names:
            raise web.HTTPForbidden(text="memo serve answers for this machine only")
        origin = request.headers.get("Origin")
        if origin is not None and origin.split("://", 1)[-1] != request.host:
            raise web.HTTPForbidden(text="memo serve answers its own pages only")
        return await handler(request)

    class Guarded(Server):  # type: ignore[misc]
        async def _make_app(self) -> web.Application:
            app: web.Application = await super()._make_app()
            app.middlewares.append(same_site)
            return app

    return Guarded(command, host=host, port=port, title="memo")
