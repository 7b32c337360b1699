"""What a proposal the user must allow rests on. For meetings to link to a project: the lines
of each meeting that name it, so the user weighs what was said, not a count of mentions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from memo_tui.core.agents.spec import RunSpec
from memo_tui.core.safety import sanitize_line
from memo_tui.core.words import plural
from store import Store

LINES_SHOWN = 2  # of each meeting


@dataclass(frozen=True)
class Proposal:
    """A write the user must allow first (propose_backfill): what, how long they have, and
    the meetings it names with the lines that say why."""

    run_id: int
    agent: str
    call_id: str
    tool: str
    arguments: dict[str, Any]
    timeout_s: float
    evidence: tuple[Found, ...] = ()


@dataclass(frozen=True)
class Found:
    """A meeting a proposal names, with the lines that name its subject: (line number in the
    stored text, the line)."""

    capture_id: int
    title: str
    lines: tuple[tuple[int, str], ...]


def evidence(store: Store, spec: RunSpec, arguments: dict[str, Any]) -> tuple[Found, ...]:
    """The meetings of a proposal to link meetings to a project, each with its first lines
    that name the project (the run's project unless the proposal names another)."""
    ids, bad = meeting_ids(arguments)
    name = str(
        arguments.get("project") or (spec.entity_name if spec.entity_type == "project" else "")
    )
    found = [_found(store, capture_id, name) for capture_id in ids]
    return tuple(
        found + [Found(0, f"{given}: no meeting id (it will be refused)", ()) for given in bad]
    )


def meeting_ids(arguments: dict[str, Any]) -> tuple[list[int], list[str]]:
    """The meeting ids a proposal gives (whole numbers, or digits in a string), and what it
    gave that is no id ("3.0", True, "²"): shown to the user and linked alike."""
    ids, bad = [], []
    for given in arguments.get("capture_ids") or []:
        if isinstance(given, int) and not isinstance(given, bool):
            ids.append(given)
        elif isinstance(given, str) and given.strip().isascii() and given.strip().isdecimal():
            ids.append(int(given))
        else:
            bad.append(repr(given))
    return ids, bad


def _found(store: Store, capture_id: int, name: str) -> Found:
    summary = store.captures.get(capture_id)
    if summary is None:
        return Found(capture_id, f"meeting {capture_id} (not in the store)", ())
    return Found(capture_id, summary.title, naming(store.captures.text(capture_id), name))


def naming(text: str, name: str, most: int = LINES_SHOWN) -> tuple[tuple[int, str], ...]:
    """The first `most` lines of `text` that say `name` (any case), numbered from 1."""
    if not name.strip():
        return ()
    wanted = name.lower()
    found = [
        (n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if wanted in line.lower()
    ]
    return tuple(found[:most])


def described(
    proposal_arguments: dict[str, Any], found: Sequence[Found], width: int = 90
) -> list[str]:
    """The proposal as lines of text: each meeting, the lines that name the project, and why.
    Each is one line, sanitized: a title or a reason cannot pass for a line of evidence."""
    said = [f"Link {plural(len(found), 'meeting')} to the project:"]
    for meeting in found:
        said.append(f"- {sanitize_line(meeting.title)}")
        said += [f"    line {n}: {_shortened(sanitize_line(s), width)}" for n, s in meeting.lines]
    said.append(f"Why: {sanitize_line(str(proposal_arguments.get('reason', '')))}")
    return said


def _shortened(line: str, width: int) -> str:
    return line if len(line) <= width else line[: width - 1].rstrip() + "…"
