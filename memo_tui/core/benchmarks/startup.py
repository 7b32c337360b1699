"""`memo bench startup`: time to the app's first paint, against importing Textual alone.

Every run is a fresh interpreter under a pseudo-terminal (the app opens only on a TTY). With
MEMO_STARTUP_PROBE naming a file, the app writes `painted <time.time()>` there once its first
screen is drawn, `ready <time>` once the store is open and its lists are shown, and
`feed <time>` once the Facts pane's first page (a keyset page of the facts view) is in, then
exits;
a run's figures are from just before the spawn to those instants. The
baseline, `python -c "import textual.app"`, is timed from the spawn to its exit. Children get
the caller's environment with a scratch MEMO_HOME and the offline provider, so seeding the
demo never calls a model and no user store is opened.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from store import Store

Progress = Callable[[str], None]

TARGET_S = 1.0  # the goal for time to first paint
PROBE_ENV = "MEMO_STARTUP_PROBE"
ROWS, COLUMNS = 30, 100
TIMEOUT_S = 60.0
BASELINE = "import textual.app"
_ESCAPES = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-_])")


class StartupFailed(RuntimeError):
    """A run did not reach its first paint (or, for the baseline, did not exit cleanly)."""


@dataclass
class Timing:
    """Seconds from spawn to first paint (to exit, for the baseline), one sample per run."""

    label: str
    command: str
    samples: list[float] = field(default_factory=list)
    ready: list[float] = field(default_factory=list)  # to the lists shown (apps only)
    feed: list[float] = field(default_factory=list)  # to the facts feed's first page

    @property
    def ready_median(self) -> float:
        return statistics.median(self.ready) if self.ready else 0.0

    @property
    def feed_median(self) -> float:
        return statistics.median(self.feed) if self.feed else 0.0

    @property
    def median(self) -> float:
        return statistics.median(self.samples) if self.samples else 0.0

    @property
    def worst(self) -> float:
        return max(self.samples, default=0.0)

    def as_dict(self) -> dict[str, object]:
        return {
            "label": self.label,
            "command": self.command,
            "runs": len(self.samples),
            "median_s": round(self.median, 3),
            "max_s": round(self.worst, 3),
            "samples_s": [round(s, 3) for s in self.samples],
            **({"ready_median_s": round(self.ready_median, 3)} if self.ready else {}),
            **({"feed_median_s": round(self.feed_median, 3)} if self.feed else {}),
        }


@dataclass
class StartupBench:
    runs: int
    facts: int
    baseline: Timing
    apps: dict[str, Timing]  # "demo", "large"
    build_seconds: float = 0.0

    def met(self, key: str) -> bool:
        return self.apps[key].median < TARGET_S

    def as_dict(self) -> dict[str, object]:
        return {
            "runs": self.runs,
            "facts": self.facts,
            "target_s": TARGET_S,
            "terminal": f"{COLUMNS}x{ROWS}",
            "build_seconds": round(self.build_seconds, 1),
            "baseline": self.baseline.as_dict(),
            **{
                key: timing.as_dict()
                | {
                    "over_baseline_s": round(timing.median - self.baseline.median, 3),
                    "target_met": self.met(key),
                }
                for key, timing in self.apps.items()
            },
        }


def child_env(home: Path) -> dict[str, str]:
    """The caller's environment with a scratch MEMO_HOME, the offline provider, a real TERM."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("MEMO_DB", "MEMO_DEMO_DB", "MEMO_CONFIG", "COLUMNS", "LINES", PROBE_ENV)
    }
    env |= {"MEMO_HOME": str(home), "MEMO_PROVIDER": "offline"}
    if env.get("TERM", "dumb") == "dumb":
        env["TERM"] = "xterm-256color"
    return env


