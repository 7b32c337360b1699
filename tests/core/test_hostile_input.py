"""Hostile text: inputs built to make regular expressions or the extractor blow up.

Each case is near the 100,000-character cap. The limit here is generous (a catastrophic
pattern takes minutes); speed itself is measured by `memo bench extract`.
"""

from __future__ import annotations

import pytest
from support.timing import deadline

from memo_tui.core.capture import dedup
from memo_tui.core.capture.errors import CaptureRejected
from memo_tui.core.capture.excerpts import excerpts
from memo_tui.core.capture.offline import extract
from memo_tui.core.capture.sources import parse

N = 99_000
CASES = {
    "capitalized hyphen chain": ("txt", "Priya: " + "A-" * (N // 2)),
    "unclosed braces": ("txt", "Priya: We decided " + "{" * N),
    "unclosed curly quotes": ("txt", "Priya: We decided to " + "\u201cabc " * (N // 5)),
    "unclosed voice tags": ("vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n" + "<v " * (N // 3)),
    "unclosed tags": ("vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n" + "<a" * (N // 2)),
    "one huge word": ("txt", "Priya: " + "a" * N),
    "capitalized words": ("txt", "Priya: " + "Tom " * (N // 4)),
    "spaces before a timestamp": ("txt", "Priya Natarajan" + " " * N + "0:04\nhello\n"),
    "wide heading-like line": ("md", "# " + "Decisions " * (N // 10)),
    "many decisions": (
        "txt",
        "\n".join(f"Priya: We decided to use tool{i} for service{i}." for i in range(N // 50)),
    ),
    "many actions": (
        "txt",
        "\n".join(f"Priya: Tom will send report{i} by Friday." for i in range(N // 45)),
    ),
    "speaker-like labels": ("txt", "\n".join("Aa Bb Cc Dd Ee Ff Gg: x" for _ in range(N // 24))),
    "nested parentheses": ("md", "## Decisions\n- Agreed (" + "(" * N + "\n"),
    "because chain": ("txt", "Priya: " + "we decided because " * (N // 19)),
    "chat head never closed": ("txt", "10:00:00 From " + "a to " * (N // 5)),
    "chat heads": ("txt", "10:00:00 From A to Everyone:\n\tok\n" * (N // 35)),
    "meet title never ends": ("txt", "x " * (N // 2) + "- Transcript"),
    "thousands of cues": (
        "vtt",
        "WEBVTT\n\n" + "1\n00:00:01.000 --> 00:00:02.000\n<v A>x</v>\n\n" * (N // 45),
    ),
    "timing lines in a row": ("srt", "00:00:01,000 --> 00:00:02,000\n" * (N // 30)),
    "roster item of brackets": ("md", "## Attendees\n- " + "(" * N),
    "dashes before an otter turn": (
        "txt",
        "-" * (N - 40) + "\nAna Lima  0:04\nhi\n\nRaj  0:05\nok\n",
    ),
    "arrow chains": ("vtt", "WEBVTT\n\n" + "0:" + "-" * (N // 2) + ">\nx\n"),
    "speaker header spaces": ("txt", "Priya" + " " * 80 + "0:04\n" + "Sam  0:05\nhi\n" * (N // 20)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_hostile_text_is_processed_in_bounded_time(case: str) -> None:
    source_format, text = CASES[case]
    text = text[:100_000]
    with deadline(10):
        try:
            transcript = parse(text, f"2026-09-08-x.{source_format}", source_format)
        except CaptureRejected:
            return  # nothing in it reads as speech: refused, in bounded time
        extract(transcript)
        excerpts(transcript)
        dedup.signature(text)


def test_distinct_decisions_are_not_merged() -> None:
    text = (
        "Priya: We decided to use Postgres for billing.\n"
        "Sam: We decided to use Postgres for search.\n"
    )
    result = extract(parse(text, "t.txt", "txt"))
    assert len(result.decisions) == 2


@pytest.mark.parametrize(
    "said",
    [
        "Tom will send the report in 999999 weeks.",
        "Tom will send the report in 99999999999999999999 days.",
        "Tom will send the report tomorrow.",
    ],
)
def test_absurd_relative_dates_do_not_crash(said: str) -> None:
    text = f"Date: 9999-12-31\nPriya: {said}\n"
    result = extract(parse(text, "t.txt", "txt"))
    assert len(result.action_items) == 1
