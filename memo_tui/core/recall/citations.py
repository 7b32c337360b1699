"""Citations checked: every [n] that names no given fact is removed, from a whole answer or
from text as it streams (held back until its closing bracket shows what it names)."""

from __future__ import annotations

import re

CITATION = re.compile(r"\[(\d{1,3})\]")


SPACED_CITATION = re.compile(r"([ \t]*)\[(\d{1,3})\]")


OPEN_CITATION = re.compile(r"\s*\[\d{0,3}$")  # "[2" where the length limit cut "[2]"


def _drop_invalid(text: str, count: int) -> tuple[str, int]:
    """Remove every [n] naming no given fact, again until none is left: removing "[9]" from
    "[[9]9]" must not leave a "[9]" behind. Returns the text and how many went."""
    removed = 0
    while True:
        invalid = sum(
            1 for m in SPACED_CITATION.finditer(text) if not 1 <= int(m.group(2)) <= count
        )
        if not invalid:
            return text, removed
        removed += invalid
        text = SPACED_CITATION.sub(
            lambda m: m.group(0) if 1 <= int(m.group(2)) <= count else "", text
        )


def check_citations(answer: str, count: int) -> tuple[str, int, list[int]]:
    """Remove every [n] that names no given fact; return the answer, how many went, and
    the valid numbers cited, in order of first use."""
    cleaned, removed = _drop_invalid(answer, count)
    cited = list(dict.fromkeys(int(n) for n in CITATION.findall(cleaned)))
    tidy = re.sub(r"\s+([.,;])", r"\1", re.sub(r"[ \t]{2,}", " ", cleaned)).strip()
    return tidy, removed, cited


class CitationStream:
    """Checks citations in streamed text. A "[" is held back until its "]" shows whether it
    names a given fact, and trailing spaces until the next word, so no invented [n] (nor the
    space before it) ever reaches the screen."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.held = ""
        self.cited: list[int] = []

    def feed(self, delta: str) -> tuple[str, list[int]]:
        """(text safe to show, numbers cited for the first time)."""
        text, _ = _drop_invalid(self.held + delta, self.count)
        cut = len(text.rstrip())
        bracket = text.rfind("[")
        if bracket != -1 and "]" not in text[bracket:] and len(text) - bracket <= 5:
            cut = len(text[:bracket].rstrip())
        text, self.held = text[:cut], text[cut:]
        return text, self._fresh(text)

    def finish(self, cut: bool = False) -> tuple[str, list[int]]:
        """The text held back, at the end; `cut` (the answer stopped at the length limit)
        drops a citation it left open ("[2")."""
        text, self.held = self.held, ""
        if cut:
            text = OPEN_CITATION.sub("", text)
        text, _ = _drop_invalid(text, self.count)
        return text, self._fresh(text)

    def _fresh(self, text: str) -> list[int]:
        fresh = [int(n) for n in CITATION.findall(text) if int(n) not in self.cited]
        fresh = list(dict.fromkeys(fresh))
        self.cited += fresh
        return fresh
