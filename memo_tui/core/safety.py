"""The one sanitizer for untrusted text shown in a terminal (transcripts, names, model output).

Terminal control characters are made visible instead of acted on: ESC and other C0/C1
controls, bidi overrides and zero-width characters could otherwise retitle a terminal,
move the cursor or reorder what the reader sees.
"""

from __future__ import annotations

import re

# Every format character (Unicode category Cf: bidi marks, embeddings, overrides and
# isolates, zero-width characters, the BOM, invisible operators, tag characters), the line
# and paragraph separators, and the Hangul fillers that draw as blanks.
_BIDI_AND_INVISIBLE = (
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u180e"
    "\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0"
    "\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
)
_UNSAFE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI_AND_INVISIBLE}]")


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
