"""The one sanitizer for untrusted text shown in a terminal (transcripts, names, model output).

Terminal control characters are made visible instead of acted on: ESC and other C0/C1
controls, bidi overrides and zero-width characters could otherwise retitle a terminal,
move the cursor or reorder what the reader sees.
"""

from __future__ import annotations

import re

_BIDI_AND_INVISIBLE = (
    "\u061c\u200b\u200c\u200d\u200e\u200f"  # marks and zero-width characters
    "\u202a\u202b\u202c\u202d\u202e"  # embeddings and overrides
    "\u2060\u2066\u2067\u2068\u2069\ufeff"  # word joiner, isolates, BOM
)
_UNSAFE = re.compile(rf"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI_AND_INVISIBLE}]")


def _visible(match: re.Match[str]) -> str:
    char = match.group(0)
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures block: ␛ for ESC
    if code == 0x7F:
        return "\u2421"
    return f"<U+{code:04X}>"


def sanitize(text: str) -> str:
    """`text` safe to print: newlines and tabs kept, every other control made visible."""
    return _UNSAFE.sub(_visible, text)


def sanitize_line(text: str) -> str:
    """Like `sanitize`, for a single line: newlines become visible too."""
    return sanitize(text).replace("\n", "\u2424").replace("\t", " ")
