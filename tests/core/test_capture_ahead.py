"""Work ahead in a worker process (capture.ahead) and the mail import that uses it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest
from support.ahead_work import die_at_five, square_or_fail

from memo_tui.core.capture.ahead import LEAST, worked_ahead


def test_work_is_done_in_another_process_and_comes_back_in_order() -> None:
    items = [(n, n) for n in range(40)]
    done = list(worked_ahead(items, square_or_fail, len(items)))
    assert [a.item for a in done] == list(range(40))
    assert [a.result for a in done if a.item != 13] == [n * n for n in range(40) if n != 13]
    [failed] = [a for a in done if a.item == 13]
    # What raised in the worker is done again here, where its error is handled as ever.
    assert failed.result is None and failed.error is None and failed.done() is None


def test_few_items_or_no_work_run_here() -> None:
    few = [(n, n) for n in range(LEAST - 1)]
    assert all(a.result is None for a in worked_ahead(few, square_or_fail, len(few)))
    many = [(n, n) for n in range(LEAST * 2)]
    assert all(a.result is None for a in worked_ahead(many, None, len(many)))


def test_a_worker_that_dies_leaves_the_rest_to_this_process() -> None:
    items = [(n, n) for n in range(LEAST)]
    done = list(worked_ahead(items, die_at_five, len(items)))
    assert [a.item for a in done] == list(range(LEAST))  # nothing lost, nothing twice
    assert [a.result for a in done[:5]] == [0, 1, 4, 9, 16]
    assert isinstance(done[5].error, BrokenProcessPool)  # what it died on: failed, not rerun
    with pytest.raises(BrokenProcessPool):
        done[5].done()
    assert all(a.result is None and a.error is None for a in done[6:])  # done here instead


def test_no_worker_process_means_the_work_is_done_here(monkeypatch: pytest.MonkeyPatch) -> None:
    from memo_tui.core.capture import ahead

    def refused(*args: object, **kwargs: object) -> None:
        raise OSError("no semaphores here")

    monkeypatch.setattr(ahead, "ProcessPoolExecutor", refused)
    items = [(n, n) for n in range(LEAST)]
    done = list(worked_ahead(items, square_or_fail, len(items)))
    assert [a.item for a in done] == list(range(LEAST))
    assert all(a.result is None and a.error is None for a in done)


@pytest.mark.slow
def test_the_worker_leaves_when_its_parent_is_killed(tmp_path: Path) -> None:
    """kill -9 of the importing process must not leave a worker waiting forever."""
    script = textwrap.dedent(
        """
        import sys
        from support.ahead_work import slow_pid
        from memo_tui.core.capture.ahead import LEAST, worked_ahead
        items = [(n, n) for n in range(LEAST * 4)]
        for ahead in worked_ahead(items, slow_pid, len(items)):
            print(ahead.result, flush=True)
        """
    )
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), str(root / "tests")])}
    parent = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=env
    )
    assert parent.stdout is not None
    worker = int(parent.stdout.readline())
    assert worker != parent.pid
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _alive(worker):
        time.sleep(0.1)
    assert not _alive(worker), "the worker outlived its parent"


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().split(") ")[1][0] != "Z"  # a zombie is gone, unreaped
    except FileNotFoundError:
        return False


def test_an_import_prepared_ahead_stores_what_one_without_does(tmp_path: Path) -> None:
    from memo_tui.core.benchmarks.email import write_mbox
    from memo_tui.core.email.importer import import_mail
    from memo_tui.core.services import build_services
    from memo_tui.settings import Settings

    mbox = tmp_path / "team.mbox"
    write_mbox(mbox, 300)
    stored = []
    for ahead in (False, True):
        services = build_services(Settings(provider="offline"), tmp_path / f"{ahead}.db")
        capture = services.capture
        given: list[bool] = []

        def write(*args: Any, given: list[bool] = given, capture: Any = capture) -> Any:
            given.append(args[4] is not None)  # was this thread prepared by the worker?
            return capture.capture_thread(*args)

        summary = import_mail(
            services.store, mbox, write, prepare=capture.thread_preparer if ahead else None
        )
        assert summary.threads >= LEAST and not summary.failed
        assert all(given) if ahead else not any(given)
        store = services.store
        ids = sorted(summary.capture_ids)
        stored.append(
            (
                [(d.description, d.person_name, d.verified) for d in store.captures.decisions(ids)],
                [
                    (a.description, a.person_name, a.due_date)
                    for a in store.captures.action_items(ids)
                ],
                sorted(p.name for p in store.people.all()),
                [(f.fact_type, f.text, f.line_start) for f in store.facts.all()],
            )
        )
        services.close()
    assert stored[0] == stored[1]
    assert stored[0][0] and stored[0][1]


def test_stopping_early_stops_the_worker() -> None:
    """ctrl+x in the middle of an import closes the items: the worker goes with them."""
    import multiprocessing

    items = [(n, n) for n in range(LEAST * 4)]
    ahead = worked_ahead(items, square_or_fail, len(items))
    taken = [next(ahead).result for _ in range(3)]
    assert taken == [0, 1, 4] and multiprocessing.active_children()
    ahead.close()  # what `break` out of the import's loop does
    assert multiprocessing.active_children() == []
