"""Word documents: built of paragraphs and a table (python-docx), then damaged."""

from __future__ import annotations

import io
import re
import zipfile

from hypothesis import strategies as st

from support.fuzzing.text import names, sentences
from support.fuzzing.transcripts import mangled, short_time

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def docx_of(paragraphs: list[str], rows: list[list[str]], merged: bool) -> bytes:
    """A Word document of these paragraphs, then a table of these rows (python-docx)."""
    from docx import Document

    document = Document()
    for paragraph in paragraphs:
        document.add_paragraph(_NOT_XML.sub("", paragraph))
    width = max((len(row) for row in rows), default=0)
    if width:
        table = document.add_table(rows=len(rows), cols=width)
        for row, cells in zip(table.rows, rows, strict=True):
            for cell, text in zip(row.cells, cells, strict=False):
                cell.text = _NOT_XML.sub("", text)
        if merged and width > 1:
            table.cell(0, 0).merge(table.cell(len(rows) - 1, 1))
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


# A Teams download: "Name   0:04" then what they said, a paragraph each.
teams_paragraphs = st.lists(
    st.builds(lambda n, t, s: [f"{n}   {t}", s], names, short_time, sentences), max_size=8
).map(lambda pairs: [line for pair in pairs for line in pair])
docx_paragraphs = st.one_of(teams_paragraphs, mangled().map(lambda text: text.split("\n")))
table_rows = st.lists(st.lists(sentences, min_size=1, max_size=3), max_size=4)


# How a document is damaged: (what, where as a share of its bytes, the byte xor'ed in, the
# body put in its place).
damages = st.tuples(
    st.sampled_from(["whole", "cut", "flip", "body", "no body"]),
    st.floats(0, 1),
    st.integers(1, 255),
    st.integers(0, 5),
)


def damaged(data: bytes, damage: tuple[str, float, int, int]) -> bytes:
    """A document's bytes cut short, a byte changed, or its body replaced or gone."""
    how, share, xor, body = damage
    at = min(int(share * len(data)), len(data) - 1)
    if how == "cut":
        return data[:at]
    if how == "flip":
        return data[:at] + bytes([data[at] ^ xor]) + data[at + 1 :]
    if how in ("body", "no body"):
        return rezipped(data, XML_BODIES[body].encode("utf-8") if how == "body" else None)
    return data


XML_BODIES = [
    "",
    "<w:document/>",
    "not xml at all",
    '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>'
    '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
    "<w:body><w:p><w:r><w:t>&b;&b;&b;</w:t></w:r></w:p></w:body></w:document>",
    '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
    "<w:body><w:p><w:r><w:t>Priya: &#0; hi</w:t></w:r></w:p></w:body></w:document>",
    '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
    "<w:body>" + "<w:tbl><w:tr><w:tc>" * 200 + "</w:body></w:document>",
]


def rezipped(data: bytes, body: bytes | None) -> bytes:
    """The document with its word/document.xml replaced by `body` (left out for None)."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            if info.filename != "word/document.xml":
                target.writestr(info, source.read(info))
            elif body is not None:
                target.writestr(info, body)
    return out.getvalue()
