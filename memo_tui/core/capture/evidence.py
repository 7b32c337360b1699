"""Verify evidence quotes against the transcript and turn them into line ranges.

A quote verifies only as a real span of speech: inside one spoken turn (not a title, a
date or an attendee line), at least MIN_WORDS words or a whole turn or sentence, and about
the item it supports (a content word in common, names and "decided" aside).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from memo_tui.core.capture.formats.base import Turn
from memo_tui.core.capture.offline.text import content_words, sentences
from memo_tui.core.capture.untrusted import strip_invisible

_FOLD = str.maketrans(
    {
        "\u2019": "'",
        "\u2018": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2013": "-",
        "\u2014": "-",
        "\u00a0": " ",
    }
)
_EDGES = " .,;:!?\"'"

# A quote this many words long is a span of speech; a shorter one must be a whole turn
# or a whole sentence of one.
MIN_WORDS = 5
# Reasoning said within this many lines of the quote widens the evidence range to include it.
REASONING_REACH = 12
# Lines that say what the meeting was (its title, date, who came), not what was said in it.
_HEADER = re.compile(
    r"^\W*(?:title|subject|meeting|date|time|when|where|location|attendees?|attendance|"
    r"participants|present|absent|apologies|regrets|chair|facilitator|scribe|recorded|"
    r"transcript)[*_\s]*:",
    re.I,
)
_HEADING = re.compile(r"^\s*#")
_SPACES = re.compile(r"\s+")
# Words that say an item was settled, not what it is about: sharing only these is no match.
_PROCEDURAL = content_words("decide decided decides decision decisions agree agreed action item")
# A speaker's label at the start of a quote ("Maria: ..."), when the turn's line has one.
_LABEL = re.compile(r"^[^:]{1,60}:\s*")


def _fold(text: str) -> str:
    visible = strip_invisible(text)
    return unicodedata.normalize("NFKC", visible).translate(_FOLD).casefold()


def _squash(text: str) -> str:
    """Text as quotes are compared: folded, one space between words, no edge punctuation."""
    return _SPACES.sub(" ", _fold(text)).strip(_EDGES)


@dataclass(frozen=True)
class Located:
    line_start: int
    line_end: int


class EvidenceIndex:
    """The transcript folded (case, quotes, dashes, whitespace) for quote lookup."""

    def __init__(self, lines: list[str]) -> None:
        pieces: list[str] = []
        char_lines: list[int] = []
        for number, line in enumerate(lines, start=1):
            # Each line ends in a space, so a space that starts the next one is dropped.
            piece = _SPACES.sub(" ", _fold(line) + " ")
            if pieces and piece.startswith(" "):
                piece = piece[1:]
            pieces.append(piece)
            char_lines.extend([number] * len(piece))
        self._text = "".join(pieces)
        self._char_lines = char_lines

    def locate(self, quote: str) -> Located | None:
        """The lines a quote spans, or None when it does not occur in the transcript."""
        return next(self.occurrences(quote), None)

    def occurrences(self, quote: str) -> Iterator[Located]:
        """The lines of every place a quote occurs, in order; none for under 3 characters."""
        needle = _squash(quote)
        if len(needle) < 3:
            return
        start = self._text.find(needle)
        while start >= 0:
            end = start + len(needle) - 1
            yield Located(self._char_lines[start], self._char_lines[end])
            start = self._text.find(needle, start + 1)


@dataclass(frozen=True)
class Verdict:
    """Where a quote was said, or why it does not count as evidence."""

    lines: tuple[int, int] | None
    why: str | None = None


def is_spoken(turn: Turn, title: str | None) -> bool:
    """Whether a turn is something said or noted, not the title, date or roster line."""
    if turn.speaker:
        return True
    text = turn.text.strip()
    if _HEADER.match(text) or _HEADING.match(text):
        return False
    return not (title and _squash(text.strip("#* ")) == _squash(title))


class SpeechEvidence:
    """A transcript's spoken turns, for checking the quotes extracted items rest on."""

    def __init__(
        self,
        lines: list[str],
        turns: Sequence[Turn],
        title: str | None = None,
        names: Iterable[str] = (),
    ) -> None:
        self.index = EvidenceIndex(lines)
        self._turn_at = {
            line: turn
            for turn in turns
            if is_spoken(turn, title)
            for line in range(turn.line, turn.end + 1)
        }
        self._not_topics = content_words(" ".join(names)) | _PROCEDURAL

    def _in_turns(self, quote: str) -> list[tuple[Located, Turn]]:
        """Each place the quote occurs inside one spoken turn, with that turn."""
        found = []
        for at in self.index.occurrences(quote):
            turn = self._turn_at.get(at.line_start)
            if turn is not None and at.line_end <= turn.end:
                found.append((at, turn))
        return found

    def check(self, quote: str, supports: str, reasoning: str | None = None) -> Verdict:
        """The quote's lines when it is a real span of speech about `supports` (widened to
        the reasoning when that was said close by), else why it is not."""
        spoken = self._in_turns(quote)
        if not spoken:
            said = self.index.locate(quote) is not None
            return Verdict(None, "not within one spoken turn" if said else "not in the transcript")
        whole = next((at for at, turn in spoken if _long_enough(quote, turn)), None)
        # (where the item's words were said is looked for before the place the quote stands
        # whole: "Forty six." is also inside "That's forty six vehicles." just before it)
        told = (
            None
            if _squash(supports) in _squash(quote)
            else self._near(supports, whole or spoken[0][0])
        )
        if told is None and not self._about(quote, supports):
            return Verdict(None, "shares no topic word with the item")
        if whole is None:
            return Verdict(None, f"under {MIN_WORDS} words and not a whole turn or sentence")
        start, end = self._widened(whole, reasoning)
        if told is not None:  # the item's words were said a few turns off: the range holds them
            start, end = min(start, told.line_start), max(end, told.line_end)
        return Verdict((start, end))

    def _near(self, words: str, found: Located) -> Located | None:
        """Where an item's own words were said, in one spoken turn a little before its quote
        took them up ("Marta, burn-in test plan?" ... "I'll write it up."; "Seven pounds
        fifty adult" ... "Seven fifty it is.")."""
        before = [
            at
            for at, _ in self._in_turns(words)
            if 0 < found.line_start - at.line_start <= REASONING_REACH
        ]
        return before[-1] if before else None

    def _about(self, quote: str, item: str) -> bool:
        """A content word of the item in the quote, names and "decided" aside; an item with
        no other word ("We should decide now.") must be in the quote's own words."""
        wanted = content_words(item) - self._not_topics
        if wanted:
            return bool(content_words(quote) & wanted)
        words = set(re.findall(r"\w+", _fold(item)))
        return bool(words) and words <= set(re.findall(r"\w+", _fold(quote)))

    def _widened(self, found: Located, reasoning: str | None) -> tuple[int, int]:
        start, end = found.line_start, found.line_end
        said = self._in_turns(reasoning) if reasoning else []
        if said and abs(said[0][0].line_start - start) <= REASONING_REACH:
            start, end = min(start, said[0][0].line_start), max(end, said[0][0].line_end)
        return start, end


def _long_enough(quote: str, turn: Turn) -> bool:
    """At least MIN_WORDS words of speech, or the whole turn or whole sentences of it (its
    speaker's label aside)."""
    said = _squash(quote)
    if turn.speaker and _LABEL.match(said) and _squash(turn.speaker) in said.split(":")[0]:
        said = _LABEL.sub("", said, count=1)
    if len(re.findall(r"\w+", said)) >= MIN_WORDS or said == _squash(turn.text):
        return True
    whole = [s.text for s in sentences(turn.text)]
    return any(  # whole sentences, one or a run ("Okay, Hopwell Wharf. Done.")
        said == _squash(" ".join(whole[i:j]))
        for i in range(len(whole))
        for j in range(i + 1, len(whole) + 1)
    )
