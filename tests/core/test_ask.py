"""Ask: filters from the question, hybrid retrieval, answers whose citations are checked."""

from __future__ import annotations

import asyncio
import datetime as dt
import re
from collections.abc import AsyncIterator

import pytest
from support.fakes import anthropic_api as api
from support.fakes import openai_api
from support.fakes.recordings import recorded_reply
from support.fakes.server import FakeServer, Reply
from support.paths import DATA, DEMO

from memo_tui.core.embed import FastEmbedder
from memo_tui.core.llm.anthropic_provider import AnthropicProvider
from memo_tui.core.llm.openai_provider import OpenAIProvider
from memo_tui.core.recall.answer import (
    NO_FACTS,
    AnswerDelta,
    Answered,
    AskEvent,
    Cited,
    ask,
    ask_stream,
)
from memo_tui.core.recall.citations import check_citations
from memo_tui.core.recall.filters import QuestionFilters, parse_question, with_entities
from store import Store

# Every test here that reaches a store runs on SQLite and on PostgreSQL (conftest).
BOTH_STORES = True

TODAY = dt.date(2026, 11, 29)


@pytest.mark.parametrize(
    ("question", "since", "until", "types"),
    [
        ("why did we pick Postgres?", None, None, ("decision",)),
        ("who owns the Stripe setup?", None, None, ("action_item",)),
        ("what was decided last month?", "2026-10-01", "2026-10-31", ("decision",)),
        ("anything about Bergen this week", "2026-11-23", "2026-11-29", ()),
        ("what happened in March", "2026-03-01", "2026-03-31", ()),
        ("what happened in March 2019", "2019-03-01", "2019-03-31", ()),
        ("what happened in March 0000", "2026-03-01", "2026-03-31", ()),
        ("anything since December, 2024", "2024-12-01", None, ()),
        ("decisions since 2026-10-10", "2026-10-10", None, ("decision",)),
        ("todos in Q3", "2026-07-01", "2026-09-30", ("action_item",)),
        # a week the question is about is no time it was said in
        (
            "back in March, why not the last week of August?",
            "2026-03-01",
            "2026-03-31",
            ("decision",),
        ),
        (
            "what did we decide last week in the ops review?",
            "2026-11-16",
            "2026-11-22",
            ("decision",),
        ),
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
    assert result.filters.readable() == "decisions"


def test_the_filters_read_as_a_sentence() -> None:
    said = parse_question("what did we decide in March 2019?", TODAY).readable()
    assert said == "decisions from 1 Mar 2019 to 31 Mar 2019"
    assert parse_question("anything since 2026-10-10", TODAY).readable() == (
        "everything since 10 Oct 2026"
    )
    assert QuestionFilters(fact_types=("summary", "action_item")).readable() == (
        "summaries, action items"
    )


def test_citations_that_name_no_fact_are_removed_and_counted() -> None:
    answer, removed, cited = check_citations("Postgres [1], for JSONB [7] and [2][9].", 3)
    assert (answer, removed, cited) == ("Postgres [1], for JSONB and [2].", 2, [1, 2])


# The router's answer naming no filter, every field given (an object with none of them is
# no answer at all, and gets a repair turn).
ROUTED_NOTHING = api.message(
    tool=("search_filters", {"client": None, "project": None, "person": None, "fact_types": []})
)


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
    directory = demo.people.directory()
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
    cheng = next(p.id for p in demo.people.all() if p.name == "Sam Cheng")
    attended = {c for c in range(1, 20) if cheng in demo.people.attendees([c])}
    top = result.citations[:3]
    assert [h.fact.fact_type for h in top] == ["action_item"] * 3
    for hit in result.citations:
        assert hit.fact.capture_id in attended
        if hit.fact.fact_type == "action_item":
            items = demo.captures.action_items([hit.fact.capture_id or 0])
            [item] = [a for a in items if a.id == hit.fact.fact_id]
            assert item.person_id == cheng


@pytest.mark.parametrize(
    ("question", "listed"),
    [
        ("what does Tom owe?", "for Tom Adeyemi"),
        ("What are Sam Cheng's open action items?", "for Sam Cheng"),
        ("what did we decide in October?", "from 2026-10-01 to 2026-10-31"),
        (
            "which decisions were made with Priya in October?",
            "in the meetings of Priya Natarajan from 2026-10-01 to 2026-10-31",
        ),
        # a word of its own: one thing is asked about, not a list
        ("why did we pick Postgres for Atlas?", None),
        ("what does Tom owe for the rollback runbook?", None),
        ("what did we decide?", None),  # no whose, no when: no list to count
    ],
)
def test_a_question_naming_only_its_filters_is_a_listing(
    demo: Store, question: str, listed: str | None
) -> None:
    from memo_tui.core.recall.listing import listing

    directory = demo.people.directory()
    filters = with_entities(parse_question(question, TODAY), question, directory)
    found = listing(demo, question, filters)
    assert (found.scope if found else None) == listed


def test_a_listing_says_how_many_more_and_every_one_can_be_asked_for(
    demo: Store, embedder: FastEmbedder
) -> None:
    """ "6 more action items for Tom": the count is the store's, not the top ten's, and
    `every` quotes them all; a listing by date quotes only facts of the list."""
    owed = [i for i in demo.captures.action_items(range(1, 40)) if i.person_name == "Tom Adeyemi"]
    result = ask(demo, embedder, "what does Tom owe?", today=TODAY)
    assert result.listing is not None and result.listing.total == len(owed) > 3
    assert result.answer.splitlines()[-1] == f"({len(owed) - 3} more action items for Tom Adeyemi)"
    every = ask(demo, embedder, "what does Tom owe?", today=TODAY, every=True)
    quoted = [line for line in every.answer.splitlines() if line.startswith("- ")]
    assert len(quoted) == len(owed) and "more action items" not in every.answer
    assert {h.fact.fact_id for h in every.citations} >= {i.id for i in owed}
    october = ask(demo, embedder, "what did we decide in October?", today=TODAY)
    assert not october.no_record  # a month alone is no topic the facts must name
    told = [october.citations[n - 1].fact for n in october.cited]
    assert told and {f.fact_type for f in told} == {"decision"}
    assert all("2026-10-01" <= (f.occurred_at or "") <= "2026-10-31" for f in told)
    assert re.fullmatch(
        r"\(\d+ more decisions from 2026-10-01 to 2026-10-31\)", october.answer.splitlines()[-1]
    )


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
    # the facts that matched beyond those the answer shows are listed too, with their words
    cited, _, rest = plain.stdout.partition("Also matched, not cited:")
    assert re.search(r"more matching facts? in the sources", cited), plain.stdout
    assert re.search(r"^  \[\d+\] \w+ - .+\n      \S", rest, re.MULTILINE), plain.stdout
    # a listing question says how many more there are, and how to see every one
    owed = memo("--demo", "ask", "what does Tom owe?")
    assert owed.stdout.rstrip().endswith(
        '5 more action items for Tom Adeyemi: memo ask --all "what does Tom owe?"'
    ), owed.stdout
    # what memo is sure of first; an unconfirmed item only after the confirmed ones
    listed = [line for line in owed.stdout.splitlines() if line.startswith("- ")]
    sure = ["(unconfirmed)" not in line for line in listed]
    assert sure[0] and sure == sorted(sure, reverse=True), owed.stdout
    every = memo("--demo", "ask", "--all", "what does Tom owe?", "--json").json()
    assert every["listed"] == {
        "total": 8,
        "types": ["action_item"],
        "scope": "for Tom Adeyemi",
        "not_cited": 0,
    }
    assert sum(c["cited"] for c in every["citations"]) == 8


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
    from memo_tui.core.recall.citations import CitationStream

    stream = CitationStream(3)
    shown = [stream.feed(piece)[0] for piece in ("See [[9]", "9] and [1].")]
    assert "".join(shown) + stream.finish()[0] == "See and [1]."


def test_an_empty_question_is_a_usage_error(memo) -> None:  # type: ignore[no-untyped-def]
    run = memo("--demo", "ask", "  ")
    assert run.code == 2 and "ask a question" in run.stderr


def test_a_long_fact_is_quoted_to_a_word_and_marked_as_cut() -> None:
    from memo_tui.core.recall.extractive import quoted

    text = "Atlas kickoff with " + ", ".join(f"Person {n}" for n in range(60)) + ".\nSecond line"
    shown = quoted(text, 80)
    assert shown.endswith(" \u2026") and len(shown) <= 82
    assert shown[:-2] == text[: len(shown) - 2] and text[len(shown) - 2] in " ,"
    assert quoted("Short one.\nmore") == "Short one."


def test_a_cut_fact_keeps_its_owner_due_date_and_done() -> None:
    from memo_tui.core.recall.extractive import quoted

    text = (
        "Migrate " + "the billing tables and " * 20 + "more. (owner: Tom) (due 2026-11-30) (done)"
    )
    shown = quoted(text, 120)
    assert len(shown) <= 122 and shown.endswith(" \u2026 (owner: Tom) (due 2026-11-30) (done)")


def _answering(server: FakeServer, synthesis: Reply, router: Reply) -> None:
    """The router's call gets `router` and the streamed synthesis `synthesis`, however many
    calls the router makes."""
    server.default = lambda body: synthesis if body.get("stream") else router


def test_a_model_that_breaks_off_mid_answer_gives_way_to_the_facts(
    demo: Store, embedder: FastEmbedder
) -> None:
    with FakeServer() as server:
        broken = api.stream(["Postgres won", " on JSONB [1]", " and"], fail_after=2)
        # the filters the rules read from "why did we pick …?": decisions preferred
        routed = api.message(tool=("search_filters", {"fact_types": ["decision"]}))
        _answering(server, broken, routed)
        provider = AnthropicProvider("k", server.url)
        events = asyncio.run(
            _events(ask_stream(demo, embedder, "why did we pick Postgres?", provider, "m"))
        )
    shown = "".join(e.text for e in events if isinstance(e, AnswerDelta))
    final = events[-1]
    assert isinstance(final, Answered)
    offline = ask(demo, embedder, "why did we pick Postgres?")
    # What streamed is said to be incomplete, then the facts follow, as memo answers offline.
    half, rest = shown.split("\n\n[", 1)
    assert half == "Postgres won on JSONB [1]"
    assert rest.startswith("the answer above is incomplete: model failed (")
    assert "broke off" in rest and rest.endswith("]\n" + offline.answer)
    assert final.result.answer == offline.answer and final.result.cited == offline.cited
    assert final.result.note and "model failed (" in final.result.note
    assert final.result.model_failed and "broke off" in final.result.model_failed
    cited = [e.n for e in events if isinstance(e, Cited)]
    assert sorted(cited) == sorted(set(offline.cited)) and len(cited) == len(set(cited))


def _cut_recording() -> Reply:
    """A 0.5B model's answer on llama.cpp as recorded ("[1] [2] … [7]"), replayed as if its
    length limit had come one token earlier: "[1] … [6] [7", finish_reason "length"."""
    reply = recorded_reply(DATA / "llm-recordings" / "qwen2.5-coder-0.5b" / "010-resp.txt")
    last = max(i for i, c in enumerate(reply.chunks) if b'"content":"]"' in c)
    kept = [c for i, c in enumerate(reply.chunks) if i != last]
    ended = [c.replace(b'"finish_reason":"stop"', b'"finish_reason":"length"') for c in kept]
    return Reply(reply.status, reply.headers, list(ended))


def test_a_recorded_answer_cut_at_the_length_limit_says_so_and_drops_its_open_citation(
    demo: Store, embedder: FastEmbedder
) -> None:
    with FakeServer() as server:
        _answering(server, _cut_recording(), openai_api.error(400, "no router here"))
        provider = OpenAIProvider(server.url)
        events = asyncio.run(
            _events(ask_stream(demo, embedder, "why did we pick Postgres?", provider, "m"))
        )
    shown = "".join(e.text for e in events if isinstance(e, AnswerDelta))
    final = events[-1]
    assert isinstance(final, Answered)
    assert final.result.answer == "[1] [2] [3] [4] [5] [6]"
    assert final.result.truncated and final.result.cited == [1, 2, 3, 4, 5, 6]
    assert final.result.note and "cut off at the length limit" in final.result.note
    assert (
        shown == "[1] [2] [3] [4] [5] [6]\n\n[the model's answer was cut off at the length limit]"
    )


def test_an_anthropic_answer_stopped_at_max_tokens_is_cut_too(
    demo: Store, embedder: FastEmbedder
) -> None:
    pieces = ["Atlas moved to Postgres", " for JSONB", " [", "1", "]", " [", "2"]
    with FakeServer() as server:
        _answering(server, api.stream(pieces, stop_reason="max_tokens"), ROUTED_NOTHING)
        provider = AnthropicProvider("k", server.url)
        result = ask(demo, embedder, "why did we pick Postgres?", provider, "m")
    assert result.answer == "Atlas moved to Postgres for JSONB [1]" and result.truncated


def _openai_env(server: FakeServer) -> dict[str, str]:
    return {
        "MEMO_PROVIDER": "openai",
        "MEMO_OPENAI_BASE_URL": server.url,
        "MEMO_OPENAI_MODEL": "qwen",
    }


def test_ask_on_the_command_line_shows_the_facts_when_the_model_fails(memo, tmp_path) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "m.db")
    assert memo("--db", db, "capture", str(DEMO)).code == 0
    router = openai_api.error(400, "no router here")
    slow = openai_api.stream(["Atlas moved", " to Postgres [1]", " because"])
    slow.chunks.insert(2, 3.0)  # stalls past the 1 s deadline after some text
    with FakeServer() as server:
        _answering(server, slow, router)
        env = {**_openai_env(server), "MEMO_ANSWER_DEADLINE_S": "1"}
        run = memo("--db", db, "ask", "why did we pick Postgres?", "--json", extra_env=env)
    assert run.code == 0, run.stderr
    result = run.json()
    assert "model failed (" in result["retrieval"]["note"]
    assert "nothing was written" not in result["retrieval"]["note"]
    assert result["model_failed"] and result["truncated"] is False
    assert "[1]" in result["answer"] and "Atlas moved" not in result["answer"]
    assert any(c["cited"] for c in result["citations"])
    whole = openai_api.stream(["Atlas moved", " to Postgres [1]", " because"])
    broken = type(whole)(whole.status, whole.headers, whole.chunks[:2])  # no [DONE]
    with FakeServer() as server:
        _answering(server, broken, router)
        text = memo("--db", db, "ask", "why did we pick Postgres?", extra_env=_openai_env(server))
    assert text.code == 0, text.stderr
    half, rest = text.stdout.split("\n\n[the answer above is incomplete: model failed (", 1)
    assert half == "Atlas moved to Postgres [1]"
    assert "broke off" in rest and "Sources:" in rest
    assert "nothing was written" not in text.stdout + text.stderr


def test_a_cut_answer_says_so_in_json(memo, tmp_path) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "m.db")
    assert memo("--db", db, "capture", str(DEMO)).code == 0
    cut = openai_api.stream(["Atlas moved to Postgres [1] [", "2"], finish="length")
    with FakeServer() as server:
        _answering(server, cut, openai_api.error(400, "no router here"))
        run = memo("--db", db, "ask", "why Postgres?", "--json", extra_env=_openai_env(server))
    assert run.code == 0, run.stderr
    result = run.json()
    assert result["answer"] == "Atlas moved to Postgres [1]" and result["truncated"] is True
    assert "cut off at the length limit" in result["retrieval"]["note"]
