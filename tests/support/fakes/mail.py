"""A generated mail archive with the shapes real archives have: threads (by headers and by
subject only), a forward, HTML-only mail, odd charsets, a malformed message, a newsletter,
a one-way broadcaster, an attachment with a hostile name, and a header carrying a terminal
escape. Written as an mbox, a Maildir or .eml files."""

from __future__ import annotations

import base64
import datetime as dt
import mailbox
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

ME = "Priya Natarajan <priya@example.com>"
TOM = "Tom Adeyemi <tom@example.com>"
ELENA = "Elena Kowalski <elena@example.com>"


def _mail(
    sender: str,
    to: str,
    subject: str,
    when: str,
    body: str,
    message_id: str | None,
    reply_to: str | None = None,
    refs: str | None = None,
    headers: dict[str, str] | None = None,
) -> EmailMessage:
    m = EmailMessage()
    m["From"] = sender
    m["To"] = to
    m["Subject"] = subject
    m["Date"] = format_datetime(dt.datetime.fromisoformat(when))
    if message_id:
        m["Message-ID"] = message_id
    if reply_to:
        m["In-Reply-To"] = reply_to
    if refs:
        m["References"] = refs
    for name, value in (headers or {}).items():
        m[name] = value
    m.set_content(body)
    return m


def messages() -> list[bytes]:
    """The archive's messages as bytes, in mbox order (one is deliberately broken)."""
    found: list[bytes] = []

    def add(m: EmailMessage) -> None:
        found.append(bytes(m))

    # A thread by headers: a decision, an owner, a due date; replies quote and sign.
    add(
        _mail(
            ME,
            f"{TOM}, {ELENA}",
            "Atlas cutover plan",
            "2026-10-12T09:14:00+00:00",
            "We decided to move the Atlas cutover to Saturday because traffic is lowest "
            "then.\nTom, can you write the rollback runbook by Friday?\n\n-- \nPriya\n"
            "Engineering lead",
            "<atlas-1@example.com>",
        )
    )
    add(
        _mail(
            TOM,
            ME,
            "Re: Atlas cutover plan",
            "2026-10-12T10:02:00+00:00",
            "Sure, I will write the rollback runbook by Friday.\n\nOn Mon, Oct 12, 2026 at "
            "9:14 AM Priya Natarajan <priya@example.com>\nwrote:\n> We decided to move the "
            "Atlas cutover to Saturday because traffic is lowest then.\n> Tom, can you write",
            "<atlas-2@example.com>",
            reply_to="<atlas-1@example.com>",
            refs="<atlas-1@example.com>",
        )
    )
    # A reply by subject only (a client that sends no References)
    add(
        _mail(
            ELENA,
            ME,
            "RE: [atlas] Atlas cutover plan",
            "2026-10-13T08:00:00+00:00",
            "Elena will tell support about the Saturday window.\nSent from my iPhone",
            "<atlas-3@example.com>",
        )
    )
    # The same subject months later is another conversation.
    add(
        _mail(
            TOM,
            ME,
            "Atlas cutover plan",
            "2027-03-01T08:00:00+00:00",
            "A new plan for the next cutover: nothing decided yet.",
            "<atlas-next@example.com>",
        )
    )
    # A forward: what was forwarded is new to this thread.
    add(
        _mail(
            ELENA,
            ME,
            "Fwd: Vendor contract",
            "2026-10-14T12:00:00+00:00",
            "---------- Forwarded message ---------\nFrom: Legal <legal@vendor.example>\n"
            "Date: Tue, 13 Oct 2026\nSubject: Vendor contract\n\nWe agreed to renew the "
            "vendor contract for two years.",
            "<fwd-1@example.com>",
        )
    )
    # HTML only, with a script and a link that must never be followed.
    html = EmailMessage()
    html["From"] = TOM
    html["To"] = ME
    html["Subject"] = "Cobalt pricing"
    html["Date"] = format_datetime(dt.datetime(2026, 10, 15, 9, tzinfo=dt.UTC))
    html["Message-ID"] = "<html-1@example.com>"
    html.set_content(
        "<html><head><style>p{color:red}</style><script>alert(1)</script></head><body>"
        "<p>We decided to keep Cobalt pricing flat for Q4.</p><ul><li>Marcus owns the "
        'announcement.</li></ul><a href="https://evil.example/x">details</a></body></html>',
        subtype="html",
    )
    add(html)
    # Odd charsets: Latin-1 quoted-printable and an encoded subject; base64 UTF-8.
    latin = (
        "From: =?iso-8859-1?q?Ren=E9e_Dupr=E9?= <renee@example.com>\r\n"
        f"To: {ME}\r\n"
        "Subject: =?iso-8859-1?q?Caf=E9_d=E9cid=E9?=\r\n"
        "Date: Fri, 16 Oct 2026 10:00:00 +0200\r\n"
        "Message-ID: <latin-1@example.com>\r\n"
        "MIME-Version: 1.0\r\n"
        "Content-Type: text/plain; charset=iso-8859-1\r\n"
        "Content-Transfer-Encoding: quoted-printable\r\n\r\n"
        "Nous avons d=E9cid=E9 de garder le caf=E9 ouvert.\r\n"
    ).encode("ascii")
    found.append(latin)
    utf8 = "Zoë confirmed the Tromsø office move — decided.\n".encode()
    encoded = (
        "From: Zoe <zoe@example.com>\r\n"
        f"To: {ME}\r\n"
        "Subject: Office move\r\n"
        "Date: Fri, 16 Oct 2026 11:00:00 +0000\r\n"
        "Message-ID: <b64-1@example.com>\r\n"
        "MIME-Version: 1.0\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n"
        "Content-Transfer-Encoding: base64\r\n\r\n"
    ).encode("ascii") + base64.encodebytes(utf8)
    found.append(encoded)
    unknown = (
        "From: Sam Chen <sam@example.com>\r\n"
        f"To: {ME}\r\n"
        "Subject: Strange charset\r\n"
        "Date: Fri, 16 Oct 2026 12:00:00 +0000\r\n"
        "Message-ID: <odd-1@example.com>\r\n"
        "Content-Type: text/plain; charset=x-no-such-charset\r\n\r\n"
        "The staging database is back.\r\n"
    ).encode("ascii")
    found.append(unknown)
    # Malformed: no sender at all.
    found.append(b"Subject: nobody sent this\r\nDate: yesterday\r\n\r\nbody\r\n")
    # A newsletter.
    add(
        _mail(
            "Vendor News <news@vendor.example>",
            ME,
            "October product update",
            "2026-10-17T07:00:00+00:00",
            "We decided to ship dark mode. You should upgrade by Friday.",
            "<news-1@vendor.example>",
            headers={
                "List-Unsubscribe": "<https://vendor.example/unsubscribe?u=42>",
                "List-Id": "Vendor News <news.vendor.example>",
            },
        )
    )
    # A one-way broadcaster with no list headers: six updates, nobody answers.
    for n in range(6):
        add(
            _mail(
                "CEO Office <ceo-office@corp.example>",
                ME,
                f"Weekly update {n + 1}",
                f"2026-10-{10 + n:02d}T18:00:00+00:00",
                f"This week we decided to keep hiring. Update {n + 1}.",
                f"<ceo-{n}@corp.example>",
            )
        )
    # An attachment with a hostile name, and a subject with a terminal escape.
    hostile = _mail(
        TOM,
        ME,
        "Logs \x1b]0;pwned\x07 attached",
        "2026-10-18T09:00:00+00:00",
        "The logs from Friday are attached.",
        "<attach-1@example.com>",
    )
    hostile.add_attachment(
        b"echo owned >> ~/.bashrc\n",
        maintype="application",
        subtype="octet-stream",
        filename="../../.bashrc",
    )
    add(hostile)
    # A line starting "From " inside a body (mboxrd quotes it as ">From ").
    add(
        _mail(
            ELENA,
            ME,
            "Quote test",
            "2026-10-19T09:00:00+00:00",
            "From now on we meet on Tuesdays.",
            "<from-1@example.com>",
        )
    )
    return found


