"""One email, read with the standard library: headers decoded and made safe, the body as
plain text (an HTML-only message turned into text), quoted replies and signatures cut so
a thread never captures the same words twice. Attachments are counted, never read.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass, field
from email import policy
from email.errors import HeaderParseError
from email.header import Header, decode_header, make_header
from email.message import Message
from email.parser import BytesParser
from email.utils import getaddresses, parseaddr, parsedate_to_datetime

from memo_tui.core.capture.formats.base import speaker_name
from memo_tui.core.email.html import html_to_text
from memo_tui.core.safety import sanitize_line

# compat32: headers as stored, decoded on demand (the default policy's header objects cost
# several times more, and memo reads only a few headers).
_PARSER = BytesParser(policy=policy.compat32)
_MESSAGE_ID = re.compile(r"<[^<>\s]+>")
_PLUS = re.compile(r"\+[^@]*@")


class MalformedMail(ValueError):
    """A message memo cannot read (counted and skipped; the import goes on)."""


@dataclass(frozen=True)
class Person:
    """A participant: display name (may be empty) and normalized address."""

    name: str
    address: str

    def label(self) -> str:
        return self.name or self.address


@dataclass(frozen=True)
class Mail:
    message_id: str
    subject: str
    sent_at: dt.datetime | None  # aware, UTC
    sender: Person
    to: tuple[Person, ...]
    cc: tuple[Person, ...]
    references: tuple[str, ...]  # In-Reply-To and References, oldest first
    body: str  # new text only: quotes and signature cut
    list_id: str = ""
    unsubscribe: str = ""
    precedence: str = ""
    auto_submitted: str = ""
    attachments: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)  # what was odd about it


_NOT_ADDRESS = re.compile(r"[\x00-\x20\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def normalize_address(address: str) -> str:
    """Lower case, and plus-addressing dropped (jane+lists@x.org is jane@x.org); '' for
    what cannot be an address (controls or spaces in it)."""
    address = address.strip().strip("<>").lower()
    if _NOT_ADDRESS.search(address) or address.count("@") != 1:
        return ""
    return _PLUS.sub("@", address)


def _text(value: object) -> str:
    """A header value as text. Raw 8-bit bytes in a header (UTF-8, as many clients send)
    come back from the parser as a Header of unknown charset: read them as UTF-8, else as
    Latin-1, rather than as replacement characters."""
    if not isinstance(value, Header):
        return str(value)
    parts = []
    for chunk, charset in decode_header(value):
        if isinstance(chunk, str):
            parts.append(chunk)
            continue
        for codec in (charset if charset and charset != "unknown-8bit" else "utf-8", "latin-1"):
            try:
                parts.append(chunk.decode(codec))
                break
            except (LookupError, UnicodeDecodeError):
                continue
    return "".join(parts)


def _decoded(raw: str) -> str:
    """RFC 2047 encoded words decoded (a bad charset or encoding leaves the raw text)."""
    if "=?" not in raw:
        return raw
    try:
        return str(make_header(decode_header(raw)))
    except (HeaderParseError, LookupError, UnicodeError, ValueError):
        return raw


def _header(message: Message, name: str) -> str:
    """A header's value decoded, on one line, controls made visible ('' if absent or bad)."""
    try:
        value = message.get(name)
    except Exception:  # noqa: BLE001 - a malformed header is as good as none
        return ""
    if value is None:
        return ""
    text = " ".join(_decoded(_text(value)).split())  # folded lines, CR/LF
    return sanitize_line(text)[:2000]


def _people(message: Message, name: str) -> tuple[Person, ...]:
    raw = [_text(v) for v in message.get_all(name, [])]
    found = []
    try:
        pairs = getaddresses([_decoded(r)[:4000] for r in raw])
    except (RecursionError, ValueError, IndexError):  # a hostile header: nobody in it
        return ()
    for display, address in pairs:
        normalized = normalize_address(address)
        if not normalized:
            continue
        label = display_name(sanitize_line(" ".join(display.split()))[:200])
        found.append(Person(label, normalized))
    return tuple(dict.fromkeys(found))


def display_name(name: str) -> str:
    """A display name as people write it: quotes gone, "Adeyemi, Tom" as "Tom Adeyemi"
    (and as transcripts' speakers are read: see formats.base.speaker_name)."""
    name = name.strip().strip("'\"").strip()
    return speaker_name(name) or name


