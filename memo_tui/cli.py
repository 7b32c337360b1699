"""The `memo` command: headless subcommands with --json output (the TUI lands later).

Builds Settings -> Store -> Services once per invocation and hands them to the command.
Exit codes: 0 success, 1 when any input was refused or needs confirmation, 2 usage errors.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from memo_tui import __version__, render
from memo_tui.settings import Settings, load_settings

EXIT_OK, EXIT_REFUSED, EXIT_USAGE = 0, 1, 2
FACT_TYPES = (
    "decision",
    "action_item",
    "summary",
    "excerpt",
    "client_note",
    "project_note",
    "digest",
)


def _store_options(parser: argparse.ArgumentParser, default: object) -> None:
    parser.add_argument("--db", type=Path, default=default, help="store file (default: $MEMO_DB)")
    parser.add_argument(
        "--demo", action="store_true", default=default, help="use the separate demo store"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memo",
        description="Remembers what your team decided, why, and who owes what.",
    )
    parser.add_argument("--version", action="version", version=f"memo {__version__}")
    _store_options(parser, None)
    common = argparse.ArgumentParser(add_help=False)
    _store_options(common, argparse.SUPPRESS)
    common.add_argument("--json", action="store_true", help="print JSON for scripts")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    capture = commands.add_parser(
        "capture", parents=[common], help="capture transcripts (.txt .md .vtt .srt) or folders"
    )
    capture.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    capture.add_argument(
        "--replace", action="store_true", help="replace earlier versions of these meetings"
    )

    facts = commands.add_parser("facts", parents=[common], help="list stored facts")
    facts.add_argument("--type", choices=FACT_TYPES, dest="fact_type")
    facts.add_argument("--since", type=_iso_date, help="only meetings on or after YYYY-MM-DD")
    facts.add_argument("--limit", type=int, default=None)

    commands.add_parser("doctor", parents=[common], help="show the store, versions and state")

    bench = commands.add_parser("bench", help="benchmarks that print figures")
    benches = bench.add_subparsers(dest="bench", metavar="BENCH", required=True)
    extract = benches.add_parser(
        "extract", parents=[common], help="extractor precision/recall and capture throughput"
    )
    extract.add_argument("--data", type=Path, required=True, help="folder of <id>.txt + <id>.json")
    extract.add_argument("--window", type=int, default=2, help="turns of slack when matching")
    return parser


def _iso_date(value: str) -> str:
    import datetime as dt

    try:
        return dt.date.fromisoformat(value).isoformat()
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{value!r} is not a date like 2026-03-01") from error


def _db_path(args: argparse.Namespace, settings: Settings) -> Path:
    if getattr(args, "demo", False):
        return settings.demo_db_path
    return args.db or settings.db_path


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        # `memo facts | head`: the reader left; say nothing more.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt:
        print("memo: interrupted", file=sys.stderr)
        return 130


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        settings = load_settings()
    except Exception as error:  # pydantic's ValidationError names the bad setting
        print(f"memo: bad configuration: {error}", file=sys.stderr)
        return EXIT_USAGE
    handler = _HANDLERS.get(args.command or "")
    if args.command == "bench":
        return _bench(args)
    return _with_services(args, settings, handler or _default)


def _with_services(
    args: argparse.Namespace,
    settings: Settings,
    handler: Callable[..., int],
) -> int:
    from memo_tui.core.services import build_services
    from store import StoreError

    path = _db_path(args, settings)
    try:
        services = build_services(settings, path)
    except (StoreError, OSError) as error:
        print(f"memo: cannot open the store at {path}: {error}", file=sys.stderr)
        return EXIT_REFUSED
    try:
        if getattr(args, "demo", False):
            _seed_demo(services)
        return int(handler(args, services))
    finally:
        services.close()


def _seed_demo(services: object) -> None:
    from memo_tui.core.demo import seed_demo

    store = services.store  # type: ignore[attr-defined]
    if store.stats().captures == 0:
        print("Seeding the demo store with sample meetings...", file=sys.stderr)
        seed_demo(services.capture)  # type: ignore[attr-defined]


def _capture(args: argparse.Namespace, services: object) -> int:
    def progress(result: object) -> None:
        if not args.json:
            render.print_capture(result)  # type: ignore[arg-type]

    results = services.capture.capture_paths(  # type: ignore[attr-defined]
        args.paths, replace=args.replace, progress=progress
    )
    if args.json:
        render.emit_json({"results": [render.capture_json(r) for r in results]})
        for result in results:
            if not result.ok:
                print(f"memo: {result.error}", file=sys.stderr)
    return EXIT_OK if all(r.ok for r in results) else EXIT_REFUSED


def _facts(args: argparse.Namespace, services: object) -> int:
    facts = services.store.facts(  # type: ignore[attr-defined]
        fact_type=args.fact_type, since=args.since, limit=args.limit
    )
    if args.json:
        render.emit_json({"facts": [render.fact_json(f) for f in facts]})
    else:
        render.print_facts(facts)
    return EXIT_OK


def _doctor(args: argparse.Namespace, services: object) -> int:
    settings: Settings = services.settings  # type: ignore[attr-defined]
    stats = services.store.stats()  # type: ignore[attr-defined]
    model_path = settings.embed_model_path
    report = {
        "store": render.stats_json(stats),
        "integrity": services.store.integrity_check(),  # type: ignore[attr-defined]
        "provider": {
            "setting": settings.provider,
            "in_use": "offline",
            "why": "LLM providers are not built yet; extraction uses the offline extractor",
        },
        "embedding": {
            "model": settings.embed_model,
            "model_path": str(model_path) if model_path else None,
            "model_path_ok": bool(model_path and (model_path / "model.onnx").is_file()),
            "fastembed_installed": importlib.util.find_spec("fastembed") is not None,
            "vectors": stats.vectors,
            "facts": sum(stats.facts_by_type.values()),
        },
    }
    if args.json:
        render.emit_json(report)
        return EXIT_OK
    store = report["store"]
    print(f"store        {store['path']}")  # type: ignore[index]
    print(f"schema       v{stats.schema_version}   integrity: {report['integrity']}")
    print(f"sqlite       {stats.sqlite_version}   sqlite-vec {stats.vec_version}")
    counts = ", ".join(f"{k} {v}" for k, v in stats.facts_by_type.items() if v)
    print(f"captures     {stats.captures}   facts: {counts or 'none'}")
    print(f"provider     offline (setting: {settings.provider}; LLM providers not built yet)")
    embed = report["embedding"]
    state = "model found" if embed["model_path_ok"] else "no local model path"  # type: ignore[index]
    print(f"embeddings   {settings.embed_model} ({state}); vectors {stats.vectors}")
    return EXIT_OK


def _default(args: argparse.Namespace, services: object) -> int:
    """`memo` / `memo --demo` before the TUI lands: every meeting with what it decided."""
    store = services.store  # type: ignore[attr-defined]
    captures = store.captures()
    print(f"memo {__version__}, store: {store.path}")
    if not captures:
        print("No captures yet. Try: memo capture meeting.txt   (or: memo --demo)")
        return EXIT_OK
    for capture in captures:
        render.print_meeting(
            capture, store.decisions([capture.id]), store.action_items([capture.id])
        )
    print(
        "\nL12-14 = transcript lines. More: memo facts --type decision | memo capture PATH"
        " | memo doctor | memo --help"
    )
    return EXIT_OK


def _bench(args: argparse.Namespace) -> int:
    from memo_tui.core.benchmarks import extract

    if not args.data.is_dir():
        print(f"memo: {args.data} is not a folder", file=sys.stderr)
        return EXIT_USAGE
    result = extract.run(args.data, window=args.window).as_dict()
    if args.json:
        render.emit_json(result)
        return EXIT_OK
    print(f"offline extractor on {result['meetings']} meetings ({result['chars']:,} chars)")
    print(f"matching: {result['matching']}")
    for key, score in result["scores"].items():  # type: ignore[attr-defined]
        print(
            f"  {key:<16} precision {score['precision']:.3f} ({score['ours_matched']}/"
            f"{score['ours']})  recall {score['recall']:.3f} ({score['human_matched']}/"
            f"{score['human']})  F1 {score['f1']:.3f}"
        )
    print(
        f"throughput: {result['transcripts_per_second']} transcripts/s, "
        f"{result['chars_per_second']:,} chars/s (parse + extract + write, {result['seconds']} s)"
    )
    return EXIT_OK


_HANDLERS: dict[str, Callable[..., int]] = {
    "capture": _capture,
    "facts": _facts,
    "doctor": _doctor,
}
