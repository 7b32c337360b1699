"""The CLI's agent and concept commands: `memo run AGENT ENTITY`, `memo runs`, `memo concepts`,
`memo concept add|show` (projects: cli_projects)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memo_tui import render
from memo_tui.cli_args import record_id
from memo_tui.cli_projects import print_sections, section_json
from memo_tui.core.safety import sanitize, sanitize_line
from memo_tui.core.words import plural
from memo_tui.render import warn

if TYPE_CHECKING:
    from memo_tui.core.agents.proposals import Proposal
    from memo_tui.core.agents.runtime import Approver
    from memo_tui.core.services import Services

EXIT_OK, EXIT_REFUSED, EXIT_USAGE = 0, 1, 2


# Each agent `memo run` starts: what ENTITY names, and what it does (core's AGENTS, in the
# order a newcomer meets them; a test holds the two together).
RUN_AGENTS = {
    "project_compile": ("PROJECT", "writes the project's living document from its facts"),
    "collector": ("PROJECT", "finds meetings about the project not linked to it (asks first)"),
    "person_enrich": ("PERSON", "a person's role, topics, commitments and profile"),
    "concept_compile": ("CONCEPT", "a concept's living document, from the facts about it"),
    "digest": ("DAY", "a week's decisions and open items (a day, or last-week)"),
    "chat": ("QUESTION", "the Ask pane's agent, once: an answer with its sources"),
}


def add_parsers(commands: Any, common: argparse.ArgumentParser) -> None:
    run = commands.add_parser(
        "run",
        parents=[common],
        help="run an agent: project_compile|collector PROJECT, person_enrich PERSON, "
        "concept_compile CONCEPT, digest DAY, chat QUESTION",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="agents:\n"
        + "\n".join(f"  {a:<16}{e:<10}{what}" for a, (e, what) in RUN_AGENTS.items()),
    )
    run.add_argument("agent", metavar="AGENT", nargs="?", help="one of the agents below")
    run.add_argument("entity", metavar="ENTITY", nargs="?", help="what it works on")
    run.add_argument("--resume", type=record_id, metavar="RUN_ID", help="go on with a cut-off run")
    run.add_argument(
        "--approve",
        choices=("all", "none", "ask"),
        default="ask",
        help="an agent's proposals: accept all, reject all, or ask (in a terminal)",
    )
    commands.add_parser("runs", parents=[common], help="agent runs, newest first")
    commands.add_parser("concepts", parents=[common], help="concepts and their documents")
    concept = commands.add_parser("concept", help="add a concept, or show its living document")
    steps = concept.add_subparsers(dest="concept_command", metavar="ACTION", required=True)
    steps.add_parser("add", parents=[common], help="add a concept").add_argument(
        "name", metavar="NAME"
    )
    steps.add_parser("show", parents=[common], help="a concept's living document").add_argument(
        "name", metavar="NAME"
    )


def _run(args: argparse.Namespace, services: Services) -> int:
    from memo_tui.core.agents.outcome import what_changed
    from memo_tui.core.agents.service import UnknownEntity, resume_run, run_agent

    def follow(seq: int, kind: str, payload: dict[str, Any]) -> None:
        if not args.json:
            print(
                sanitize_line(f"[{seq}] {kind} {json.dumps(payload, ensure_ascii=False)}")[:300],
                file=sys.stderr,
            )

    if (args.resume is None) == (args.agent is None or args.entity is None):
        warn("memo run: give AGENT and ENTITY, or --resume RUN_ID")
        return EXIT_USAGE
    if args.agent == "chat" and args.resume is None:
        return _chat(args, services)
    try:
        if args.resume is not None:
            outcome = resume_run(services, args.resume, follow, _approver(args.approve))
        else:
            outcome = run_agent(services, args.agent, args.entity, follow, _approver(args.approve))
    except UnknownEntity as error:
        warn(f"memo: {error}")
        return EXIT_USAGE if args.resume is None else EXIT_REFUSED  # (a run not to go on with)
    run = services.store.runs.get(outcome.run_id)
    asked = json.loads(run.spec_json) if run else {}
    payload = {
        "run_id": outcome.run_id,
        "agent": run.agent_type if run else args.agent,
        "entity": asked.get("entity", args.entity),
        "status": outcome.status,
        "steps": outcome.steps,
        "tool_calls": outcome.tool_calls,
        "writes": outcome.writes,
        "repair_turns": outcome.repair_turns,
        "cost_microdollars": run.cost_microdollars if run else 0,
        "error": outcome.error,
    }
    if args.json:
        render.emit_json(payload)
    else:
        print(
            sanitize_line(
                f"run {outcome.run_id}: {outcome.status}, {outcome.steps} steps, "
                f"{plural(outcome.tool_calls, 'tool call')}, {what_changed(outcome)}"
                + (f"; {outcome.error}" if outcome.error else "")
            )
        )
    return EXIT_OK if outcome.status == "completed" else EXIT_REFUSED


def _chat(args: argparse.Namespace, services: Services) -> int:
    """`memo run chat QUESTION`: the Ask pane's agent, once; the answer and its sources."""
    from memo_tui.core.agents.chat import Chat, Looking, Replied
    from memo_tui.core.llm.run import run_sync

    async def answer() -> Replied:
        async for event in Chat(services).ask(args.entity):
            if isinstance(event, Looking) and not args.json:
                said = json.dumps(event.arguments, ensure_ascii=False)
                print(sanitize_line(f"looking: {event.name} {said}")[:300], file=sys.stderr)
            elif isinstance(event, Replied):
                return event
        raise AssertionError("a chat always ends with its reply")

    reply = run_sync(answer())
    run = services.store.runs.get(reply.run_id)
    sources: list[dict[str, Any]] = [
        {
            "n": n,
            "fact_id": fact.fact_key,
            "type": fact.fact_type,
            "text": fact.text,
            "meeting": fact.capture_title,
            "capture_id": fact.capture_id,
            "lines": [fact.line_start, fact.line_end] if fact.line_start else None,
        }
        for n, fact in reply.sources.items()
    ]
    if args.json:
        render.emit_json(
            {
                "run_id": reply.run_id,
                "agent": "chat",
                "entity": args.entity,
                "status": reply.status,
                "steps": run.steps if run else 0,
                "tool_calls": run.tool_calls if run else 0,
                "writes": [],
                "repair_turns": 0,
                "cost_microdollars": run.cost_microdollars if run else 0,
                "error": reply.error,
                "answer": reply.answer,
                "sources": sources,
            }
        )
    else:
        print(sanitize(reply.answer))
        for source in sources:
            lines = source["lines"]
            where = f"lines {lines[0]}-{lines[1]}" if lines else ""
            print(sanitize_line(f"[{source['n']}] {source['type']} · {source['meeting']} {where}"))
        if reply.error:
            warn(f"memo: {reply.error}")
    return EXIT_OK if reply.status == "completed" else EXIT_REFUSED


