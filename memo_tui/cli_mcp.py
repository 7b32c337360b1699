"""`memo mcp`: serve the store to an MCP client (an assistant) over stdio."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memo_tui.core.services import Services

EXIT_OK = 0


def add_parser(commands: Any, common: argparse.ArgumentParser) -> None:
    mcp = commands.add_parser(
        "mcp",
        parents=[common],
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

    serve(services, allow_writes=args.allow_writes)
    return EXIT_OK
