"""Bytes to text: UTF-8, UTF-8 with BOM, UTF-16 with BOM; newlines normalized to \\n."""

from __future__ import annotations

import codecs

from memo_tui.core.capture.errors import CaptureRejected

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


# A carriage return that ends no line, shown for what it is.
CARRIAGE_RETURN = "\u240d"


def normalize_newlines(text: str) -> str:
    """CRLF becomes LF, so line numbers are the same on every platform, and so do the lone
    CRs of a file whose lines end in them (an old Mac's). A lone CR among LF lines ends no
    line: a terminal would go back over the line with it (words written over words), so it
    is kept as the visible ␍ and the line reads as it is."""
    text = text.replace("\r\n", "\n")
    if text.count("\r") > text.count("\n"):
        return text.replace("\r", "\n")
    return text.replace("\r", CARRIAGE_RETURN)


def _utf16_without_bom(data: bytes) -> str | None:
    """UTF-16 saved with no BOM (some Windows tools): mostly ASCII text, so every other
    byte is NUL, on the same side throughout."""
    sample = data[:4096]
    if len(sample) < 16 or len(sample) % 2:
        return None
    even, odd = sample[0::2].count(0), sample[1::2].count(0)
    half = len(sample) // 2
    if odd >= 0.9 * half and even == 0:
        return "utf-16-le"
    if even >= 0.9 * half and odd == 0:
        return "utf-16-be"
    return None


def decode(data: bytes, name: str) -> str:
    """Decode a transcript file's bytes, refusing binary and invalid text."""
    encoding = next((enc for bom, enc in _BOMS if data.startswith(bom)), None)
    encoding = encoding or _utf16_without_bom(data)
    if encoding is None and b"\x00" in data:
        raise CaptureRejected(
            "binary",
            f"{name} contains NUL bytes and looks like a binary file, not a transcript: "
            "export the meeting as plain text (.txt, .md, .vtt or .srt) or as .docx",
        )
    try:
        text = data.decode(encoding or "utf-8")
    except UnicodeDecodeError as error:
        label = "UTF-16" if encoding and encoding.startswith("utf-16") else "UTF-8"
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
