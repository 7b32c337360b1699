"""The chat agent behind the Ask pane: a conversation answered from read-only tools, facts
labelled once per conversation, and every citation checked like the ask pipeline's; offline
(a scripted search) and against a streaming model on the fake Messages API."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from support.fakes import anthropic_api
from support.fakes.server import FakeServer

from memo_tui.core.agents.agents import CHAT_TOOLS
from memo_tui.core.agents.chat import Chat, ChatEvent, Labels, Looking, Replied, Source
from memo_tui.core.agents.service import UnknownEntity, resume_run, run_agent
from memo_tui.core.agents.tools import TOOLS
from memo_tui.core.llm.anthropic_provider import AnthropicProvider
from memo_tui.core.llm.base import RetryPolicy
from memo_tui.core.recall.answer import AnswerDelta
from memo_tui.core.services import Services
from memo_tui.settings import Settings

# Every test here that reaches a store runs on SQLite and on PostgreSQL (conftest).
BOTH_STORES = True


def converse(chat: Chat, question: str) -> list[ChatEvent]:
    async def collect() -> list[ChatEvent]:
        return [event async for event in chat.ask(question)]

    return asyncio.run(collect())


def reply_of(events: list[ChatEvent]) -> Replied:
    [reply] = [e for e in events if isinstance(e, Replied)]
    return reply


def test_the_chat_tools_only_read() -> None:
    assert not any(TOOLS[name].mutating for name in CHAT_TOOLS)


def test_labels_number_each_fact_once_per_conversation() -> None:
    labels = Labels()
    first = labels.label({"facts": [{"fact_id": 70, "text": "a"}, {"fact_id": 9, "text": "b"}]})
    again = labels.label({"decided": [{"fact_id": 9}, {"fact_id": 12}], "fact_id": True})
    assert [f["cite"] for f in first["facts"]] == ["[1]", "[2]"]
    assert [d["cite"] for d in again["decided"]] == ["[2]", "[3]"]
    assert "cite" not in again  # a flag is not a fact id
    assert labels.keys == [70, 9, 12]


def test_offline_chat_answers_a_follow_up_with_the_conversation(services: Services) -> None:
    chat = Chat(services)
    first = converse(chat, "who owns the rollback runbook?")
    reply = reply_of(first)
    assert reply.status == "completed" and reply.answer.startswith("From your meetings:")
    assert "rollback runbook" in reply.answer and reply.cited
    shown = "".join(e.text for e in first if isinstance(e, AnswerDelta))
    assert reply.answer in shown  # the answer streamed in
    assert [e.name for e in first if isinstance(e, Looking)] == ["search_facts"]
    assert {e.n for e in first if isinstance(e, Source)} == set(reply.cited)
    assert all(reply.sources[n].fact_key == chat.labels.keys[n - 1] for n in reply.cited)
    follow = converse(chat, "and when is it due?")
    [looked] = [e for e in follow if isinstance(e, Looking)]
    assert "rollback runbook" in looked.arguments["query"]  # read with the question before
    answer = reply_of(follow).answer
    assert "(due 2026-10-14)" in answer
    assert [m.role for m in chat.history] == ["user", "assistant"] * 2
    runs = services.store.runs.all()
    assert [(r.agent_type, r.status) for r in runs] == [("chat", "completed")] * 2
    chat.reset()
    assert chat.history == [] and len(chat.labels) == 0


def test_the_ask_pane_says_how_many_more_and_shows_all_when_asked(services: Services) -> None:
    chat = Chat(services)
    first = reply_of(converse(chat, "what does Tom owe?")).answer
    assert first.splitlines()[-1] == '(5 more action items for Tom Adeyemi: say "show all")'
    every = converse(chat, "show all")
    [looked] = [e for e in every if isinstance(e, Looking)]
    assert looked.arguments == {"query": "what does Tom owe?", "limit": 10, "every": True}
    answer = reply_of(every).answer
    quoted = [line for line in answer.splitlines() if line.startswith("- ")]
    assert len(quoted) == 8 and all("(owner: Tom Adeyemi)" in line for line in quoted)
    assert "show all" not in answer


def test_nothing_found_says_so(services: Services) -> None:
    reply = reply_of(converse(Chat(services), "zygomorphic quasar budgets"))
    assert reply.status == "completed" and reply.answer.startswith("No record found")
    assert reply.cited == []


def model_chat(services: Services, server: FakeServer) -> Chat:
    services.provider = AnthropicProvider(
        "test-key", server.url, services.ledger, RetryPolicy(2, 0.01, 0.05)
    )
    services.settings = Settings(provider="anthropic", anthropic_api_key="k")
    return Chat(services)


@pytest.mark.parametrize(
    ("question", "lead"),
    [
        # a replaced decision: the one that holds leads, the old one is told after it
        ("How are we building invoicing now?", "- Let's go with Stripe Billing instead of"),
        # nothing about it: no record, and the closest facts said not to answer it
        ("What did we decide about the office lease?", 'No record of "office lease"'),
    ],
)
def test_the_ask_pane_answers_as_memo_ask_does(
    services: Services, question: str, lead: str
) -> None:
    """The chat agent's search is the ask pipeline's: the same facts in the same order,
    what holds now first and the gate's "no record", so the app and the CLI agree."""
    from memo_tui.core.recall.answer import ask

    chat = reply_of(converse(Chat(services), question)).answer
    cli = ask(services.store, None, question).answer
    assert chat.splitlines()[0] == cli.splitlines()[0]
    assert lead in chat.split("\n", 2)[0] + chat.split("\n", 2)[1]
    if "now" in question:
        first = chat.splitlines()[1]
        assert "(changed on 2026-10-06; before: For now we'll build invoicing in-house." in first
        assert first.index("Stripe") < first.index("in-house")


