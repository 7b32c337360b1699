"""`memo ask`: a question answered from the meetings, streamed, with its numbered sources;
`--all` quotes every fact a listing question ("what does Tom owe?") allows."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from memo_tui import render, render_answer
from memo_tui.core.safety import sanitize
from memo_tui.render import warn

if TYPE_CHECKING:
    from memo_tui.core.services import Services

EXIT_OK, EXIT_REFUSED, EXIT_USAGE = 0, 1, 2


def add_parser(commands: Any, common: argparse.ArgumentParser) -> None:
    ask = commands.add_parser("ask", parents=[common], help="ask your meetings a question")
    ask.add_argument("question", metavar="QUESTION")
    ask.add_argument(
        "--all",
        dest="every",
        action="store_true",
        help="quote every fact a listing question allows ('what does Tom owe?': all of them)",
    )


def ask(args: argparse.Namespace, services: Services) -> int:
    import asyncio

    if not args.question.strip():
        warn('memo ask: ask a question, e.g. memo ask "why did we pick Postgres?"')
        return EXIT_USAGE

    from memo_tui.core.llm.errors import LLMError
    from memo_tui.core.recall.answer import AnswerDelta, Answered, AskResult

    events = services.ask(args.question, every=args.every)

    async def consume() -> AskResult:
        async for event in events:
            if isinstance(event, AnswerDelta) and not args.json:
                sys.stdout.write(sanitize(event.text))  # the answer streams in
                sys.stdout.flush()
            elif isinstance(event, Answered):
                return event.result
        raise AssertionError("ask_stream always ends with Answered")

    try:
        result = asyncio.run(consume())
    except LLMError as error:
        if not args.json:
            print()
        warn(f"memo ask: {error}")
        return EXIT_REFUSED
    if args.json:
        cited = [hit.fact for hit in result.citations]
        render.emit_json(render_answer.ask_json(result, services.store.facts.people_of(cited)))
    else:
        print()
        render_answer.print_sources(result)
        render_answer.print_more(result, args.question, args.every)
    return EXIT_OK
