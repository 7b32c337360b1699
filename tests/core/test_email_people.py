"""People from email participants: an address links to a person on strong evidence only
(the same address; the same name at the same domain; the user's own addresses), the same
name at another domain is proposed, and the people rollup counts each person's mail."""

from __future__ import annotations

import datetime as dt
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import pytest
from support.fakes import mail
from support.tui import shown, until

from memo_tui.core.email.importer import import_mail
from memo_tui.core.services import Services, build_services
from memo_tui.settings import Settings

# Every test here that reaches a store runs on SQLite and on PostgreSQL (conftest).
BOTH_STORES = True


@pytest.fixture
def services(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    for name in ("MEMO_PROVIDER", "ANTHROPIC_API_KEY", "MEMO_EMBED_MODEL_PATH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MEMO_HOME", str(tmp_path / "home"))
    settings = Settings(
        provider="offline", my_addresses=["priya@example.com", "priya.n@gmail.example"]
    )
    built = build_services(settings, tmp_path / "memo.db")
    yield built
    built.close()


def message(sender: str, to: str, subject: str, day: int, body: str, mid: str) -> bytes:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = sender, to, subject
    m["Date"] = format_datetime(dt.datetime(2026, 11, day, 9, tzinfo=dt.UTC))
    m["Message-ID"] = mid
    m.set_content(body)
    return bytes(m)


def test_addresses_join_people_on_strong_evidence_only(services: Services, tmp_path: Path) -> None:
    store = services.store
    first = mail.write_mbox(tmp_path / "a.mbox", mail.messages())
    import_mail(store, first, services.capture.capture_thread)
    more = [
        # Tom again, from a second address at his own domain: the same person.
        message("Tom Adeyemi <tom.a@example.com>", mail.ME, "Runbook", 2, "Done.", "<m1@x>"),
        # Elena's name at another domain: only proposed.
        message("Elena Kowalski <elena@elsewhere.example>", mail.ME, "Hi", 3, "Hi.", "<m2@x>"),
        # The user from another of their addresses, under another name: still the user.
        message("P. N. <priya.n@gmail.example>", mail.TOM, "Lunch", 4, "Lunch?", "<m3@x>"),
    ]
    later = tmp_path / "b.mbox"
    mail.write_mbox(later, more)
    import_mail(store, later, services.capture.capture_thread)
    people = {p.name: p.id for p in store.people.all()}
    assert store.email.person_addresses(people["Tom Adeyemi"]) == [
        "tom.a@example.com",
        "tom@example.com",
    ]
    assert store.email.person_addresses(people["Priya Natarajan"]) == [
        "priya.n@gmail.example",
        "priya@example.com",
    ]
    assert "elena@elsewhere.example" not in store.email.person_addresses(people["Elena Kowalski"])
    [proposal] = store.email.address_proposals()
    assert (proposal.address, proposal.proposed_name) == (
        "elena@elsewhere.example",
        "Elena Kowalski",
    )
    assert "P. N." not in people  # the user's address made nobody new
    assert store.email.merge_address("elena@elsewhere.example", people["Elena Kowalski"])
    assert store.email.address_proposals() == []
    assert "elena@elsewhere.example" in store.email.person_addresses(people["Elena Kowalski"])


def test_the_people_rollup_counts_mail(services: Services, tmp_path: Path) -> None:
    store = services.store
    import_mail(
        store,
        mail.write_mbox(tmp_path / "a.mbox", mail.messages()),
        services.capture.capture_thread,
    )
    rolled = {r.name: r for r in store.reports.people()}
    tom = rolled["Tom Adeyemi"]
    assert tom.emails == ["tom@example.com"]
    assert tom.messages_sent >= 3 and tom.messages_received >= 1
    assert tom.first_contact and tom.last_contact and tom.first_contact <= tom.last_contact
    assert tom.correspondents[0] == "Priya Natarajan"
    assert "CEO Office" not in rolled  # newsletters make nobody


def test_memo_people_json_gains_emails_and_counts(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    archive = mail.write_mbox(tmp_path / "a.mbox", mail.messages())
    extra = {"MEMO_PROVIDER": "offline", "MEMO_MY_ADDRESSES": "priya@example.com"}
    assert memo("capture", str(archive), extra_env=extra).code == 0
    listed = memo("people", "--json", extra_env=extra).json()
    tom = next(p for p in listed["people"] if p["name"] == "Tom Adeyemi")
    assert tom["emails"] == ["tom@example.com"] and tom["messages_sent"] >= 3
    assert tom["last_contact"] and tom["correspondents"]
    assert listed["proposed_merges"] == []


def test_a_person_page_shows_their_mail(services: Services, tmp_path: Path) -> None:
    import asyncio

    from memo_tui.ui.app import MemoApp
    from memo_tui.ui.screens.person import PersonPage

    store = services.store
    import_mail(
        store,
        mail.write_mbox(tmp_path / "a.mbox", mail.messages()),
        services.capture.capture_thread,
    )
    tom = next(p.id for p in store.people.all() if p.name == "Tom Adeyemi")
    app = MemoApp(services)

    async def run() -> None:
        async with app.run_test(size=(140, 36)) as pilot:
            await app.workers.wait_for_complete()
            app.go_to("person", tom)
            # The page loads in a worker of its own, which may start after the wait above.
            await until(pilot, lambda: "Email: tom@example.com" in shown(app), "the mail line")
            assert isinstance(app.screen, PersonPage)
            assert "writes most with Priya" in shown(app)

    asyncio.run(run())


def test_w_asks_about_a_proposed_address_and_links_it(services: Services, tmp_path: Path) -> None:
    import asyncio

    from memo_tui.ui import dialogs
    from memo_tui.ui.app import MemoApp

    store = services.store
    import_mail(
        store,
        mail.write_mbox(tmp_path / "a.mbox", mail.messages()),
        services.capture.capture_thread,
    )
    other = message("Elena Kowalski <elena@elsewhere.example>", mail.ME, "Hi", 3, "Hi.", "<e@x>")
    import_mail(
        store, mail.write_mbox(tmp_path / "b.mbox", [other]), services.capture.capture_thread
    )
    elena = next(p.id for p in store.people.all() if p.name == "Elena Kowalski")
    app = MemoApp(services)

    async def run() -> None:
        async with app.run_test(size=(120, 36)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.press("w")
            for _ in range(20):  # names first (if any wait), then the address
                for _ in range(100):
                    if isinstance(app.screen, dialogs.WhoIsIt):
                        break
                    await pilot.pause(0.05)
                assert isinstance(app.screen, dialogs.WhoIsIt)
                if "elena@elsewhere.example" in app.screen.mention:
                    await pilot.click(f"#person-{elena}")
                    break
                await pilot.click("#person-0")
            await app.workers.wait_for_complete()
            await pilot.pause()

    asyncio.run(run())
    assert "elena@elsewhere.example" in store.email.person_addresses(elena)
    assert store.email.address_proposals() == []


def test_an_address_kept_apart_is_not_proposed_again(services: Services, tmp_path: Path) -> None:
    store = services.store
    import_mail(
        store,
        mail.write_mbox(tmp_path / "a.mbox", mail.messages()),
        services.capture.capture_thread,
    )
    other = message("Elena Kowalski <elena@elsewhere.example>", mail.ME, "Hi", 3, "Hi.", "<e1@x>")
    import_mail(
        store, mail.write_mbox(tmp_path / "b.mbox", [other]), services.capture.capture_thread
    )
    [proposal] = store.email.address_proposals()
    assert store.email.merge_address(proposal.address, None)  # the user: not the same person
    again = message("Elena Kowalski <elena@elsewhere.example>", mail.ME, "Yo", 6, "Yo.", "<e2@x>")
    import_mail(
        store, mail.write_mbox(tmp_path / "c.mbox", [again]), services.capture.capture_thread
    )
    assert store.email.address_proposals() == []
    elena = next(p.id for p in store.people.all() if p.name == "Elena Kowalski")
    assert "elena@elsewhere.example" not in store.email.person_addresses(elena)


def test_the_name_others_give_your_address_does_not_make_it_theirs(
    services: Services, tmp_path: Path
) -> None:
    store = services.store
    import_mail(
        store,
        mail.write_mbox(tmp_path / "a.mbox", mail.messages()),
        services.capture.capture_thread,
    )
    odd = message(mail.TOM, '"Tom Adeyemi" <priya.n@gmail.example>', "Oops", 7, "Hm.", "<o@x>")
    import_mail(store, mail.write_mbox(tmp_path / "b.mbox", [odd]), services.capture.capture_thread)
    tom = next(p.id for p in store.people.all() if p.name == "Tom Adeyemi")
    assert "priya.n@gmail.example" not in store.email.person_addresses(tom)
