"""A call taken back in the same meeting: what says so, and how much of the call it names."""

from __future__ import annotations

import re

from memo_tui.core.capture.formats.base import Turn
from memo_tui.core.capture.offline.text import content_words, sentences

REVERSAL_REACH = 4  # turns back a call may have been taken back in ("scrap door seven")
OBJECTION = re.compile(r"^\W*(?:wait|no|hang on|hold on|actually)\b", re.I)
STRONG_REVERSAL = re.compile(
    r"scratch that|change of plan|on second thought|let'?s not|instead|rather than|"
    r"changed? (?:our|my) minds?|no longer|revers|overturn|walk(?:ing)? (?:that )?back|"
    r"\bscrap\b|\bditch\b|forget (?:that|it|the)\b|not happening",
    re.I,
)
_LETS_NOT = re.compile(r"let'?s not", re.I)


def taken_back(quote: str, turn_index: int, turns: list[Turn]) -> str | None:
    """The sentence that took a call back just before the one quoted: "scratch that",
    "instead", "scrap door seven" by the same speaker in the last few turns, or someone's
    "Wait, no."."""
    turn = turns[turn_index]
    said = turn.text[: turn.text.find(quote) + len(quote)]
    for back in range(turn_index, max(turn_index - REVERSAL_REACH, -1), -1):
        earlier = turns[back]
        text = said if back == turn_index else earlier.text
        if earlier.speaker == turn.speaker:
            found = [s.text for s in sentences(text) if STRONG_REVERSAL.search(s.text)]
            if found:
                return found[-1]
        elif back == turn_index - 1 and OBJECTION.match(earlier.text):
            return earlier.text
    return None


def naming(trigger: str | None) -> int:
    """How many of a call's words a retraction must name: one after "scrap" ("scrap door
    seven") or an objection ("Wait, no."), two when all it says is "let's not" ("let's not
    set the ticket price" takes back no call on how many tickets)."""
    if trigger and _LETS_NOT.search(trigger):
        return 1 if STRONG_REVERSAL.search(_LETS_NOT.sub("", trigger)) else 2
    return 1


# "Nobody approved any overage.", "We never agreed to that.", "No, that was never decided."
_DENIAL = re.compile(
    r"^\W*(?:(?:no|nope|wait)\W+)?(?:nobody|no one|no-one|we never|I never|that was never|"
    r"(?:that|this)(?:'s| is) not (?:true|right|what)|we did(?:n't| not)|nothing was|never)\b",
    re.I,
)
DENIAL_REACH = 2  # turns after a claimed call in which someone else may deny it


def denied(quote: str, turn_index: int, turns: list[Turn]) -> bool:
    """Whether someone else denies a call just after it was said ("We agreed to skip the
    review." / "We never agreed to skip it."): the denial names something of the call."""
    speaker = turns[turn_index].speaker
    words = content_words(quote)
    for turn in turns[turn_index + 1 : turn_index + 1 + DENIAL_REACH]:
        if turn.speaker == speaker:
            continue
        if _DENIAL.match(turn.text) and words & content_words(turn.text):
            return True
    return False
