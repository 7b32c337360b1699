"""Where mail comes from: an mbox file (Gmail Takeout, Thunderbird), a Maildir folder, or
.eml files. Messages are read one at a time (an mbox is scanned for where each message
starts, then read message by message), so memory stays flat however large the archive.
"""

from __future__ import annotations

import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from memo_tui.core.email.message import Mail, MalformedMail, parse_mail

MAIL_SUFFIXES = (".mbox", ".eml")
MAX_MESSAGE_BYTES = 25_000_000  # a message larger than this is skipped, not read
LINE_LIMIT = 1 << 20  # an mbox is read at most this much at a time


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
        return len(_maildir_files(path))
    return None


def _maildir_files(path: Path) -> list[Path]:
    """The messages of a Maildir: names in cur/ and new/ (hidden ones are not mail)."""
    return sorted(
        f for sub in ("cur", "new") for f in (path / sub).iterdir() if not f.name.startswith(".")
    )


def read_messages(
    path: Path, read: Callable[[int], None] | None = None
) -> Iterator[Mail | Skipped]:
    """Every message of the source, in the order stored; unreadable ones as Skipped. For an
    mbox, `read` hears how many bytes have been read so far (for an ETA)."""
    if path.suffix.lower() == ".eml":
        yield _one(path.name, _read_file(path))
    elif is_maildir(path):
        for file in _maildir_files(path):  # a stable order: re-imports see the same sequence
            yield _one(f"{path.name}/{file.parent.name}/{file.name}", _read_file(file))
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
        while raw := handle.readline(LINE_LIMIT):  # a line with no end is read in pieces
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


def _read_file(path: Path) -> bytes | None:
    """A regular file's bytes, if small enough: never a symbolic link (it could lead out of
    the archive), a FIFO (it would block) or a device (it would never end)."""
    try:
        info = path.lstat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_MESSAGE_BYTES:
            return None
        with path.open("rb") as handle:
            data = handle.read(MAX_MESSAGE_BYTES + 1)
    except OSError:
        return None
    return data if len(data) <= MAX_MESSAGE_BYTES else None


def _one(where: str, data: bytes | None) -> Mail | Skipped:
    if data is None:
        return Skipped(where, f"unreadable or larger than {MAX_MESSAGE_BYTES:,} bytes")
    try:
        return parse_mail(data)
    except MalformedMail as error:
        return Skipped(where, str(error))
    except (RecursionError, MemoryError, OverflowError, LookupError, ValueError) as error:
        return Skipped(where, f"unreadable ({type(error).__name__})")
