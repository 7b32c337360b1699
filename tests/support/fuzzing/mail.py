"""Mail: headers, bodies, MIME parts and whole messages, and mbox archives of them."""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import quopri

from hypothesis import strategies as st

from support.fuzzing.html import html_texts
from support.fuzzing.text import lines_of, names, sentences

CHARSETS = """utf-8 UTF-8 iso-8859-1 windows-1252 koi8-r shift_jis gb2312 utf-16 utf-7 us-ascii
x-unknown utf-99 idna punycode rot13 base64 hex zlib uu unicode_escape undefined cp65001
utf-8-sig mbcs""".split()
ADDRESSES = [
    "jane@example.org",
    "Jane+lists@Example.ORG",
    "<raj@x.io>",
    "no-reply@bank.example",
    "a@b@c",
    "@",
    "",
    "x",
    '"odd@quoted"@example.org',
    "undisclosed-recipients:;",
    "jane@[127.0.0.1]",
    "用户@例子.广告",
    "a\u200b@x.org",
    "mailer-daemon@x.org",
]


@st.composite
def encoded_words(draw: st.DrawFn) -> str:
    """An RFC 2047 word: in a charset real, odd or made up, its payload good or broken."""
    charset = draw(st.sampled_from(CHARSETS))
    text = draw(sentences)
    try:
        raw = text.encode(charset)
    except (LookupError, UnicodeError, TypeError):
        raw = text.encode("utf-8", errors="surrogatepass")
    if draw(st.booleans()):
        payload = base64.b64encode(raw).decode("ascii")
        kind = "B"
    else:
        payload = quopri.encodestring(raw, header=True).decode("ascii")
        kind = "Q"
    payload = draw(st.sampled_from([payload, payload, payload[:-1], "!!!", "=FF=", "", "=="]))
    return f"=?{charset}?{draw(st.sampled_from([kind, kind.lower(), 'X']))}?{payload}?="


header_texts = st.one_of(sentences, encoded_words(), st.lists(encoded_words()).map(" ".join))
addresses = st.builds(
    lambda name, address, shape: shape.format(n=name, a=address),
    st.one_of(names, encoded_words()),
    st.sampled_from(ADDRESSES),
    st.sampled_from(["{n} <{a}>", '"{n}" <{a}>', "{a}", "{a} ({n})", "{n}"]),
)
address_lists = st.lists(addresses, max_size=4).map(", ".join)
date_headers = st.one_of(
    st.builds(
        lambda d, minutes: d.replace(tzinfo=dt.timezone(dt.timedelta(minutes=minutes))),
        st.datetimes(),
        st.integers(-1439, 1439),
    ).map(lambda d: d.strftime("%a, %d %b %Y %H:%M:%S %z")),
    st.sampled_from(
        [
            "Mon, 32 Foo 99999 25:61:61 +9999",
            "Tue, 1 Jan 0000 00:00:00 +0000",
            "Fri, 31 Dec 9999 23:59:59 -1200",
            "Thu, 13 Feb 2009 23:31:30 -2400",
            "2026-03-31T10:00:00Z",
            "now",
            "Mon, 31 Mar 2026 10:00:00 -0000",
            "31 Mar 26 10:00 EST",
        ]
    ),
)
message_ids = st.one_of(
    st.builds(lambda u: f"<{u}@example.org>", st.uuids()),
    st.sampled_from(["<>", "<a b>", "<a@b> <c@d>", "", "no-brackets@x"]),
    st.integers(1, 3).map(lambda n: "<shared@example.org>" * n),
)
HEADERS: dict[str, st.SearchStrategy[str]] = {
    "From": st.one_of(addresses, address_lists),
    "To": address_lists,
    "Cc": address_lists,
    "Subject": st.builds(
        lambda prefix, text: prefix + text,
        st.sampled_from(["", "Re: ", "Fwd: Re: ", "[list] "]),
        header_texts,
    ),
    "Date": date_headers,
    "Message-ID": message_ids,
    "In-Reply-To": message_ids,
    "References": st.lists(message_ids, max_size=3).map(" ".join),
    "List-Id": header_texts,
    "List-Unsubscribe": st.just("<mailto:leave@example.org>"),
    "Precedence": st.sampled_from(["bulk", "list", "junk", "BULK", ""]),
    "Auto-Submitted": st.sampled_from(["no", "auto-replied", ""]),
    "X-Odd": header_texts,
}


@st.composite
def headers(draw: st.DrawFn) -> list[str]:
    """A message's header lines: some known headers (any of them twice), folded at times."""
    chosen = draw(st.lists(st.sampled_from(sorted(HEADERS)), max_size=10))
    if draw(st.booleans()):
        chosen = ["From", *chosen]
    found = []
    for name in chosen:
        value = draw(HEADERS[name])
        if draw(st.booleans()) and " " in value:
            value = value.replace(" ", draw(st.sampled_from(["\n\t", "\n ", "\n"])), 1)
        found.append(f"{name}: {value}")
    return found


