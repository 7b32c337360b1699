"""`memo bench …`: the benchmarks that print figures (extraction, people, formats, ask,
recall, search, startup, email), each against a labelled set or a synthetic store."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memo_tui import render
from memo_tui.render import warn

if TYPE_CHECKING:
    from memo_tui.core.capture.service import Extractor
    from memo_tui.settings import Settings

EXIT_OK, EXIT_REFUSED, EXIT_USAGE = 0, 1, 2


def add_parser(commands: Any, common: argparse.ArgumentParser) -> None:
    bench = commands.add_parser("bench", help="benchmarks that print figures")
    benches = bench.add_subparsers(dest="bench", metavar="BENCH", required=True)
    extract = benches.add_parser(
        "extract", parents=[common], help="extractor precision/recall and capture throughput"
    )
    extract.add_argument(
        "--data",
        type=Path,
        action="append",
        required=True,
        help="a labelled set (truth.jsonl, like dev-meetings) or a folder of <id>.txt + <id>.json "
        "(like qmsum-val/extraction); repeat it to score several in one run",
    )
    extract.add_argument(
        "--detail", action="store_true", help="list what each file missed and got wrong"
    )
    extract.add_argument(
        "--provider",
        choices=("offline", "anthropic", "openai"),
        default="offline",
        help="extract with a model instead of the offline rules (its key or server must be set)",
    )
    extract.add_argument("--window", type=int, default=2, help="turns of slack when matching")
    people = benches.add_parser(
        "people", parents=[common], help="who decided and owes, against a labelled meeting set"
    )
    people.add_argument("--data", type=Path, required=True, help="the dev-meetings folder")
    formats = benches.add_parser(
        "formats", parents=[common], help="how exported transcripts read: formats, speakers, markup"
    )
    formats.add_argument("--data", type=Path, required=True, help="a folder of transcripts")
    asked = benches.add_parser(
        "ask", parents=[common], help="answers to a labelled set's questions, judged by kind"
    )
    asked.add_argument("--data", type=Path, required=True, help="the dev-meetings folder")
    asked.add_argument("--detail", action="store_true", help="print every answer and its verdict")
    recall = benches.add_parser(
        "recall", parents=[common], help="Recall@10 and MRR of keyword, vector and hybrid search"
    )
    recall.add_argument("--data", type=Path, required=True, help="the qmsum-val folder")
    search = benches.add_parser(
        "search", parents=[common], help="retrieval latency on synthetic stores vs NumPy"
    )
    search.add_argument(
        "--facts", type=_sizes, default=[10_000, 100_000], help="store sizes, e.g. 10000,100000"
    )
    search.add_argument("--queries", type=int, default=200, help="queries timed per size")
    startup = benches.add_parser(
        "startup", parents=[common], help="time to first paint vs importing Textual alone"
    )
    startup.add_argument("--facts", type=int, default=100_000, help="facts in the large store")
    startup.add_argument("--runs", type=int, default=5, help="starts timed per command")
    email = benches.add_parser(
        "email", parents=[common], help="import a synthetic mbox: time, messages/s, memory"
    )
    email.add_argument("--messages", type=int, default=10_000, help="messages in the mbox")
    _add_team(benches, common)


def _add_team(benches: Any, common: argparse.ArgumentParser) -> None:
    team = benches.add_parser(
        "team",
        parents=[common],
        help="writers at once on PostgreSQL (lost writes, errors); hybrid search vs SQLite",
    )
    team.add_argument(
        "--server", metavar="URL", help="a PostgreSQL server (default: start one with pgserver)"
    )
    team.add_argument("--writers", type=int, default=8, help="writer processes at once")
    team.add_argument("--meetings", type=int, default=10, help="meetings each writer captures")
    team.add_argument("--facts", type=int, default=100_000, help="facts in the search stores")
    team.add_argument("--queries", type=int, default=100, help="searches timed per store")


def _bench_team(args: argparse.Namespace, progress: Any) -> int:
    from memo_tui.core.benchmarks import team, team_server

    if min(args.writers, args.meetings, args.queries) < 1 or args.facts < 0:
        warn("memo bench team: --writers, --meetings and --queries must be positive")
        return EXIT_USAGE
    try:
        with team_server.server(args.server) as (scratch, which):
            progress(f"on {which}")
            bench = team.run(
                scratch(), args.writers, args.meetings, args.facts, args.queries, scratch, progress
            )
    except team_server.NoServer as error:
        warn(f"memo bench team: {error}")
        return EXIT_USAGE
    _show(args, bench, team.format_report)
    writers = bench.writers
    return EXIT_OK if writers is None or not (writers.lost or writers.errors) else 1


def _show(args: argparse.Namespace, figures: Any, report: Callable[[Any], str]) -> None:
    """A bench's figures: JSON with --json, else its report."""
    if args.json:
        render.emit_json(figures.as_dict())
    else:
        print(report(figures))


def _sizes(value: str) -> list[int]:
    try:
        sizes = [int(part.replace("_", "")) for part in value.split(",") if part.strip()]
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{value!r} is not a list like 10000,100000") from error
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError("sizes must be positive")
    return sizes


