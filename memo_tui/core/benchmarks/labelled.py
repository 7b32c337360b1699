"""A labelled meeting set (truth.jsonl, people.jsonl) as the benches read it.

The set's README defines the scoring: an extracted item matches a truth item when its text
holds an alternative from every keyword group; matching is greedy and one-to-one, decisions
against decisions, actions against actions. Names are judged by the cast's spellings.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any, Protocol, TypeVar

from memo_tui.core.capture import CaptureService
from memo_tui.core.capture.result import CaptureResult
from memo_tui.core.entities.names import normalize


class Described(Protocol):
    @property
    def description(self) -> str: ...


Item = TypeVar("Item", bound=Described)


def jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def require(data: Path, *names: str) -> None:
    """Refuse a folder that is not a labelled set, saying what it lacks."""
    missing = [name for name in names if not (data / name).is_file()]
    if missing:
        raise FileNotFoundError(
            f"no {' and '.join(missing)} in {data} (a set like ../shared/data/dev-meetings)"
        )


def meetings(data: Path) -> list[dict[str, Any]]:
    """The truth rows, oldest meeting first (the order a user would have captured them)."""
    return sorted(jsonl(data / "truth.jsonl"), key=lambda row: (row["date"], row["file"]))


def capture_all(
    service: CaptureService, data: Path, rows: list[dict[str, Any]], scratch: Path
) -> dict[str, CaptureResult]:
    """Capture every file from a copy of the folder (so chat logs pair with their
    meetings); what became of each file."""
    folder = scratch / "meetings"
    folder.mkdir()
    for row in rows:
        shutil.copy(data / row["file"], folder / row["file"])
    return {row["file"]: service.capture_file(folder / row["file"]) for row in rows}


class Cast:
    """Store names to cast members: by full name, other spellings, and nicknames that
    belong to one cast member only."""

    def __init__(self, people: list[dict[str, Any]]) -> None:
        self.names = [p["name"] for p in people]
        self.spelled: dict[str, str] = {}
        nicknames: dict[str, set[str]] = {}
        for person in people:
            for spelling in [person["name"], *person.get("aliases", [])]:
                self.spelled[normalize(spelling)] = person["name"]
            for nickname in person.get("nicknames", []):
                nicknames.setdefault(normalize(nickname), set()).add(person["name"])
        for nickname, owners in nicknames.items():
            if len(owners) == 1:
                self.spelled.setdefault(nickname, next(iter(owners)))
        self.first_names = {normalize(n).split()[0] for n in self.names} | set(nicknames)

    def member(self, name: str | None) -> str | None:
        return self.spelled.get(normalize(name)) if name else None

    def looks_like_one(self, name: str) -> bool:
        """A store person named only as a cast member is called ("Sam", "Libby")."""
        return normalize(name) in self.first_names


def hit(text: str, keywords: list[list[str]]) -> bool:
    lower = text.lower()
    return all(any(word in lower for word in group) for group in keywords)


def match(ours: list[Item], truth: list[dict[str, Any]]) -> list[tuple[Item, dict[str, Any]]]:
    """Greedy one-to-one keyword matching, as the dev set's README describes it."""
    used: set[int] = set()
    pairs = []
    for item in ours:
        for index, wanted in enumerate(truth):
            if index not in used and hit(item.description, wanted["keywords"]):
                used.add(index)
                pairs.append((item, wanted))
                break
    return pairs
