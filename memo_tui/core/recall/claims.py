"""Does a model's answer keep to its sources? The numbers and dates it states, looked for in
the facts each sentence cites; and its words: a sentence that shares none with the facts it
cites is about something else ("The office lease was renewed [2]", where [2] is a vendor
call)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from textwrap import shorten

from memo_tui.core.capture.offline.text import content_words_and_parts
from memo_tui.core.capture.subject import DATE_MARK, SCALES, is_date, is_number, ungrouped, values
from memo_tui.core.recall.citations import CITATION
from memo_tui.core.recall.extractive import SENTENCE_END
from store import FactRecord


def unsupported_claim(answer: str, facts: Sequence[FactRecord]) -> str:
    """The first claim of an answer's sentence that the facts it cites do not hold: a number
    or date in none of them (their text, or their meeting's date), as "<value> is in none of
    [n]"; or, for a sentence of two words or more of its own, no word of theirs (nor their
    meeting's title), as "'<sentence>' shares no word with [n]". "" when every cited
    sentence keeps to its facts. A number of one digit is let pass (model and speaker may
    count differently: "two" and "a couple")."""
    for sentence in SENTENCE_END.split(answer):
        numbers = [int(n) for n in CITATION.findall(sentence) if 0 < int(n) <= len(facts)]
        if not numbers:
            continue
        cited = [facts[n - 1] for n in numbers]
        sources = " ".join(f"{f.text} {f.occurred_at or ''} {f.capture_title or ''}" for f in cited)
        where = "".join(f"[{n}]" for n in numbers)
        held = _held_numbers(sources)
        claim = re.sub(r"\s+(?=[.,;:!?])", "", CITATION.sub("", sentence)).strip()
        for value in sorted(values(claim)):
            bare = value.lstrip(DATE_MARK)
            stated = (is_number(value) or is_date(value)) and bare[:1].isdigit()
            if stated and len(bare) > 1 and bare not in held:
                return f"{bare} is in none of {where}"
        words = content_words_and_parts(claim) - _FRAMING
        if len(words) >= 2 and not words & content_words_and_parts(sources):
            return f"'{shorten(claim, 60, placeholder='…')}' shares no word with {where}"
    return ""


# How an answer speaks of its sources, not what it claims ("according to the facts").
_FRAMING = content_words_and_parts(
    "fact facts according mentioned mentions source sources record records based provided "
    "states stated says said noted notes meeting meetings answer answers"
)


_SCALED = re.compile(r"\b([\w.]+)[ -](hundred|thousand|million)\b", re.IGNORECASE)


def _held_numbers(text: str) -> set[str]:
    """Every number the text holds, as digits: written ("5,000"), said ("forty", "five
    thousand") or part of a date."""
    text = ungrouped(text)
    held = {v.lstrip(DATE_MARK) for v in values(text)} | set(re.findall(r"\d+(?:\.\d+)?", text))
    for amount, scale in _SCALED.findall(text):
        said = values(amount)
        base = next((v for v in said if is_number(v)), None)
        if base is not None:
            held.add(str(int(float(base) * SCALES[scale.lower()])))
    return held
