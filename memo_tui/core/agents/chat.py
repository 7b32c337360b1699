"""The Ask pane's agent: a conversation answered from read-only tools.

Each fact a tool returns is labelled once per conversation ([1], [2], ... in the order first
seen), and the model cites those labels. As in the ask pipeline, any [n] that names no fact
the tools returned is removed as the answer streams and again from the whole answer, so a
citation always opens a fact that exists. Each question is one recorded run (agent "chat"):
its turns, tool calls and cost are kept like any other run's.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memo_tui.core.agents.agents import brief, chat
from memo_tui.core.agents.outcome import Outcome
from memo_tui.core.agents.runtime import AgentRun
from memo_tui.core.agents.tools import SearchContext
from memo_tui.core.llm import select
from memo_tui.core.llm.run import InThread
from memo_tui.core.llm.types import Message
from memo_tui.core.recall.answer import AnswerDelta
from memo_tui.core.recall.citations import CitationStream, check_citations
from memo_tui.core.recall.claims import unsupported_claim

if TYPE_CHECKING:
    from memo_tui.core.services import Services
    from store import FactRecord


@dataclass(frozen=True)
class Looking:
    """The agent called a tool (what it is looking up)."""

    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class Source:
    """Label [n] was cited for the first time in this answer."""

    n: int
    fact: FactRecord


@dataclass(frozen=True)
class Replied:
    """The finished answer, its citations checked."""

    answer: str
    sources: dict[int, FactRecord]  # label -> fact, for every label the answer cites
    cited: list[int]
    removed_citations: int
    run_id: int
    status: str
    error: str | None = None


ChatEvent = Looking | AnswerDelta | Source | Replied


class Labels:
    """The facts tools returned in one conversation, labelled in the order first seen."""

    def __init__(self) -> None:
        self.keys: list[int] = []
        self._numbers: dict[int, int] = {}
        self._lock = threading.Lock()  # reads of one turn run side by side

    def __len__(self) -> int:
        return len(self.keys)

    def label(self, result: dict[str, Any]) -> dict[str, Any]:
        """The result with `"cite": "[n]"` beside every fact id in it."""
        with self._lock:
            return self._walk(result)  # type: ignore[no-any-return]

    def _walk(self, value: Any) -> Any:
        if isinstance(value, dict):
            marked = {k: self._walk(v) for k, v in value.items()}
            key = value.get("fact_id")
            if isinstance(key, int) and not isinstance(key, bool):
                marked["cite"] = f"[{self._number(key)}]"
            return marked
        if isinstance(value, list):
            return [self._walk(v) for v in value]
        return value

    def _number(self, key: int) -> int:
        if key not in self._numbers:
            self.keys.append(key)
            self._numbers[key] = len(self.keys)
        return self._numbers[key]


@dataclass
class Chat:
    """One conversation: its questions and answers so far, and its labelled facts."""

    services: Services
    history: list[Message] = field(default_factory=list)
    labels: Labels = field(default_factory=Labels)

    def reset(self) -> None:
        self.history.clear()
        self.labels = Labels()

    async def ask(self, question: str) -> AsyncIterator[ChatEvent]:
        """Looking events as the agent uses its tools, the answer as it streams (text of a
        turn that then calls tools is dropped: it was thinking aloud), each source as it is
        first cited, then Replied."""
        services, settings = self.services, self.services.settings
        offline = services.provider.name == "offline"
        model = "offline" if offline else select.model_for(settings, "chat")
        spec = chat(question, model, settings.agent_context_limit_tokens)
        # The run works in a thread of its own (its SQL and writes never hold the caller's
        # loop up, the app's); what it says comes back through this queue.
        loop = asyncio.get_running_loop()
        events: asyncio.Queue[ChatEvent | None] = asyncio.Queue()
        checker = CitationStream(0)
        turn: list[str] = []  # raw text of the turn being written

        def put(event: ChatEvent | None) -> None:
            loop.call_soon_threadsafe(events.put_nowait, event)

        def on_text(delta: str) -> None:
            turn.append(delta)
            checker.count = len(self.labels)
            shown, fresh = checker.feed(delta)
            if shown:
                put(AnswerDelta(shown))
            for n in fresh:
                put(Source(n, self._fact(n)))

        def on_event(seq: int, kind: str, payload: dict[str, Any]) -> None:
            nonlocal checker
            if kind == "tool_call":
                turn.clear()
                checker = CitationStream(len(self.labels))
                put(Looking(payload["name"], payload["arguments"]))

        embedder = None if services.embed.unavailable else services.embed.embedder
        run = AgentRun(
            services.store,
            services.provider,
            spec,
            on_event,
            deadline_s=settings.answer_deadline_s,
            prices=services.ledger.prices,
            search=SearchContext(embedder, services.vectors),
            on_text=on_text,
            label=self.labels.label,
        )
        history = tuple(self.history)
        job = InThread(lambda: run.run(brief(spec), history))
        task = asyncio.ensure_future(job.result())
        task.add_done_callback(lambda _: events.put_nowait(None))
        try:
            while (event := await events.get()) is not None:
                yield event
            outcome = task.result()
        finally:
            if not task.done():  # the reader stopped (a cancelled answer): stop the run
                job.cancel()
        said = "".join(turn)
        events_left, reply = await asyncio.to_thread(self._finish, checker, said, outcome, offline)
        if outcome.status == "completed":
            # (here, not in the thread: a conversation reset meanwhile stays reset)
            self.history += [Message("user", question), Message("assistant", reply.answer)]
        for event in events_left:
            yield event
        yield reply

    def _finish(
        self, checker: CitationStream, said: str, outcome: Outcome, offline: bool
    ) -> tuple[list[ChatEvent], Replied]:
        """The end of an answer (in a thread: it reads the cited facts): what the checker
        held back, a warning when it states what its sources do not, then the reply."""
        shown, fresh = checker.finish()
        events: list[ChatEvent] = [AnswerDelta(shown)] if shown else []
        events += [Source(n, self._fact(n)) for n in fresh]
        answer, removed, cited = check_citations(said, len(self.labels))
        facts = [self._fact(n) for n in range(1, len(self.labels) + 1)] if not offline else []
        unsupported = unsupported_claim(answer, facts) if facts else ""
        if unsupported:  # said, streamed already: marked, so no one takes it as the record
            warning = f"\n\n[memo: {unsupported}; check the sources before relying on this]"
            answer += warning
            events.append(AnswerDelta(warning))
        cited_facts = {n: self._fact(n) for n in cited}
        reply = Replied(
            answer, cited_facts, cited, removed, outcome.run_id, outcome.status, outcome.error
        )
        return events, reply

    def _fact(self, n: int) -> FactRecord:
        key = self.labels.keys[n - 1]
        return self.services.store.facts.by_keys([key])[key]
