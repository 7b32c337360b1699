"""Why a call was made, as said around it: a reason given in the same sentence ("… because
the racking's late", "- reason: …"), a "because" in its turn or shortly before, what the
turn before a conclusion said, or the argument made before the call."""

from __future__ import annotations

import re

from memo_tui.core.capture.offline import cues
from memo_tui.core.capture.offline.text import content_words, sentences, word_count
from memo_tui.core.capture.sources import Turn

ARGUMENT_REACH = 20  # turns before a decision searched for the argument behind it


def split_reason(sentence: str) -> tuple[str, str | None]:
    labelled = cues.REASON_LABEL.search(sentence)
    if labelled:
        return sentence[: labelled.start()], sentence[labelled.end() :].rstrip(" )")
    match = cues.REASON.search(sentence)
    if (
        match
        and word_count(sentence[: match.start()]) >= 4
        and word_count(sentence[match.end() :]) >= 3
    ):
        main = _DANGLING.sub("", sentence[: match.start()].rstrip(" ,;-\u2014"))
        return main, sentence[match.start() :]
    return sentence, None


# "it's for the store page and | because the headroom's there": the call ends before "and".
_DANGLING = re.compile(r"[\s,;]+(?:and|but|or|so)$", re.I)


def nearby_reason(turns: list[Turn], index: int, quote: str, topic: set[str]) -> str | None:
    """Why, as said: a "because" in the same turn on the same topic (or right after the
    call); for a call drawn as a conclusion ("Then we're not doing swap stations."), what
    the turn before said; else a "because" shortly before by anyone, on the same topic."""
    text = turns[index].text
    start = text.find(quote)
    said = [s for s in sentences(text) if s.text not in quote]
    next_one = next((s for s in said if s.start > start), None)
    for sentence in said:
        right_after = sentence is next_one and _BECAUSE_FIRST.match(sentence.text)
        if (
            cues.REASON.search(sentence.text)
            and word_count(sentence.text) >= 5
            and (right_after or topic & content_words(sentence.text))
        ):
            return sentence.text
    if _CONCLUSION.match(quote) and index:
        given = _given(turns, index, topic)
        if given:
            return given
    for back in range(index - 1, max(index - 4, -1), -1):
        for sentence in sentences(turns[back].text):
            text = sentence.text
            if cues.REASON.search(text) and "?" not in text and topic & content_words(text):
                return text
    # No "because" nearby: the argument made before the call, on the topic of its whole turn.
    return _argument_before(turns, index, topic | content_words(turns[index].text))


_BECAUSE_FIRST = re.compile(r"^\W*(?:because|since|that'?s because|the reason|cause)\b", re.I)
_CONCLUSION = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|right|fine|yeah|yes)\W+)*(?:then|so|in that case|given that)\b", re.I
)


def _given(turns: list[Turn], index: int, topic: set[str]) -> str | None:
    """What the turn before a conclusion said, as its reason: its statements (not
    questions), when they share the call's topic."""
    before = turns[index - 1]
    if before.speaker == turns[index].speaker:
        return None
    stated = [s.text for s in sentences(before.text) if not s.text.endswith("?")]
    if not stated or not topic & content_words(" ".join(stated)):
        return None
    return " ".join(stated[:2])


def _argument_before(turns: list[Turn], index: int, topic: set[str]) -> str | None:
    """The argument made shortly before a decision that shares most of its topic."""
    best: tuple[int, int, str] | None = None
    for back in range(max(index - ARGUMENT_REACH, 0), index):
        for sentence in sentences(turns[back].text):
            text = sentence.text
            if "?" in text or word_count(text) < 6 or not cues.ARGUMENT.search(text):
                continue
            shared = len(topic & content_words(text))
            if shared and (best is None or (shared, back) >= best[:2]):
                best = (shared, back, text)
    return best[2] if best else None
