"""The `memo` command: the app in a terminal, and headless subcommands with --json output.

Builds Settings -> Store -> Services once per invocation and hands them to the command.
Exit codes: 0 success, 1 when any input was refused or needs confirmation, 2 usage errors,
70 a failure memo did not expect (one line says so; the traceback goes to a crash report).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memo_tui import (
    __version__,
    cli_agents,
    cli_ask,
    cli_backfill,
    cli_bench,
    cli_doctor,
    cli_email,
    cli_export,
    cli_facts,
    cli_history,
    cli_mcp,
    cli_notes,
    cli_people,
    cli_projects,
    cli_review,
    cli_serve,
    cli_store,
    render,
)
from memo_tui.core.safety import sanitize_line
from memo_tui.render import warn
from memo_tui.settings import store_location

if TYPE_CHECKING:
    from memo_tui.core.capture import CaptureResult
    from memo_tui.core.services import Services
    from memo_tui.settings import Settings

EXIT_OK, EXIT_REFUSED, EXIT_USAGE, EXIT_CRASHED = 0, 1, 2, 70
Handler = Callable[[argparse.Namespace, "Services"], int]


def _store_options(parser: argparse.ArgumentParser, default: object) -> None:
    parser.add_argument(
        "--db",
        type=store_location,
        default=default,
        help="store file, or a team store's postgresql:// URL (default: $MEMO_DB)",
    )
    parser.add_argument(
        "--demo", action="store_true", default=default, help="use the separate demo store"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memo", description="Remembers what your team decided, why, and who owes what."
    )
    parser.add_argument("--version", action="version", version=f"memo {__version__}")
    _store_options(parser, None)
    stores = argparse.ArgumentParser(add_help=False)
    _store_options(stores, argparse.SUPPRESS)  # also accepted after the subcommand
    common = argparse.ArgumentParser(add_help=False, parents=[stores])
    common.add_argument("--json", action="store_true", help="print JSON for scripts")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    capture = commands.add_parser(
        "capture",
        parents=[common],
        help="capture transcripts (.txt .md .vtt .srt .docx, any tool's export), folders, "
        "or mail (.mbox, Maildir, .eml)",
    )
    capture.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    capture.add_argument(
        "--replace", action="store_true", help="replace earlier versions of these meetings"
    )

    cli_facts.add_parser(commands, common)
    cli_doctor.add_parser(commands, common)
    cli_backfill.add_parser(commands, common)
    cli_ask.add_parser(commands, common)
    cli_people.add_parsers(commands, common)

    costs = commands.add_parser(
        "costs", parents=[common], help="model spend by day, trigger, model"
    )
    costs.add_argument("--since", type=_iso_date, help="only calls on or after YYYY-MM-DD")

    cli_projects.add_parsers(commands, common)
    cli_agents.add_parsers(commands, common)
    cli_email.add_parsers(commands, common)
    cli_history.add_parsers(commands, common)
    cli_review.add_parser(commands, common)
    cli_notes.add_parsers(commands, common)

    cli_mcp.add_parser(commands, stores)  # (no --json: they print nothing for a script)
    cli_serve.add_parser(commands, stores)
    cli_export.add_parser(commands, common)
    cli_bench.add_parser(commands, common)
    cli_store.add_parsers(commands, common)
    return parser


def _iso_date(value: str) -> str:
    try:
        return dt.date.fromisoformat(value).isoformat()
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{value!r} is not a date like 2026-03-01") from error


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        # `memo facts | head`: the reader left; say nothing more.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt:
        warn("memo: interrupted")
        return 130
    except Exception as error:  # noqa: BLE001 - the last resort: a line, not a traceback
        return _crashed(error)


def _crashed(error: Exception) -> int:
    """A failure memo did not expect: one line on stderr naming its kind (never its message,
    which from a database holds the statement and the user's text), the traceback in a crash
    report only this user can read."""
    import traceback

    from memo_tui.settings import cache_dir

    report = cache_dir() / "crashes" / f"{dt.datetime.now():%Y%m%d-%H%M%S}-{os.getpid()}.txt"
    try:
        report.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(report, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write("".join(traceback.format_exception(error)))
        where = f"; the details are in {report}"
    except OSError:
        where = ""
    warn(f"memo: failed unexpectedly ({type(error).__name__}){where}: please report it")
    return EXIT_CRASHED


def _main(argv: Sequence[str] | None) -> int:
    from memo_tui.settings import load_settings

    opening = _app_arguments(sys.argv[1:] if argv is None else list(argv))
    if opening is not None:
        return _open_app(opening)
    args = build_parser().parse_args(argv)
    try:
        settings = load_settings()
    except ValueError as error:  # pydantic's ValidationError names the bad setting
        warn(f"memo: bad configuration: {error}")
        return EXIT_USAGE
    if args.command == "bench":
        return cli_bench.bench(args, settings)
    return _with_services(args, settings, _HANDLERS.get(args.command or "", _default))


def _with_services(args: argparse.Namespace, settings: Settings, handler: Handler) -> int:
    from memo_tui.core.services import build_services
    from store import StoreError

    path = settings.demo_db_path if args.demo else (args.db or settings.db_path)
    services = build_services(settings, path)  # the store opens when first used
    try:
        if args.demo and not (handler is _default and _interactive(args)):
            _seed_demo(services)  # the app seeds in the background, with progress
        return handler(args, services)
    except StoreError as error:
        warn(f"memo: {error}")
        return EXIT_REFUSED
    finally:
        services.close()


def _seed_demo(services: Services) -> None:
    from memo_tui.core.demo import seed_demo, unseeded

    if unseeded(services.store):
        warn("Seeding the demo store with sample meetings and mail...")
        seed_demo(services.capture)


def _capture(args: argparse.Namespace, services: Services) -> int:
    def progress(result: CaptureResult) -> None:
        if not args.json:
            render.print_capture(result)

    from memo_tui.core.email.read import is_mail_source

    mail = [p for p in args.paths if is_mail_source(p)]  # mbox, Maildir, .eml: imported
    files = [p for p in args.paths if p not in mail]
    imported = [cli_email.import_mail(p, services, quiet=args.json) for p in mail]
    if not args.json:
        for summary in imported:
            cli_email.print_summary(summary)
    results = services.capture.capture_paths(files, replace=args.replace, progress=progress)
    if args.json:
        payload: dict[str, object] = {"results": [render.capture_json(r) for r in results]}
        if imported:
            payload["email"] = [cli_email.summary_json(s) for s in imported]
        render.emit_json(payload)
        for result in results:
            if not result.ok:
                warn(f"memo: {result.error}")
    return EXIT_OK if all(r.ok for r in results) else EXIT_REFUSED


def _costs(args: argparse.Namespace, services: Services) -> int:
    store = services.store
    report = {
        group: [vars(line) for line in store.ledger.costs(group, args.since)]
        for group in ("day", "trigger", "model")
    }
    totals = report["day"]
    summary = {
        "calls": sum(line["calls"] for line in totals),
        "failed": sum(line["failed"] for line in totals),
        "cost_microdollars": sum(line["cost_microdollars"] for line in totals),
    }
    if args.json:
        render.emit_json(
            {
                "total": summary,
                "by_day": report["day"],
                "by_trigger": report["trigger"],
                "by_model": report["model"],
            }
        )
    else:
        render.print_costs(summary, report)
    return EXIT_OK


def _app_arguments(argv: list[str]) -> argparse.Namespace | None:
    """`memo`, `memo --demo` or `memo --db PATH` in a terminal: the app's arguments (None for
    anything else). Parsed before the full parser, which needs the store's imports."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return None
    parser = argparse.ArgumentParser(prog="memo", add_help=False)
    _store_options(parser, None)
    try:
        args, rest = parser.parse_known_args(argv)
    except SystemExit:  # e.g. --db with no path: the full parser says what is wrong
        return None
    return None if rest else args


