"""The facts filters as given (the Facts pane's boxes, `memo facts`'s options) read into a
store filter, on a copy of the demo store."""

from __future__ import annotations

import pytest

from memo_tui.core.recall.facts_filter import FactOptions, ReadFilter, read_filter
from memo_tui.core.services import Services
from store import FactFilter, Store

# Every test here that reaches a store runs on SQLite and on PostgreSQL (conftest).
BOTH_STORES = True


def read(services: Services, **options: object) -> ReadFilter:
    return read_filter(FactOptions(**options), services.store)  # type: ignore[arg-type]


def entity_id(services: Services, name: str) -> int:
    directory = services.store.people.directory()
    every = [*directory.people, *directory.projects, *directory.clients]
    return next(e.id for e in every if e.name == name)


def test_names_resolve_as_everywhere_and_dates_are_read(services: Services) -> None:
    found = read(
        services,
        fact_types=("decision",),
        since=" 2026-09-01 ",
        until="2026-10-31",
        person="cheng",  # fuzzy: Sam Cheng, not Sam Chen
        project="atlas",
        client="Halvorsen",
        status="Open",
        current=True,
    )
    assert found.problems == ()
    assert found.flt == FactFilter(
        fact_types=("decision",),
        since="2026-09-01",
        until="2026-10-31",
        person_ids=(entity_id(services, "Sam Cheng"),),
        project_ids=(entity_id(services, "Atlas"),),
        client_ids=(entity_id(services, "Halvorsen Freight"),),
        current=True,
        statuses=("open",),
    )
    assert read(services) == ReadFilter(FactFilter())


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"person": "Sam"}, "person 'Sam' could be Sam Chen or Sam Cheng: give more of the name"),
        ({"person": "Zed"}, "no person called 'Zed'"),
        ({"project": "Atlantis"}, "no project called 'Atlantis' (did you mean Atlas?)"),
        ({"since": "2026-13-01"}, "since wants a date like 2026-03-01, not '2026-13-01'"),
        ({"until": "next week"}, "until wants a date like 2026-03-01, not 'next week'"),
        ({"fact_types": ("gossip",)}, "no fact type 'gossip'"),
        ({"status": "finished"}, "no status 'finished': one of current, superseded"),
    ],
)
def test_what_cannot_be_read_is_left_out_and_said(
    services: Services, options: dict[str, object], problem: str
) -> None:
    found = read(services, **{"since": "2026-09-01", **options})
    [said] = found.problems
    assert said.startswith(problem)
    kept = "since" not in options
    assert found.flt == FactFilter(since="2026-09-01" if kept else None)  # the rest applies


def test_since_after_until_is_kept_and_said(services: Services) -> None:
    found = read(services, since="2026-10-01", until="2026-09-01")
    assert found.problems == ("since is after until: nothing can fall between",)
    assert found.flt == FactFilter(since="2026-10-01", until="2026-09-01")  # shows nothing


def test_the_store_is_read_only_for_a_name(services: Services) -> None:
    class NoStore:
        def __getattr__(self, name: str) -> None:  # store.people, store.facts, ...
            raise AssertionError(f"read the store ({name}) without a name to look up")

    no_store: Store = NoStore()  # type: ignore[assignment]
    assert read_filter(FactOptions(since="2026-09-01", status="done"), no_store).flt == (
        FactFilter(since="2026-09-01", statuses=("done",))
    )
