"""Email import on a generated archive: reading every shape (charsets, HTML only, quotes,
forwards, a malformed message, a hostile attachment name), threads by headers and by
subject, newsletters kept aside, facts that cite their message, re-imports that change
nothing, and a new message that extends its thread."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from support.db import dump
from support.fakes import mail

from memo_tui.core.email.importer import ImportSummary, import_mail
from memo_tui.core.email.message import unwrapped
from memo_tui.core.email.read import Skipped, read_messages
from memo_tui.core.services import Services, build_services
from memo_tui.settings import Settings

# Every test here that reaches a store runs on SQLite and on PostgreSQL (conftest).
BOTH_STORES = True


@pytest.fixture
def services(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    for name in ("MEMO_PROVIDER", "ANTHROPIC_API_KEY", "MEMO_EMBED_MODEL_PATH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MEMO_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    built = build_services(Settings(provider="offline"), tmp_path / "memo.db")
    yield built
    built.close()


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    return mail.write_mbox(tmp_path / "archive.mbox", mail.messages())


def imported(services: Services, path: Path) -> ImportSummary:
    return import_mail(services.store, path, services.capture.capture_thread)


def test_every_shape_of_message_is_read(archive: Path) -> None:
    read = list(read_messages(archive))
    [bad] = [m for m in read if isinstance(m, Skipped)]
    assert "no sender" in bad.reason and len(read) == 19
    mails = {m.message_id: m for m in read if not isinstance(m, Skipped)}
    reply = mails["<atlas-2@example.com>"]
    assert reply.body == "Sure, I will write the rollback runbook by Friday."  # quote gone
    assert reply.references == ("<atlas-1@example.com>",)
    assert "Engineering lead" not in mails["<atlas-1@example.com>"].body  # signature gone
    assert mails["<fwd-1@example.com>"].body.startswith("We agreed to renew")  # forwarded
    html = mails["<html-1@example.com>"].body
    assert "keep Cobalt pricing flat" in html and "alert" not in html and "evil" not in html
    latin = mails["<latin-1@example.com>"]
    assert latin.subject == "Café décidé" and "décidé de garder le café" in latin.body
    assert latin.sender.name == "Renée Dupré"
    assert "Tromsø" in mails["<b64-1@example.com>"].body
    assert mails["<odd-1@example.com>"].body == "The staging database is back."
    hostile = mails["<attach-1@example.com>"]
    assert hostile.attachments == 1 and "\x1b" not in hostile.subject
    assert "\u241b]0;pwned" in hostile.subject and "owned" not in hostile.body
    assert mails["<from-1@example.com>"].body == "From now on we meet on Tuesdays."
    assert mails["<atlas-1@example.com>"].to[0].address == "tom@example.com"


def test_maildir_and_eml_read_the_same_messages(archive: Path, tmp_path: Path) -> None:
    def ids(items: list[object]) -> list[str]:
        return sorted(m.message_id for m in items if not isinstance(m, Skipped))  # type: ignore[attr-defined]

    from_mbox = ids(list(read_messages(archive)))
    maildir = mail.write_maildir(tmp_path / "Mail", mail.messages())
    assert ids(list(read_messages(maildir))) == from_mbox
    emls = mail.write_eml(tmp_path / "eml", mail.messages())
    assert ids([m for p in emls for m in read_messages(p)]) == from_mbox


def test_threads_newsletters_and_facts_that_cite_their_message(
    services: Services, archive: Path, tmp_path: Path
) -> None:
    done = imported(services, archive)
    assert (done.messages, done.new, len(done.skipped)) == (19, 18, 1)
    store = services.store
    captures = {c.title: c for c in store.captures.all()}
    assert "Weekly update 1" not in captures and "October product update" not in captures
    atlas = [c for c in store.captures.all() if c.title == "Atlas cutover plan"]
    assert len(atlas) == 2  # the March thread is another conversation
    first = min(atlas, key=lambda c: c.occurred_at or "")
    thread = store.email.capture_messages(first.id)
    assert [m.message_id for m in thread] == [
        "<atlas-1@example.com>",
        "<atlas-2@example.com>",
        "<atlas-3@example.com>",  # joined by its subject (no References)
    ]
    [decision] = store.captures.decisions([first.id])
    assert "cutover to Saturday" in decision.description
    assert decision.decided_by == "Priya Natarajan"
    owners = {a.assignee_raw for a in store.captures.action_items([first.id])}
    assert owners & {"Tom", "Tom Adeyemi"}
    _, text, source_format, source = store.captures.source(first.id)
    assert source_format == "email" and source and source.endswith(thread[0].thread_key)
    meta = _meta(store, first.id)
    lines = {m["message_id"]: m["lines"] for m in meta["messages"]}
    start, end = lines["<atlas-1@example.com>"]
    assert start <= decision.line_start <= end  # the evidence is in the message it cites
    assert "cutover to Saturday" in text.split("\n")[decision.line_start - 1]
    letters = {n.sender: n for n in store.email.newsletters()}
    assert set(letters) == {"news@vendor.example", "ceo-office@corp.example"}
    assert letters["news@vendor.example"].unsubscribe.startswith("<https://vendor.example")
    assert letters["ceo-office@corp.example"].messages == 6
    assert "one-way" in letters["ceo-office@corp.example"].reason
    people = {p.name for p in store.people.all()}
    assert {"Priya Natarajan", "Tom Adeyemi", "Elena Kowalski"} <= people
    assert not people & {"Vendor News", "CEO Office"}  # newsletters make nobody
    assert not list((tmp_path / "home").rglob(".bashrc"))  # an attachment is never written
    assert not Path(os.path.expanduser("~/.bashrc")).exists() or "owned" not in Path(
        os.path.expanduser("~/.bashrc")
    ).read_text(errors="replace")


def _meta(store: object, capture_id: int) -> dict[str, object]:
    from sqlalchemy import text

    with store.reader.connect() as conn:  # type: ignore[attr-defined]
        raw = conn.execute(
            text("SELECT meta_json FROM captures WHERE id = :c"), {"c": capture_id}
        ).scalar_one()
    return json.loads(raw)  # type: ignore[no-any-return]


def test_importing_again_changes_nothing(services: Services, archive: Path) -> None:
    imported(services, archive)
    before = dump(services.store)
    again = imported(services, archive)
    assert (again.new, again.unchanged, again.threads) == (0, 18, 0)
    assert dump(services.store) == before


def test_a_new_message_extends_its_thread_in_one_capture(
    services: Services, archive: Path, tmp_path: Path
) -> None:
    imported(services, archive)
    store = services.store
    old = next(c for c in store.captures.all() if c.occurred_at == "2026-10-12")
    more = imported(services, mail.write_mbox(tmp_path / "later.mbox", mail.later()))
    assert (more.new, more.threads) == (1, 1)
    now = [c for c in store.captures.all() if c.occurred_at == "2026-10-12"]
    assert len(now) == 1  # replaced, not added beside
    messages = store.email.capture_messages(now[0].id)
    assert [m.message_id for m in messages][-1] == "<atlas-4@example.com>" and len(messages) == 4
    texts = [a.description for a in store.captures.action_items([now[0].id])]
    assert any("on-call schedule" in t for t in texts)
    assert store.captures.get(old.id) is None or old.id == now[0].id


def test_the_cli_imports_mail_and_lists_newsletters(memo, archive: Path) -> None:  # type: ignore[no-untyped-def]
    extra = {"MEMO_PROVIDER": "offline"}
    done = memo("capture", str(archive), "--json", extra_env=extra)
    assert done.code == 0, done.stderr
    [summary] = done.json()["email"]
    assert summary["messages"] == 19 and summary["newsletters"] == 7
    assert summary["skipped"][0]["reason"] == "no sender address (From)"
    letters = memo("newsletters", "--json", extra_env=extra).json()["newsletters"]
    assert {n["sender"] for n in letters} == {"news@vendor.example", "ceo-office@corp.example"}
    assert set(letters[0]) >= {"sender", "name", "messages", "last_seen", "unsubscribe"}
    text = memo("capture", str(archive), extra_env=extra)
    assert text.code == 0 and "0 new, 18 already stored" in text.stdout


@pytest.mark.slow
def test_bench_email_prints_its_figures(memo) -> None:  # type: ignore[no-untyped-def]
    done = memo("bench", "email", "--messages", "300", "--json", timeout=300)
    assert done.code == 0, done.stderr
    bench = done.json()
    assert bench["messages"] == 300 and bench["threads"] > 20 and bench["newsletters"] > 20
    assert bench["seconds"] > 0 and bench["messages_per_s"] > 0 and bench["peak_rss_mb"] > 0
    assert bench["decisions"] > 0 and bench["action_items"] > 0


@pytest.mark.slow
def test_kill_9_mid_import_leaves_whole_threads_and_the_next_import_finishes(
    tmp_path: Path,
) -> None:
    """Killed at random moments, an import leaves captures whose messages are all there;
    messages stored but not yet captured are captured by the next import, and the end
    state is what one clean import makes."""
    import random
    import signal
    import subprocess
    import sys
    import time

    from memo_tui.core.benchmarks.email import write_mbox
    from store import Store

    source = tmp_path / "big.mbox"
    write_mbox(source, 600)
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMO_")}
    env |= {"MEMO_HOME": str(tmp_path / "home"), "MEMO_PROVIDER": "offline"}

    def capture(db: Path) -> subprocess.Popen[bytes]:
        command = [sys.executable, "-m", "memo_tui", "--db", str(db), "capture", str(source)]
        return subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
        )

    def whole(db: Path) -> int:
        """Every email capture holds exactly the messages its text was made from."""
        from sqlalchemy import text

        with Store(db) as store, store.reader.connect() as conn:
            rows = conn.execute(
                text("SELECT id, meta_json FROM captures WHERE source_kind = 'email'")
            ).all()
            for capture_id, meta in rows:
                listed = {m["message_id"] for m in json.loads(meta)["messages"]}
                linked = {m.message_id for m in store.email.capture_messages(capture_id)}
                assert listed == linked, capture_id
            return len(rows)

    rng = random.Random(99)
    db = tmp_path / "killed.db"
    for _ in range(int(os.environ.get("MEMO_EMAIL_KILLS", "6"))):
        proc = capture(db)
        time.sleep(rng.uniform(1.2, 4.0))  # past start-up, into reading or threads
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        if db.exists():
            whole(db)
    assert capture(db).wait(timeout=300) == 0
    clean = tmp_path / "clean.db"
    assert capture(clean).wait(timeout=300) == 0
    assert whole(db) == whole(clean)
    with Store(db) as store:
        assert store.email.pending_threads() == []


def test_an_unquoted_from_line_inside_a_body_does_not_split_the_message(tmp_path: Path) -> None:
    raw = (
        b"From a@example.com Mon Oct 12 09:14:00 2026\n"
        b"From: Ann <a@example.com>\nTo: b@example.com\nSubject: One\n"
        b"Message-ID: <one@example.com>\n\n"
        b"First line.\nFrom the look of it we ship on Monday.\n\n"
        b"From b@example.com Mon Oct 12 10:00:00 2026\n"
        b"From: Bo <b@example.com>\nTo: a@example.com\nSubject: Two\n"
        b"Message-ID: <two@example.com>\n\nSecond.\n"
    )
    path = tmp_path / "old.mbox"
    path.write_bytes(raw)
    read = list(read_messages(path))
    assert [m.message_id for m in read] == ["<one@example.com>", "<two@example.com>"]  # type: ignore[union-attr]
    assert "we ship on Monday" in read[0].body  # type: ignore[union-attr]


def test_display_names_are_read_as_people_write_them() -> None:
    from memo_tui.core.email.message import display_name, normalize_address

    assert display_name('"Adeyemi, Tom"') == "Tom Adeyemi"
    assert display_name("Tom Adeyemi") == "Tom Adeyemi"
    assert display_name("Support, Team 2") == "Support, Team 2"  # not a Last, First
    assert normalize_address("<Tom+Lists@Example.COM>") == "tom@example.com"


def test_a_broadcaster_written_to_later_is_a_person_again(
    services: Services, archive: Path, tmp_path: Path
) -> None:
    """Inbox first, sent mail later: a one-way sender the user then writes to is freed and
    their messages are captured."""
    imported(services, archive)
    store = services.store
    assert "ceo-office@corp.example" in {n.sender for n in store.email.newsletters()}
    reply = mail._mail(
        mail.ME,
        "CEO Office <ceo-office@corp.example>",
        "Re: Weekly update 6",
        "2026-10-16T09:00:00+00:00",
        "Thanks, we decided to open two more roles.",
        "<reply-ceo@example.com>",
        reply_to="<ceo-5@corp.example>",
        refs="<ceo-5@corp.example>",
    )
    imported(services, mail.write_mbox(tmp_path / "sent.mbox", [bytes(reply)]))
    assert "ceo-office@corp.example" not in {n.sender for n in store.email.newsletters()}
    titles = [c.title for c in store.captures.all()]
    assert "Weekly update 6" in titles and "Weekly update 1" in titles


def test_an_mbox_import_reports_its_share_rate_and_eta(services: Services, tmp_path: Path) -> None:
    from memo_tui.core.benchmarks.email import write_mbox
    from memo_tui.core.email.importer import ImportProgress

    source = tmp_path / "big.mbox"
    write_mbox(source, 1000)
    seen: list[tuple[str, float, float | None, float]] = []

    def progress(state: ImportProgress) -> None:
        seen.append((state.stage, state.share, state.eta_s, state.rate))

    import_mail(services.store, source, services.capture.capture_thread, progress)
    reading = [s for s in seen if s[0] == "reading"]
    assert len(reading) >= 4  # every 200 messages
    shares = [share for _, share, _, _ in reading]
    assert shares == sorted(shares) and 0 < shares[0] < shares[-1] <= 1
    assert all(eta is not None and eta >= 0 and rate > 0 for _, _, eta, rate in reading)
    assert seen[-1][0] == "done"


def test_memo_ask_answers_from_an_email_thread(memo, archive: Path) -> None:  # type: ignore[no-untyped-def]
    extra = {"MEMO_PROVIDER": "offline"}
    assert memo("capture", str(archive), extra_env=extra).code == 0
    answer = memo("ask", "when is the Atlas cutover?", "--json", extra_env=extra).json()
    cited = [c for c in answer["citations"] if "Atlas cutover plan" in (c.get("title") or "")]
    assert cited and "Saturday" in answer["answer"]


def test_a_deleted_thread_is_not_captured_again(
    services: Services, archive: Path, tmp_path: Path
) -> None:
    imported(services, archive)
    store = services.store
    thread = next(c for c in store.captures.all() if c.occurred_at == "2026-10-12")
    assert store.captures.delete(thread.id)
    before = dump(store)
    again = imported(services, archive)
    assert (again.new, again.threads) == (0, 0) and dump(store) == before
    more = imported(services, mail.write_mbox(tmp_path / "later.mbox", mail.later()))
    assert more.threads == 1  # a new reply to it starts a thread of its own
    [fresh] = [
        c
        for c in store.captures.all()
        if c.occurred_at == "2026-10-14" and c.title == "Atlas cutover plan"
    ]
    assert [m.message_id for m in store.email.capture_messages(fresh.id)] == [
        "<atlas-4@example.com>"
    ]


def test_hostile_messages_are_skipped_or_read_safely_and_never_stop_an_import(
    services: Services, tmp_path: Path
) -> None:
    """Found in review: each of these used to end the import, stall it, or garble names."""
    import time

    def raw(headers: str, body: str) -> bytes:
        return (headers + "\n\n" + body + "\n").encode("utf-8", "surrogateescape")

    hostile = [
        raw(
            "From: a@x.org\nTo: b@x.org\nSubject: far future\nMessage-ID: <h1@x>\n"
            "Date: Fri, 31 Dec 9999 23:59:59 -1200",
            "Dated at the end of time.",
        ),
        raw(
            "From: a@x.org\nTo: " + "(" * 600 + "\nSubject: nested\nMessage-ID: <h2@x>",
            "Comments nested too deep.",
        ),
        raw(
            "From: a@x.org\nTo: b@x.org\nSubject: forwards\nMessage-ID: <h3@x>",
            "---------- Forwarded message ----------\n" * 1000 + "At the bottom.",
        ),
        raw(
            "From: a@x.org\nTo: b@x.org\nSubject: markup\nMessage-ID: <h4@x>\n"
            "Content-Type: text/html",
            "<a " * 20000,
        ),
        raw(
            "From: Jöhn Grüße <john@x.org>\nTo: b@x.org\nSubject: Grüße aus Köln\n"
            "Message-ID: <h5@x>",
            "Raw UTF-8 in the headers.",
        ),
        raw(
            "From: evil\x1b[2J@x.org\nTo: b@x.org\nSubject: escape\nMessage-ID: <h6@x>",
            "An escape in the address.",
        ),
    ]
    archive = mail.write_mbox(tmp_path / "hostile.mbox", hostile)
    started = time.monotonic()
    done = imported(services, archive)
    assert time.monotonic() - started < 30  # the HTML part is capped, not parsed for minutes
    assert done.messages == 6 and done.failed == []
    known = services.store.email.known_messages()
    assert not any("\x1b" in who for k in known for who in k.people)  # no raw escape kept
    titles = {c.title for c in services.store.captures.all()}
    assert {"far future", "nested", "forwards", "markup", "Grüße aus Köln"} <= titles
    assert "Jöhn Grüße" in {p.name for p in services.store.people.all()}


def test_a_failing_extraction_skips_its_thread_and_the_import_goes_on(
    services: Services, archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = 0

    def flaky(transcript, thread_key, replace_id, meta, prepared=None):  # type: ignore[no-untyped-def]
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("the model timed out")
        return services.capture.capture_thread(transcript, thread_key, replace_id, meta, prepared)

    done = import_mail(services.store, archive, flaky)
    assert len(done.failed) == 1 and "timed out" in done.failed[0]
    assert done.threads >= 5 and len(services.store.email.pending_threads()) == 1
    again = imported(services, archive)  # the next import captures what failed
    assert again.threads == 1 and services.store.email.pending_threads() == []


def test_a_maildir_never_follows_a_link_or_reads_a_fifo(tmp_path: Path) -> None:
    maildir = mail.write_maildir(tmp_path / "Mail", mail.messages()[:2])
    secret = tmp_path / "secret.eml"
    secret.write_bytes(mail.messages()[0].replace(b"atlas-1", b"stolen"))
    (maildir / "cur" / "link").symlink_to(secret)
    os.mkfifo(maildir / "new" / "pipe")
    read = list(read_messages(maildir))
    ids = [m.message_id for m in read if not isinstance(m, Skipped)]  # type: ignore[union-attr]
    assert "<stolen@example.com>" not in ids and len(ids) == 2
    assert len([m for m in read if isinstance(m, Skipped)]) == 2


def test_the_same_subject_from_strangers_is_two_threads(services: Services, tmp_path: Path) -> None:
    import datetime as dt
    from email.message import EmailMessage
    from email.utils import format_datetime

    def ask(sender: str, to: str, mid: str, day: int, subject: str) -> bytes:
        m = EmailMessage()
        m["From"], m["To"], m["Subject"], m["Message-ID"] = sender, to, subject, mid
        m["Date"] = format_datetime(dt.datetime(2026, 11, day, 9, tzinfo=dt.UTC))
        m.set_content("A question about the build.")
        return bytes(m)

    items = [
        ask("a@one.example", "b@one.example", "<q1@x>", 2, "Question"),
        ask("c@two.example", "d@two.example", "<q2@x>", 3, "Question"),  # not a reply
        ask("e@three.example", "f@three.example", "<q3@x>", 4, "Re: Question"),  # strangers
        ask("b@one.example", "a@one.example", "<q4@x>", 5, "Re: Question"),  # a reply to q1
    ]
    imported(services, mail.write_mbox(tmp_path / "q.mbox", items))
    threads = sorted(
        len(services.store.email.capture_messages(c.id)) for c in services.store.captures.all()
    )
    assert threads == [1, 1, 2]


def test_a_hard_wrapped_sentence_is_read_whole(services: Services, tmp_path: Path) -> None:
    """Mail clients break lines at a width; a decision broken over three lines is one line
    of the thread again, and becomes one whole decision. Greetings, signatures and list
    items stay lines of their own."""
    body = (
        "Hi Sam,\n\nThanks, that helps. The pilot build stays frozen until the pilot ends,\n"
        "so a change now means a new build on forty devices. We decided to ship\n"
        "night mode in the January release, because the pilot build is frozen.\n\n"
        "- Marcus: the dark palette sketch\n- Sam: driver quotes\n\nPriya\n"
    )
    assert unwrapped(body) == [
        "Hi Sam,",
        "Thanks, that helps. The pilot build stays frozen until the pilot ends, so a change "
        "now means a new build on forty devices. We decided to ship night mode in the "
        "January release, because the pilot build is frozen.",
        "- Marcus: the dark palette sketch",
        "- Sam: driver quotes",
        "Priya",
    ]
    short = "Sounds good.\nSee you Monday.\nSam"
    assert unwrapped(short) == ["Sounds good.", "See you Monday.", "Sam"]  # not wrapped
    # A sentence a line, written so (not wrapped): each line ends its sentence, and stays.
    each = [
        "We decided to announce the vendor contract because the numbers favour it.",
        "Priya, can you write up the Q4 hiring notes by Friday?",
        "Omar will send the Atlas cutover summary to the client.",
    ]
    assert unwrapped("\n".join(each)) == each
    # What is not a wrapped sentence stays as it was written.
    alone = {
        "a link sets no width": [
            "Notes: https://example.com/a/very/long/link/that/is/longer/than/any/line/here",
            "We decided to ship",
            "night mode in January.",
        ],
        "a heading above a sentence": [
            "Launch plan update for the April timeframe and beyond",
            "We move the launch to April.",
        ],
        "a sign-off": ["Let me know if Thursday at ten works for you", "Thanks"],
        "Japanese, a sentence a line": [
            "来週の会議は火曜日に決まりました。",
            "資料は金曜日までに送ります。",
        ],
    }
    for kind, lines in alone.items():
        assert unwrapped("\n".join(lines)) == lines, kind
    path = mail.write_mbox(
        tmp_path / "wrapped.mbox",
        [
            (
                "From: Priya Natarajan <priya@example.com>\nTo: Sam Chen <sam@example.com>\n"
                "Subject: Night mode\nMessage-ID: <w1@example.com>\n"
                "Date: Fri, 20 Nov 2026 09:40:00 +0100\n\n" + body
            ).encode()
        ],
    )
    imported(services, path)
    [capture] = services.store.captures.all()
    [decision] = services.store.captures.decisions([capture.id])
    assert decision.description.startswith("We decided to ship night mode in the January")
    assert decision.line_start == decision.line_end  # one line of the thread


def test_a_format_flowed_message_is_read_as_its_sender_wrote_it() -> None:
    """RFC 3676: a line ending in a space goes on in the next, however short the lines."""
    from memo_tui.core.email.message import parse_mail

    raw = (
        "From: Priya Natarajan <priya@example.com>\nTo: sam@example.com\nSubject: Night\n"
        "Message-ID: <f1@example.com>\n"
        "Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes\n\n"
        "Hi Sam,\n\nWe decided to ship night mode in the January release, because  \n"
        "the pilot build is fro\n"  # (delsp=yes: a word split across the break)
        "zen.\n From the depot: thanks.\n-- \nPriya\n"
    )
    mail = parse_mail(raw.replace("fro\n", "fro \n").encode())
    assert mail.body.split("\n") == [
        "Hi Sam,",
        "",
        "We decided to ship night mode in the January release, because the pilot build is frozen.",
        "From the depot: thanks.",
    ]
