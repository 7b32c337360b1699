"""`memo mcp`: serve the store to an MCP client (an assistant) over stdio."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memo_tui.core.services import Services

EXIT_OK, EXIT_USAGE = 0, 2


def add_parser(commands: Any, stores: argparse.ArgumentParser) -> None:
    """`memo mcp` takes the store options (`stores`), and no --json: the server speaks
    JSON-RPC on stdout whatever is asked."""
    mcp = commands.add_parser(
        "mcp",
        parents=[stores],
        help="serve the store to an MCP client (an assistant) over stdio, read-only",
        description="Speaks the Model Context Protocol on stdin and stdout; an MCP client "
        "starts it (see the README for the snippet). Its tools only read, unless "
        "--allow-writes.",
    )
    mcp.add_argument(
        "--allow-writes",
        action="store_true",
        help="also offer tools that capture text, confirm a name and add a note",
    )


def mcp(args: argparse.Namespace, services: Services) -> int:
    from memo_tui.mcp_server import serve
    from memo_tui.render import warn

    store = services.store  # (not opened yet: opening a file that is not there makes one)
    if not args.allow_writes and store.url is None and not store.path.exists():
        warn(
            f"memo: no store at {store.path}: capture something first (memo capture FILE), "
            "or pass --db PATH (or MEMO_DB) to name one; memo mcp only reads, unless "
            "--allow-writes"
        )
        return EXIT_USAGE
    serve(services, allow_writes=args.allow_writes)
    return EXIT_OK
