"""Why-questions: the turn that gives the reason, said before the call, is cited beside it."""

from __future__ import annotations

import datetime as dt

import pytest

from memo_tui.core.capture import CaptureOptions, CaptureService
from memo_tui.core.capture.offline.text import content_words
from memo_tui.core.embed import EmbedService, FastEmbedder
from memo_tui.core.recall.answer import ask
from memo_tui.core.recall.current import Change
from memo_tui.core.recall.grounds import best_reason
from memo_tui.core.recall.reasons import ASKS_WHY, _inserted
from memo_tui.core.recall.search import Hit
from store import FactRecord, Store

TODAY = dt.date(2026, 5, 1)

RELEASE = """Release review
Attendees: Priya Shah, Tom Becker, Ana Ruiz
Date: 2026-04-10

Priya Shah: Okay, the release review. Thanks for coming in early, that's why there are pastries.
Tom Becker: The build is green on every platform, and the store listing is ready.
Ana Ruiz: The problem is the offline sync corrupts the local cache when a tablet loses power.
Tom Becker: How often does that happen?
Ana Ruiz: About one in forty sessions on the warehouse tablets.
Priya Shah: Then we ship 5.0 with offline sync turned off, and it comes back in 5.1.
Tom Becker: Fine by me.
Ana Ruiz: I'll write the release note by Friday.
"""
REASON_LINE = 7  # "The problem is the offline sync corrupts …" in the text memo stores


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> object:
    from support.embedding import embedder as real_embedder

    folder = tmp_path_factory.mktemp("reasons")
    (folder / "2026-04-10-release.txt").write_text(RELEASE)
    embedder = real_embedder()
    with Store(folder / "memo.db") as store:
        embed = EmbedService(store, embedder)
        capture = CaptureService(store, CaptureOptions(user="t"), after_commit=embed.embed_capture)
        capture.capture_paths([folder / "2026-04-10-release.txt"])
        yield store, embedder


def test_a_why_question_cites_the_turn_that_gives_the_reason(
    store: tuple[Store, FastEmbedder],
) -> None:
    result = ask(*store, "Why did 5.0 go out without offline sync?", today=TODAY)
    lines = result.answer.splitlines()
    assert "ship 5.0 with offline sync turned off" in lines[1], result.answer
    assert lines[2].startswith("- Ana Ruiz: The problem is the offline sync corrupts"), lines
    reason = result.citations[int(lines[2].rsplit("[", 1)[1].rstrip("]")) - 1].fact
    # cited by its own line, which is where the capture says it
    assert (reason.line_start, reason.line_end) == (REASON_LINE, REASON_LINE)
    assert reason.capture_id is not None
    said = store[0].captures.text(reason.capture_id).splitlines()[REASON_LINE - 1]
    assert said.startswith("Ana Ruiz: The problem is the offline sync corrupts")
    assert "pastries" not in result.answer  # a "that's why" about something else


def test_a_question_that_does_not_ask_why_is_told_as_ranked(
    store: tuple[Store, FastEmbedder],
) -> None:
    result = ask(*store, "What did we decide about offline sync?", today=TODAY)
    assert "ship 5.0 with offline sync turned off" in result.answer.splitlines()[1]
    narrowed = [h for h in result.citations if h.fact.line_start == h.fact.line_end == REASON_LINE]
    assert not narrowed  # no line was added for a reason


@pytest.mark.parametrize(
    ("question", "why"),
    [
        ("Why did we ship without sync?", True),
        ("Remind me why the flight didn't reopen at Easter?", True),
        ("Back in March, why couldn't the install go ahead?", True),
        ("What killed the plan to cook our own food?", True),
        ("What made us drop Voltaic?", True),
        ("What did we decide about offline sync?", False),
        ("What made it into the release?", False),
        ("What stopped working after the update?", False),
        ("Who asked why the van was late?", False),
    ],
)
def test_a_why_question_asks_it_in_many_ways(question: str, why: bool) -> None:
    assert bool(ASKS_WHY.search(question)) == why


CALL = "Then we ship with sync off."


def test_the_reason_must_be_about_the_call() -> None:
    turns = ["Sorry I'm late, the train was delayed, that's why.", CALL]
    assert best_reason(turns, 1, content_words(CALL), CALL) is None


def test_a_sentence_saying_what_the_call_says_is_not_its_reason() -> None:
    turns = ["We ship with sync off, it is cheaper.", CALL]  # the call said first, not argued
    assert best_reason(turns, 1, content_words(CALL), "We ship with sync off.") is None


def test_the_reason_said_before_the_call_wins_over_the_same_said_long_after() -> None:
    turns = [
        "Sync fails on old tablets because the cache is too small.",
        "Right.",
        CALL,
        "Fine.",
        "Okay.",
        "Sync fails on new tablets because the cache is too small.",
    ]
    found = best_reason(turns, 2, content_words(CALL), CALL)
    assert found is not None and found.turn == 0


def test_no_sentence_with_a_reason_gives_none() -> None:
    turns = [
        "The sync settings page is on the release list.",
        "New tablets arrived at the depot.",
        CALL,
    ]
    assert best_reason(turns, 2, content_words(CALL), CALL) is None


def _hit(n: int, text: str, fact_type: str = "excerpt") -> Hit:
    fact = FactRecord(n, fact_type, n, text, 1, "t", None, "", "meeting", "x", n, n)
    return Hit(fact, 1.0 / n, n, None, None)


def test_a_reason_put_beside_its_call_keeps_the_replaced_calls_told_after_theirs() -> None:
    new, old, other, reason = (
        _hit(1, "new", "decision"),
        _hit(2, "old", "decision"),
        _hit(3, "x"),
        _hit(4, "why"),
    )
    hits, changes = _inserted([new, old, other, reason], [Change(0, 1)], 1, reason)
    assert [h.fact.text for h in hits] == ["new", "why", "old", "x"]  # its excerpt once
    assert changes == [Change(0, 2)]  # "old" moved one down, and still follows "new"
    last = _hit(5, "last")
    hits, changes = _inserted([new, old, other, last], [Change(0, 1)], 1, reason)
    assert [h.fact.text for h in hits] == ["new", "why", "old", "x"]  # as many as were found
