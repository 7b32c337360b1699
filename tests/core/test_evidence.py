"""Evidence quotes: an item is verified only by a real span of speech about it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.fakes import anthropic_api as api
from support.fakes.server import FakeServer
from support.paths import DEMO

from memo_tui.core.capture import CaptureOptions, CaptureService
from memo_tui.core.capture.decode import decode
from memo_tui.core.capture.evidence import SpeechEvidence, Verdict
from memo_tui.core.capture.llm_extractor import LLMExtractor
from memo_tui.core.capture.offline import extract
from memo_tui.core.capture.record import build_capture
from memo_tui.core.capture.sources import Transcript, parse
from memo_tui.core.llm.anthropic_provider import AnthropicProvider
from memo_tui.core.llm.base import RetryPolicy
from memo_tui.core.llm.ledger import StoreLedger
from memo_tui.core.llm.schemas import Extraction
from store import NewCapture, Store

MEETING = (
    "Warehouse pilot sync\n"
    "Date: 2026-03-03\n"
    "Attendees: Maria Lopez, Sam Lee, Raj Patel\n"
    "\n"
    "Maria Lopez: The scanner firmware is late again, so we should move the pilot launch "
    "to Friday next week.\n"
    "Raj Patel: Separately, the canteen coffee machine is broken and facilities will "
    "replace it on Monday.\n"
    "Sam Lee: Agreed, ship it Friday.\n"
    "Maria Lopez: Raj, please send the supplier the revised delivery schedule today.\n"
)


def decision(description: str, quote: str) -> dict[str, Any]:
    return {"description": description, "evidence_quote": quote}


def action(description: str, quote: str) -> dict[str, Any]:
    return {"description": description, "assignee": "Raj Patel", "evidence_quote": quote}


# What a small local model sent back: quotes from the attendee line, a bare name, a
# fragment, a turn about something else, next to two quotes that do hold the item.
RECORD = {
    "summary": "The pilot launch moves to Friday; Raj sends the supplier a new schedule.",
    "decisions": [
        decision("Move the pilot launch to Friday next week.", "Maria Lopez, "),
        decision("Move the pilot launch to Friday.", "move the pilot launch to Friday"),
        decision("Ship the pilot on Friday.", "Agreed, ship it Friday."),
        decision("The pilot launch moves to Friday.", "pilot launch"),
    ],
    "action_items": [
        action("Raj to send the supplier the revised delivery schedule.", "Raj Patel"),
        action("Send the supplier the revised delivery schedule.", "Maria Lopez, "),
        action(
            "Send the supplier the revised delivery schedule.",
            "the canteen coffee machine is broken",
        ),
    ],
}


@pytest.fixture
def server() -> Iterator[FakeServer]:
    with FakeServer() as running:
        yield running


def model_service(store: Store, server: FakeServer) -> CaptureService:
    policy = RetryPolicy(max_attempts=1, base_delay_s=0.05, max_delay_s=0.1)
    provider = AnthropicProvider("test-key", server.url, StoreLedger(store), policy)
    extractor = LLMExtractor(provider, "claude-sonnet-4-6", 10.0, 40_000, 3)
    return CaptureService(store, CaptureOptions(user="tester"), extractor=extractor)


def test_a_models_quotes_verify_only_as_spans_of_speech_about_the_item(
    tmp_path: Path, store: Store, server: FakeServer
) -> None:
    """A model's quote that is no span of speech about its item is re-anchored to the span
    that best matches the quote or, failing that, the item's own words; one that matches
    nothing well enough stays unverified, and neither kind is taken on the model's word."""
    server.default = api.message(tool=("record_meeting", RECORD))
    path = tmp_path / "pilot.txt"
    path.write_text(MEETING, encoding="utf-8")
    result = model_service(store, server).capture_file(path)
    assert result.status == "captured", result.error
    verified = [(d.verified, d.line_start) for d in result.decisions]
    # the attendee line (re-anchored by the item's words), a 6-word span of the turn, a
    # whole short turn, a 2-word fragment (re-anchored: "pilot launch" is in one turn only)
    assert verified[:3] == [(True, 5), (True, 5), (True, 7)]
    stored = store.captures.decisions([result.capture_id or 0])
    assert stored[0].evidence_quote == "move the pilot launch to Friday next week."
    # a bare name (and words that differ from the request's: "Raj to send"), the attendee
    # line, a turn about something else: the last two re-anchored to the request itself
    assert [(a.verified, a.line_start) for a in result.action_items] == [
        (False, None),
        (True, 8),
        (True, 8),
    ]
    owed = store.captures.action_items([result.capture_id or 0])
    assert [a.evidence_quote.rstrip(".") for a in owed][1:] == [
        "send the supplier the revised delivery schedule today"
    ] * 2
    # rated by the judge on the sentences they rest on, like the offline extractor's items
    every = [*stored, *owed]
    assert all(i.confidence is not None for i in every if i.verified)
    assert all(i.state == "proposed" for i in every if not i.verified)