def _spawn(argv: list[str], env: dict[str, str]) -> tuple[int, int]:
    """Start argv on a new pseudo-terminal of ROWS x COLUMNS; (pid, the terminal's master fd)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    pid = os.fork()
    if pid == 0:  # the child: straight to exec, never back into the caller's code
        try:
            os.close(master)
            os.login_tty(slave)  # session leader, controlling tty, stdin/stdout/stderr
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    os.close(slave)
    return pid, master


def _drain(master: int, seen: bytearray, wait_s: float) -> None:
    """Read what the child wrote (so it never blocks on a full terminal), for up to wait_s."""
    ready, _, _ = select.select([master], [], [], max(wait_s, 0.0))
    if ready:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every writer has gone
            chunk = b""
        del seen[: max(0, len(seen) + len(chunk) - 4096)]  # keep the tail for errors
        seen += chunk


def _tail(seen: bytearray) -> str:
    text = _ESCAPES.sub("", seen.decode("utf-8", "replace"))
    return " ".join(text.split())[-600:]


STAMPS = ("painted", "ready", "feed")  # what the app tells the probe, in order


def time_run(
    argv: list[str], env: dict[str, str], probe: Path | None, timeout_s: float
) -> dict[str, float]:
    """Seconds from spawning `argv` to each of the app's STAMPS (without a probe: to its
    exit, as "painted")."""
    if probe is not None:
        probe.unlink(missing_ok=True)
        env = env | {PROBE_ENV: str(probe)}
    seen = bytearray()
    started = time.time()
    pid, master = _spawn(argv, env)
    try:
        code = None
        while code is None:
            if time.time() - started > timeout_s:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                raise StartupFailed(
                    f"{' '.join(argv[1:])}: no first paint after {timeout_s:g} s "
                    f"(does the app honour {PROBE_ENV}?) {_tail(seen)}"
                )
            _drain(master, seen, 0.05)
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                code = os.waitstatus_to_exitcode(status)
        ended = time.time()
    finally:
        os.close(master)
    if code != 0:
        raise StartupFailed(f"{' '.join(argv[1:])} exited with {code}: {_tail(seen)}")
    if probe is None:
        return {"painted": ended - started}
    lines = probe.read_text(encoding="utf-8").splitlines() if probe.is_file() else []
    stamps = dict(line.split() for line in lines if line.strip())
    if any(stamp not in stamps for stamp in STAMPS):
        raise StartupFailed(f"{' '.join(argv[1:])} exited without writing {PROBE_ENV}")
    return {stamp: float(stamps[stamp]) - started for stamp in STAMPS}


def seed_demo(argv: list[str], env: dict[str, str], timeout_s: float) -> None:
    """Run `memo --demo` piped (not a TTY), which seeds the demo store and prints it."""
    done = subprocess.run(
        [*argv, "--demo"], env=env, capture_output=True, text=True, timeout=timeout_s
    )
    if done.returncode != 0:
        raise StartupFailed(f"seeding the demo store failed: {done.stderr.strip()[-600:]}")


def build_large_store(path: Path, facts: int, say: Progress) -> float:
    """The synthetic store `memo bench search` times, of `facts` facts; seconds it took."""
    from memo_tui.core.benchmarks.search_corpus import build_store

    started = time.perf_counter()
    with Store(path) as store:
        build_store(store, facts, seed=0, progress=say)
    return time.perf_counter() - started


def run(
    facts: int = 100_000,
    runs: int = 5,
    progress: Progress | None = None,
    timeout_s: float = TIMEOUT_S,
) -> StartupBench:
    """Seed the demo store and build a `facts`-fact store (untimed), then time `runs` starts
    of the baseline, the demo and the large store, interleaved so load spikes hit all three."""
    if facts < 1 or runs < 1:
        raise ValueError("facts and runs must be positive")
    say = progress or (lambda _: None)
    memo = [sys.executable, "-m", "memo_tui"]
    with tempfile.TemporaryDirectory(prefix="memo-bench-startup-") as scratch:
        home, large = Path(scratch) / "home", Path(scratch) / "large.db"
        env = child_env(home)
        say("seeding the demo store")
        seed_demo(memo, env, max(timeout_s, 600.0))
        say(f"{facts:,} facts: building the store")
        built = build_large_store(large, facts, say)
        baseline = Timing(f"python -c '{BASELINE}'", f"python -c '{BASELINE}'")
        apps = {
            "demo": Timing("memo --demo (demo store)", "memo --demo"),
            "large": Timing(f"memo --db ({facts:,} facts)", f"memo --db <{facts:,}-fact store>"),
        }
        probe = Path(scratch) / "painted"
        starts = [
            (baseline, [sys.executable, "-c", BASELINE], None),
            (apps["demo"], [*memo, "--demo"], probe),
            (apps["large"], [*memo, "--db", str(large)], probe),
        ]
        for n in range(1, runs + 1):
            say(f"run {n}/{runs}")
            for timing, argv, painted in starts:
                stamps = time_run(argv, env, painted, timeout_s)
                timing.samples.append(stamps["painted"])
                if "ready" in stamps:
                    timing.ready.append(stamps["ready"])
                    timing.feed.append(stamps["feed"])
    return StartupBench(runs, facts, baseline, apps, built)


def format_report(bench: StartupBench) -> str:
    """The figures as a table, then whether each start met the target."""

    def line(label: str, cells: list[str]) -> str:
        return f"  {label:<36}" + "".join(f"{cell:>12}" for cell in cells)

    rows = [bench.baseline, *bench.apps.values()]
    lines = [
        f"time to first paint, {bench.runs} runs each, {COLUMNS}x{ROWS} pseudo-terminal "
        f"({bench.facts:,}-fact store built in {bench.build_seconds:.1f} s, untimed)",
        "",
        line("", ["paint s", "max s", "+ baseline", "lists s", "facts s"]),
    ]
    for timing in rows:
        extra = timing.median - bench.baseline.median
        over = "" if timing is bench.baseline else f"{extra:+.3f}"
        ready = f"{timing.ready_median:.3f}" if timing.ready else ""
        feed = f"{timing.feed_median:.3f}" if timing.feed else ""
        cells = [f"{timing.median:.3f}", f"{timing.worst:.3f}", over, ready, feed]
        lines.append(line(timing.label, cells))
    lines.append("")
    lines.append(
        "paint: the first screen drawn (median); lists: the store open and its lists shown; "
        "facts: the Facts pane's first page in"
    )
    lines.append("")
    for key, timing in bench.apps.items():
        verdict = "met" if bench.met(key) else "missed"
        lines.append(
            f"target: first paint under {TARGET_S:g} s, {timing.command}: "
            f"{timing.median:.3f} s median, {verdict}"
        )
    return "\n".join(lines)
