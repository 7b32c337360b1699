"""What a call sets and says: its values (numbers, dates, names), whether a value was set
again differently, and its words beside them."""

from __future__ import annotations

import re
from collections.abc import Callable

from memo_tui.core.capture.formats.base import Turn
from memo_tui.core.capture.offline.text import content_words, sentences
from memo_tui.core.capture.subject import CALENDAR

NUMBER_WORDS = frozenset(
    "one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty "
    "forty fifty sixty seventy eighty ninety hundred first second third fourth fifth half".split()
)


def values(text: str) -> set[str]:
    """What a decision sets: numbers, dates and names ("the 20th", "forty", "PagerDuty")."""
    found = {n.lstrip("0") or "0" for n in re.findall(r"\d+(?:\.\d+)?", text)}
    words = re.findall(r"[\w'\-]+", text)
    found |= {w.lower() for w in words if w.lower() in NUMBER_WORDS}
    found |= {w.lower() for w in words[1:] if w[0].isupper() and w != "I" and "'" not in w}
    return found


def changed(values: set[str], theirs: set[str]) -> bool:
    """A value set again differently: a number for a number, a day or month for a day or
    month, a name for a name ("the 20th" then "the 27th", "Slack" then "PagerDuty"); a name
    and a number are not one value changed ("Voltaic it is", then "burn-in on the first ten
    packs"), nor a name and a month ("Parcelwise instead of Brightline" after "Monday the
    16th of March")."""
    kinds: tuple[Callable[[str], bool], ...] = (
        is_number,
        lambda v: v in CALENDAR,
        lambda v: not is_number(v) and v not in CALENDAR,
    )
    for kind in kinds:
        ours, before = {v for v in values if kind(v)}, {v for v in theirs if kind(v)}
        if ours and before and ours.isdisjoint(before):
            return True
    return False


def what(words: set[str]) -> set[str]:
    """Subject words less the values among them: sharing "monday" or "three" makes two calls
    no more about the same thing."""
    return {w for w in words if w not in CALENDAR and not is_number(w)}


def is_number(value: str) -> bool:
    return value[:1].isdigit() or value in NUMBER_WORDS


CALL_WORDS = frozenset("agreed agree decided decide final confirm confirmed settled done".split())


def said_words(quote: str) -> set[str]:
    """What a statement of a decision says beyond its values and its call words."""
    found = values(quote)
    return {w for w in content_words(quote) if w not in found and w not in CALL_WORDS}


CHOICE_REACH = 6  # turns back an amount chosen in a few words may have been put forward


def chosen_from(quote: str, turn_index: int, turns: list[Turn]) -> str | None:
    """ "Seven fifty it is.": a call that names only an amount (not "Brightline it is.") says
    what was chosen, not what for. The statement that put it forward a few turns before says
    it ("Seven pounds fifty adult, six for concessions"): the decision is described by it."""
    chosen = values(quote)
    if not chosen or not all(is_number(v) for v in chosen) or said_words(quote):
        return None
    for back in range(turn_index - 1, max(turn_index - CHOICE_REACH, -1), -1):
        for sentence in reversed(sentences(turns[back].text)):
            said = sentence.text
            if not said.endswith("?") and chosen <= values(said) and said_words(said):
                return said
    return None
