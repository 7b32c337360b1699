"""HTML mail as plain text, with the standard library's parser: scripts and styles
dropped, block elements on lines of their own, entities decoded, links never followed
(an anchor keeps its text; its address is not kept)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

_BLOCKS = frozenset(
    "address article aside blockquote br dd div dl dt footer form h1 h2 h3 h4 h5 h6 header "
    "hr li main nav ol p pre section table tbody td tfoot th thead tr ul".split()
)
_HIDDEN = frozenset(("script", "style", "head", "title", "template", "noscript"))


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self.hidden += 1
        elif tag in _BLOCKS:
            self.parts.append("\n")
        if tag == "li":
            self.parts.append("- ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag in _BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def html_to_text(html: str) -> str:
    parser = _Text()
    try:
        parser.feed(html)
        parser.close()
    except AssertionError:  # the parser gives up on some broken markup: keep what it read
        pass
    text = "".join(parser.parts).replace("\xa0", " ")
    lines = [" ".join(line.split()) for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
