"""Does a model's answer keep to its sources? The numbers and dates it states, looked for in
the facts each sentence cites."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memo_tui.core.capture.subject import DATE_MARK, is_date, is_number, values
from memo_tui.core.recall.citations import CITATION
from memo_tui.core.recall.extractive import SENTENCE_END
from store import FactRecord


def unsupported_claim(answer: str, facts: Sequence[FactRecord]) -> str:
    """The first number or date an answer's sentence states that none of the facts it cites
    holds (in their text, or as their meeting's date), as "<value> is in none of [n]"; ""
    when every cited sentence keeps to its facts. A number of one digit is let pass (model
    and speaker may count differently: "two" and "a couple")."""
    for sentence in SENTENCE_END.split(answer):
        numbers = [int(n) for n in CITATION.findall(sentence) if 0 < int(n) <= len(facts)]
        if not numbers:
            continue
        sources = " ".join(f"{facts[n - 1].text} {facts[n - 1].occurred_at or ''}" for n in numbers)
        held = _held_numbers(sources)
        for value in sorted(values(_grouped(CITATION.sub("", sentence)))):
            bare = value.lstrip(DATE_MARK)
            stated = (is_number(value) or is_date(value)) and bare[:1].isdigit()
            if stated and len(bare) > 1 and bare not in held:
                return f"{bare} is in none of {''.join(f'[{n}]' for n in numbers)}"
    return ""


_GROUPED = re.compile(r"(?<=\d),(?=\d{3}\b)")


_SCALED = re.compile(r"\b([\w.]+)[ -](hundred|thousand|million)\b", re.IGNORECASE)


_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}


def _grouped(text: str) -> str:
    """ "5,000" as "5000", so it reads as one number."""
    return _GROUPED.sub("", text)


def _held_numbers(text: str) -> set[str]:
    """Every number the text holds, as digits: written ("5,000"), said ("forty", "five
    thousand") or part of a date."""
    text = _grouped(text)
    held = {v.lstrip(DATE_MARK) for v in values(text)} | set(re.findall(r"\d+(?:\.\d+)?", text))
    for amount, scale in _SCALED.findall(text):
        said = values(amount)
        base = next((v for v in said if is_number(v)), None)
        if base is not None:
            held.add(str(int(float(base) * _SCALES[scale.lower()])))
    return held
