"""Ask: filters from the question, hybrid retrieval, answers whose citations are checked."""

from __future__ import annotations

import datetime as dt

import pytest
from fakes import anthropic_api as api
from fakes.server import FakeServer

from memo_tui.core.embed import FastEmbedder
from memo_tui.core.llm.anthropic_provider import AnthropicProvider
from memo_tui.core.recall.answer import NO_FACTS, ask, check_citations
from memo_tui.core.recall.filters import parse_question
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


def test_a_model_answer_is_checked_against_the_facts_it_was_given(
    demo: Store, embedder: FastEmbedder
) -> None:
    with FakeServer() as server:
        server.push(api.message("We chose Postgres for JSONB [1] and PostGIS [7]."))
        provider = AnthropicProvider("k", server.url)
        result = ask(
            demo,
            embedder,
            "why did we pick Postgres?",
            provider=provider,
            model="claude-sonnet-4-6",
            today=TODAY,
        )
        prompt = server.seen[0].body["messages"][0]["content"]
        assert "ONLY on the provided facts" in server.seen[0].body["system"]
    assert result.answer == "We chose Postgres for JSONB [1] and PostGIS."
    assert result.removed_citations == 1 and result.cited == [1]
    assert "[1] (decision" in prompt


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
        "lines",
    }
    assert "Stripe" in result["answer"]
    plain = memo("--demo", "ask", "why did we pick Postgres?")
    assert "Sources:" in plain.stdout and "[1]" in plain.stdout
