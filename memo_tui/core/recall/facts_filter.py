"""The facts feed's filters as a person gives them, read into a store `FactFilter`.

The Facts pane's boxes and `memo facts`'s options both come here, so a date, a name or a
status means the same in the app and on the command line. Names resolve as everywhere else
(`entities.resolve`: one clear match at 0.85 or better, or an alias the user confirmed); a
name that fits nobody, or could be several, is reported back, never guessed.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memo_tui.core.entities.resolve import Candidate, EntityType, Resolved, resolve
from store import FACT_TYPES, FactCursor, FactFilter

if TYPE_CHECKING:
    from store import Directory, FactRecord, Store

# Decisions hold, were replaced or were taken back; action items are open, done or dropped.
STATUSES = ("current", "superseded", "retracted", "open", "done", "dropped")


@dataclass(frozen=True)
class FactOptions:
    """The filters as given: dates and names as typed, blank when not given."""

    fact_types: tuple[str, ...] = ()
    since: str = ""
    until: str = ""
    person: str = ""
    project: str = ""
    client: str = ""
    status: str = ""
    current: bool = False  # leave out decisions later ones replaced


@dataclass(frozen=True)
class ReadFilter:
    """The store filter the options make, and why any of them was left out of it."""

    flt: FactFilter
    problems: tuple[str, ...] = ()


def read_filter(options: FactOptions, store: Store) -> ReadFilter:
    """The options as a store filter; what cannot be read (a date that is not one, a name
    that fits nobody or several, an unknown type or status) is left out and said why.
    The store is read only when a name is given."""
    problems: list[str] = []
    ids = _entity_ids(options, store, problems)
    since = _date(options.since, "since", problems)
    until = _date(options.until, "until", problems)
    if since and until and since > until:
        problems.append("since is after until: nothing can fall between")
    unknown = [t for t in options.fact_types if t not in FACT_TYPES]
    if unknown:
        problems.append(f"no fact type {unknown[0]!r}: one of {', '.join(FACT_TYPES)}")
    status = options.status.strip().lower()
    if status and status not in STATUSES:
        problems.append(f"no status {options.status!r}: one of {', '.join(STATUSES)}")
    flt = FactFilter(
        fact_types=tuple(t for t in options.fact_types if t in FACT_TYPES),
        since=since,
        until=until,
        person_ids=ids["person"],
        project_ids=ids["project"],
        client_ids=ids["client"],
        current=options.current,
        statuses=(status,) if status in STATUSES else (),
    )
    return ReadFilter(flt, tuple(problems))


def _date(typed: str, bound: str, problems: list[str]) -> str | None:
    """A typed YYYY-MM-DD as an ISO date; None (and a problem) when it is not one."""
    if not typed.strip():
        return None
    try:
        return dt.date.fromisoformat(typed.strip()).isoformat()
    except ValueError:
        problems.append(f"{bound} wants a date like 2026-03-01, not {typed.strip()!r}")
        return None


def _entity_ids(
    options: FactOptions, store: Store, problems: list[str]
) -> dict[EntityType, tuple[int, ...]]:
    """The id each given name resolves to (none for a name that does not resolve)."""
    typed: dict[EntityType, str] = {
        "person": options.person.strip(),
        "project": options.project.strip(),
        "client": options.client.strip(),
    }
    ids: dict[EntityType, tuple[int, ...]] = {kind: () for kind in typed}
    directory: Directory | None = None
    for kind, name in typed.items():
        if not name:
            continue
        if directory is None:
            directory = store.people.directory()
        found = resolve(name, directory, kind)
        if isinstance(found, Resolved):
            ids[kind] = (found.entity.id,)
        else:
            problems.append(_unresolved(kind, name, found.candidates))
    return ids


def _unresolved(kind: EntityType, name: str, candidates: tuple[Candidate, ...]) -> str:
    """Why a name filters nothing: nobody fits it, or it could be several."""
    if len(candidates) > 1:
        names = [c.name for c in candidates]
        either = f"{', '.join(names[:-1])} or {names[-1]}"
        return f"{kind} {name!r} could be {either}: give more of the name"
    if candidates:
        return f"no {kind} called {name!r} (did you mean {candidates[0].name}?)"
    return f"no {kind} called {name!r}"


def page_after(store: Store, flt: FactFilter, size: int, last: FactRecord) -> list[FactRecord]:
    """The feed's next page under `flt`: the `size` facts after `last`, newest first."""
    return store.facts.page(flt, size, FactCursor.after(last))
