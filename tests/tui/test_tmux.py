"""The app in a real terminal (tmux): a cited answer streams in, and a transcript's escape
sequence is shown, not obeyed."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

# Each test process has its own tmux server. A session started just as the last one closed
# can still meet that server on its way out ("server exited unexpectedly"): it tries again.
SOCKET = f"memo-tests-{os.getpid()}"


def tmux(*args: str) -> str:
    command = ["tmux", "-L", SOCKET, *args]
    for attempt in range(5):
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if "server exited unexpectedly" not in done.stderr or attempt == 4:
            break
        time.sleep(0.2)
    done.check_returncode()
    return done.stdout


def screen(session: str) -> str:
    return tmux("capture-pane", "-p", "-t", session)


def wait_for(session: str, text: str, timeout: float = 60) -> str:
    """Poll the terminal until `text` shows (the app works in the background)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        shown = screen(session)
        if text in shown:
            return shown
        time.sleep(0.2)
    raise AssertionError(f"{text!r} never showed; the screen was:\n{screen(session)}")


def screen_after(session: str, before: str, timeout: float = 15) -> str:
    """The screen once a key has been acted on (a busy machine may take a while)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        shown = screen(session)
        if shown != before:
            time.sleep(0.3)  # let the rest of the page paint
            return screen(session)
        time.sleep(0.1)
    return screen(session)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[str]:
    """A tmux session running `memo --demo`; its name."""
    session = f"memo-test-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    env = f"MEMO_HOME={shlex.quote(str(tmp_path / 'home'))} MEMO_PROVIDER=offline"
    env += " MEMO_EMBED_DOWNLOAD=0"  # no model download from a test
    # Stale sizes exported by a shell or a CI runner must not pin the app at 80x24.
    stale = "COLUMNS=80 LINES=24"
    command = f"export {stale}; {env} {shlex.quote(sys.executable)} -m memo_tui --demo"
    tmux("new-session", "-d", "-s", session, "-x", "100", "-y", "30", command)
    # A detached session on a running server may get its default size: insist on 100x30.
    tmux("set-option", "-t", session, "window-size", "manual")
    tmux("resize-window", "-t", session, "-x", "100", "-y", "30")
    try:
        yield session
    finally:
        subprocess.run(
            ["tmux", "-L", SOCKET, "kill-session", "-t", session], capture_output=True, check=False
        )


def test_a_cited_answer_in_a_real_terminal(app: str) -> None:
    session = app
    wait_for(session, "Atlas migration retrospective")
    tmux("send-keys", "-t", session, "5")
    wait_for(session, "Ask your meetings")  # the pane is up and its input has the focus
    tmux("send-keys", "-t", session, "-l", "why did we pick Postgres?")
    tmux("send-keys", "-t", session, "Enter")
    # The sources list paints as soon as the facts are found, the answer after them: wait
    # for the answer, then look for both.
    wait_for(session, "[1] decision")
    shown = wait_for(session, "From your meetings")
    assert "Postgres" in shown and "[1] decision" in shown


def test_an_escape_sequence_in_a_transcript_is_shown_not_obeyed(app: str) -> None:
    session = app
    wait_for(session, "Atlas migration retrospective")
    tmux("send-keys", "-t", session, "/")  # filter the list down to the retro
    wait_for(session, "Filter: type to narrow")
    tmux("send-keys", "-t", session, "-l", "retro")
    deadline = time.monotonic() + 30
    while "Atlas kickoff" in screen(session) and time.monotonic() < deadline:
        time.sleep(0.1)  # until the list shows only the retro
    tmux("send-keys", "-t", session, "Enter")  # the filter is done
    opened = time.monotonic() + 60
    while "Back" not in screen(session) and time.monotonic() < opened:
        tmux("send-keys", "-t", session, "Enter")  # open the retro (again, on a busy machine)
        deadline = time.monotonic() + 5
        while "Back" not in screen(session) and time.monotonic() < deadline:
            time.sleep(0.2)
    wait_for(session, "Back")  # the capture page's footer (the list's has no "Back")
    shown = screen(session)
    for _ in range(12):  # a page at a time, down to transcript line 20
        if "]0;pwned" in shown:
            break
        tmux("send-keys", "-t", session, "PageDown")
        shown = screen_after(session, shown)
    assert "\u241b]0;pwned" in shown  # ESC made visible as a control picture
    assert tmux("display-message", "-p", "-t", session, "#{pane_title}").strip() != "pwned"


def test_a_bad_setting_ends_the_app_with_a_clear_message(tmp_path: Path) -> None:
    """The app paints before it reads the settings: a bad one still ends it, saying which."""
    session = f"memo-test-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    env = f"MEMO_HOME={shlex.quote(str(tmp_path / 'home'))} MEMO_BUSY_TIMEOUT_MS=-5"
    env += " MEMO_EMBED_DOWNLOAD=0"
    memo = f"{env} {shlex.quote(sys.executable)} -m memo_tui --demo"
    command = f"{memo}; echo exit=$?; sleep 60"  # the shell stays to show what happened
    tmux("new-session", "-d", "-s", session, "-x", "100", "-y", "30", command)
    try:
        shown = wait_for(session, "exit=")
        assert "exit=2" in shown and "bad configuration" in shown and "busy_timeout" in shown
    finally:
        subprocess.run(
            ["tmux", "-L", SOCKET, "kill-session", "-t", session], capture_output=True, check=False
        )