def test_a_streaming_model_cites_what_its_tools_returned(services: Services) -> None:
    with FakeServer() as server:
        chat = model_chat(services, server)
        server.push(
            anthropic_api.stream(
                ["Let me look."], tool=("search_facts", {"query": "Postgres"}), tool_id="toolu_a"
            ),
            anthropic_api.stream(
                ["We chose managed ", "Postgres [1", "] for its backups [", "40]."]
            ),
        )
        events = converse(chat, "why Postgres?")
        second = server.seen[1].body
        server.push(anthropic_api.stream(["As I said, backups [1]."]))
        follow = reply_of(converse(chat, "remind me why?"))
        third = server.seen[2].body
    reply = reply_of(events)
    assert reply.status == "completed"
    assert reply.answer == "We chose managed Postgres [1] for its backups."
    assert reply.removed_citations == 1 and reply.cited == [1]  # [40] named no fact
    streamed = "".join(e.text for e in events if isinstance(e, AnswerDelta))
    assert "[40]" not in streamed and "Postgres [1]" in streamed
    assert reply.sources[1].fact_key == chat.labels.keys[0]
    assert "Postgres" in reply.sources[1].text
    assert second["stream"] is True
    assert {t["name"] for t in second["tools"]} == set(CHAT_TOOLS)  # read-only tools only
    results = [
        block
        for message in second["messages"]
        if isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    ]
    [result] = results
    content = result["content"]
    text = content if isinstance(content, str) else content[0]["text"]
    assert json.loads(text)["facts"][0]["cite"] == "[1]"  # the model saw the label
    assert follow.answer == "As I said, backups [1]." and follow.cited == [1]
    said: list[Any] = [m["content"] for m in third["messages"]]
    assert said[:2] == ["why Postgres?", "We chose managed Postgres [1] for its backups."]
    assert said[-1] == "remind me why?"
    [run, _] = services.store.runs.all()
    assert run.agent_type == "chat" and run.cost_microdollars > 0


def test_each_answer_numbers_its_own_sources_from_one(services: Services) -> None:
    """The model cites the conversation's labels (a follow-up may cite what the first
    answer found); the reader sees each answer's sources as [1], [2], … in the order it
    cites them, and the model reads its earlier answers as it wrote them."""
    with FakeServer() as server:
        chat = model_chat(services, server)
        server.push(
            anthropic_api.stream(["Looking."], tool=("search_facts", {"query": "Postgres"})),
            anthropic_api.stream(["Managed Postgres [1]."]),
        )
        converse(chat, "why Postgres?")
        before = len(chat.labels)
        new, newer = before + 1, before + 2
        server.push(
            anthropic_api.stream(["Looking."], tool=("search_facts", {"query": "rollback"})),
            anthropic_api.stream(
                [f"The runbook [{newer}", f"] and its owner [{new}], ", "as [1]."]
            ),
        )
        events = converse(chat, "and the rollback?")
        third = server.seen[3].body
    assert len(chat.labels) >= newer  # the second search found facts of its own
    reply = reply_of(events)
    assert reply.answer == "The runbook [1] and its owner [2], as [3]."
    assert reply.cited == [1, 2, 3]
    streamed = "".join(e.text for e in events if isinstance(e, AnswerDelta))
    assert "The runbook [1] and its owner [2], as [3]." in streamed
    labels = chat.labels.keys
    wanted = {1: labels[newer - 1], 2: labels[new - 1], 3: labels[0]}
    assert {n: f.fact_key for n, f in reply.sources.items()} == wanted
    assert {e.n: e.fact.fact_key for e in events if isinstance(e, Source)} == wanted
    assert chat.history[-1].text == f"The runbook [{newer}] and its owner [{new}], as [1]."
    assert third["messages"][1]["content"] == "Managed Postgres [1]."