def _approver(mode: str) -> Approver:
    """--approve: all, none, or ask on the terminal (no terminal: the proposal is skipped)."""

    async def decide(proposal: Proposal) -> str:
        if mode != "ask":
            return "accepted" if mode == "all" else "rejected"
        if not sys.stdin.isatty():
            return "skipped"
        from memo_tui.core.agents.proposals import described

        said = described(proposal.arguments, proposal.evidence)
        print(
            "\n".join(said)  # (each line sanitized already)
            + f"\n  accept? [y/N] ({proposal.timeout_s:g} s) ",
            end="",
            file=sys.stderr,
            flush=True,
        )
        answer = await _line_from_stdin()
        return "accepted" if answer.strip().lower() in ("y", "yes") else "rejected"

    return decide


async def _line_from_stdin() -> str:
    """A line typed at the terminal, read on a daemon thread (a timed-out question must not
    keep the process from exiting)."""
    import asyncio
    import threading

    loop = asyncio.get_running_loop()
    typed: asyncio.Future[str] = loop.create_future()

    def read() -> None:
        line = sys.stdin.readline()

        def answer() -> None:
            if not typed.done():
                typed.set_result(line)

        loop.call_soon_threadsafe(answer)

    threading.Thread(target=read, daemon=True).start()
    return await typed


def _runs(args: argparse.Namespace, services: Services) -> int:
    from memo_tui.core.agents.service import interrupt_orphans

    interrupt_orphans(services)  # a run whose process died says so
    runs = services.store.runs.all()
    if args.json:
        render.emit_json({"runs": [vars(r) for r in runs]})
        return EXIT_OK
    for r in runs:
        print(
            sanitize_line(
                f"{r.id}  {r.agent_type}  {r.status}  {r.started_at[:16]}  "
                f"${r.cost_microdollars / 1e6:.4f}" + (f"  {r.error}" if r.error else "")
            )
        )
    if not runs:
        print("No runs yet. Try: memo run project_compile PROJECT")
    return EXIT_OK


def _concepts(args: argparse.Namespace, services: Services) -> int:
    found = services.store.concepts.all()
    if args.json:
        render.emit_json({"concepts": [vars(c) for c in found]})
        return EXIT_OK
    if not found:
        print('No concepts yet. Add one: memo concept add "event sourcing"')
    for c in found:
        state = f"{c.sections} sections" if c.sections else "no document yet"
        print(sanitize_line(f"{c.name}: {state}"))
    return EXIT_OK


def _concept(args: argparse.Namespace, services: Services) -> int:
    from memo_tui.core.projects import ProjectRefused, ProjectService

    store = services.store
    if args.concept_command == "add":
        try:
            concept_id = ProjectService(store).add_concept(args.name)
        except ProjectRefused as error:
            warn(f"memo: {error}")
            return EXIT_REFUSED
        name = " ".join(args.name.split())
        if args.json:
            render.emit_json({"id": concept_id, "name": name})
        else:
            print(sanitize_line(f"added concept {name} (id {concept_id})"))
            print(sanitize_line(f"write its document: memo run concept_compile {name!r}"))
        return EXIT_OK
    wanted = " ".join(args.name.split()).lower()
    found = next((c for c in store.concepts.all() if c.name.lower() == wanted), None)
    if found is None:
        warn(f"memo: no concept called {args.name!r}; memo concepts lists them")
        return EXIT_REFUSED
    sections = store.sections.all("concept", found.id)
    if args.json:
        render.emit_json({"name": found.name, "sections": [section_json(s) for s in sections]})
        return EXIT_OK
    print(sanitize_line(found.name))
    if not sections:
        print(f"No living document yet: memo run concept_compile {found.name!r}")
    print_sections(sections)
    return EXIT_OK


HANDLERS: dict[str, Callable[[argparse.Namespace, Services], int]] = {
    "concepts": _concepts,
    "concept": _concept,
    "run": _run,
    "runs": _runs,
}
