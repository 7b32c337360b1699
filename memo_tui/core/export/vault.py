"""Writing exported notes into a folder the user owns (an Obsidian vault, a git repo).

A re-export rewrites only what memo wrote before and the user has not touched since: a
manifest beside the notes (`.memo-export.json`) keeps the hash of what memo last wrote to
each file. A file the user edited, or one memo never wrote, is left alone and reported; no
file is ever deleted. Names come from titles and people, so each is made safe first: no
folder parts, no control characters, no leading dot, not too long.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

MANIFEST = ".memo-export.json"
LONGEST_NAME = 120  # characters of a file's stem


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


def safe_name(text: str) -> str:
    """A file stem from a title or a name: one path part, printable, no leading dot."""
    text = unicodedata.normalize("NFC", text)
    text = "".join(" " if unicodedata.category(c).startswith("C") else c for c in text)
    text = re.sub(r'[\\/:*?"<>|#^\[\]]+|\.{2,}', " ", text)  # path parts; what wiki links read
    text = re.sub(r"\s+", " ", text).strip().lstrip(".").strip()
    return text[:LONGEST_NAME].rstrip() or "untitled"


def write_notes(folder: Path, notes: list[Note]) -> Written:
    """Write `notes` under `folder` as the module says; the manifest last."""
    folder.mkdir(parents=True, exist_ok=True)
    manifest_path = folder / MANIFEST
    wrote: dict[str, str] = _read_manifest(manifest_path)
    done = Written()
    for note in notes:
        target = _inside(folder, note.path)
        new = _digest(note.text.encode())
        if target.exists():
            now = _digest(target.read_bytes())
            if now == new:
                done.unchanged.append(note.path)
                wrote[note.path] = new
                continue
            if wrote.get(note.path) != now:  # edited since memo wrote it, or never memo's
                done.skipped.append(note.path)
                continue
        target.parent.mkdir(parents=True, exist_ok=True)
        _replace(target, note.text)
        wrote[note.path] = new
        done.written.append(note.path)
    _replace(manifest_path, json.dumps(wrote, indent=1, sort_keys=True) + "\n")
    return done


def _inside(folder: Path, relative: str) -> Path:
    target = (folder / relative).resolve()
    if folder.resolve() not in target.parents:
        raise ValueError(f"{relative!r} is outside the export folder")
    return target


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
