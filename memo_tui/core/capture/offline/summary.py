"""An honest extractive summary and the meeting's meta (attendees, topics, outcomes)."""

from __future__ import annotations

import re
from collections import Counter

from memo_tui.core.capture.offline.text import STOPWORDS, clean_spoken
from memo_tui.core.capture.sources import Transcript
from memo_tui.core.llm.schemas import (
    ExtractedActionItem,
    ExtractedDecision,
    Extraction,
    ExtractionMeta,
)

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9\-]{3,}")


def topics(transcript: Transcript, limit: int = 6) -> list[str]:
    """Frequent content words, capitalized terms (names of things) weighted up."""
    speakers = {w.lower() for s in transcript.speakers for w in s.split()}
    counts: Counter[str] = Counter()
    display: dict[str, str] = {}
    for turn in transcript.turns:
        for word in _WORD.findall(clean_spoken(turn.text)):
            key = word.lower()
            if key in STOPWORDS or key in speakers:
                continue
            counts[key] += 2 if word[0].isupper() and not turn.text.startswith(word) else 1
            display.setdefault(key, word)
    return [display[w] for w, _ in counts.most_common(limit)]


def _names(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def summarize(
    transcript: Transcript,
    decisions: list[ExtractedDecision],
    actions: list[ExtractedActionItem],
) -> Extraction:
    """Compose the summary from what was found; it says what it is."""
    attendees = transcript.attendees or transcript.speakers
    found_topics = topics(transcript)
    parts = [f"{transcript.title or 'Meeting'}"]
    if transcript.occurred_at:
        parts[0] += f" ({transcript.occurred_at.isoformat()})"
    if attendees:
        parts.append(
            f"with {_names(attendees[:8])}" + (" and others" if len(attendees) > 8 else "")
        )
    summary = " ".join(parts) + "."
    if found_topics:
        summary += f" Discussed: {', '.join(found_topics)}."
    if decisions:
        shown = "; ".join(d.description.rstrip(".") for d in decisions[:3])
        more = f" (and {len(decisions) - 3} more)" if len(decisions) > 3 else ""
        summary += f" Decided: {shown}{more}."
    else:
        summary += " No decisions recorded."
    owners = sorted({a.assignee for a in actions if a.assignee})
    summary += f" {len(actions)} action item{'s' if len(actions) != 1 else ''}"
    summary += f" (owners: {_names(owners)})." if owners else "."
    return Extraction(
        summary=summary,
        meta=ExtractionMeta(
            attendees=attendees,
            topics=found_topics,
            outcomes=[d.description for d in decisions],
        ),
        decisions=decisions,
        action_items=actions,
    )
