"""What a found decision says: the statement it is about (reaching over the sentence beside
it when the call itself says little), who made it, and the reason given."""

from __future__ import annotations

import re

from memo_tui.core.capture.offline import call_values as cv
from memo_tui.core.capture.offline import cues
from memo_tui.core.capture.offline.items import (
    EMPTY_WORDS,
    PRONOUN_START,
    Item,
    personal,
    says_what,
)
from memo_tui.core.capture.offline.reasoning import nearby_reason, split_reason
from memo_tui.core.capture.offline.text import (
    Sentence,
    as_sentence,
    clean_spoken,
    content_words,
    sentences,
    word_count,
)
from memo_tui.core.capture.sources import Turn

_DECIDED_BY = re.compile(
    r"\(?\s*(?:decided|agreed|called|approved)\s+by\s+"
    r"(?P<name>[A-Z][\w'\-]{1,30}(?:\s+[A-Z][\w'\-]{1,30})?)(?:[^)]{0,80}\))?",
)
_DECISION_LEAD = re.compile(
    r"^(?:(?:final call|that'?s decided|decision|decided|agreed|so|okay|then|actually|"
    r"scratch that|on second thought|change of plan)\b\s*[:,\u2014-]?\s*)*"
    r"(?:(?:the plan is|going forward|i'?d call this decided)\b\s*[:,\u2014-]?\s*)?",
    re.I,
)


def _with_what(item: Item, turns: list[Turn]) -> str:
    """ "We're going to do it that way, then." only says that something was decided: the
    statement after it in the same turn says what. That statement is the decision, and the
    quote reaches over both."""
    text = turns[item.turn_index].text
    start = text.find(item.quote)
    after = [s for s in sentences(text) if s.start > start]
    if not after or after[0].text.endswith("?") or not says_what(after[0].text):
        return item.quote
    if personal(after[0].text) or cues.score(after[0].text, cues.ACTION_CUES, cues.ACTION_HEDGES):
        return item.quote  # a task said next is not what was decided
    item.quote = text[start : after[0].start + len(after[0].text)]
    return after[0].text


POINTED_REACH = 2  # sentences a "That's final." may point back over


def _pointed_at(item: Item, turns: list[Turn]) -> str | None:
    """ "For the pilot, the cap is 1.2 m/s. That's final for go-live.": the call says only
    that the statement before it is final. That statement is the decision, and the quote
    reaches over both."""
    if item.from_notes or not cues.POINTS_BACK.match(item.quote):
        return None
    text = turns[item.turn_index].text
    start = text.find(item.quote)
    before = [s for s in sentences(text) if s.start < start]
    said: list[Sentence] = []
    for sentence in reversed(before[-POINTED_REACH:]):  # back to the start of the statement
        if sentence.text.endswith("?") or cues.CALL_PREAMBLE.search(sentence.text):
            break
        if says_what(sentence.text):
            said.insert(0, sentence)
    if not said:
        return None
    item.quote = text[said[0].start : start + len(item.quote)]
    item.consumed += [(item.turn_index, s.start) for s in said]
    return " ".join(s.text for s in said)


SHORT_CALL = 6  # words: a call this short is usually said more fully beside it


def _said_more(item: Item, turns: list[Turn]) -> str | None:
    """ "Let's make it six weeks. Patients can book up to six weeks ahead.", "We're not doing a
    dashboard. They get read-only accounts.", "We poll every five seconds. No webhooks.": a short
    call, or one of what is not done, or one the next words set against the other way, and the
    statement beside it in the same turn say one decision, quoted over both (and no task)."""
    if item.from_notes:
        return None
    text = turns[item.turn_index].text
    start = text.find(item.quote)
    said = sentences(text)
    after = [s for s in said if s.start > start]
    before = [s for s in said if s.start + len(s.text) <= start]
    if after and (
        (word_count(item.quote) <= SHORT_CALL or cues.ruled_out(item.quote, after[0].text))
        and _elaborates(after[0].text)
        or cues.other_way_out(after[0].text)
    ):
        item.quote = text[start : after[0].start + len(after[0].text)]
        item.consumed.append((item.turn_index, after[0].start))
        return item.quote
    if before and _elaborates(before[-1].text, fragment=True):
        item.quote = text[before[-1].start : start + len(item.quote)]
        return item.quote
    return None


_ACKNOWLEDGED = re.compile(
    r"^\W*(?:fair|sorry|honestly|right|okay|ok|good|great|fine|cool|noted|thanks|brilliant|"
    r"lovely|perfect|oh|wait)\b",
    re.I,
)


def _elaborates(text: str, fragment: bool = False) -> bool:
    """A statement that can be part of a call: not a question, not about me or you, with
    something to say (before a call, only a short verbless fragment: "Web only for the pilot.")."""
    if text.endswith("?") or PRONOUN_START.match(text) or not says_what(text):
        return False
    if fragment:  # "Web only for the pilot.", not "Agreed.", "Fair enough." or "Scrap that."
        said = content_words(text) - cv.CALL_WORDS - EMPTY_WORDS
        return (
            word_count(text) <= SHORT_CALL
            and len(said) >= 2
            and not re.search(r"\b(?:is|are|was|will|'s)\b", text)
            and not (cues.AGREEMENT.match(text) or cues.REVERSAL.search(text))
            and not _ACKNOWLEDGED.match(text)
        )
    return word_count(text) >= 4 and not cues.CONFIRMS.match(text)


def describe_decision(item: Item, turns: list[Turn]) -> None:
    """Set a decision's description, reasoning and who decided (its quote may widen)."""
    vague = not item.from_notes and not says_what(item.quote)
    quote = (
        _pointed_at(item, turns)
        or (_with_what(item, turns) if vague else None)
        or _said_more(item, turns)
        or (None if item.from_notes else cv.chosen_from(item.quote, item.turn_index, turns))
        or item.quote
    )
    by = _DECIDED_BY.search(quote)
    if by:
        item.decided_by = item.decided_by or by["name"]
        quote = (quote[: by.start()] + quote[by.end() :]).strip()
    made = cues.CALL_IN_SENTENCE.search(quote)
    if made is not None and word_count(quote[made.end() :]) >= 4:
        quote = quote[made.end() :]  # "I'm making the call - we put her line on the front."
    main, reason = split_reason(quote)
    main = _DECISION_LEAD.sub("", clean_spoken(main).lstrip(" :;,-\u2014"), count=1)
    item.description = as_sentence(main.rstrip(" ,;:-\u2014"))
    topic = content_words(main)
    item.reasoning = reason or nearby_reason(turns, item.turn_index, item.quote, topic)
    if item.reasoning:
        # Verbatim (only capitalized), so the evidence range can reach where it was said.
        item.reasoning = as_sentence(item.reasoning.strip())
    item.decided_by = item.decided_by or turns[item.turn_index].speaker
