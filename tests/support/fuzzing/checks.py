"""The capture path and the mail readers as memo runs them, and what their output promises:
turns' lines inside the text, real dates, no NUL in what memo stores, mail as memo keeps it."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

from hypothesis import event
from hypothesis.control import currently_in_test_context

from memo_tui.core.capture import dedup, guards
from memo_tui.core.capture.decode import normalize_newlines
from memo_tui.core.capture.errors import CaptureRejected
from memo_tui.core.capture.files import read_file
from memo_tui.core.capture.offline import extract
from memo_tui.core.capture.record import build_capture
from memo_tui.core.capture.sources import Transcript, captured_name, parse
from memo_tui.core.email.importer import render_thread
from memo_tui.core.email.message import Mail, MalformedMail, normalize_address, parse_mail
from memo_tui.core.email.read import Skipped, read_messages
from memo_tui.core.email.threads import Threader, bulk_reason
from store import EmailMessageRecord, NewCapture

MAX_CHARS = 100_000  # CaptureOptions' default

# ---- the capture path, and what its output promises -------------------------------------


def seen(what: str) -> None:
    """Counted in hypothesis' statistics (--hypothesis-show-statistics), when fuzzing."""
    if currently_in_test_context():
        event(what)


def captured(path: Path, max_chars: int = MAX_CHARS) -> Transcript | None:
    """What `memo capture` makes of a file before it writes: None when it refuses it."""
    try:
        text, hint = read_file(path, max_chars)
        transcript = parsed(text, captured_name(path), hint, max_chars)
    except CaptureRejected as refused:
        assert refused.reason and refused.message
        seen(f"refused: {refused.reason}")
        return None
    seen(f"read as {transcript.source_format}")
    return transcript


def parsed(text: str, name: str, hint: str, max_chars: int = MAX_CHARS) -> Transcript:
    """Text as turns once past the guards, as CaptureService reads it."""
    guards.check_text(name, text, max_chars)
    transcript = parse(normalize_newlines(text), name, hint)
    guards.check_stored(name, transcript.text, max_chars)
    return transcript


def stored_text_is_clean(text: str) -> None:
    assert "\x00" not in text
    text.encode("utf-8")  # no lone surrogate: the store writes UTF-8


def check_transcript(transcript: Transcript) -> None:
    """A transcript's turns sit inside its text, in order, and say what its lines say."""
    for text in (transcript.text, transcript.raw_text):
        stored_text_is_clean(text)
    lines = transcript.lines
    file_lines = transcript.raw_text.count("\n") + 1
    previous = 0
    for turn in transcript.turns:
        assert previous < turn.line <= turn.end <= len(lines), turn
        previous = turn.end
        first, last = turn.source_lines
        assert 1 <= first <= last <= file_lines, turn
        assert turn.text.strip(), turn
        assert turn.speaker is None or (turn.speaker.strip() and "\n" not in turn.speaker)
        if not transcript.as_written:
            said = f"{turn.speaker}: {turn.text}" if turn.speaker else turn.text
            assert lines[turn.line - 1] == said, turn
    assert transcript.occurred_at is None or type(transcript.occurred_at) is dt.date
    assert transcript.title is None or "\n" not in transcript.title


def check_extraction(transcript: Transcript) -> NewCapture:
    """The offline extractor over the transcript, and the capture built from what it found:
    every item's lines inside the text, every due date a real date."""
    capture = build_capture(
        transcript,
        extract(transcript),
        content_hash=dedup.content_hash(transcript.text),
        signature=dedup.signature(transcript.text),
        source_path=None,
        source_kind="file",
        extractor="offline",
        user="fuzz",
    )
    for item in (*capture.decisions, *capture.action_items):
        if item.line_start is not None:
            assert item.line_end is not None, item
            assert 1 <= item.line_start <= item.line_end <= capture.line_count, item
    for action in capture.action_items:
        if action.due_date is not None:
            dt.date.fromisoformat(action.due_date)
    if capture.occurred_at is not None:
        dt.date.fromisoformat(capture.occurred_at)
    for text in (capture.text, capture.raw_text):
        stored_text_is_clean(text)
    return capture