def test_a_models_quote_that_matches_nothing_stays_unverified_and_is_never_asserted(
    tmp_path: Path, store: Store, server: FakeServer
) -> None:
    record = {
        "summary": "",
        "decisions": [decision("The canteen gets a new menu.", "the new menu is approved")],
        "action_items": [action("Order new canteen chairs.", "Raj Patel")],
    }
    server.default = api.message(tool=("record_meeting", record))
    path = tmp_path / "pilot.txt"
    path.write_text(MEETING, encoding="utf-8")
    result = model_service(store, server).capture_file(path)
    assert result.status == "captured", result.error
    items = [*result.decisions, *result.action_items]
    assert [(i.verified, i.line_start) for i in items] == [(False, None)] * 2
    stored = store.captures.items([result.capture_id or 0])
    assert [i.state for part in stored for i in part] == ["proposed", "proposed"]
    why = {u["item"]: u["why"] for u in store.captures.meta(result.capture_id or 0)["unverified"]}
    assert why == {
        "decision 1": "not in the transcript",
        "action item 1": "shares no topic word with the item",
    }


# The transcript and three decisions of a real exchange with Qwen2.5-Coder-1.5B
# (llm-recordings/qwen2.5-coder-1.5b/007): its quotes carry the speaker's label, one is not
# verbatim, and one cites an unrelated turn whose only word in common is "decided".
ATLAS = (
    "Atlas planning meeting\nDate: 2026-11-10\nAttendees: Maria Lopez, Kenji Sato, Ana Silva\n\n"
    "Maria: Welcome. Two topics today: the API versioning scheme and the Q1 hiring plan.\n"
    "Kenji: For versioning, I propose we put the version in the URL path, like /v2/orders.\n"
    "Maria: Then it is settled. Atlas will use URL path versioning starting with v2.\n"
    "Ana: On hiring, we only have budget for one engineer in Q1.\n"
    "Maria: We decided last week to wait, but the backlog keeps growing.\n"
    "Maria: Decision: we hire one site reliability engineer in Q1, not a frontend developer.\n"
)
ATLAS_DECISIONS = [
    decision(
        "Atlas will use URL path versioning starting with v2.",
        "Maria: Atlas will use URL path versioning starting with v2.",
    ),
    decision(
        "We decided last week to wait, but the backlog keeps growing.",
        "Maria: We decided last week to wait, but the backlog keeps growing.",
    ),
    decision(
        "We decided to hire one site reliability engineer in Q1, not a frontend developer.",
        "Maria: We decided last week to wait, but the backlog keeps growing.",
    ),
]


def captured(transcript: Transcript, extraction: Extraction) -> NewCapture:
    """The rows a capture of `transcript` would write, without a store."""
    return build_capture(
        transcript,
        extraction,
        content_hash="0" * 64,
        signature=b"",
        source_path=None,
        source_kind="file",
        extractor="test",
        user="tester",
    )


def test_a_recorded_small_models_quotes() -> None:
    """The label glued on is re-anchored to the words said; the quote of an unrelated turn
    is re-anchored to the turn that says the item (its words, near enough)."""
    transcript = parse(ATLAS, "atlas.txt", "txt")
    extraction = Extraction.model_validate({"summary": "", "decisions": ATLAS_DECISIONS})
    new = captured(transcript, extraction)
    assert [(d.verified, d.line_start) for d in new.decisions] == [(True, 7), (True, 9), (True, 10)]
    assert [d.evidence_quote for d in new.decisions] == [
        "Atlas will use URL path versioning starting with v2.",
        "Maria: We decided last week to wait, but the backlog keeps growing.",
        "Decision: we hire one site reliability engineer in Q1, not a frontend developer.",
    ]
    assert "unverified" not in new.meta


def meeting(text: str, name: str = "m.txt") -> tuple[Transcript, SpeechEvidence]:
    transcript = parse(text, name, name.rsplit(".", 1)[1])
    names = [*transcript.speakers, *transcript.attendees]
    return transcript, SpeechEvidence(transcript.lines, transcript.turns, transcript.title, names)


OUTSIDE = "not within one spoken turn"


