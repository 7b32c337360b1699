"""A decision or task as the rules carry it from finding to merging (`Item`), and what
the steps share about how one is said: the marks its text starts with, and whether a sentence
names what it is about or gives someone a task."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from memo_tui.core.capture.offline.people import owner_in_text
from memo_tui.core.capture.offline.text import content_words

# "(done)" or a closing "done": the item was done already.
DONE = re.compile(r"\(\s*done\s*\)|\bdone\b\s*$", re.I)


# What a line of notes may start with before its words: a bullet, a box, a date.
LIST_MARK = re.compile(
    r"^\s*(?:[-*+\u2022\u2013\u2014]\s+|[a-z0-9]{1,2}[.)]\s+|\[[ xX]?\]\s*|\d{4}-\d{2}-\d{2}:?\s+)+"
)


# "Can you", "I'll", "Tom is going to": the words before the task itself.
TASK_LEAD = re.compile(
    r"^(?:[A-Z][\w\-]+,?\s+)?(?:(?:[Cc]an|[Cc]ould|[Ww]ould) "
    r"(?:you|your (?:team|lot|people|folks|side)) (?:please )?|"
    r"[Ii] (?:want|need) you to |"
    r"(?:[Ii]|you|he|she|they|[A-Z][\w'\-]{1,30}(?:\s+[A-Z][\w'\-]{1,30}){0,2})\s*"
    r"(?:will|'ll|is going to|'s going to|are going to|'re going to|am going to|'m going to|"
    r"is gonna|'m gonna|'re gonna|to|can|should|needs to|has to|is to)\s+)(?:also\s+|just\s+)?",
)


@dataclass
class Item:
    """A decision or task found in a meeting, as the rules carry it to the record."""

    kind: str
    position: tuple[int, int]  # (turn, offset in the turn)
    turn_index: int
    quote: str
    reasoning: str | None = None
    decided_by: str | None = None
    assignee: str | None = None
    due: dt.date | None = None
    done: bool = False
    dropped: bool = False  # asked, and turned down
    from_notes: bool = False
    description: str = ""
    superseded_by: Item | None = None  # a later decision of the meeting replaced it
    changes: Item | None = None  # the call it gives another value to, after an objection
    consumed: list[tuple[int, int]] = field(default_factory=list)  # sentences its quote took in
    confidence: float | None = None  # the judge's probability that it is one (None: rules)


PRONOUN_START = re.compile(r"^\W*(?:I|you|he|she|it|that|this|they|there)\b", re.I)


VOCATIVE = re.compile(r"^\W*(?:(?i:and|so|also|then|ok|okay)\W+)?(?P<name>[A-Z][\w'\-]+),\s")


I_WILL = re.compile(r"\b[Ii](?:'ll| will)\b")  # "i'll" as speech to text writes it


def personal(sentence: str) -> bool:
    """A sentence that gives a task to someone in particular ("I'll", "Tom will")."""
    return owner_in_text(sentence) is not None or bool(I_WILL.search(sentence))


EMPTY_WORDS = frozenset(
    "way plan going thing idea then okay good fine thanks thank cheers bye everyone".split()
)


def says_what(text: str) -> bool:
    """Whether a sentence names what it is about ("do it that way, then" does not)."""
    return bool({w for w in content_words(text) if "'" not in w} - EMPTY_WORDS)