def capture_checked(path: Path, max_chars: int = MAX_CHARS) -> None:
    transcript = captured(path, max_chars)
    if transcript is not None:
        check_transcript(transcript)
        check_extraction(transcript)


def written(folder: Path, stem: str, suffix: str, data: bytes) -> Path:
    for old in folder.iterdir():
        old.unlink()
    path = folder / f"{stem}.{suffix}"
    path.write_bytes(data)
    return path


# ---- HTML, mail and threads -------------------------------------------------------------


def check_html_text(text: str) -> None:
    """One line to a block, whitespace collapsed, at most one blank line in a row."""
    assert "\n\n\n" not in text
    assert text == text.strip()
    for line in text.split("\n"):
        assert line == " ".join(line.split()), line


_BODY_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200b-\u200f\ufeff]"
)
_ID = re.compile(r"^<[^<>\s]+>$")


def check_mail(mail: Mail) -> None:
    """A message as memo keeps it: real addresses, ids in brackets, one-line headers, a body
    without controls, a UTC time."""
    for person in (mail.sender, *mail.to, *mail.cc):
        assert person.address and normalize_address(person.address) == person.address, person
        assert "\n" not in person.name
    assert _ID.match(mail.message_id) and all(_ID.match(r) for r in mail.references)
    for header in (mail.subject, mail.list_id, mail.unsubscribe, mail.precedence):
        assert "\n" not in header and "\r" not in header and "\x00" not in header
    assert not _BODY_UNSAFE.search(mail.body)
    mail.body.encode("utf-8")
    assert mail.sent_at is None or mail.sent_at.utcoffset() == dt.timedelta(0)
    assert mail.attachments >= 0


def read_or_refused(data: bytes) -> Mail | None:
    """parse_mail's message, or None for its refusal (MalformedMail)."""
    try:
        mail = parse_mail(data)
    except MalformedMail as refused:
        assert str(refused)
        return None
    check_mail(mail)
    return mail


def record_of(mail: Mail, key: str, number: int) -> EmailMessageRecord:
    """A message as the store hands it back (importer._new, then a read)."""
    return EmailMessageRecord(
        id=number,
        message_id=mail.message_id,
        thread_key=key,
        capture_id=None,
        sent_at=mail.sent_at.isoformat() if mail.sent_at else None,
        subject=mail.subject,
        sender_name=mail.sender.name,
        sender_address=mail.sender.address,
        recipients=[{"name": p.name, "address": p.address} for p in (*mail.to, *mail.cc)],
        references=mail.references,
        body=mail.body,
        bulk_reason=bulk_reason(mail),
        list_id=mail.list_id,
        unsubscribe=mail.unsubscribe,
        source_path=None,
    )


def check_threads(mails: list[Mail]) -> None:
    """Threads of the mail, each as the transcript memo captures, read by the extractor."""
    threader = Threader()
    threads: dict[str, list[EmailMessageRecord]] = {}
    for number, mail in enumerate(mails, start=1):
        key = f"bulk:{mail.sender.address}" if bulk_reason(mail) else threader.assign(mail)
        threads.setdefault(key, []).append(record_of(mail, key, number))
    for records in threads.values():
        transcript, meta = render_thread(records)
        check_transcript(transcript)
        check_extraction(transcript)
        json.dumps(meta)


def read_mail_source(path: Path) -> None:
    """Every message of a source read or skipped (never an exception), then threaded."""
    mails = []
    for item in read_messages(path):
        assert isinstance(item, Mail | Skipped)
        if isinstance(item, Mail):
            check_mail(item)
            mails.append(item)
    check_threads(mails)


# ---- dates ------------------------------------------------------------------------------


def check_date(found: object) -> None:
    assert found is None or type(found) is dt.date
    if isinstance(found, dt.date):
        assert dt.date.fromisoformat(found.isoformat()) == found
