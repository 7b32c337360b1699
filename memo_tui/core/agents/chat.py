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
from collections.abc import AsyncIterator, Callable
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
from memo_tui.core.recall.citations import CITATION, CitationStream, check_citations
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
    """Source [n] of this answer was cited for the first time."""

    n: int
    fact: FactRecord


@dataclass(frozen=True)
class Replied:
    """The finished answer, its citations checked."""

    answer: str  # its sources numbered from [1], in the order it cites them
    sources: dict[int, FactRecord]  # number -> fact, for every number the answer cites
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


class Numbers:
    """One answer's sources numbered from [1] in the order it first cites them: the model
    cites the conversation's labels (a follow-up may cite what an earlier answer found),
    the reader sees each answer's own numbers."""

    def __init__(self) -> None:
        self.of: dict[int, int] = {}  # conversation label -> this answer's number

    def number(self, label: int) -> int:
        return self.of.setdefault(label, len(self.of) + 1)

    def renumbered(self, text: str) -> str:
        """`text` (checked: every [n] names a label) with this answer's numbers."""
        return CITATION.sub(lambda m: f"[{self.number(int(m.group(1)))}]", text)


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
        writing = _Writing(self, lambda e: loop.call_soon_threadsafe(events.put_nowait, e))
        embedder = None if services.embed.unavailable else services.embed.embedder
        run = AgentRun(
            services.store,
            services.provider,
            spec,
            writing.event,
            deadline_s=settings.answer_deadline_s,
            prices=services.ledger.prices,
            search=SearchContext(embedder, services.vectors),
            on_text=writing.text,
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
        events_left, reply, labelled = await asyncio.to_thread(
            self._finish, writing, outcome, offline
        )
        if outcome.status == "completed":
            # (here, not in the thread: a conversation reset meanwhile stays reset). The
            # model reads its answer as it wrote it, citing the conversation's labels.
            self.history += [Message("user", question), Message("assistant", labelled)]
        for event in events_left:
            yield event
        yield reply

    def _finish(
        self, writing: _Writing, outcome: Outcome, offline: bool
    ) -> tuple[list[ChatEvent], Replied, str]:
        """The end of an answer (in a thread: it reads the cited facts): what the checker
        held back, a warning when it states what its sources do not, then the reply; and
        the answer as the model wrote it (citing the conversation's labels)."""
        said, numbers = "".join(writing.turn), writing.numbers
        shown, fresh = writing.checker.finish()
        events: list[ChatEvent] = [AnswerDelta(numbers.renumbered(shown))] if shown else []
        events += [Source(numbers.number(n), self._fact(n)) for n in fresh]
        labelled, removed, cited = check_citations(said, len(self.labels))
        answer = numbers.renumbered(labelled)
        facts = [self._fact(n) for n in range(1, len(self.labels) + 1)] if not offline else []
        unsupported = unsupported_claim(labelled, facts) if facts else ""
        if unsupported:  # said, streamed already: marked, so no one takes it as the record
            warning = f"\n\n[memo: {unsupported}; check the sources before relying on this]"
            answer += warning
            events.append(AnswerDelta(warning))
        cited_facts = {numbers.number(n): self._fact(n) for n in cited}
        reply = Replied(
            answer,
            cited_facts,
            [numbers.number(n) for n in cited],
            removed,
            outcome.run_id,
            outcome.status,
            outcome.error,
        )
        return events, reply, labelled

    def _fact(self, n: int) -> FactRecord:
        key = self.labels.keys[n - 1]
        return self.services.store.facts.by_keys([key])[key]


class _Writing:
    """The answer as the model writes it: each delta checked (a citation naming no fact
    is dropped) and renumbered for the reader, each source told when first cited. A turn
    that then calls a tool was thinking aloud: it is dropped."""

    def __init__(self, chat: Chat, put: Callable[[ChatEvent], object]) -> None:
        self.chat, self.put = chat, put
        self.checker = CitationStream(0)
        self.turn: list[str] = []  # raw text of the turn being written
        self.numbers = Numbers()

    def text(self, delta: str) -> None:
        self.turn.append(delta)
        self.checker.count = len(self.chat.labels)
        shown, fresh = self.checker.feed(delta)
        if shown:
            self.put(AnswerDelta(self.numbers.renumbered(shown)))
        for n in fresh:
            self.put(Source(self.numbers.number(n), self.chat._fact(n)))

    def event(self, seq: int, kind: str, payload: dict[str, Any]) -> None:
        if kind == "tool_call":
            self.turn.clear()
            self.checker = CitationStream(len(self.chat.labels))
            self.numbers = Numbers()
            self.put(Looking(payload["name"], payload["arguments"]))
