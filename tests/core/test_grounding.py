"""A model's record held to the meeting: quotes re-anchored (tests/core/test_evidence.py),
"done" only when the meeting says so, a decision's text stating the choice, every item rated
by the judge as the offline extractor's are."""

from __future__ import annotations

from typing import Any

from memo_tui.core.capture.record import build_capture
from memo_tui.core.capture.sources import parse
from memo_tui.core.llm.schemas import Extraction
from store import NewCapture

MEETING = (
    "Compliance sync\nDate: 2026-11-10\nAttendees: Hana Ito, Omar Reyes\n\n"
    "Hana Ito: We looked at Vanta and Drata for the audit.\n"
    "Omar Reyes: Drata is cheaper and its auditor network is bigger.\n"
    "Hana Ito: Okay, we go with Drata, and we do the Type I audit first.\n"
    "Hana Ito: Omar, can you send the signed order form to Drata by Friday?\n"
    "Omar Reyes: Sure, I'll send the signed order form on Friday.\n"
    "Hana Ito: And the vendor questionnaire for the bank?\n"
    "Omar Reyes: Already done, I sent the vendor questionnaire to the bank yesterday.\n"
)


def captured(record: dict[str, Any]) -> NewCapture:
    transcript = parse(MEETING, "sync.txt", "txt")
    return build_capture(
        transcript,
        Extraction.model_validate({"summary": "", **record}),
        content_hash="0" * 64,
        signature=b"",
        source_path=None,
        source_kind="file",
        extractor="test",
        user="tester",
    )


def test_a_task_is_done_only_where_the_meeting_says_it_is() -> None:
    """A small model marked every task done; only the one the meeting says was done stays
    done, the other is open."""
    new = captured(
        {
            "action_items": [
                {
                    "description": "Send the signed order form to Drata.",
                    "assignee": "Omar Reyes",
                    "status": "done",
                    "evidence_quote": "Sure, I'll send the signed order form on Friday.",
                },
                {
                    "description": "Send the vendor questionnaire to the bank.",
                    "assignee": "Omar Reyes",
                    "status": "done",
                    "evidence_quote": "I sent the vendor questionnaire to the bank yesterday.",
                },
            ]
        }
    )
    assert [a.status for a in new.action_items] == ["open", "done"]


def test_a_decision_states_the_choice_its_evidence_makes() -> None:
    """ "Choose compliance platform" records no choice: the words said ("we go with Drata,
    and we do the Type I audit first") stand instead; a text that names the choice stays."""
    new = captured(
        {
            "decisions": [
                {
                    "description": "Choose compliance platform",
                    "reasoning": "Drata is cheaper and its auditor network is bigger.",
                    "evidence_quote": "Okay, we go with Drata, and we do the Type I audit first.",
                },
                {
                    "description": "Use Drata for the audit.",
                    "evidence_quote": "Okay, we go with Drata, and we do the Type I audit first.",
                },
            ]
        }
    )
    assert [d.description for d in new.decisions] == [
        "We go with Drata, and we do the Type I audit first.",
        "Use Drata for the audit.",
    ]


def test_a_models_items_are_rated_by_the_judge_and_asserted_only_when_sure() -> None:
    new = captured(
        {
            "decisions": [
                {
                    "description": "Go with Drata, Type I audit first.",
                    "evidence_quote": "Okay, we go with Drata, and we do the Type I audit first.",
                },
                {  # a line that decides nothing, taken for a decision
                    "description": "Vanta and Drata were looked at.",
                    "evidence_quote": "We looked at Vanta and Drata for the audit.",
                },
            ],
        }
    )
    call, chatter = new.decisions
    assert call.confidence is not None and chatter.confidence is not None
    assert call.confidence > chatter.confidence
    assert chatter.state == "proposed"
    assert call.model_version is not None and call.model_version.startswith("sentences-")
