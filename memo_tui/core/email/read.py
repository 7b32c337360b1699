"""Where mail comes from: an mbox file (Gmail Takeout, Thunderbird), a Maildir folder, or
.eml files. Messages are read one at a time (an mbox is scanned for where each message
starts, then read message by message), so memory stays flat however large the archive.
"""

from __future__ import annotations

import mailbox
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from memo_tui.core.email.message import Mail, MalformedMail, parse_mail

MAIL_SUFFIXES = (".mbox", ".eml")
MAX_MESSAGE_BYTES = 25_000_000  # a message larger than this is skipped, not read


@dataclass(frozen=True)
class Skipped:
    """A message that could not be read: where, and why."""

    where: str
    reason: str


def is_mail_source(path: Path) -> bool:
    return path.suffix.lower() in MAIL_SUFFIXES or is_maildir(path)


def is_maildir(path: Path) -> bool:
    return path.is_dir() and all((path / sub).is_dir() for sub in ("cur", "new", "tmp"))


def count_messages(path: Path) -> int | None:
    """How many messages a source holds, when that is cheap to know (for progress and
    ETA); None for an mbox, which would need a pass of its own."""
    if path.suffix.lower() == ".eml":
        return 1
    if is_maildir(path):
        return sum(1 for sub in ("cur", "new") for f in (path / sub).iterdir() if f.is_file())
    return None


def read_messages(
    path: Path, read: Callable[[int], None] | None = None
) -> Iterator[Mail | Skipped]:
    """Every message of the source, in the order stored; unreadable ones as Skipped. For an
    mbox, `read` hears how many bytes have been read so far (for an ETA)."""
    if path.suffix.lower() == ".eml":
        yield _one(path.name, _read_file(path))
    elif is_maildir(path):
        box = mailbox.Maildir(path, factory=None, create=False)
        for key in sorted(box.keys()):  # a stable order: re-imports see the same sequence
            yield _one(f"{path.name}/{key}", _get(box, key))
    else:
        yield from _mbox(path, read or (lambda _: None))


def _mbox(path: Path, read: Callable[[int], None]) -> Iterator[Mail | Skipped]:
    """An mbox, message by message, by hand (the stdlib's mailbox.mbox would first index the
    whole file): a "From " line at the start of the file or after a blank line starts the
    next message."""
    number = 0
    chunk: list[bytes] = []
    size = 0
    blank_before = True
    done = 0
    with path.open("rb") as handle:
        for raw in handle:
            done += len(raw)
            if raw.startswith(b"From ") and blank_before:
                if chunk or size:
                    number += 1
                    read(done)
                    yield _one(f"{path.name} message {number}", _unescape(chunk, size))
                chunk, size = [], 0
                blank_before = False
                continue
            blank_before = not raw.strip()
            size += len(raw)
            if size <= MAX_MESSAGE_BYTES:
                chunk.append(raw)
        if chunk or size:
            number += 1
            yield _one(f"{path.name} message {number}", _unescape(chunk, size))


def _unescape(lines: list[bytes], size: int) -> bytes | None:
    """The message's bytes with mboxrd's ">From " quoting undone; None if too large."""
    if size > MAX_MESSAGE_BYTES:
        return None
    return b"".join(
        line[1:] if line.startswith(b">") and line.lstrip(b">").startswith(b"From ") else line
        for line in lines
    )


def _get(box: mailbox.Maildir, key: str) -> bytes | None:
    try:
        data = box.get_bytes(key)
    except (OSError, KeyError):
        return None
    return data if len(data) <= MAX_MESSAGE_BYTES else None


def _read_file(path: Path) -> bytes | None:
    if path.stat().st_size > MAX_MESSAGE_BYTES:
        return None
    return path.read_bytes()


def _one(where: str, data: bytes | None) -> Mail | Skipped:
    if data is None:
        return Skipped(where, f"unreadable or larger than {MAX_MESSAGE_BYTES:,} bytes")
    try:
        return parse_mail(data)
    except MalformedMail as error:
        return Skipped(where, str(error))
