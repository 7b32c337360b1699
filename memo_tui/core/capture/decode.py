"""Bytes to text: UTF-8, UTF-8 with BOM, UTF-16 with BOM; newlines normalized to \\n."""

from __future__ import annotations

import codecs

from memo_tui.core.capture.errors import CaptureRejected

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def normalize_newlines(text: str) -> str:
    """CRLF and lone CR become LF, so line numbers are the same on every platform."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def decode(data: bytes, name: str) -> str:
    """Decode a transcript file's bytes, refusing binary and invalid text."""
    encoding = next((enc for bom, enc in _BOMS if data.startswith(bom)), None)
    if encoding is None and b"\x00" in data:
        raise CaptureRejected(
            "binary",
            f"{name} contains NUL bytes and looks like a binary file, not a transcript: "
            "export the meeting as plain text (.txt, .md, .vtt or .srt) or as .docx",
        )
    try:
        text = data.decode(encoding or "utf-8")
    except UnicodeDecodeError as error:
        label = "UTF-16" if encoding == "utf-16" else "UTF-8"
        raise CaptureRejected(
            "encoding",
            f"{name} is not valid {label} (byte 0x{data[error.start]:02x} at offset "
            f"{error.start}): save it as UTF-8 and capture it again",
        ) from error
    if "\x00" in text:
        raise CaptureRejected(
            "binary", f"{name} contains NUL characters and looks binary, not a transcript"
        )
    return normalize_newlines(text.removeprefix("\ufeff"))
