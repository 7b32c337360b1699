"""Every crash the fuzzing found, kept in tests/data/fuzz/ and read again as its kind of
file is (a .json fixture is text for a reader, with what it is read against)."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path

from memo_tui.core.capture.dates import find_absolute_date, find_due_date
from memo_tui.core.capture.errors import CaptureRejected
from memo_tui.core.email.html import html_to_text
from support.fuzzing.checks import (
    capture_checked,
    check_date,
    check_extraction,
    check_html_text,
    check_transcript,
    parsed,
    read_mail_source,
    read_or_refused,
)
from support.paths import DATA

FIXTURES = DATA / "fuzz"


def fixtures() -> list[Path]:
    return sorted(FIXTURES.glob("*")) if FIXTURES.is_dir() else []


def replay_json(path: Path) -> None:
    """A fixture that is no file memo reads: text for a reader, with what it is read against."""
    case = json.loads(path.read_text(encoding="utf-8"))
    if case["reader"] == "dates":
        meeting = dt.date.fromisoformat(case["meeting"]) if case["meeting"] else None
        check_date(find_due_date(case["text"], meeting))
        check_date(find_absolute_date(case["text"], meeting))
    elif case["reader"] == "text":
        try:
            transcript = parsed(case["text"], "pasted.txt", "txt")
        except CaptureRejected:
            return
        check_transcript(transcript)
        check_extraction(transcript)
    elif case["reader"] == "html":
        check_html_text(html_to_text(case["text"]))
    else:
        raise AssertionError(f"{path.name}: no reader {case['reader']!r}")


REPLAY: dict[str, Callable[[Path], object]] = {
    ".txt": capture_checked,
    ".md": capture_checked,
    ".vtt": capture_checked,
    ".srt": capture_checked,
    ".docx": capture_checked,
    ".eml": lambda path: read_or_refused(path.read_bytes()),
    ".mbox": read_mail_source,
    ".json": replay_json,
}
