"""The files a capture reads: folders walked for the allowed kinds (hidden files and Word's
lock files left out), and each file's text with the format its name or content says."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from memo_tui.core.capture import guards
from memo_tui.core.capture.decode import decode
from memo_tui.core.capture.errors import CaptureRejected
from memo_tui.core.capture.formats.docx import docx_text, is_docx


def read_file(path: Path, max_chars: int) -> tuple[str, str]:
    """A file's text and the format its name hints at ("docx" for a Word document, by
    its content, whatever the name says)."""
    source_format = guards.source_format(path)
    data = guards.read_source(path, max_chars)
    if source_format == "docx" or is_docx(data):
        return docx_text(data, path.name), "docx"
    return decode(data, path.name), source_format


def iter_sources(paths: Iterable[Path]) -> Iterator[tuple[Path, CaptureRejected | None]]:
    """Each file to capture; folders recurse over allowed files, hidden ones skipped."""
    for path in paths:
        if path.is_symlink() and not path.exists():
            yield path, CaptureRejected("missing", f"{path}: a broken or looping symbolic link")
        elif not path.exists():
            yield path, CaptureRejected("missing", f"{path}: no such file or folder")
        elif path.is_dir():
            yield from _folder(path)
        else:
            yield path, None


def _folder(folder: Path) -> Iterator[tuple[Path, CaptureRejected | None]]:
    """The allowed files in a folder and below it. A symbolic link is followed only to a
    file inside the folder: one that leads out of it is refused, not read (a link to
    /etc/passwd dropped in a shared folder must not become a meeting)."""
    found = sorted(
        p
        for p in folder.rglob("*")
        if p.suffix.lower() in guards.ALLOWED_SUFFIXES
        and not any(part.startswith(".") for part in p.relative_to(folder).parts)
        and not p.name.startswith("~$")  # the lock file Word keeps beside a document
        and p.is_file()
    )
    if not found:
        allowed = ", ".join(guards.ALLOWED_SUFFIXES)
        yield folder, CaptureRejected("empty_folder", f"{folder}: no {allowed} files here")
    inside = folder.resolve()
    for file in found:
        if file.resolve().is_relative_to(inside):
            yield file, None
        else:
            yield (
                file,
                CaptureRejected(
                    "outside",
                    f"{file}: a symbolic link to a file outside {folder}, not followed (capture "
                    "that file by its own name if you mean to)",
                ),
            )
