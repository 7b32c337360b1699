"""What a call sets and says: its values (numbers, dates, names), whether a value was set
again differently, and its words beside them."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from memo_tui.core.capture.formats.base import Turn
from memo_tui.core.capture.offline.text import content_words, sentences
from memo_tui.core.capture.subject import CALENDAR, is_date
from memo_tui.core.capture.subject import is_number as is_amount
from memo_tui.core.capture.subject import values as subject_values

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


def amounts(text: str) -> set[str]:
    """The amounts and dates a statement sets, read as said ("one thirty-nine" is 139,
    "twenty fourth" a day); names are left out (a vocative "Dom" sets nothing)."""
    return {v for v in subject_values(text) if is_amount(v) or is_date(v)}


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
                return said if _first_amount(said) in chosen else None
    return None


_AMOUNT = re.compile(rf"\d+(?:\.\d+)?|\b(?:{'|'.join(sorted(NUMBER_WORDS))})\b", re.I)


def _first_amount(text: str) -> str | None:
    """The amount a statement puts forward first: "Five is nicer than four." puts forward
    five, so "Four it is." did not choose it."""
    found = _AMOUNT.search(text)
    return None if found is None else (found.group().lower().lstrip("0") or "0")


_ASKING = re.compile(
    r"^\W*(?:can|could|should|shall|do|does|is|are|will|would|what|how|why|if|maybe)\b", re.I
)


def same_amounts(earlier: str, later: str) -> bool:
    """Whether `later` states again every amount `earlier` set ("let's say eighty-five
    all-in", then "capped at eighty-five thousand"): the same call, said more fully. A doubt
    or a question about it ("Can I live with twenty-four...") says nothing again."""
    spelled = {w.lower() for w in re.findall(r"[\w'\-]+", earlier)}
    amounts = {v for v in values(earlier) if is_number(v)} | {
        w for w in spelled if "-" in w and all(p in NUMBER_WORDS for p in w.split("-"))
    }
    said = values(later) | {w.lower() for w in re.findall(r"[\w'\-]+", later)}
    stated = not later.rstrip().endswith(("?", "...", "\u2026")) and not _ASKING.match(later)
    return bool(amounts) and amounts <= said and stated


class _Said(Protocol):
    """A call as the extractor holds it while it merges a meeting's calls."""

    @property
    def quote(self) -> str: ...
    @property
    def turn_index(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def from_notes(self) -> bool: ...
    @property
    def superseded_by(self) -> object: ...


_S = TypeVar("_S", bound=_Said)


RESTATE_REACH = 3  # turns within which a call said again is the same call


def restated(item: _S, kept: Sequence[_S], turns: list[Turn]) -> _S | None:
    """A decision said again a moment later by someone else, with the same values ("ok,
    shadow week w/c 13 Apr it is" then "Agreed. Shadow week = w/c 13 Apr, not the 20th."),
    or by the same speaker straight after, with the same amounts ("let's say eighty-five
    all-in", then "the budget is capped at eighty-five thousand")."""
    if item.from_notes or item.kind != "decision":
        return None
    ours = values(item.quote)
    for earlier in reversed(kept):
        if item.turn_index - earlier.turn_index > RESTATE_REACH:
            return None
        if earlier.kind != "decision" or earlier.from_notes or earlier.superseded_by:
            continue
        if turns[earlier.turn_index].speaker == turns[item.turn_index].speaker:
            near = item.turn_index - earlier.turn_index <= 1
            if near and same_amounts(earlier.quote, item.quote):
                return earlier
            continue
        theirs = values(earlier.quote)
        said, before = said_words(item.quote), said_words(earlier.quote)
        if ours and theirs and ours & theirs and said & before and not said ^ before:
            return earlier  # the same values, and nothing else said differently
    return None
