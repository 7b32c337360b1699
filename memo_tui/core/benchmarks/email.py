"""`memo bench email`: import a synthetic mbox it writes (threads among a team, replies that
quote, HTML-only mail, newsletters) into a fresh store, offline, and report the time,
messages per second and the process's peak memory.

The import runs in a child process, so its peak resident memory is its own (the parent
wrote the mbox and holds nothing of it); the worker that prepares threads ahead of the
writes (capture.ahead) is reported on its own line.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

PEOPLE = [
    ("Priya Natarajan", "priya@example.com"),
    ("Tom Adeyemi", "tom@example.com"),
    ("Elena Kowalski", "elena@example.com"),
    ("Sam Chen", "sam@example.com"),
    ("Marcus Webb", "marcus@example.com"),
    ("Ingrid Halvorsen", "ingrid@halvorsen.example"),
    ("Zoe Park", "zoe@example.com"),
    ("Omar Haddad", "omar@example.com"),
]
TOPICS = ["Atlas cutover", "Beacon pricing", "Cobalt billing", "Q4 hiring", "vendor contract"]
LINES = [
    "We decided to {verb} the {topic} because the numbers favour it.",
    "{name}, can you write up the {topic} notes by Friday?",
    "I think the {topic} needs another look before we commit.",
    "Agreed: we will {verb} the {topic} next week.",
    "{name} will send the {topic} summary to the client.",
    "Thanks, that works for me.",
]
VERBS = ["ship", "pause", "review", "split", "announce"]
NEWSLETTERS = [("Vendor News", "news@vendor.example"), ("Weekly Digest", "digest@media.example")]


@dataclass
class EmailBench:
    messages: int
    threads: int
    newsletters: int
    mbox_bytes: int
    seconds: float
    messages_per_s: float
    peak_rss_mb: float
    worker_peak_rss_mb: float  # the process extracting ahead (0: none ran)
    decisions: int
    action_items: int


def write_mbox(path: Path, count: int, seed: int = 7) -> None:
    """`count` messages: threads of 1-6 among the team (replies quote and reference the
    message before), about one in five a newsletter, some HTML only."""
    rng = random.Random(seed)
    start = dt.datetime(2025, 1, 6, 9, tzinfo=dt.UTC)
    written = 0
    thread = 0
    with path.open("wb") as out:
        while written < count:
            if rng.random() < 0.35:  # about one message in five is a newsletter
                name, address = rng.choice(NEWSLETTERS)
                _write(out, _newsletter(name, address, written, start, rng))
                written += 1
                continue
            thread += 1
            topic = rng.choice(TOPICS)
            cast = rng.sample(PEOPLE, 3)
            parent: EmailMessage | None = None
            when = start + dt.timedelta(hours=thread * 3)
            for reply in range(min(rng.randint(1, 6), count - written)):
                sender, other = cast[reply % 3], cast[(reply + 1) % 3]
                when += dt.timedelta(minutes=rng.randint(5, 600))
                message = _message(sender, other, topic, thread, reply, when, parent, rng)
                _write(out, message)
                parent = message
                written += 1


def _message(
    sender: tuple[str, str],
    other: tuple[str, str],
    topic: str,
    thread: int,
    reply: int,
    when: dt.datetime,
    parent: EmailMessage | None,
    rng: random.Random,
) -> EmailMessage:
    m = EmailMessage()
    m["From"] = f"{sender[0]} <{sender[1]}>"
    m["To"] = f"{other[0]} <{other[1]}>"
    m["Subject"] = ("Re: " if parent else "") + f"{topic} #{thread}"
    m["Date"] = format_datetime(when)
    m["Message-ID"] = f"<t{thread}.r{reply}@bench.example>"
    body = [
        rng.choice(LINES).format(verb=rng.choice(VERBS), topic=topic, name=other[0].split()[0])
        for _ in range(rng.randint(1, 4))
    ]
    if parent is not None:
        m["In-Reply-To"] = str(parent["Message-ID"])
        m["References"] = str(parent["Message-ID"])
        quoted = [f"> {line}" for line in str(parent.get_content()).splitlines()[:6]]
        body += ["", f"On {parent['Date']}, {parent['From']} wrote:", *quoted]
    text = "\n".join(body) + "\n"
    if reply == 0 and thread % 7 == 0:  # some clients send HTML only
        m.set_content(f"<html><body><p>{text}</p></body></html>", subtype="html")
    else:
        m.set_content(text)
    return m


def _newsletter(
    name: str, address: str, n: int, start: dt.datetime, rng: random.Random
) -> EmailMessage:
    m = EmailMessage()
    m["From"] = f"{name} <{address}>"
    m["To"] = "Priya Natarajan <priya@example.com>"
    m["Subject"] = f"{name}: issue {n}"
    m["Date"] = format_datetime(start + dt.timedelta(hours=n))
    m["Message-ID"] = f"<news{n}@bench.example>"
    m["List-Unsubscribe"] = f"<https://{address.split('@')[1]}/unsubscribe>"
    m.set_content(
        f"<html><body><h1>{name}</h1><p>{rng.choice(TOPICS)} news.</p></body></html>",
        subtype="html",
    )
    return m


def _write(out: object, message: EmailMessage) -> None:
    data = bytes(message).replace(b"\r\n", b"\n")
    lines = [b">" + x if x.lstrip(b">").startswith(b"From ") else x for x in data.split(b"\n")]
    out.write(b"From bench@example.com Mon Jan  6 09:00:00 2025\n")  # type: ignore[attr-defined]
    out.write(b"\n".join(lines) + b"\n\n")  # type: ignore[attr-defined]


def run(count: int, progress: Callable[[str], None] | None = None) -> EmailBench:
    say = progress or (lambda _: None)
    with tempfile.TemporaryDirectory(prefix="memo-bench-email-") as folder:
        mbox = Path(folder) / "bench.mbox"
        say(f"writing {count:,} messages")
        write_mbox(mbox, count)
        say("importing (offline)")
        child = subprocess.run(
            [sys.executable, "-m", "memo_tui.core.benchmarks.email", str(mbox), folder],
            capture_output=True,
            text=True,
            check=False,
        )
        if child.returncode != 0:
            raise RuntimeError(f"the import failed: {child.stderr.strip()[-2000:]}")
        measured = json.loads(child.stdout)
        return EmailBench(mbox_bytes=mbox.stat().st_size, **measured)


def _child(mbox: Path, folder: Path) -> None:
    """In the child: import `mbox` into a new store and print the figures as JSON."""
    import resource

    from memo_tui.core.email.importer import import_mail
    from memo_tui.core.services import build_services
    from memo_tui.settings import Settings

    services = build_services(Settings(provider="offline"), folder / "bench.db")
    services.capture.after_commit = None  # the import is measured, not embedding
    started = time.perf_counter()
    capture = services.capture
    summary = import_mail(
        services.store, mbox, capture.capture_thread, prepare=capture.thread_preparer
    )
    seconds = time.perf_counter() - started
    services.close()
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    worker_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # the extraction worker
    print(
        json.dumps(
            {
                "messages": summary.messages,
                "threads": summary.threads,
                "newsletters": summary.bulk,
                "seconds": round(seconds, 2),
                "messages_per_s": round(summary.messages / seconds, 1),
                "peak_rss_mb": round(peak_kb / 1024, 1),
                "worker_peak_rss_mb": round(worker_kb / 1024, 1),
                "decisions": summary.decisions,
                "action_items": summary.action_items,
            }
        )
    )


def format_report(bench: EmailBench) -> str:
    rows = asdict(bench)
    return "\n".join(
        [
            f"memo bench email: {bench.messages:,} messages "
            f"({bench.mbox_bytes / 1e6:.1f} MB mbox), offline",
            f"  import:  {bench.seconds:.1f} s, {bench.messages_per_s:,.0f} messages/s",
            f"  memory:  peak {bench.peak_rss_mb:.0f} MB resident (the importing process)"
            + (
                f", {bench.worker_peak_rss_mb:.0f} MB (its extraction worker)"
                if bench.worker_peak_rss_mb
                else ""
            ),
            f"  found:   {rows['threads']:,} threads, {rows['newsletters']:,} newsletter "
            f"messages, {rows['decisions']:,} decisions, {rows['action_items']:,} action items",
            "  targets: 10,000 messages in 20 s or less, peak memory under 500 MB",
        ]
    )


if __name__ == "__main__":
    _child(Path(sys.argv[1]), Path(sys.argv[2]))