def _sender(message: Message) -> Person:
    people = _people(message, "from")
    if people:
        return people[0]
    display, address = parseaddr(_decoded(_text(message.get("from") or ""))[:4000])
    display = sanitize_line(" ".join(display.split()))[:200]
    if not normalize_address(address):
        raise MalformedMail("no sender address (From)")
    return Person(display_name(display), normalize_address(address))


def _date(message: Message) -> dt.datetime | None:
    raw = _header(message, "date")
    if not raw:
        return None
    try:
        when = parsedate_to_datetime(raw)
        if when.tzinfo is None:
            when = when.replace(tzinfo=dt.UTC)
        return when.astimezone(dt.UTC)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def _ids(value: str) -> tuple[str, ...]:
    return tuple(m.lower() for m in _MESSAGE_ID.findall(value))


def _part_text(part: Message) -> str:
    """A text part's content, decoded with its charset (or UTF-8, replacing what fails)."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    charset = part.get_content_charset() or "utf-8"
    try:
        return payload.decode(charset, errors="replace")
    except (LookupError, UnicodeError):  # an unknown charset, or one that cannot replace
        return payload.decode("utf-8", errors="replace")  # ("undefined", "idna")


def _body(message: Message) -> tuple[str, int]:
    """The best text of the message (plain, else HTML as text) and how many attachments it
    carried (their names and bytes are never looked at beyond that)."""
    plain: list[str] = []
    html: list[str] = []
    attachments = 0
    for part in message.walk():
        if part.is_multipart():
            continue
        disposition = (part.get_content_disposition() or "").lower()
        kind = part.get_content_type()
        if disposition == "attachment" or not kind.startswith("text/"):
            attachments += 1
            continue
        if kind == "text/plain":
            plain.append(_flowed(part, _part_text(part)))
        elif kind == "text/html":
            html.append(_part_text(part))
    if plain:
        return "\n".join(plain), attachments
    return "\n".join(html_to_text(h) for h in html), attachments


def _flowed(part: Message, text: str) -> str:
    """A format=flowed part (RFC 3676) with its soft line breaks joined: a line that ends in
    a space goes on in the next (DelSp=yes: without that space); space-stuffing undone."""
    if str(part.get_param("format", "")).lower() != "flowed":
        return text
    delsp = str(part.get_param("delsp", "")).lower() == "yes"
    lines: list[str] = []
    carry = ""
    for line in text.replace("\r\n", "\n").split("\n"):
        line = line[1:] if line.startswith(" ") else line  # noqa: PLW2901 - unstuffed
        if line.endswith(" ") and line != "-- " and not line.startswith(">"):
            carry += line[:-1] if delsp else line
            continue
        lines.append(carry + line)
        carry = ""
    return "\n".join([*lines, carry] if carry else lines)


_ATTRIBUTION = re.compile(
    r"^\s*(On\b.{0,200}\bwrote:|Le\b.{0,200}\ba écrit\s*:|Am\b.{0,200}\bschrieb\b.{0,80}:)\s*$",
    re.I,
)
_ORIGINAL = re.compile(
    r"^\s*(-{2,}\s*Original Message\s*-{2,}|_{10,}|From:\s.+|-{2,}\s*Forwarded message\s*-{2,}"
    r"|Begin forwarded message:)\s*$",
    re.I,
)
_FORWARD_HEADER = re.compile(r"^\s*(From|To|Cc|Date|Sent|Subject):\s", re.I)
_SIGN_OFF = re.compile(r"^\s*(Sent from my \w+.*|Get Outlook for \w+.*)\s*$", re.I)


def strip_quotes(body: str) -> str:
    """The new text of a reply: quoted lines ("> ..."), the "On ... wrote:" line before
    them, a forwarded or original message below, and the signature ("-- ") go. A forward
    keeps what was forwarded (it is new to this thread) when nothing else was written."""
    lines = body.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    while True:
        kept, forwarded = _new_lines(lines)
        if forwarded is None:
            return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()
        lines = forwarded  # a bare forward: read what it carries (a loop, never recursion)


_LIST_ITEM = re.compile(r"^\s*([-*•]|\d{1,2}[.)])\s")
_ENDS_SENTENCE = re.compile(r"[.!?:;。！？…][\"'”’»」』)\]]*$")
WRAPPED_AT_LEAST = 50  # a message whose longest line is shorter was not wrapped to a width
FULL = 0.8  # a line this share of the width long filled its line: a sign of wrapping


def unwrapped(body: str) -> list[str]:
    """The body's lines with a hard-wrapped sentence joined again: a line that stops mid-
    sentence goes on in the next when the next line's first word would not have fitted
    within the message's longest line of words (the sender's client broke it there). A next
    line that starts a word in capitals is joined only when several lines fill the width
    (a heading or a sign-off above a sentence is not). A line that ends a sentence, a short
    line (a greeting, a signature), a line with no space (a link), a blank line and a list
    item stay lines of their own. (A heuristic: it reads the message, not its client.)"""
    lines = [line.strip() for line in body.split("\n")]
    width = max((len(line) for line in lines if " " in line), default=0)
    full = sum(len(line) >= FULL * width for line in lines if " " in line)
    joined: list[str] = []
    for n, line in enumerate(lines):
        before = lines[n - 1] if n else ""  # the line as its sender's client ended it
        first = line.split(" ", 1)[0]
        if _continues(before, line, first, width, full):
            joined[-1] = f"{joined[-1]} {line}"
        else:
            joined.append(line)
    return [line for line in joined if line]


def _continues(before: str, line: str, first: str, width: int, full: int) -> bool:
    """Whether `line` goes on with the sentence `before` left unfinished (see unwrapped)."""
    if width < WRAPPED_AT_LEAST or not first or " " not in before or _LIST_ITEM.match(line):
        return False
    if _ENDS_SENTENCE.search(before) or len(before) + 1 + len(first) <= width:
        return False
    return not first[0].isupper() or full >= 2


def _new_lines(lines: list[str]) -> tuple[list[str], list[str] | None]:
    """The lines written here, or (a forward with nothing of its own) the forwarded lines."""
    kept: list[str] = []
    skip = 0
    for n, line in enumerate(lines):
        if skip:
            skip -= 1
            continue
        if line.rstrip() == "--":
            break  # the signature delimiter ("-- ", RFC 3676)
        if _ORIGINAL.match(line):
            if "forward" in line.lower() and not any(k.strip() for k in kept):
                return kept, [x for x in lines[n + 1 :] if not _FORWARD_HEADER.match(x)]
            break
        if line.lstrip().startswith(">") or _SIGN_OFF.match(line) or _ATTRIBUTION.match(line):
            continue
        if n + 1 < len(lines) and _ATTRIBUTION.match(f"{line} {lines[n + 1]}"):
            skip = 1  # "On ..., Jane <jane@x.org>" / "wrote:" split over two lines
            continue
        kept.append(line.rstrip())
    return kept, None


def parse_mail(data: bytes) -> Mail:
    """One message from its bytes. Raises MalformedMail for what cannot be a message."""
    if not data.strip():
        raise MalformedMail("empty message")
    try:
        message = _PARSER.parsebytes(data)
    except Exception as error:  # noqa: BLE001 - the parser is lenient; anything else is bad
        raise MalformedMail(f"unreadable ({type(error).__name__})") from error
    if not message.keys():
        raise MalformedMail("no headers")
    sender = _sender(message)
    subject = _header(message, "subject") or "(no subject)"
    sent_at = _date(message)
    body, attachments = _body(message)
    body = sanitize_body(strip_quotes(body))
    references = _ids(_header(message, "references"))
    for parent in _ids(_header(message, "in-reply-to")):
        if parent not in references:
            references = (*references, parent)
    found = _ids(_header(message, "message-id"))
    notes: list[str] = []
    if found:
        message_id = found[0]
    else:  # a stable id of our own, so a re-import still recognises it
        digest = hashlib.sha1(
            f"{sender.address}\0{sent_at}\0{subject}\0{body}".encode(), usedforsecurity=False
        ).hexdigest()
        message_id = f"<{digest}@memo.invalid>"
        notes.append("no Message-ID")
    return Mail(
        message_id=message_id,
        subject=subject,
        sent_at=sent_at,
        sender=sender,
        to=_people(message, "to"),
        cc=_people(message, "cc"),
        references=references,
        body=body,
        list_id=_header(message, "list-id"),
        unsubscribe=_header(message, "list-unsubscribe"),
        precedence=_header(message, "precedence").lower(),
        auto_submitted=_header(message, "auto-submitted").lower(),
        attachments=attachments,
        notes=tuple(notes),
    )


def sanitize_body(text: str) -> str:
    """Body text safe to store and show: controls other than newline and tab removed."""
    return re.sub(
        r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200b-\u200f\ufeff]", "", text
    )
