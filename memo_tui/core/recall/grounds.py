"""The reason for a call, read from the turns around it (a heuristic, named as such).

People argue, then decide; the reason is seldom in the decision's own words. A sentence
gives a reason by its words ("because", "the problem is", "otherwise"; a cost, a failure, a
comparison: "crashes on Android 12", "the freight is a lot less"), by being about what was
decided (the call's and the question's words, each weighted by how rare it is among the
sentences read; it must hold one of them), and by being near it: before the call more than
after. Measured with `memo bench ask` (why-questions) on the dev set and the held-out sets.

Not used for a decision's stored `reasoning`: tried there, it found 4 more right reasons
and 5 more wrong ones on the four sets (`memo bench extract`), and a wrong reason in the
record costs more than a missing one. In an answer the turn is shown and cited, and the
reader judges it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from memo_tui.core.capture.offline import cues
from memo_tui.core.capture.offline.text import content_words, sentences
from memo_tui.core.recall.extractive import rarity

# Words that say a reason follows or is being given.
BECAUSE = re.compile(
    r"\b(?:because|'?cause|cos|due to|owing to|the reason|that's why|which means|that means|"
    r"otherwise|so that|the (?:problem|issue|risk|trouble|catch|worry|thing) (?:is|was)|"
    r"(?:is|was|it's) (?:that|just that))\b",
    re.IGNORECASE,
)
# Words of a problem or a comparison: what a reason is usually made of.
GROUNDS = re.compile(
    r"\b(?:can't|cannot|couldn't|won't|wouldn't|doesn't|didn't|isn't|wasn't|not enough|"
    r"too (?:\w+)|cheaper|dearer|expensive|costs?|price[sd]?|quality|faster|slower|safer|"
    r"better|worse|risk(?:y|s)?|crash(?:es|ed)?|fail(?:s|ed|ing|ure)?|broke(?:n)?|bugs?|"
    r"late|slip(?:s|ped)?|delay(?:s|ed)?|short(?:age)?|penalt(?:y|ies)|fees?|contract|"
    r"complain(?:ts|ed)?|worried|concern(?:s|ed)?|afraid|unless|only if|"
    r"\w+er than|more than|less|lower|higher|worth)\b",
    re.IGNORECASE,
)
BEFORE, AFTER = 8, 3  # how many turns before and after the call are read
MIN_SCORE = 0.25  # below this no sentence gives a reason (calibrated with the benches)


@dataclass(frozen=True)
class Reason:
    turn: int  # index into the turns given
    text: str  # the sentence that gives it
    score: float


def _cause(text: str) -> float:
    """How much a sentence's words say "this is why": 0 to 2."""
    strong = 1.0 if BECAUSE.search(text) or cues.REASON.search(text) else 0.0
    found = len(GROUNDS.findall(text)) + len(cues.ARGUMENT.findall(text))
    return strong + min(0.5 * found, 1.0)


def best_reason(turns: Sequence[str], at: int, about: set[str], skip: str = "") -> Reason | None:
    """The sentence among `turns` (spoken text, no speaker) near turn `at` that best gives
    the reason for the call made there; `about`: the words it is about; `skip`: the call's
    own words (a sentence made mostly of them is the call, or says what it already says)."""
    low, high = max(at - BEFORE, 0), min(at + AFTER, len(turns) - 1)
    called = content_words(skip)
    read: list[tuple[int, str, set[str]]] = []
    for index in range(low, high + 1):
        for sentence in sentences(turns[index]):
            text = sentence.text
            words = content_words(text)
            if text.rstrip().endswith("?") or len(words) < 3:
                continue
            if len(words - called) <= 2:
                continue  # the call itself, or what it already says
            read.append((index, text, words))
    if not read:
        return None
    weight = rarity([words for _, _, words in read], about)
    mass = sum(weight.values()) or 1.0
    best: Reason | None = None
    for index, text, words in read:
        if not words & about:
            continue
        held = sum(weight.get(w, 0.0) for w in words & about) / mass
        gap = at - index if index <= at else 2 * (index - at)
        score = _cause(text) * (0.5 + 2.0 * held) * (1.0 - gap / (2 * BEFORE + 2))
        if best is None or score > best.score:
            best = Reason(index, text, score)
    return best if best is not None and best.score >= MIN_SCORE else None
