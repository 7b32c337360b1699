"""Which earlier decision of the meeting a later one only says again, or replaces (the
same subject with a changed value, or the earlier call named where it was taken back)."""

from __future__ import annotations

import re

from memo_tui.core.capture.offline import call_values as cv
from memo_tui.core.capture.offline import reversals
from memo_tui.core.capture.offline.items import Item
from memo_tui.core.capture.offline.text import content_words
from memo_tui.core.capture.sources import Turn
from memo_tui.core.capture.subject import changed_values


def _subject(item: Item, turns: list[Turn]) -> set[str]:
    """What a decision is about: its words, and when it says little ("Let's do it, door
    seven."), the words of its turn and of the turn it answers."""
    words = _topic(item.quote)
    if len(words - cv.values(item.quote)) < 3:
        words |= _topic(turns[item.turn_index].text)
        if item.turn_index:
            words |= _topic(turns[item.turn_index - 1].text)
    return words


def _topic(text: str) -> set[str]:
    """The words of substance ("let's", "we'll" say nothing of what a call is about)."""
    return {w for w in content_words(text) if "'" not in w}


def repeated(item: Item, kept: list[Item]) -> Item | None:
    """An earlier call of the meeting this one only says again: every value it sets and
    every word it says beside them, the earlier said too ("We open on the 18th of June." in
    the recap, after "We open to the public on Thursday the 18th of June instead."); a bare
    "Fifteen it is." only echoes a call made a few turns before."""
    values, said = cv.values(item.quote), cv.said_words(item.quote)
    if item.from_notes or item.kind != "decision" or not values:
        return None
    for earlier in reversed(kept):
        if not said and item.turn_index - earlier.turn_index > cv.CHOICE_REACH:
            return None
        if earlier.kind != "decision" or earlier.from_notes or earlier.superseded_by:
            continue
        if values <= cv.values(earlier.quote) and said <= content_words(earlier.quote):
            return earlier
    return None


def superseded(item: Item, kept: list[Item], turns: list[Turn]) -> Item | None:
    """The earlier decision of this meeting that this one replaces: the same subject (shared
    key words, not only nearness), and either the earlier call named where it was taken
    back ("scrap door seven") or a changed value ("freeze on the 20th", then "code freeze
    is the 27th", with more than one word of the subject shared)."""
    if item.from_notes or item.kind != "decision":
        return None
    trigger = reversals.taken_back(item.quote, item.turn_index, turns)
    if trigger and any(k.quote in trigger or trigger in k.quote for k in kept):
        trigger = (
            None  # a call of its own ("we're moving the launch to the 16th"), not a retraction
        )
    named = _topic(trigger) | cv.values(trigger) if trigger else set()
    subject = _subject(item, turns) | named
    values = cv.values(item.quote)
    best: tuple[int, tuple[int, int], Item] | None = None
    for earlier in kept:
        if earlier.kind != "decision" or earlier.from_notes or earlier.superseded_by:
            continue
        shared = len(cv.what(subject & _subject(earlier, turns)))
        theirs = cv.values(earlier.quote)
        changed = cv.changed(values, theirs) or bool(
            changed_values(cv.amounts(item.quote), cv.amounts(earlier.quote))
        )
        called_off = len(named & (_topic(earlier.quote) | theirs)) >= reversals.naming(trigger)
        same = (called_off and shared >= 1) or (shared >= 2 and changed)
        if same and (best is None or (shared, earlier.position) > best[:2]):
            best = (shared, earlier.position, earlier)
    if best is None and trigger and _BACK_TO_IT.search(trigger):
        return _just_called(item, kept, turns)  # "Scratch that, we go with Parcelwise instead."
    return best[2] if best else None


# A call taken back by pointing at it, not naming it: "scratch that", "X instead".
_BACK_TO_IT = re.compile(
    r"\b(?:scratch|forget|scrap|drop) (?:that|it|this)\b|\binstead\b(?! of\b)|change of plan|"
    r"on second thought",
    re.I,
)


def _just_called(item: Item, kept: list[Item], turns: list[Turn]) -> Item | None:
    """The speaker's own call a moment before, when this one sets another value for it."""
    speaker = turns[item.turn_index].speaker
    values = cv.values(item.quote)
    for earlier in reversed(kept):
        if item.turn_index - earlier.turn_index > reversals.REVERSAL_REACH:
            return None
        if earlier.kind != "decision" or earlier.from_notes or earlier.superseded_by:
            continue
        theirs = cv.values(earlier.quote)
        if turns[earlier.turn_index].speaker == speaker and cv.changed(values, theirs):
            return earlier
    return None