BODY_LINES = [
    "> {s}",
    "On Mon, 31 Mar 2026, {n} <jane@example.org> wrote:",
    "On Mon, 31 Mar 2026 at 10:00, {n}",
    "wrote:",
    "-- ",
    "Sent from my iPhone",
    "---------- Forwarded message ---------",
    "-----Original Message-----",
    "From: {n}",
    "Subject: {s}",
    "{s} ",
    " {s}",
    "{s}",
    "From {s}",
    ">From {s}",
    "",
]
body_texts = st.lists(lines_of(BODY_LINES), max_size=10).map("\n".join)

# ---- mail bodies and messages -----------------------------------------------------------

TRANSFER = ["", "7bit", "8bit", "quoted-printable", "base64", "x-uuencode", "binary", "bogus"]


def transfer_encoded(raw: bytes, encoding: str) -> bytes:
    if encoding == "base64":
        return base64.encodebytes(raw)
    if encoding == "quoted-printable":
        return quopri.encodestring(raw)
    if encoding == "x-uuencode":
        chunks = (binascii.b2a_uu(raw[i : i + 45]) for i in range(0, len(raw), 45))
        return b"begin 644 x\n" + b"".join(chunks) + b"`\nend\n"
    return raw


@st.composite
def leaf_parts(draw: st.DrawFn) -> bytes:
    """A part of text, HTML or an attachment, in some charset and transfer encoding."""
    kind = draw(st.sampled_from(["text/plain", "text/plain", "text/html", "application/pdf"]))
    text = draw(html_texts if kind == "text/html" else body_texts)
    charset = draw(st.sampled_from(CHARSETS))
    try:
        raw = text.encode(charset)
    except (LookupError, UnicodeError, TypeError):
        raw = text.encode("utf-8", errors="surrogatepass")
    encoding = draw(st.sampled_from(TRANSFER))
    params = draw(st.sampled_from(["", "; format=flowed", "; format=flowed; delsp=yes"]))
    disposition = draw(
        st.sampled_from(["", "Content-Disposition: attachment\n", "Content-Disposition: inline\n"])
    )
    head = f"Content-Type: {kind}; charset={charset}{params}\n{disposition}"
    if encoding:
        head += f"Content-Transfer-Encoding: {encoding}\n"
    return head.encode() + b"\n" + transfer_encoded(raw, encoding)


def multipart(subtype: str, boundary: str, parts: list[bytes], closed: bool) -> bytes:
    head = f'Content-Type: multipart/{subtype}; boundary="{boundary}"\n\n'.encode()
    mark = f"--{boundary}".encode()
    body = b"".join(mark + b"\n" + part + b"\n" for part in parts)
    return head + body + (mark + b"--\n" if closed else b"")


def nested_message(inner: bytes) -> bytes:
    return b"Content-Type: message/rfc822\n\nFrom: inner@example.org\nSubject: inner\n" + inner


def deeply_nested(depth: int, forwarded: bool) -> bytes:
    """A text part under `depth` multiparts (or forwarded messages), each inside the last."""
    if forwarded:
        levels = b"Content-Type: message/rfc822\n\nFrom: x@example.org\n" * depth
    else:
        levels = b"".join(
            f'Content-Type: multipart/mixed; boundary="b{n}"\n\n--b{n}\n'.encode()
            for n in range(depth)
        )
    return levels + b"Content-Type: text/plain\n\nWe decided to ship.\n"


mime_bodies = st.recursive(
    leaf_parts(),
    lambda inner: st.one_of(
        st.builds(
            multipart,
            st.sampled_from(["mixed", "alternative", "related", "weird"]),
            st.sampled_from(["b1", "b1", "", "--", "x" * 80, "\u00e9", "b 1"]),
            st.lists(inner, max_size=4),
            st.booleans(),
        ),
        inner.map(nested_message),
    ),
    max_leaves=8,
)


@st.composite
def messages(draw: st.DrawFn) -> bytes:
    """A message's bytes: odd headers (raw 8-bit in them at times), a MIME body."""
    head = "\n".join(draw(headers())).encode(
        draw(st.sampled_from(["utf-8", "latin-1"])), errors="replace"
    )
    body = draw(
        st.one_of(
            mime_bodies,
            body_texts.map(lambda t: b"\n" + t.encode("utf-8", "replace")),
            st.builds(deeply_nested, st.integers(1, 1200), st.booleans()),
        )
    )
    data = head + b"\n" + body
    return data.replace(b"\n", b"\r\n") if draw(st.booleans()) else data


FROM_LINES = [
    b"From jane@example.org Mon Mar 31 10:00:00 2026\n",
    b"From \n",
    b"From - Mon Mar 31 10:00:00 2026\r\n",
    b"From MAILER-DAEMON\n",
]


@st.composite
def mboxes(draw: st.DrawFn) -> bytes:
    """Messages one after another, each after a "From " line (a blank line before it or
    not), with ">From " quoting in bodies."""
    out = b""
    for message in draw(st.lists(messages(), max_size=6)):
        out += draw(st.sampled_from([b"", b"\n", b"\n\n"])) + draw(st.sampled_from(FROM_LINES))
        out += message if draw(st.booleans()) else message.replace(b"\nFrom ", b"\n>From ")
    return out
