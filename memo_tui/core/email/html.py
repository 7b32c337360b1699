"""HTML mail as plain text, by a scanner that reads the markup once, left to right (the
stdlib HTMLParser slows quadratically on hostile markup such as thousands of unclosed
tags): scripts, styles and comments dropped, block elements on lines of their own,
entities decoded, links never followed (an anchor keeps its text, not its address)."""

from __future__ import annotations

import html as entities
import re

MAX_HTML = 512_000  # characters read of one part
_BLOCKS = frozenset(
    "address article aside blockquote br dd div dl dt footer form h1 h2 h3 h4 h5 h6 header "
    "hr li main nav ol p pre section table tbody td tfoot th thead tr ul".split()
)
_HIDDEN = ("script", "style", "head", "title", "template", "noscript")
_NAME = re.compile(r"/?\s*([a-zA-Z][a-zA-Z0-9]*)")


def html_to_text(markup: str) -> str:
    markup = markup[:MAX_HTML]
    lower = markup.lower()
    parts: list[str] = []
    at, end = 0, len(markup)
    while at < end:
        opening = markup.find("<", at)
        if opening == -1:
            parts.append(entities.unescape(markup[at:]))
            break
        parts.append(entities.unescape(markup[at:opening]))
        if markup.startswith("<!--", opening):
            closing = markup.find("-->", opening + 4)
            at = end if closing == -1 else closing + 3
            continue
        closing = markup.find(">", opening + 1)
        if closing == -1:  # a tag never closed: the rest is not text anyone wrote
            break
        name = _NAME.match(markup, opening + 1)
        tag = name[1].lower() if name else ""
        at = closing + 1
        if tag in _HIDDEN and not markup.startswith("/", opening + 1):
            stop = lower.find(f"</{tag}", at)  # skip to its end, unread
            at = end if stop == -1 else stop
        elif tag in _BLOCKS:
            parts.append("\n- " if tag == "li" and markup[opening + 1] != "/" else "\n")
    text = "".join(parts).replace("\xa0", " ")
    lines = [" ".join(line.split()) for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
