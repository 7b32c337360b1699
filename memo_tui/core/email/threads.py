"""Threads and newsletters, worked out by code before any model sees a message.

A message joins the thread of any message it refers to (In-Reply-To, References) or that
refers to it; failing that, a reply ("Re:", "Fwd:") joins a thread with the same subject
(prefixes and list tags removed) active within THREAD_WINDOW that shares a participant with
it; failing that, it starts one. Keys are the Message-ID
of the message that started the thread, so a re-import finds the same threads.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from memo_tui.core.email.message import Mail

THREAD_WINDOW = dt.timedelta(days=30)
_PREFIX = re.compile(
    r"^\s*((re|fwd?|aw|wg|sv|vs|antw|tr)\s*(\[\d+\])?\s*:\s*|\[[^\]]{1,40}\]\s*)+", re.I
)
_NO_REPLY = re.compile(
    r"^(no-?reply|do-?not-?reply|donotreply|mailer-daemon|bounces?|notifications?|"
    r"newsletters?|news|digest|updates|marketing)([+.-].*)?@",
    re.I,
)


def subject_key(subject: str) -> str:
    """The subject without reply and forward prefixes or list tags, for matching."""
    return " ".join(_PREFIX.sub("", subject).lower().split())


def bulk_reason(mail: Mail) -> str | None:
    """Why the message is a newsletter or other bulk mail (None: written by a person).
    Headers first (what a list server adds), then the sender's address."""
    if (mail.unsubscribe or mail.list_id) and mail.references:
        return None  # a reply on a mailing list is people talking (a discussion list)
    if mail.unsubscribe:
        return "List-Unsubscribe"
    if mail.list_id:
        return "List-Id"
    if mail.precedence in ("bulk", "list", "junk"):
        return f"Precedence: {mail.precedence}"
    if mail.auto_submitted and mail.auto_submitted != "no":
        return "Auto-Submitted"
    if _NO_REPLY.match(mail.sender.address):
        return "a no-reply sender"
    return None


@dataclass
class _Thread:
    key: str
    subject: str
    last: dt.datetime | None
    people: set[str] = field(default_factory=set)  # addresses that wrote or were written to


class Threader:
    """Assigns thread keys to messages as they come, in any order. Knows the threads
    already stored (`known`: message id -> thread key, and each thread's subject and last
    date) so new mail extends them."""

    def __init__(self) -> None:
        self.by_message: dict[str, str] = {}  # message id (or one referred to) -> thread
        self.threads: dict[str, _Thread] = {}
        self.by_subject: dict[str, list[str]] = {}

    def know(
        self,
        message_id: str,
        refs: tuple[str, ...],
        key: str,
        subject: str,
        at: dt.datetime | None,
        people: set[str] | None = None,
    ) -> None:
        """A stored message and its thread."""
        for mid in (message_id, *refs):
            self.by_message.setdefault(mid, key)
        self._touch(key, subject, at, people or set())

    def assign(self, mail: Mail) -> str:
        """The thread key for `mail` (and remember it)."""
        key = self.by_message.get(mail.message_id)
        if key is None:
            key = next((self.by_message[r] for r in mail.references if r in self.by_message), None)
        if key is None:
            key = self._by_subject(mail)
        if key is None:
            key = mail.message_id
        for mid in (mail.message_id, *mail.references):
            self.by_message.setdefault(mid, key)
        self._touch(key, mail.subject, mail.sent_at, _people(mail))
        return key

    def _by_subject(self, mail: Mail) -> str | None:
        """A reply whose client sent no References: the latest thread with its subject, in
        the window, with someone in common (two people asking "Question" are not one)."""
        wanted = subject_key(mail.subject)
        if not _PREFIX.match(mail.subject) or not wanted or mail.sent_at is None:
            return None
        people = _people(mail)
        for key in reversed(self.by_subject.get(wanted, [])):
            thread = self.threads[key]
            near = thread.last is not None and abs(mail.sent_at - thread.last) <= THREAD_WINDOW
            if near and people & thread.people:
                return key
        return None

    def _touch(self, key: str, subject: str, at: dt.datetime | None, people: set[str]) -> None:
        thread = self.threads.get(key)
        if thread is None:
            thread = self.threads[key] = _Thread(key, subject, at)
            self.by_subject.setdefault(subject_key(subject), []).append(key)
        elif at is not None and (thread.last is None or at > thread.last):
            thread.last = at
        thread.people |= people


def _people(mail: Mail) -> set[str]:
    return {mail.sender.address, *(p.address for p in (*mail.to, *mail.cc))}
