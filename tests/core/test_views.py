"""What the app's panes and pages show, read by core alone (no app running): the screens
draw these records and read nothing themselves."""

from __future__ import annotations

from memo_tui.core.services import Services
from memo_tui.core.views.lists import read_lists, read_status
from memo_tui.core.views.pages import (
    capture_view,
    concept_view,
    person_view,
    project_view,
    run_view,
)

# Every test here that reaches a store runs on SQLite and on PostgreSQL (conftest).
BOTH_STORES = True


def test_the_lists_hold_what_each_pane_lists(services: Services) -> None:
    store = services.store
    lists = read_lists(services)
    assert [c.id for c in lists.captures] == [c.id for c in store.captures.all()]
    assert {p.person_id for p in lists.people} == {p.id for p in store.people.all()}
    assert {name for _, name in lists.project_names} == {p.name for p in store.projects.all()}
    assert lists.owed == store.people.owed_counts()
    status = read_status(services)
    assert status.provider == "offline" and status.model == ""
    assert status.waiting_names == len(store.people.pending_mentions()) + len(
        store.email.address_proposals()
    )


def test_a_page_of_something_deleted_meanwhile_is_none(services: Services) -> None:
    assert capture_view(services, 9999) is None
    assert person_view(services, 9999) is None
    assert project_view(services, 9999) is None
    assert concept_view(services, 9999) is None
    assert run_view(services, 9999) is None


def test_a_meetings_page_holds_its_text_and_what_memo_took_from_it(services: Services) -> None:
    store = services.store
    capture = store.captures.all()[0]
    view = capture_view(services, capture.id)
    assert view is not None
    decisions, actions = store.captures.items([capture.id])
    assert view.source.decisions == decisions and view.source.actions == actions
    assert view.source.body == store.captures.source(capture.id)[1]
    assert view.summary  # the offline extractor writes one for every meeting


def test_a_persons_page_names_the_meeting_of_each_item_it_lists(services: Services) -> None:
    store = services.store
    for person in store.people.all():
        view = person_view(services, person.id)
        assert view is not None
        listed = [*view.person.open_action_items, *view.person.owed, *view.waiting]
        assert {item.capture_id for item in listed} <= set(view.meetings)


def test_a_projects_page_lists_only_its_meetings_decisions_and_items(services: Services) -> None:
    store = services.store
    project = store.projects.all()[0]
    view = project_view(services, project.id)
    assert view is not None
    mine = {c.id for c in view.project.captures}
    assert view.facts and {f.capture_id for f in view.facts} <= mine
    assert {f.fact_type for f in view.facts} <= {"decision", "action_item"}