def bench(args: argparse.Namespace, settings: Settings) -> int:
    def progress(stage: str) -> None:
        warn(f"  {stage}")

    if args.bench == "startup":
        return _bench_startup(args, progress)
    if args.bench == "email":
        return _bench_email(args, progress)
    if args.bench == "team":
        return _bench_team(args, progress)
    if args.bench == "search":
        from memo_tui.core.benchmarks import search, search_report

        if args.queries < 1:
            warn("memo bench search: --queries must be positive")
            return EXIT_USAGE
        bench = search.run(args.facts, args.queries, progress=progress)
        _show(args, bench, search_report.format_report)
        return EXIT_OK
    if args.bench == "extract":
        return _bench_extract(args, settings)
    if not args.data.is_dir():
        warn(f"memo: {args.data} is not a folder")
        return EXIT_USAGE
    if args.bench == "recall":
        return _bench_recall(args, settings, progress)
    if args.bench == "ask":
        return _bench_ask(args, settings, progress)
    if args.bench == "people":
        from memo_tui.core.benchmarks import people

        try:
            scored = people.run(args.data)
        except FileNotFoundError as error:
            warn(f"memo bench people: {error}")
            return EXIT_USAGE
        _show(args, scored, people.format_report)
        return EXIT_OK
    if args.bench == "formats":
        from memo_tui.core.benchmarks import formats

        figures = formats.run(args.data)
        _show(args, figures, formats.format_report)
        return EXIT_OK
    raise AssertionError(f"unknown bench {args.bench}")


def _bench_extractor(args: argparse.Namespace, settings: Settings) -> Extractor | str | None:
    """The extractor `--provider` names, built as capture builds it (offline: the judge with
    the embedding model when it is here); what stops it, in words a user can act on, when its
    key or server is not set."""
    if args.provider == "offline":
        from memo_tui.core.capture.offline import OfflineExtractor
        from memo_tui.core.embed.embedder import embedder_for

        return OfflineExtractor(embedder_for(settings))
    from memo_tui.core.capture.llm_extractor import LLMExtractor
    from memo_tui.core.llm import select

    chosen = settings.model_copy(update={"provider": args.provider})
    problems = select.problems(chosen)
    if problems:
        return "; ".join(problems)
    return LLMExtractor.from_settings(select.build_provider(chosen, None), chosen)


def _bench_extract(args: argparse.Namespace, settings: Settings) -> int:
    """Each folder scored as what it is: a labelled set, or QMSum-style annotations."""
    from memo_tui.core.benchmarks import extract, extract_report, extract_set

    for folder in args.data:
        if not folder.is_dir():
            warn(f"memo: {folder} is not a folder")
            return EXIT_USAGE
    extractor = _bench_extractor(args, settings)
    if isinstance(extractor, str):
        warn(f"memo bench extract --provider {args.provider}: {extractor}")
        return EXIT_USAGE
    results: list[dict[str, Any]] = []
    for folder in args.data:
        try:
            if (folder / "truth.jsonl").is_file():
                labelled = extract_set.run_set(folder, extractor)
                results.append(labelled.as_dict())
                report = extract_report.format_set_report(labelled, detail=args.detail)
            else:
                result = extract.run(folder, window=args.window, extractor=extractor)
                results.append(result.as_dict())
                report = render.extract_bench_report(result.as_dict())
        except FileNotFoundError as error:
            warn(f"memo bench extract: {error}")
            return EXIT_USAGE
        if not args.json:
            print(report if folder == args.data[0] else f"\n{report}")
    if args.json:
        render.emit_json(results[0] if len(results) == 1 else {"sets": results})
    return EXIT_OK


def _bench_email(args: argparse.Namespace, progress: Callable[[str], None]) -> int:
    from memo_tui.core.benchmarks import email

    if args.messages < 1:
        warn("memo bench email: --messages must be positive")
        return EXIT_USAGE
    bench = email.run(args.messages, progress=progress)
    if args.json:
        render.emit_json(vars(bench))
    else:
        print(email.format_report(bench))
    return EXIT_OK


def _bench_startup(args: argparse.Namespace, progress: Callable[[str], None]) -> int:
    from memo_tui.core.benchmarks import startup

    if args.runs < 1 or args.facts < 1:
        warn("memo bench startup: --runs and --facts must be positive")
        return EXIT_USAGE
    try:
        bench = startup.run(args.facts, args.runs, progress=progress)
    except startup.StartupFailed as error:
        warn(f"memo bench startup: {error}")
        return EXIT_REFUSED
    _show(args, bench, startup.format_report)
    return EXIT_OK


def _bench_recall(
    args: argparse.Namespace, settings: Settings, progress: Callable[[str], None]
) -> int:
    from memo_tui.core.benchmarks import recall, recall_report

    return _embedding_bench(
        "recall",
        args,
        settings,
        lambda embedder: recall.run(
            args.data, progress, embedder=embedder, batch_size=settings.embed_batch_size
        ),
        recall_report.format_report,
    )


def _bench_ask(
    args: argparse.Namespace, settings: Settings, progress: Callable[[str], None]
) -> int:
    from memo_tui.core.benchmarks import ask

    return _embedding_bench(
        "ask",
        args,
        settings,
        lambda embedder: ask.run(args.data, embedder, progress),
        lambda bench: ask.format_report(bench, detail=args.detail),
    )


def _embedding_bench(
    name: str,
    args: argparse.Namespace,
    settings: Settings,
    run: Callable[[Any], Any],
    report: Callable[[Any], str],
) -> int:
    """A bench that needs the embedding model: its figures, or why it could not run."""
    from memo_tui.core.embed.embedder import EmbeddingUnavailable, embedder_for

    embedder = embedder_for(settings)
    try:
        bench = run(embedder)
    except EmbeddingUnavailable as error:
        warn(f"memo bench {name} needs the embedding model: {error}")
        return EXIT_REFUSED
    except FileNotFoundError as error:
        warn(f"memo bench {name}: {error}")
        return EXIT_USAGE
    _show(args, bench, report)
    return EXIT_OK
