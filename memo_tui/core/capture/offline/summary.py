"""An honest extractive summary and the meeting's meta (attendees, topics, outcomes)."""

from __future__ import annotations

import calendar
import re
from collections import Counter

from memo_tui.core.capture.evidence import is_spoken
from memo_tui.core.capture.offline.text import STOPWORDS, clean_spoken, stem
from memo_tui.core.capture.sources import Transcript
from memo_tui.core.capture.untrusted import addresses_a_model, forged, not_the_meetings
from memo_tui.core.llm.schemas import (
    ExtractedActionItem,
    ExtractedDecision,
    Extraction,
    ExtractionMeta,
)

_WORD = re.compile(r"[^\W\d_][\w\-]{3,}")
_CALENDAR = frozenset(
    name.lower()
    for name in (*calendar.day_name, *calendar.month_name[1:], "today", "tomorrow", "week")
)


def topics(transcript: Transcript, limit: int = 6) -> list[str]:
    """Frequent content words (plurals folded together), names of things weighted up."""
    people = [*transcript.speakers, *transcript.attendees]
    ignored = {w.lower() for name in people for w in name.split()} | _CALENDAR
    counts: Counter[str] = Counter()
    forms: dict[str, Counter[str]] = {}
    for index, turn in enumerate(transcript.turns):
        if not_the_meetings(transcript, index) or not is_spoken(turn, transcript.title):
            continue  # nor is "Date: …" or "Attendees: …" what the meeting was about
        for word in _WORD.findall(clean_spoken(turn.text)):
            lower = word.lower()
            if lower in STOPWORDS or lower in ignored:
                continue
            key = stem(lower)
            named = word[0].isupper() and not turn.text.startswith(word)
            counts[key] += 2 if named else 1
            shouted = word.isupper() and len(word) > 5  # PILOT, not JSONB
            forms.setdefault(key, Counter())[lower if shouted else word] += 1
    return [forms[key].most_common(1)[0][0] for key, _ in counts.most_common(limit)]


def _names(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _owners(actions: list[ExtractedActionItem], attendees: list[str]) -> list[str]:
    """Who owes something, each once: a first name that fits one full name in the room is
    that person ("Elena" and "Elena Kowalski"); one that fits two ("Sam") stays as said."""
    said = {a.assignee for a in actions if a.assignee}
    full = {n for n in [*said, *attendees] if len(n.split()) > 1}
    owners = set()
    for name in said:
        fits = {f for f in full if f.split()[0].lower() == name.lower()}
        owners.add(fits.pop() if len(name.split()) == 1 and len(fits) == 1 else name)
    return sorted(owners)


def summarize(
    transcript: Transcript,
    decisions: list[ExtractedDecision],
    actions: list[ExtractedActionItem],
) -> Extraction:
    """Compose the summary from what was found; it says what it is."""
    attendees = transcript.attendees or [
        s for s in transcript.speakers if not addresses_a_model("", s) and not forged(s)
    ]
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
    holds = [d for d in decisions if d.status == "current"]  # a replaced call is history
    if holds:
        shown = "; ".join(d.description.rstrip(".") for d in holds[:3])
        more = f" (and {len(holds) - 3} more)" if len(holds) > 3 else ""
        summary += f" Decided: {shown}{more}."
    else:
        summary += " No decisions recorded."
    owed = [a for a in actions if a.status != "dropped"]  # a request turned down is owed by no one
    owners = _owners(owed, attendees)
    summary += f" {len(owed)} action item{'s' if len(owed) != 1 else ''}"
    summary += f" (owners: {_names(owners)})." if owners else "."
    return Extraction(
        summary=summary,
        meta=ExtractionMeta(
            attendees=attendees,
            topics=found_topics,
            outcomes=[d.description for d in holds],
        ),
        decisions=decisions,
        action_items=actions,
    )
