"""Writing exported notes into a folder the user owns (an Obsidian vault, a git repo).

A re-export rewrites only what memo wrote before and the user has not touched since: a
manifest beside the notes (`.memo-export.json`) keeps the hash of what memo last wrote to
each file. A file the user edited, or one memo never wrote, is left alone and reported; no
file is ever deleted, and one memo wrote that it no longer makes is reported as stale.
Names come from titles and people, so each is made safe first: no folder parts, no
control characters, no leading dot, not too long.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

MANIFEST = ".memo-export.json"
LONGEST_NAME = 150  # bytes of a file's stem in UTF-8 (file systems count bytes, to 255)


@dataclass(frozen=True)
class Note:
    path: str  # relative to the folder, "/" between parts
    text: str


@dataclass
class Written:
    """What an export did to each file (relative paths)."""

    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # the user's edits (or files), kept
    failed: dict[str, str] = field(default_factory=dict)  # path: why it could not be written
    # Notes memo wrote before that this export no longer makes (their meeting, person or
    # decision is gone, or was captured again): left in place, and said.
    stale: list[str] = field(default_factory=list)
    retired: list[str] = field(default_factory=list)  # stale ones memo marked as such


def safe_name(text: str) -> str:
    """A file stem from a title or a name: one path part, printable, no leading dot."""
    text = unicodedata.normalize("NFC", text)
    text = "".join(" " if unicodedata.category(c).startswith("C") else c for c in text)
    text = re.sub(r'[\\/:*?"<>|#^\[\]]+|\.{2,}', " ", text)  # path parts; what wiki links read
    text = re.sub(r"\s+", " ", text).strip().lstrip(".").strip()
    cut = text.encode()[:LONGEST_NAME].decode(errors="ignore")  # never half a character
    return cut.rstrip() or "untitled"


def write_notes(
    folder: Path, notes: list[Note], retire: Callable[[str], str] | None = None
) -> Written:
    """Write `notes` under `folder` as the module says. A file that cannot be written is
    reported and the rest go on; the manifest is written whatever happened. `retire` turns
    a stale note's text into what it should say now (a record marked as no longer held); it
    is applied only to a stale note nobody touched since memo wrote it."""
    folder.mkdir(parents=True, exist_ok=True)
    manifest_path = folder / MANIFEST
    wrote: dict[str, str] = _read_manifest(manifest_path)
    done = Written()
    try:
        for note in notes:
            try:
                _write(folder, note, wrote, done)
            except (OSError, ValueError) as error:
                done.failed[note.path] = str(error)
        made = {note.path for note in notes}
        done.stale = sorted(p for p in wrote if p not in made and (folder / p).exists())
        for path in done.stale:
            try:
                if retire is not None and _retire(folder, path, retire, wrote):
                    done.retired.append(path)
            except (OSError, ValueError) as error:  # (UnicodeDecodeError is a ValueError)
                done.failed[path] = str(error)
    finally:
        _replace(manifest_path, json.dumps(wrote, indent=1, sort_keys=True) + "\n")
    return done


def _write(folder: Path, note: Note, wrote: dict[str, str], done: Written) -> None:
    target = folder / _inside(note.path)
    new = _digest(note.text.encode())
    if target.exists():
        now = _digest(target.read_bytes())
        if now == new:
            done.unchanged.append(note.path)
            wrote[note.path] = new
            return
        if wrote.get(note.path) != now:  # edited since memo wrote it, or never memo's
            done.skipped.append(note.path)
            return
    target.parent.mkdir(parents=True, exist_ok=True)
    _replace(target, note.text)
    wrote[note.path] = new
    done.written.append(note.path)


def _retire(folder: Path, path: str, retire: Callable[[str], str], wrote: dict[str, str]) -> bool:
    """Whether the stale note now says it is retired (a note the user edited stays theirs)."""
    target = folder / _inside(path)
    data = target.read_bytes()
    if _digest(data) != wrote.get(path):
        return False
    text = data.decode("utf-8")
    if (now := retire(text)) != text:  # (once: a retired note is not written again)
        _replace(target, now)
        wrote[path] = _digest(now.encode())
    return True


def _inside(relative: str) -> PurePosixPath:
    """The note's path, refused when it could leave the folder (the folder's own links,
    say a symlinked people/ in a vault, are the user's to make)."""
    path = PurePosixPath(relative)
    if path.is_absolute() or ".." in path.parts or not path.parts:
        raise ValueError(f"{relative!r} is outside the export folder")
    return path


def _read_manifest(path: Path) -> dict[str, str]:
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in loaded.items()} if isinstance(loaded, dict) else {}


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _replace(target: Path, text: str) -> None:
    """All or nothing: a reader never sees half a file."""
    partial = target.with_name(target.name + ".memo-tmp")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, target)
