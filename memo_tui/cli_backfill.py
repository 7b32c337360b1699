"""`memo backfill`: every fact without a vector embedded, the model downloaded first when
memo may fetch it (with its progress on stderr)."""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING, Any

from memo_tui import render
from memo_tui.core.safety import sanitize_line
from memo_tui.render import warn

if TYPE_CHECKING:
    from memo_tui.core.services import Services

EXIT_OK, EXIT_REFUSED = 0, 1


def add_parser(commands: Any, common: argparse.ArgumentParser) -> None:
    backfill = commands.add_parser(
        "backfill",
        parents=[common],
        help="embed every fact that has no vector yet (downloading the model first if need be)",
    )
    backfill.add_argument(
        "--download",
        action="store_true",
        help="download the embedding model now, even if an attempt failed today",
    )


def _download_model(args: argparse.Namespace, services: Services) -> bool:
    """No local model yet: fetch memo's default one, with a progress line on stderr. A
    failure is said and remembered; True when it was tried and failed just now (and said)."""
    from memo_tui.core.model_download import DownloadFailed, Progress

    settings = services.settings
    if settings.embed_download is False and not args.download:
        return False
    if args.download and not settings.model_download.known:
        warn(
            f"memo: memo downloads only its default model, not {settings.embed_model}: set "
            "MEMO_EMBED_MODEL_PATH to a local copy of it"
        )
        return True
    if not (settings.may_download_model or args.download):
        return False  # (failed lately: the backfill's message says so, and what to run)
    shown = {"at": 0.0}
    live = sys.stderr.isatty()  # one line, rewritten; else a line a file

    def progress(step: Progress) -> None:
        now, whole = time.monotonic(), step.done == step.size
        if args.json or not (whole or (live and now - shown["at"] > 0.25)):
            return
        shown["at"] = now
        said = sanitize_line(f"downloading {settings.embed_model}: {step.describe()}")
        print(f"\r\x1b[K{said}" if live else said, end="", file=sys.stderr, flush=True)
        if not live or (whole and step.files_done + 1 == step.files):
            print(file=sys.stderr)

    try:
        services.download_model(progress)
    except DownloadFailed as error:
        if live and shown["at"]:
            print(file=sys.stderr)  # (end the progress line)
        warn(f"memo: {error} (set MEMO_EMBED_MODEL_PATH to a local copy, or MEMO_EMBED_HUB)")
        return True
    return False


def backfill(args: argparse.Namespace, services: Services) -> int:
    failed = services.settings.embed_model_folder is None and _download_model(args, services)

    def progress(result: object) -> None:
        done = getattr(result, "embedded", 0) + getattr(result, "reused", 0)
        if not args.json:
            warn(f"embedded {done} facts...")

    result = services.embed.backfill(progress=progress)
    payload = vars(result) | {"model": services.embed.embedder.name}
    if args.json:
        render.emit_json(payload)
    else:
        print(
            f"embedded {result.embedded}, reused {result.reused} unchanged, "
            f"{result.remaining} still without a vector ({services.embed.embedder.name})"
        )
        if result.error and failed:  # (what to do was said with the failure)
            warn("memo: nothing was embedded: there is no embedding model here")
        elif result.error:
            warn(f"memo: {result.error}")
    return EXIT_OK if result.error is None else EXIT_REFUSED