@pytest.mark.parametrize(
    ("quote", "item", "lines", "why"),
    [
        ("Sam Lee: Agreed, ship it Friday.", "Ship on Friday.", (7, 7), None),  # its label
        ("Raj, please send the supplier", "Send the supplier the schedule.", (8, 8), None),
        ("Warehouse pilot sync", "The warehouse pilot syncs weekly.", None, OUTSIDE),  # title
        ("Date: 2026-03-03", "The meeting date is set.", None, OUTSIDE),
        ("Monday. Sam Lee: Agreed, ship it", "Ship on Monday.", None, OUTSIDE),  # two turns
        ("the revised delivery timetable", "Send the timetable.", None, "not in the transcript"),
    ],
)
def test_what_counts_as_a_span_of_speech(
    quote: str, item: str, lines: tuple[int, int] | None, why: str | None
) -> None:
    _, evidence = meeting(MEETING)
    assert evidence.check(quote, item) == Verdict(lines, why)


def test_whole_sentences_of_a_longer_turn_verify_and_a_fragment_does_not() -> None:
    _, evidence = meeting("Libby: Fair enough. Four it is.\nRaj: Fine by me, four people.\n")
    assert evidence.check("Four it is.", "Four people on call.").lines == (1, 1)
    assert evidence.check("four people", "Four people on call.").lines is None
    _, evidence = meeting("Maggie: I like that. Okay, Hopwell Wharf. Done.\n")
    assert evidence.check("Okay, Hopwell Wharf. Done.", "Hopwell Wharf. Done.").lines == (1, 1)
    assert evidence.check("Hopwell Wharf. Done.", "Hopwell Wharf. Done.").lines is None


def test_an_item_worded_from_a_turn_close_by_has_that_turn_in_its_range() -> None:
    """A task asked for in one turn and taken in the next ("Marta, burn-in test plan?" "I'll
    write it up."): the item's words are the asking turn's, so its range holds both; words
    said nowhere near do not verify it."""
    text = "Libby: Marta, burn-in test plan?\nMarta: I'll write it up. End of next week.\n"
    _, evidence = meeting(text)
    assert evidence.check("I'll write it up.", "Burn-in test plan.").lines == (1, 2)
    filler = "".join(f"Sam: Line {n} about the canteen.\n" for n in range(20))
    _, evidence = meeting(
        "Libby: Marta, burn-in test plan?\n" + filler + "Marta: I'll write it up.\n"
    )
    assert evidence.check("I'll write it up.", "Burn-in test plan.").lines is None  # too far
    _, evidence = meeting("Marta: I'll write it up.\nLibby: Marta, burn-in test plan?\n")
    assert evidence.check("I'll write it up.", "Burn-in test plan.").lines is None  # after


def test_a_call_in_few_words_worded_by_the_turn_before_has_it_in_its_range() -> None:
    """ "Forty six." is also inside "That's forty six vehicles." just before it: the item
    worded by that sentence is looked for before the place the call stands whole."""
    text = "Segun: That's forty six vehicles.\nMaggie: Forty six. Fine. We sort it in spring.\n"
    _, evidence = meeting(text)
    assert evidence.check("Forty six.", "That's forty six vehicles.").lines == (1, 2)


def test_notes_without_speakers_verify_but_their_headings_do_not() -> None:
    notes = (
        "# Atlas weekly\n"
        "Attendees: Priya Natarajan, Tom Adeyemi\n"
        "\n"
        "## Decisions\n"
        "- We will move Atlas to Postgres in March.\n"
    )
    _, evidence = meeting(notes, "notes.md")
    assert evidence.check("We will move Atlas to Postgres", "Atlas moves to Postgres.").lines == (
        5,
        5,
    )
    assert evidence.check("Decisions", "Decisions were made.").lines is None
    assert evidence.check("Priya Natarajan, Tom Adeyemi", "Priya and Tom attend.").lines is None


def test_reasoning_said_close_by_still_widens_the_range() -> None:
    _, evidence = meeting(MEETING)
    verdict = evidence.check(
        "we should move the pilot launch to Friday",
        "Move the pilot launch to Friday.",
        reasoning="the canteen coffee machine is broken",
    )
    assert verdict.lines == (5, 6)


def test_every_quote_of_the_offline_extractor_still_verifies() -> None:
    for path in sorted(DEMO.iterdir()):
        transcript = parse(decode(path.read_bytes(), path.name), path.name, path.suffix[1:])
        new = captured(transcript, extract(transcript))
        items = [*new.decisions, *new.action_items]
        assert items and all(i.verified for i in items), (path.name, new.meta.get("unverified"))
