"""HTML mail as plain text, read by an HTML5 parser (lexbor, through selectolax) so that
markup is split into tags, attributes and text the way a browser splits it: scripts,
styles, comments and other parts never shown dropped, block elements on lines of their
own, entities decoded, links never followed (an anchor keeps its text, no attribute is kept)."""

from __future__ import annotations

import re

from selectolax.lexbor import LexborDocumentOptions, LexborHTMLParser, LexborNode

MAX_HTML = 512_000  # characters read of one part
MAX_TAGS = 20_000  # tags read of one part (the tree builder slows with the square of depth)
_BLOCKS = frozenset(
    "address article aside blockquote br dd div dl dt footer form h1 h2 h3 h4 h5 h6 header "
    "hr li main nav ol p pre section table tbody td tfoot th thead tr ul".split()
)
_LINE_ONLY = {"li": "\n- ", "br": "\n", "hr": "\n"}  # they start a line and end none
_HIDDEN = "script style head title template noscript iframe noembed noframes".split()
_FORMATTING = re.compile(
    r"<(/?)(?:a|b|big|code|em|font|i|nobr|s|small|strike|strong|tt|u)(?=[\t\n\f\r />]|$)",
    re.IGNORECASE | re.ASCII,
)


def html_to_text(markup: str) -> str:
    """The text a reader of `markup` sees, a line to each block, whitespace collapsed, at most
    one blank line in a row; at most MAX_HTML characters and MAX_TAGS tags are read."""
    tree = LexborHTMLParser(_bounded(markup), options=LexborDocumentOptions.WO_EVENTS)
    tree.strip_tags(_HIDDEN, recursive=True)
    text = _text(tree.root) if tree.root else ""
    lines = [" ".join(line.split()) for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def _bounded(markup: str) -> str:
    """`markup` up to its MAX_TAGS-th "<", formatting tags (b, i, a, font...) renamed span:
    lexbor rebuilds open formatting elements without bound (lexbor issue #340), and a rename
    inside an attribute, comment or script changes only what is dropped anyway."""
    kept = "<".join(markup[:MAX_HTML].split("<", MAX_TAGS)[:MAX_TAGS])
    return _FORMATTING.sub(r"<\1span", kept)


def _text(root: LexborNode) -> str:
    """The text nodes under `root` in document order, a line break where a block starts and
    where it ends; a line break in the source is a space, except inside pre."""
    parts: list[str] = []
    stack: list[tuple[LexborNode, bool] | str] = [(root, False)]  # (node, in pre) or text
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
            continue
        node, in_pre = item
        if node.is_text_node:
            text = node.text_content or ""
            parts.append(text if in_pre else text.replace("\n", " "))
            continue
        tag = node.tag or ""
        if tag in _BLOCKS:
            parts.append(_LINE_ONLY.get(tag, "\n"))
            stack.append("" if tag in _LINE_ONLY else "\n")
        in_pre = in_pre or tag == "pre"
        stack.extend(reversed([(child, in_pre) for child in node.iter(include_text=True)]))
    return "".join(parts)