def _open_app(args: argparse.Namespace) -> int:
    """The app paints at once; the settings and the store (whose imports take longer than
    the first screen) come in the background."""
    from memo_tui.ui.app import MemoApp

    def opener() -> Services:
        from memo_tui.core.services import build_services
        from memo_tui.settings import load_settings

        try:
            settings = load_settings()
        except ValueError as error:  # pydantic's ValidationError names the bad setting
            raise ValueError(f"bad configuration: {error}") from error
        path = settings.demo_db_path if args.demo else (args.db or settings.db_path)
        return build_services(settings, path)

    app = MemoApp(seed_demo=args.demo, opener=opener)
    _follow_the_terminal()
    try:
        app.run()
    finally:
        if app.ready:
            app.services.close()
    return app.return_code or EXIT_OK


def _follow_the_terminal() -> None:
    """Size the app from the terminal itself, and follow it as it resizes.

    Textual asks `shutil.get_terminal_size`, which believes COLUMNS and LINES when they are
    exported: a shell or a CI runner that exports them would pin the app at that size.
    """
    if sys.stdout.isatty():
        os.environ.pop("COLUMNS", None)
        os.environ.pop("LINES", None)


def _interactive(args: argparse.Namespace) -> bool:
    """In a terminal (not piped, not --json), or in a browser tab `memo serve` opened:
    `memo` opens the app."""
    if "web_driver" in os.environ.get("TEXTUAL_DRIVER", ""):
        return True
    return sys.stdin.isatty() and sys.stdout.isatty() and not getattr(args, "json", False)


def _default(args: argparse.Namespace, services: Services) -> int:
    """`memo` / `memo --demo`: the app in a terminal; piped, every meeting as text."""
    if _interactive(args):
        from memo_tui.core.demo import unseeded
        from memo_tui.ui.app import MemoApp

        app = MemoApp(services, seed_demo=args.demo and unseeded(services.store))
        _follow_the_terminal()
        app.run()
        return EXIT_OK
    store = services.store
    print(f"memo {__version__}, store: {sanitize_line(store.location)}")
    captures = store.captures.all()
    if not captures:
        print("No captures yet. Try: memo capture meeting.txt   (or: memo --demo)")
        return EXIT_OK
    for capture in captures:
        render.print_meeting(capture, *store.captures.items([capture.id]))
    waiting = store.people.pending_mentions()
    if waiting:
        names = ", ".join(sanitize_line(w.mention) for w in waiting)
        print(f"\nWho is {names}? Several people fit: memo pending, then memo confirm.")
    print(
        "\nL12-14 = transcript lines. More: memo facts --type decision | memo capture PATH"
        " | memo doctor | memo --help"
    )
    return EXIT_OK


_HANDLERS: dict[str, Handler] = {
    "capture": _capture,
    "facts": cli_facts.facts,
    "doctor": cli_doctor.doctor,
    "mcp": cli_mcp.mcp,
    "serve": cli_serve.serve,
    "export": cli_export.export,
    "costs": _costs,
    "backfill": cli_backfill.backfill,
    "ask": cli_ask.ask,
    **cli_people.HANDLERS,
    **cli_projects.HANDLERS,
    **cli_agents.HANDLERS,
    **cli_email.HANDLERS,
    **cli_history.HANDLERS,
    **cli_review.HANDLERS,
    **cli_notes.HANDLERS,
    **cli_store.HANDLERS,
}
