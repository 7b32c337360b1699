"""Importing mail: deterministic first, then extraction per human thread.

Pass 1 streams the source: each message not stored yet (by Message-ID) gets its thread and
is stored with why it is bulk mail, if it is (newsletters never reach people or
extraction). Senders who only ever broadcast are then marked bulk too. Pass 2 turns each
thread with new human messages into a capture: its text, one line per line written, each
prefixed by its sender; the capture and the thread's link to it are written in one
transaction, replacing the capture the thread had. A crash leaves whole threads or
nothing; messages stored but not yet captured are picked up by the next import.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from memo_tui.core.capture.ahead import worked_ahead
from memo_tui.core.capture.formats.base import is_bot
from memo_tui.core.capture.mail import thread_source
from memo_tui.core.capture.senders import bots
from memo_tui.core.capture.sources import Transcript, Turn
from memo_tui.core.email.message import Mail, unwrapped
from memo_tui.core.email.read import Skipped, count_messages, read_messages
from memo_tui.core.email.threads import Threader, bulk_reason
from store import EmailMessageRecord, NewEmailMessage, Store
from store.email import DELETED

BATCH = 500  # messages per write transaction in pass 1
ONE_WAY_LEAST = 5  # messages from a sender nobody writes to before it counts as bulk


@dataclass
class ImportProgress:
    """Where an import is: messages read (of `total`, when known), threads captured."""

    stage: str  # "reading", "threads", "done"
    messages: int = 0
    total: int | None = None
    threads_done: int = 0
    threads_total: int = 0
    bytes_read: int = 0  # of an mbox: how far into the file (for an ETA)
    bytes_total: int = 0
    started: float = field(default_factory=time.monotonic)

    @property
    def rate(self) -> float:
        """Messages read per second."""
        return self.messages / max(time.monotonic() - self.started, 1e-6)

    @property
    def eta_s(self) -> float | None:
        """Seconds left reading: by messages when their count is known, else by bytes."""
        if self.stage != "reading":
            return None
        if self.total:
            return max(self.total - self.messages, 0) / max(self.rate, 1e-6)
        if self.bytes_total and self.bytes_read:
            elapsed = max(time.monotonic() - self.started, 1e-6)
            return max(self.bytes_total - self.bytes_read, 0) * elapsed / self.bytes_read
        return None

    @property
    def share(self) -> float:
        """How much of the reading is done, 0 to 1 (for a progress bar)."""
        if self.total:
            return min(self.messages / self.total, 1.0)
        if self.bytes_total:
            return min(self.bytes_read / self.bytes_total, 1.0)
        return 0.0


@dataclass
class ImportSummary:
    source: str
    messages: int = 0  # read from the source
    new: int = 0
    unchanged: int = 0  # stored before (same Message-ID)
    bulk: int = 0  # of the new ones: newsletters and other bulk mail
    skipped: list[Skipped] = field(default_factory=list)
    threads: int = 0  # captured or extended
    capture_ids: list[int] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # threads whose extraction failed, why
    decisions: int = 0
    action_items: int = 0
    stopped: bool = False


class Capturer(Protocol):
    """Writes a thread's capture (and links the thread to it); (capture id, decisions,
    action items). `prepared`, when given, is what `prepare` made of (transcript, source)."""

    def __call__(
        self,
        transcript: Transcript,
        thread_key: str,
        replace_id: int | None,
        meta: dict[str, object],
        prepared: Any = None,
    ) -> tuple[int, int, int]: ...


def import_mail(
    store: Store,
    path: Path,
    capture: Capturer,
    progress: Callable[[ImportProgress], None] | None = None,
    stop: Callable[[], bool] | None = None,
    prepare: Callable[[tuple[Transcript, str]], object] | None = None,
    label: str | None = None,
) -> ImportSummary:
    """Import one mail source, each thread written by `capture`. `prepare`, the part of a
    capture that may run in another process (`CaptureService.thread_preparer`), runs
    there for the next threads while one is written (capture.ahead). `label` names the
    source in what is stored (its path by default)."""
    source = label or str(path)
    summary = ImportSummary(source)
    state = ImportProgress("reading", total=count_messages(path))
    if state.total is None and path.is_file():
        state.bytes_total = path.stat().st_size
    say = progress or (lambda _: None)
    threader, stored = _threader(store)
    batch: list[NewEmailMessage] = []

    def read(done: int) -> None:
        state.bytes_read = done

    for item in read_messages(path, read):
        summary.messages += 1
        state.messages = summary.messages
        if isinstance(item, Skipped):
            summary.skipped.append(item)
        elif item.message_id in stored:
            summary.unchanged += 1
        else:
            stored.add(item.message_id)
            batch.append(_new(item, threader, source))
            summary.bulk += batch[-1].bulk_reason is not None
        if len(batch) >= BATCH:
            summary.new += store.email.add_messages(batch)
            batch = []
        if summary.messages % 200 == 0:
            say(state)
            if stop is not None and stop():
                summary.stopped = True
                break
    summary.new += store.email.add_messages(batch)
    summary.bulk += store.email.mark_one_way_senders(ONE_WAY_LEAST)
    with store.reports_deferred():  # the rollups once at the end, not after every thread
        _capture_threads(store, source, capture, summary, state, say, stop, prepare)
    state.stage = "done"
    say(state)
    return summary


def _threader(store: Store) -> tuple[Threader, set[str]]:
    """A threader that knows the stored messages, and their Message-IDs."""
    threader = Threader()
    stored: set[str] = set()
    for known in store.email.known_messages():
        stored.add(known.message_id)
        if known.thread_key.startswith((DELETED, "bulk:")):
            continue  # a reply to a deleted thread, or to a newsletter, starts its own
        at = dt.datetime.fromisoformat(known.sent_at) if known.sent_at else None
        threader.know(
            known.message_id,
            known.references,
            known.thread_key,
            known.subject,
            at,
            set(known.people),
        )
    return threader, stored


def _capture_threads(
    store: Store,
    source: str,
    capture: Capturer,
    summary: ImportSummary,
    state: ImportProgress,
    say: Callable[[ImportProgress], None],
    stop: Callable[[], bool] | None,
    prepare: Callable[[tuple[Transcript, str]], object] | None,
) -> None:
    pending = store.email.pending_threads()
    state.stage, state.threads_total = "threads", len(pending)
    say(state)

    Rendered = tuple[str, Transcript, dict[str, object]]

    def rendered() -> Iterator[tuple[Rendered, tuple[Transcript, str]]]:
        for key in pending:
            messages = store.email.thread_messages(key)
            if messages:
                transcript, meta = render_thread(messages)
                meta["source"] = source
                yield (key, transcript, meta), (transcript, thread_source(source, key))

    for ahead in worked_ahead(rendered(), prepare, len(pending)):
        if stop is not None and stop():
            summary.stopped = True
            break
        key, transcript, meta = ahead.item
        try:
            capture_id, decisions, actions = capture(
                transcript, key, store.email.thread_capture(key), meta, ahead.done()
            )
        except Exception as error:  # noqa: BLE001 - one thread must not stop an import
            summary.failed.append(f"{transcript.title}: {type(error).__name__}: {error}"[:300])
            continue  # its messages wait: the next import tries it again
        summary.threads += 1
        summary.capture_ids.append(capture_id)
        summary.decisions += decisions
        summary.action_items += actions
        state.threads_done += 1
        say(state)


def _new(mail: Mail, threader: Threader, source: str) -> NewEmailMessage:
    reason = bulk_reason(mail)
    # Bulk mail is grouped by sender, never threaded with what people wrote.
    key = f"bulk:{mail.sender.address}" if reason else threader.assign(mail)
    recipients = [
        {"name": p.name, "address": p.address, "kind": kind}
        for kind, people in (("to", mail.to), ("cc", mail.cc))
        for p in people
    ]
    return NewEmailMessage(
        message_id=mail.message_id,
        thread_key=key,
        sent_at=mail.sent_at.isoformat() if mail.sent_at else None,
        subject=mail.subject,
        sender_name=mail.sender.name,
        sender_address=mail.sender.address,
        recipients=recipients,
        references=mail.references,
        body=mail.body,
        bulk_reason=reason,
        list_id=mail.list_id,
        unsubscribe=mail.unsubscribe,
        source_path=source,
    )


def render_thread(messages: list[EmailMessageRecord]) -> tuple[Transcript, dict[str, object]]:
    """A thread as memo's transcript form: a header, then per message a line saying who
    wrote it when, and each line they wrote prefixed with their name. `meta["messages"]`
    maps line ranges back to each message (Message-ID, date, sender)."""
    first = messages[0]
    title = _clean_subject(first.subject)
    names = list(dict.fromkeys(_name(m) for m in messages))
    participants = {m.sender_address: m.sender_name for m in messages}
    for m in messages:
        for r in m.recipients:
            if not participants.get(r["address"]):
                participants[r["address"]] = r.get("name", "")
    present = [n for n in dict.fromkeys([*names, *participants.values()]) if n]
    lines = [f"Subject: {title}", f"Participants: {', '.join(present)}", ""]
    turns: list[Turn] = []
    index: list[dict[str, object]] = []
    for n, m in enumerate(messages, 1):
        when = (m.sent_at or "")[:16].replace("T", " at ").replace(":", ".")
        lines.append(f"[message {n}] {_name(m)} <{m.sender_address}> wrote {when}".rstrip())
        start = len(lines) + 1
        for text in unwrapped(m.body):  # a hard-wrapped sentence is one line again
            lines.append(f"{_name(m)}: {text}")
            turns.append(Turn(len(lines), _name(m), text, (len(lines), len(lines))))
        index.append(
            {
                "message_id": m.message_id,
                "sent_at": m.sent_at,
                "sender": m.sender_address,
                "lines": [start, max(start, len(lines))],
            }
        )
        lines.append("")
    text = "\n".join(lines).rstrip() + "\n"
    day = dt.date.fromisoformat(first.sent_at[:10]) if first.sent_at else None
    tools = bots(turns, present) | {_name(m) for m in messages if _tool_domain(m.sender_address)}
    transcript = Transcript(
        name=f"email: {title}",
        source_format="email",
        raw_text=text,
        text=text,
        turns=turns,
        title=title,
        occurred_at=day,
        attendees=[name for name in present if name not in tools],
        bots=tools,
    )
    senders = {m.sender_address for m in messages}
    people = [
        [a, n, a in senders]
        for a, n in participants.items()
        if not (_tool_domain(a) or is_bot(n) or n in transcript.bots)  # a note-taker is nobody
    ]
    meta: dict[str, object] = {
        "thread": first.thread_key,
        "messages": index,
        "participants": people,
    }
    return transcript, meta


def _tool_domain(address: str) -> bool:
    """Mail from a note-taker's own domain (fireflies.ai, otter.ai, read.ai)."""
    return is_bot(address.rpartition("@")[2])


def _name(message: EmailMessageRecord) -> str:
    return message.sender_name or message.sender_address


def _clean_subject(subject: str) -> str:
    """The subject as people read it: without Re:/Fwd: prefixes."""
    cleaned = re.sub(r"^\s*((re|fwd?|aw|sv)\s*:\s*)+", "", subject, flags=re.I).strip()
    return cleaned or "(no subject)"