def test_a_chat_answer_stating_a_number_its_sources_lack_is_marked(services: Services) -> None:
    with FakeServer() as server:
        chat = model_chat(services, server)
        server.push(
            anthropic_api.stream(
                ["Let me look."], tool=("search_facts", {"query": "Postgres"}), tool_id="toolu_a"
            ),
            anthropic_api.stream(["We moved 75 services to Postgres [1]."]),
        )
        events = converse(chat, "why Postgres?")
    reply = reply_of(events)
    assert reply.answer.startswith("We moved 75 services to Postgres [1].")
    assert "[memo: 75 is in none of [1]; check the sources" in reply.answer
    streamed = "".join(e.text for e in events if isinstance(e, AnswerDelta))
    assert "75 is in none of [1]" in streamed


def test_chat_is_asked_not_run_on_an_entity_and_not_resumed(services: Services) -> None:
    with pytest.raises(UnknownEntity, match="memo run chat QUESTION"):
        run_agent(services, "chat", "Beacon")
    reply = reply_of(converse(Chat(services), "Postgres"))
    services.store.runs.set_status(reply.run_id, "interrupted", "killed")
    with pytest.raises(UnknownEntity, match="ask it again"):
        resume_run(services, reply.run_id)


def test_the_cli_chats_once(memo) -> None:  # type: ignore[no-untyped-def]
    extra = {"MEMO_PROVIDER": "offline"}
    done = memo(
        "--demo", "run", "chat", "who owns the rollback runbook?", "--json", extra_env=extra
    )
    assert done.code == 0, done.stderr
    answer = done.json()
    assert answer["agent"] == "chat" and answer["status"] == "completed"
    assert answer["tool_calls"] == 1 and answer["writes"] == []
    assert answer["sources"][0]["n"] == 1 and "rollback runbook" in answer["sources"][0]["text"]
    assert "[1]" in answer["answer"]
    text = memo("--demo", "run", "chat", "who owns the rollback runbook?", extra_env=extra)
    assert text.code == 0 and "[1] action_item · Weekly engineering sync lines" in text.stdout


def test_the_run_works_off_the_callers_loop(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app's loop only reads the events: the run (its SQL and its writes) is in a thread
    of its own, so a busy store never freezes the app."""
    import threading

    from memo_tui.core.agents import chat as chat_module

    where: list[int] = []
    run = chat_module.AgentRun.run

    async def recorded(self: Any, *args: Any) -> Any:
        where.append(threading.get_ident())
        return await run(self, *args)

    monkeypatch.setattr(chat_module.AgentRun, "run", recorded)
    events = converse(Chat(services), "why did we pick Postgres?")
    assert reply_of(events).status == "completed"
    assert where and where[0] != threading.get_ident()


def test_a_run_in_its_thread_is_cancelled_where_it_is() -> None:
    """Stopping an answer (ctrl+x, a new chat) stops the run at once, not after its turn."""
    import time

    from memo_tui.core.llm.run import InThread

    started = asyncio.Event()

    async def main() -> float:
        loop = asyncio.get_running_loop()

        async def slow() -> None:
            loop.call_soon_threadsafe(started.set)
            await asyncio.sleep(30)

        job = InThread(slow)
        task = asyncio.ensure_future(job.result())
        await started.wait()
        began = time.monotonic()
        job.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return time.monotonic() - began

    assert asyncio.run(main()) < 5


def test_a_finished_run_in_its_thread_ignores_a_late_cancel() -> None:
    """The reader may stop just as the run ends: that is no error (its loop is closed)."""
    from memo_tui.core.llm.run import InThread

    async def quick() -> int:
        return 7

    async def main() -> int:
        job = InThread(quick)
        done = await job.result()
        job.cancel()  # after the end: nothing to cancel, and no closed loop to call
        return done

    assert asyncio.run(main()) == 7


def test_cancelling_the_wait_cancels_the_run_in_its_thread() -> None:
    """The answer's worker is cancelled (ctrl+x): the run it waits on stops too."""
    import threading

    from memo_tui.core.llm.run import InThread

    running, stopped = threading.Event(), threading.Event()

    async def slow() -> None:
        running.set()
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            stopped.set()
            raise

    async def main() -> None:
        waiting = asyncio.ensure_future(InThread(slow).result())
        assert await asyncio.to_thread(running.wait, 5)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting

    asyncio.run(main())
    assert stopped.wait(5)
