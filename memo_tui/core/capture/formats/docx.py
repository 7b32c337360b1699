"""Word documents (.docx): Teams and Word transcript downloads, Google Docs saved as Word,
notes. Read as text, a paragraph a line, so the text readers and line numbers work on it;
line N of a document is its Nth paragraph line."""

from __future__ import annotations

import io
import zipfile

from memo_tui.core.capture.errors import CaptureRejected

ZIP_MAGIC = b"PK\x03\x04"
_BODY = "word/document.xml"
MAX_XML_BYTES = 64 * 1024 * 1024  # the document's XML, unpacked: refuse a zip bomb
MAX_UNPACKED_BYTES = 256 * 1024 * 1024  # every part (python-docx reads them all)


def is_docx(data: bytes) -> bool:
    """A Word document, by its content: a zip holding word/document.xml."""
    if not data.startswith(ZIP_MAGIC):
        return False
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return _BODY in archive.namelist()
    except zipfile.BadZipFile:
        return False


def docx_text(data: bytes, name: str) -> str:
    """The document's paragraphs and table rows in order, one line each."""
    unreadable = (
        f"{name} is not a Word document memo can read (%s): open it and save it again "
        "as .docx, or export the transcript as .txt or .vtt"
    )
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            body = archive.getinfo(_BODY).file_size
            unpacked = sum(part.file_size for part in archive.infolist())
    except (zipfile.BadZipFile, KeyError) as error:
        raise CaptureRejected("docx", unreadable % "no document body") from error
    if body > MAX_XML_BYTES or unpacked > MAX_UNPACKED_BYTES:
        size = f"it unpacks to {unpacked:,} bytes"
        raise CaptureRejected("too_large", unreadable % size)
    from docx import Document
    from docx.table import Table

    try:
        document = Document(io.BytesIO(data))
        lines: list[str] = []
        for block in document.iter_inner_content():
            if isinstance(block, Table):
                for row in block.rows:
                    cells = dict.fromkeys(cell.text.strip() for cell in row.cells)
                    lines.append("  ".join(text for text in cells if text))
            else:
                lines.extend(block.text.replace("\r", "\n").split("\n"))
    except Exception as error:  # noqa: BLE001 - any broken part of the package is the same
        raise CaptureRejected("docx", unreadable % type(error).__name__) from error
    return "\n".join(line.rstrip() for line in lines)
