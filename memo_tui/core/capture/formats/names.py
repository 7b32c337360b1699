"""Speaker labels: `Name: text` lines, and the labels that only look like speakers."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

_NAME_WORD = r"[A-Z\u00c0-\u024f][\w.'\u2019\-]{0,30}"
_PARTICLE = r"de|van|von|der|da|di|del|le|la|al|bin|ibn"
SPEAKER = (
    rf"(?:{_NAME_WORD}|Dr\.|Mr\.|Ms\.|Mrs\.)"
    rf"(?:[ \t](?:[A-Z0-9\u00c0-\u024f][\w.'\u2019\-]{{0,30}}|{_PARTICLE})){{0,4}}"
)
TIMESTAMP = r"(?:\d{1,2}:)?\d{1,2}:\d{2}(?:[.,]\d{1,3})?"
TS_PREFIX = re.compile(rf"^\s*[\[(]?{TIMESTAMP}[\])]?\s*[-\u2013\u2014]?\s*")
NAME_LINE = re.compile(rf"^{SPEAKER}$")
_SPEAKER_LINE = re.compile(
    rf"^(?:\*\*)?(?P<name>{SPEAKER})(?:\*\*)?(?:\s*[\[(]{TIMESTAMP}[\])])?"
    rf"\s*(?:\*\*)?:(?:\*\*)?\s+(?P<text>\S.*)$"
)

# Words that end in a colon at the start of a line but are labels, not people.
LABELS = frozenset(
    """
    date time when where location attendees attendee participants present absent apologies
    agenda title subject topic topics meeting note notes agreed agreement decision decisions
    decided action actions todo summary re fyi update updates status owner owners due project
    client q a question answer warning error example outcome outcomes risk risks blocker
    blockers goal goals context background problem solution result results purpose next
    follow followup followups reminder important tl;dr tldr ps p.s nb n.b step steps edit
    http https file link url parking lot open questions minutes chair facilitator scribe
    regrets absent recorded transcript
    """.split()
)

_MULTIWORD_LABELS = frozenset(
    [
        "action item",
        "action items",
        "next step",
        "next steps",
        "open questions",
        "parking lot",
        "follow up",
        "key decisions",
        "key points",
        "meeting notes",
        "to do",
        "due date",
    ]
)


def is_label(name: str) -> bool:
    """ "Agenda:", "Next steps:", "Decision 2:" are labels; "Project Manager:" is a speaker."""
    words = name.lower().replace("*", "").split()
    if not words:
        return True
    if " ".join(w.strip() for w in words) in _MULTIWORD_LABELS:
        return True
    return words[0] in LABELS and all(w.isdigit() for w in words[1:])


def split_speaker(line: str) -> tuple[str | None, str]:
    """`Name: text` (optionally after a timestamp or in **bold**) → (name, text)."""
    stripped = TS_PREFIX.sub("", line, count=1) if TS_PREFIX.match(line) else line
    match = _SPEAKER_LINE.match(stripped.strip())
    if match and not is_label(match["name"]) and len(match["name"]) <= 40:
        return match["name"].strip(), match["text"].strip()
    return None, stripped.strip()


def recurring_names(lines: Iterable[str], least: int = 2) -> set[str]:
    """Names written before a colon at the start of `least` lines or more: the display
    names an export writes before every line, whatever their shape ("jb lefevre",
    "Priya Shah (she/her)"), which the strict speaker pattern would miss."""
    counts: Counter[str] = Counter()
    for line in lines:
        head, colon, _ = line.partition(":")
        head = head.strip()
        if (
            colon
            and 0 < len(head) <= 60
            and len(head.split()) <= 6
            and not is_label(head)
            and not re.search(r"[.!?,;\"]|\d{2}", head)
        ):
            counts[head] += 1
    return {name for name, count in counts.items() if count >= least}


def name_prefix(text: str, known: set[str]) -> tuple[str | None, str]:
    """`Name: text` where Name is a speaker by the strict pattern, or one of `known`
    (display names an export writes before every line, whatever their shape)."""
    head, colon, rest = text.partition(":")
    if colon and head.strip() in known and rest.strip():
        return head.strip(), rest.strip()
    speaker, said = split_speaker(text)
    return speaker, said
