"""Tasks that point back at another instead of naming what to do ("I'll do that by Friday",
"I'll have a draft by then"): which task they point at, and when they are part of it."""

from __future__ import annotations

import re

from memo_tui.core.capture.offline import cues
from memo_tui.core.capture.offline.items import LIST_MARK, TASK_LEAD, Item, says_what
from memo_tui.core.capture.offline.text import (
    as_sentence,
    clean_spoken,
    content_words,
    sentences,
    word_count,
)
from memo_tui.core.capture.sources import Turn

_BACK_REFERENCE = re.compile(r"\b(?:her|him|them|it|that|this|those|these|then)\b", re.I)
FOLLOW_ON_WORDS = 6


_WHEN = re.compile(
    r"^(?:today|tonight|tomorrow|week|month|end|next|monday|tuesday|wednesday|thursday|"
    r"friday|saturday|sunday|morning|afternoon|evening)"
)


def _new_words(step: str, task: str) -> set[str]:
    """What a step names that the task does not, dates aside ("deploy", "prod")."""
    return {w for w in content_words(step) - content_words(task) if not _WHEN.match(w)}


def follow_on(item: Item, previous: Item, turns: list[Turn]) -> bool:
    """A short step that only points back at the task just given, by its owner: in the same
    turn ("Ask our accountant whether ... I'll email her tomorrow.") or in the owner's reply
    ("Sam, you own the design doc." "I'll have a draft by then."). Part of that task."""
    if (
        not (item.kind == previous.kind == "action")
        or item.from_notes
        or word_count(item.description) > FOLLOW_ON_WORDS
        or not _BACK_REFERENCE.search(item.description)
        or len(_new_words(item.description, previous.description)) > 1
    ):
        return False
    if item.turn_index == previous.turn_index:
        return item.assignee == previous.assignee
    speaker = turns[item.turn_index].speaker or ""
    owner = previous.assignee or ""
    return (
        0 < item.turn_index - previous.turn_index <= 2
        and bool(owner)
        and speaker != turns[previous.turn_index].speaker
        and speaker.split()[:1] == owner.split()[:1]
    )


_GENERIC = frozenset(
    "do done doing have get got make made sort sorted fix fixed write finish finished ready "
    "working work complete completed something anything handle handled call look start started "
    "take care time first second third last early asap soon later back over pick instead "
    "cover grab".split()
)
_MONTHS = re.compile(
    r"^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*$|^\d|^(?:eod|cob|eow)$|"
    r"^(?:\w+-)?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|"
    r"twelfth|\w+teenth|twentieth|thirtieth)$"
)


def objectless(item: Item) -> bool:
    """A task that names nothing to do: "Do that by Friday.", "Write it up.", "Have
    something by Thursday." (its words are a generic verb, a pronoun and a date)."""
    words = content_words(item.description)
    return (
        not {w for w in words if not (_WHEN.match(w) or _MONTHS.match(w) or w in _GENERIC)}
        and not item.from_notes
    )


def pointed_task(item: Item, turns: list[Turn]) -> bool:
    """Give an object-less commitment the task it points at: the statement just before it in
    the same turn ("I'll need to cancel the balance. I'll do that by Friday."), or the
    request made to its speaker in the turn before ("Marta, burn-in test plan?" "I'll have
    it by the sixth."). The quote reaches over both. False when there is none."""
    turn = turns[item.turn_index]
    start = turn.text.find(item.quote)
    before = [s for s in sentences(turn.text) if s.start < start]
    said: str | None = None
    if before and not before[-1].text.endswith("?") and says_what(before[-1].text):
        said = before[-1].text
        item.quote = turn.text[before[-1].start : start + len(item.quote)]
    elif item.turn_index and not before:
        asked = turns[item.turn_index - 1]
        request = sentences(asked.text)[-1].text if asked.text.strip() else ""
        addressed = cues.ADDRESSED.match(request)
        if asked.speaker != turn.speaker and addressed and says_what(request):
            said = request  # the quote stays the taker's own words
    if said is None:
        return False
    task = TASK_LEAD.sub("", clean_spoken(LIST_MARK.sub("", said, count=1)), count=1)
    task = re.sub(r"^[A-Z][\w'\-]+,\s+", "", task)
    item.description = as_sentence(task.rstrip(" ?"))
    return says_what(item.description)
