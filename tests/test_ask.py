"""Ask: filters from the question, hybrid retrieval, answers whose citations are checked."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator

import pytest
from conftest import DEMO
from fakes import anthropic_api as api
from fakes.server import FakeServer

from memo_tui.core.embed import FastEmbedder
from memo_tui.core.llm.anthropic_provider import AnthropicProvider
from memo_tui.core.recall.answer import (
    NO_FACTS,
    AnswerDelta,
    Answered,
    AskEvent,
    Cited,
    ask,
    ask_stream,
    check_citations,
)
from memo_tui.core.recall.filters import parse_question, with_entities
from store import Store

TODAY = dt.date(2026, 11, 29)


@pytest.mark.parametrize(
    ("question", "since", "until", "types"),
    [
        ("why did we pick Postgres?", None, None, ("decision",)),
        ("who owns the Stripe setup?", None, None, ("action_item",)),
        ("what was decided last month?", "2026-10-01", "2026-10-31", ("decision",)),
        ("anything about Bergen this week", "2026-11-23", "2026-11-29", ()),
        ("what happened in March", "2026-03-01", "2026-03-31", ()),
        ("decisions since 2026-10-10", "2026-10-10", None, ("decision",)),
        ("todos in Q3", "2026-07-01", "2026-09-30", ("action_item",)),
    ],
)
def test_rule_filters(
    question: str, since: str | None, until: str | None, types: tuple[str, ...]
) -> None:
    filters = parse_question(question, TODAY)
    assert (filters.since, filters.until, filters.fact_types) == (since, until, types)


def test_why_questions_get_cited_decisions(demo: Store, embedder: FastEmbedder) -> None:
    result = ask(demo, embedder, "why did we pick Postgres?", today=TODAY)
    assert result.citations[0].fact.fact_type == "decision"
    assert "Postgres" in result.answer and "[1]" in result.answer
    assert result.cited and result.removed_citations == 0
    assert result.mode == "hybrid"


def test_no_facts_says_so_and_shows_the_filters(demo: Store, embedder: FastEmbedder) -> None:
    result = ask(demo, embedder, "what did we decide about the weather on Mars?", today=TODAY)
    assert result.answer == NO_FACTS and result.citations == []
    assert result.filters.fact_types == ("decision",)


def test_citations_that_name_no_fact_are_removed_and_counted() -> None:
    answer, removed, cited = check_citations("Postgres [1], for JSONB [7] and [2][9].", 3)
    assert (answer, removed, cited) == ("Postgres [1], for JSONB and [2].", 2, [1, 2])


ROUTED_NOTHING = api.message(tool=("search_filters", {}))


def test_a_model_answer_is_checked_against_the_facts_it_was_given(
    demo: Store, embedder: FastEmbedder
) -> None:
    with FakeServer() as server:
        server.push(
            ROUTED_NOTHING, api.stream(["We chose Postgres for JSONB [1] and PostGIS [7]."])
        )
        provider = AnthropicProvider("k", server.url)
        result = ask(
            demo,
            embedder,
            "why did we pick Postgres?",
            provider=provider,
            model="claude-sonnet-4-6",
            today=TODAY,
            limit=3,
        )
        prompt = server.seen[1].body["messages"][0]["content"]
        assert "ONLY on the provided facts" in server.seen[1].body["system"]
        assert server.seen[1].body.get("stream") is True
    assert result.answer == "We chose Postgres for JSONB [1] and PostGIS."
    assert result.removed_citations == 1 and result.cited == [1]
    assert "[1] (decision" in prompt


async def _events(stream: AsyncIterator[AskEvent]) -> list[AskEvent]:
    return [event async for event in stream]


def test_the_answer_streams_and_an_invented_citation_never_reaches_the_screen(
    demo: Store, embedder: FastEmbedder
) -> None:
    # A scripted model that cites [7] of the 3 facts it was given, split across deltas.
    pieces = ["Postgres won", " on JSONB [", "1] and on", " PostGIS [", "7", "] too [2]."]
    with FakeServer() as server:
        server.push(ROUTED_NOTHING, api.stream(pieces))
        provider = AnthropicProvider("k", server.url)
        events = asyncio.run(
            _events(
                ask_stream(
                    demo,
                    embedder,
                    "why did we pick Postgres?",
                    provider,
                    "m",
                    today=TODAY,
                    limit=3,
                )
            )
        )
    kinds = [type(e).__name__ for e in events]
    assert kinds[0] == "Retrieved" and kinds[-1] == "Answered"
    deltas = [e.text for e in events if isinstance(e, AnswerDelta)]
    assert len(deltas) >= 4  # streamed, not delivered whole
    shown = "".join(deltas)
    assert "[7]" not in shown and "[1]" in shown and "[2]" in shown
    assert [e.n for e in events if isinstance(e, Cited)] == [1, 2]
    first_cite = kinds.index("Cited")
    assert first_cite < max(i for i, k in enumerate(kinds) if k == "AnswerDelta")  # as they come
    final = events[-1]
    assert isinstance(final, Answered)
    assert final.result.removed_citations == 1 and final.result.cited == [1, 2]


def test_the_model_router_names_things_and_memo_resolves_them(
    demo: Store, embedder: FastEmbedder
) -> None:
    routed = api.message(
        tool=(
            "search_filters",
            {"person": "Ingrid", "since": "2026-11-01", "fact_types": ["decision"]},
        )
    )
    with FakeServer() as server:
        server.push(routed, api.stream(["Tromsø waits for January [1]."]))
        provider = AnthropicProvider("k", server.url)
        result = ask(demo, embedder, "what did Ingrid decide lately?", provider, "m", today=TODAY)
        assert server.seen[0].body["tool_choice"] == {"type": "tool", "name": "search_filters"}
    assert result.filters.router == "model"
    assert result.filters.describe()["person"] == "Ingrid Halvorsen"
    assert result.filters.since == "2026-11-01"
    assert result.citations[0].fact.fact_type == "decision"  # the type lifts, dates filter
    assert all((h.fact.occurred_at or "") >= "2026-11-01" for h in result.citations)


def test_a_failing_router_falls_back_to_the_rules(demo: Store, embedder: FastEmbedder) -> None:
    with FakeServer() as server:
        server.push(
            api.error(400, "invalid_request_error", "bad"),
            api.stream(["Postgres [1]."]),
        )
        provider = AnthropicProvider("k", server.url)
        result = ask(demo, embedder, "why did we pick Postgres?", provider, "m", today=TODAY)
    assert result.filters.router.startswith("rules")
    assert result.note and "filters by rules" in result.note
    assert result.answer == "Postgres [1]."


def test_rule_router_applies_known_names_and_reports_ambiguous_ones(demo: Store) -> None:
    directory = demo.directory()
    owes = with_entities(
        parse_question("what does Sam Cheng owe?", TODAY), "what does Sam Cheng owe?", directory
    )
    assert owes.fact_types == ("action_item",)
    assert [(e.entity_type, e.name) for e in owes.entities] == [("person", "Sam Cheng")]
    sam = with_entities(
        parse_question("what did Sam decide?", TODAY), "what did Sam decide?", directory
    )
    assert sam.entities == () and sam.unresolved == ("Sam",)
    plain = with_entities(
        parse_question("will the pilot start?", TODAY), "will the pilot start?", directory
    )
    assert plain.entities == () and plain.unresolved == ()


def test_person_filter_keeps_to_that_person(demo: Store, embedder: FastEmbedder) -> None:
    result = ask(demo, embedder, "what does Sam Cheng owe?", today=TODAY)
    cheng = next(p.id for p in demo.people() if p.name == "Sam Cheng")
    attended = {c for c in range(1, 20) if cheng in demo.attendees([c])}
    top = result.citations[:3]
    assert [h.fact.fact_type for h in top] == ["action_item"] * 3
    for hit in result.citations:
        assert hit.fact.capture_id in attended
        if hit.fact.fact_type == "action_item":
            items = demo.action_items([hit.fact.capture_id or 0])
            [item] = [a for a in items if a.id == hit.fact.fact_id]
            assert item.person_id == cheng


def test_ask_from_the_command_line(memo, tmp_path) -> None:  # type: ignore[no-untyped-def]
    run = memo("--demo", "ask", "who owns the Stripe account setup?", "--json")
    assert run.code == 0, run.stderr
    result = run.json()
    assert result["retrieval"]["mode"] == "keyword"  # the subprocess has no embedding model
    assert result["citations"][0]["fact_type"] == "action_item"
    assert set(result["citations"][0]) >= {
        "n",
        "fact_type",
        "fact_id",
        "text",
        "capture_id",
        "title",
        "date",
        "lines",
        "owner",
        "status",
    }
    assert result["no_record"] is False and result["which"] == []
    decided = memo("--demo", "ask", "why did we pick Postgres?", "--json").json()
    decision = next(c for c in decided["citations"] if c["fact_type"] == "decision")
    assert {"decided_by", "status", "superseded_by", "date"} <= set(decision)
    assert "Stripe" in result["answer"]
    plain = memo("--demo", "ask", "why did we pick Postgres?")
    assert "Sources:" in plain.stdout and "[1]" in plain.stdout


def test_ask_streams_from_the_fake_anthropic_server_on_the_command_line(memo, tmp_path) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "m.db")
    assert memo("--db", db, "capture", str(DEMO)).code == 0
    env = {"MEMO_PROVIDER": "anthropic", "ANTHROPIC_API_KEY": "k"}
    with FakeServer() as server:
        server.push(
            api.message(tool=("search_filters", {"fact_types": ["decision"]})),
            api.stream(["Atlas moved to ", "Postgres [1]", " for JSONB [11]."]),  # 10 given
        )
        run = memo(
            "--db", db, "ask", "why Postgres?", extra_env={**env, "ANTHROPIC_BASE_URL": server.url}
        )
        assert [r.body.get("stream") for r in server.seen] == [None, True]
    assert run.code == 0, run.stderr
    assert "Atlas moved to Postgres [1] for JSONB." in run.stdout
    assert "[11]" not in run.stdout and "Sources:" in run.stdout
    assert "1 citation(s) that named no fact were removed" in run.stderr
    costs = memo("--db", db, "costs", "--json").json()
    assert {line["key"] for line in costs["by_trigger"]} == {"ask", "ask_router"}


def test_a_removed_citation_never_splices_a_new_one() -> None:
    answer, removed, cited = check_citations("A [[9]9], B [1[7]0], C [[4]2].", 3)
    assert "[9]" not in answer and "[10]" not in answer and cited == [2]
    assert removed >= 3
    from memo_tui.core.recall.answer import CitationStream

    stream = CitationStream(3)
    shown = [stream.feed(piece)[0] for piece in ("See [[9]", "9] and [1].")]
    assert "".join(shown) + stream.finish()[0] == "See and [1]."


def test_an_empty_question_is_a_usage_error(memo) -> None:  # type: ignore[no-untyped-def]
    run = memo("--demo", "ask", "  ")
    assert run.code == 2 and "ask a question" in run.stderr


def test_a_long_fact_is_quoted_to_a_word_and_marked_as_cut() -> None:
    from memo_tui.core.recall.answer import quoted

    text = "Atlas kickoff with " + ", ".join(f"Person {n}" for n in range(60)) + ".\nSecond line"
    shown = quoted(text, 80)
    assert shown.endswith(" \u2026") and len(shown) <= 82
    assert shown[:-2] == text[: len(shown) - 2] and text[len(shown) - 2] in " ,"
    assert quoted("Short one.\nmore") == "Short one."


def test_a_cut_fact_keeps_its_owner_due_date_and_done() -> None:
    from memo_tui.core.recall.answer import quoted

    text = (
        "Migrate " + "the billing tables and " * 20 + "more. (owner: Tom) (due 2026-11-30) (done)"
    )
    shown = quoted(text, 120)
    assert len(shown) <= 122 and shown.endswith(" \u2026 (owner: Tom) (due 2026-11-30) (done)")