def later() -> list[bytes]:
    """A message that extends the first thread (for a second import)."""
    return [
        bytes(
            _mail(
                ELENA,
                f"{ME}, {TOM}",
                "Re: Atlas cutover plan",
                "2026-10-14T09:00:00+00:00",
                "Tom, can you send the on-call schedule by Thursday?",
                "<atlas-4@example.com>",
                reply_to="<atlas-2@example.com>",
                refs="<atlas-1@example.com> <atlas-2@example.com>",
            )
        )
    ]


def write_mbox(path: Path, items: list[bytes]) -> Path:
    """mboxrd: each message after a "From " line; body lines starting "From " quoted."""
    with path.open("wb") as out:
        for data in items:
            out.write(b"From archive@example.com Sat Oct 17 07:00:00 2026\n")
            for line in data.replace(b"\r\n", b"\n").split(b"\n"):
                if line.lstrip(b">").startswith(b"From "):
                    line = b">" + line
                out.write(line + b"\n")
            out.write(b"\n")
    return path


def write_maildir(path: Path, items: list[bytes]) -> Path:
    box = mailbox.Maildir(path, create=True)
    for data in items:
        box.add(data)
    return path


def write_eml(folder: Path, items: list[bytes]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for n, data in enumerate(items):
        path = folder / f"message-{n:03d}.eml"
        path.write_bytes(data)
        paths.append(path)
    return paths
