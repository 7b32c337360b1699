"""A language model's record held to the meeting it read, before it is stored.

The offline extractor quotes verbatim and words its items from what was said; a model may
not. So a model's item is kept to the transcript: a quote that is not a span of speech is
re-anchored to the span that best matches it (or, failing that, the item's own words), by
fuzzy alignment; a task is "done" only when the meeting says so where it was found; a
decision whose text states no choice its evidence makes ("Choose compliance platform" for
"we go with Drata, Type I first") is worded by the evidence instead; and each item is rated
by the learned judge (the probability that the sentences it rests on state an item of its
kind), so it is asserted or proposed on the same scale as the offline extractor's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from rapidfuzz import fuzz

from memo_tui.core.capture.evidence import SpeechEvidence, Verdict
from memo_tui.core.capture.offline.text import as_sentence, clean_spoken
from memo_tui.core.capture.sources import Transcript
from memo_tui.core.capture.subject import values
from memo_tui.core.capture.untrusted import not_the_meetings

if TYPE_CHECKING:
    from memo_tui.core.capture.offline.candidates import Heard
    from memo_tui.core.capture.offline.judge import Judge
    from memo_tui.core.capture.offline.judge import Verdict as Chance

ANCHOR = 90  # rapidfuzz partial ratio at which a span is the one a quote meant
_LABEL = re.compile(r"^[^:]{1,60}:\s*")
_DONE_SAID = re.compile(
    r"\b(?:already|done|finished|completed|sorted|sent (?:it|them|that)|did (?:it|that)|"
    r"dealt with|taken care of)\b",
    re.I,
)


@dataclass(frozen=True)
class Anchored:
    """A model item's quote as stored (re-anchored when it had to be) and where it was said."""

    quote: str
    verdict: Verdict
    moved: bool = False  # re-anchored to the best-matching span


class Grounding:
    """One transcript's spoken turns, for holding a model's items to them."""

    def __init__(self, transcript: Transcript, evidence: SpeechEvidence) -> None:
        self.transcript = transcript
        self.evidence = evidence
        self._spoken = [
            turn
            for index, turn in enumerate(transcript.turns)
            if turn.speaker and not not_the_meetings(transcript, index)
        ]

    def anchored(self, quote: str, supports: str, reasoning: str | None = None) -> Anchored:
        """The quote's lines, or the best-matching span's when the quote is no span of
        speech about the item (a label glued on, a word changed, a turn about something
        else): first for the quote, then for the item's own words."""
        verdict = self.evidence.check(quote, supports, reasoning)
        if verdict.lines is not None:
            return Anchored(quote, verdict)
        for wanted in (quote, supports):
            span = self._best_span(_LABEL.sub("", wanted, count=1))
            if span is None or span == quote:
                continue
            again = self.evidence.check(span, supports, reasoning)
            if again.lines is not None:
                return Anchored(span, again, moved=True)
        return Anchored(quote, verdict)

    def _best_span(self, wanted: str) -> str | None:
        """The span of one spoken turn most like `wanted` (whole words), if alike enough."""
        needle = wanted.strip().lower()
        if len(needle.split()) < 3:
            return None
        best: tuple[float, str] | None = None
        for turn in self._spoken:
            text = turn.text
            if len(text) < len(needle) * 0.8:
                continue
            found = fuzz.partial_ratio_alignment(needle, text.lower(), score_cutoff=ANCHOR)
            if found is not None and (best is None or found.score > best[0]):
                best = (found.score, _whole_words(text, found.dest_start, found.dest_end))
        return best[1] if best else None

    def said_done(self, lines: tuple[int, int] | None) -> bool:
        """Whether the lines an item rests on say it is done already."""
        if lines is None:
            return False
        said = " ".join(self.transcript.lines[lines[0] - 1 : lines[1]])
        return bool(_DONE_SAID.search(said))

    def rating(self, kind: str, lines: tuple[int, int] | None, quote: str) -> float | None:
        """The judge's probability that the sentences an item rests on state an item of its
        kind (words and cues only: the same for every extractor); None when unplaced."""
        if lines is None:
            return None
        turns = self.transcript.turns
        inside = [
            (n, h)
            for n, h in enumerate(self._heard)
            if lines[0] <= turns[h.said.turn].line <= lines[1]
        ]
        quoted = [(n, h) for n, h in inside if _overlaps(h.said.text, quote)] or inside
        if not quoted:
            return None
        chances = self._chances
        return max(float(getattr(chances[n], kind)) for n, _ in quoted)

    def stating_the_choice(self, description: str, quote: str) -> str:
        """A decision's text, or its evidence's words when the text names none of the
        choices the evidence makes (a name, an amount, a date; the people in the room are
        no choice): "Choose compliance platform" for "we go with Drata, Type I first" is no
        record of what was chosen."""
        said = _LABEL.sub("", quote, count=1)
        chosen = values(said, opens=False) - self._names
        if not chosen or chosen & values(description, opens=False):
            return description
        return as_sentence(clean_spoken(said))

    @cached_property
    def _names(self) -> set[str]:
        named = [*self.transcript.speakers, *self.transcript.attendees]
        return {w.lower() for name in named for w in re.findall(r"[\w'\-]+", name)}

    @cached_property
    def _heard(self) -> list[Heard]:
        from memo_tui.core.capture.offline.candidates import heard

        return heard(self.transcript)

    @cached_property
    def _chances(self) -> list[Chance]:
        return self.judge.judge([h.said for h in self._heard])

    @cached_property
    def judge(self) -> Judge:
        from memo_tui.core.capture.offline.judge import shipped

        return shipped()


def _overlaps(sentence: str, quote: str) -> bool:
    a, b = sentence.lower(), quote.lower()
    return a in b or b in a or fuzz.partial_ratio(a, b) >= ANCHOR


def _whole_words(text: str, start: int, end: int) -> str:
    """The span widened to whole words and trimmed of edge spaces and commas."""
    while start > 0 and text[start - 1].isalnum():
        start -= 1
    while end < len(text) and text[end].isalnum():
        end += 1
    return text[start:end].strip(" ,;")
