"""Verify evidence quotes against the transcript and turn them into line ranges."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

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


def _fold(text: str) -> str:
    visible = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return unicodedata.normalize("NFKC", visible).translate(_FOLD).casefold()


@dataclass(frozen=True)
class Located:
    line_start: int
    line_end: int


class EvidenceIndex:
    """The transcript folded (case, quotes, dashes, whitespace) for quote lookup."""

    def __init__(self, lines: list[str]) -> None:
        chars: list[str] = []
        char_lines: list[int] = []
        for number, line in enumerate(lines, start=1):
            for char in _fold(line) + " ":
                if char.isspace():
                    if chars and chars[-1] == " ":
                        continue
                    char = " "
                chars.append(char)
                char_lines.append(number)
        self._text = "".join(chars)
        self._char_lines = char_lines

    def locate(self, quote: str) -> Located | None:
        """The lines a quote spans, or None when it does not occur in the transcript."""
        needle = re.sub(r"\s+", " ", _fold(quote)).strip(" .,;:!?\"'")
        if len(needle) < 3:
            return None
        start = self._text.find(needle)
        if start < 0:
            return None
        end = start + len(needle) - 1
        return Located(self._char_lines[start], self._char_lines[end])
