"""`memo serve`: the app in a browser, through textual-serve, on this machine only by default.

Each browser tab runs its own `memo` process on the same store, as another terminal would;
the store's locking keeps their writes apart."""

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
    from textual_serve.server import Server

    if args.host not in LOCAL:
        warn(
            f"memo serve: listening on {args.host}: anyone who can reach it can read and "
            "change this store; there is no password"
        )
    store = ["--demo"] if args.demo else ["--db", str(services.store.path)]
    command = shlex.join([sys.executable, "-m", "memo_tui", *store])
    warn(f"memo serve: open http://{args.host}:{args.port} (ctrl+c stops it)")
    Server(command, host=args.host, port=args.port, title="memo").serve()
    return EXIT_OK
