"""People in the store: names that wait for the user, confirming and settling them, what a
person is owed, captures nobody attended, and a merge and its split with everything a person
has (sections, addresses, shared meetings). Each against a real store file."""

from __future__ import annotations

from sqlalchemy import text
from support.db import PROV, new_capture

from store import NewActionItem, NewDecision, Store

T = "2026-09-01T00:00:00+00:00"


def two_meetings(store: Store) -> tuple[int, int, dict[str, int]]:
    """Sam Chen, Sam Cheng and Priya meet; later Sam Chen alone. "Sam" waits on both days."""
    first = store.captures.write(
        new_capture(
            "a",
            occurred_at="2026-09-08",
            new_people=("Sam Chen", "Sam Cheng", "Priya Natarajan"),
            attendees=("Sam Chen", "Sam Cheng", "Priya Natarajan"),
            decisions=[
                NewDecision("Use Postgres", None, "sam", 1, 1, "a", pending=True),
                NewDecision("Ship it", None, "Priya", 1, 1, "a", person="Priya Natarajan"),
            ],
            action_items=[
                NewActionItem("Set up staging", "Sam", None, 2, 2, "b", pending=True),
                NewActionItem("Write docs", " SAM ", None, 2, 2, "b", pending=True),
                NewActionItem(
                    "Ask legal",
                    "Sam Cheng",
                    None,
                    3,
                    3,
                    "c",
                    person="Sam Cheng",
                    asked_by="priya natarajan",
                ),
                NewActionItem(  # asked of herself: not owed
                    "Own chore",
                    "Priya",
                    None,
                    3,
                    3,
                    "c",
                    person="Priya Natarajan",
                    asked_by="Priya Natarajan",
                ),
            ],
        )
    )
    people = {p.name: p.id for p in store.people.all()}
    later = store.captures.write(
        new_capture(
            "b",
            occurred_at="2026-10-01",
            attendees=(people["Sam Chen"],),
            decisions=[],
            action_items=[
                NewActionItem("Book room", "Sám", None, 1, 1, "a", pending=True, asked_by="P.N."),
            ],
        )
    )
    return first.capture_id, later.capture_id, people


def test_a_waiting_name_counts_its_action_items_and_decisions_in_any_case(store: Store) -> None:
    first, later, _ = two_meetings(store)
    [sam, accented] = store.people.pending_mentions()
    assert sam.mention.lower() == "sam"  # "Sam", " SAM " and "sam" are one name
    assert (sam.action_items, sam.decisions, sam.capture_ids) == (2, 1, [first])
    assert (accented.mention, accented.action_items, accented.decisions) == ("Sám", 1, 0)
    assert accented.capture_ids == [later]


def test_confirming_a_name_settles_its_facts_in_the_meetings_asked_or_everywhere(
    store: Store,
) -> None:
    first, later, people = two_meetings(store)
    chen, cheng = people["Sam Chen"], people["Sam Cheng"]
    in_later = store.people.confirm_alias("person", "sam", cheng, "ana", capture_ids=[later])
    assert (in_later.action_items, in_later.decisions) == (0, 0)  # "Sám" is another spelling
    assert "sam" not in {a.alias.lower() for a in store.people.directory().aliases}
    done = store.people.confirm_alias("person", " Sam ", chen, "ana", spellings=["Sám"])
    assert (done.action_items, done.decisions) == (3, 1)
    [alias] = store.people.directory().aliases
    assert (alias.alias, alias.entity_id, alias.confidence, alias.auto_resolved) == (
        "Sam",
        chen,
        1.0,
        False,
    )
    assert store.people.pending_mentions() == []
    again = store.people.settle_facts(None, [1, 2, 3], [1])  # nothing waits any more
    assert (again.action_items, again.decisions) == (0, 0)
    assert store.people.attendees([first, later]) == sorted(people.values())
    assert store.people.attendees([later]) == [chen]


def test_settling_single_facts_leaves_the_others_waiting(store: Store) -> None:
    two_meetings(store)
    done = store.people.settle_facts(None, [1, 3], [1, 2])  # item 3, decision 2: settled already
    assert (done.action_items, done.decisions) == (1, 1)
    [sam, _] = store.people.pending_mentions()
    assert (sam.action_items, sam.decisions) == (1, 0)


def test_who_settled_each_name_is_recorded_beside_who_captured_it(store: Store) -> None:
    """On a shared store, which user vouched for each link (settled_by), not only who
    captured the fact (triggered_by_user)."""
    _, _, people = two_meetings(store)
    store.people.settle_facts(people["Sam Cheng"], [1], [], user="ben")
    store.people.confirm_alias("person", "sam", people["Sam Chen"], "ana")

    def by(table: str) -> dict[int, tuple[str | None, str | None]]:
        with store.reader.connect() as conn:
            rows = conn.execute(
                text(f"SELECT id, settled_by, triggered_by_user FROM {table} ORDER BY id")
            )
            return {row[0]: (row[1], row[2]) for row in rows}

    items, decisions = by("action_items"), by("decisions")
    assert items[1] == ("ben", PROV.triggered_by_user)  # settled one by one
    assert items[2] == ("ana", PROV.triggered_by_user)  # by confirming "Sam"
    assert items[3] == (None, PROV.triggered_by_user)  # settled as it was captured
    assert items[5][0] is None  # "Sám" still waits: nobody has said
    assert (decisions[1][0], decisions[2][0]) == ("ana", None)


def test_a_person_is_owed_what_they_asked_for_by_name_or_alias_in_any_case(store: Store) -> None:
    first, later, people = two_meetings(store)
    priya = people["Priya Natarajan"]
    store.people.confirm_alias("person", "p.n.", priya, "ana")
    page = store.people.get(priya)
    assert page is not None
    assert [a.description for a in page.owed] == ["Book room", "Ask legal"]  # newest first
    assert [a.description for a in page.open_action_items] == ["Own chore"]  # not owed to her
    assert [d.description for d in page.decisions] == ["Ship it"]
    assert [m.id for m in page.meetings] == [first]
    assert set(page.captures) == {first, later}
    assert page.owed[1].person_name == "Sam Cheng"
    assert store.people.owed_counts() == {priya: 2}


def test_captures_nobody_attended_are_listed_oldest_meeting_first(store: Store) -> None:
    undated = store.captures.write(new_capture("u", occurred_at=None))  # captured 2026-09-08
    later = store.captures.write(new_capture("l", occurred_at="2026-10-01"))
    earlier = store.captures.write(new_capture("e", occurred_at="2026-01-01"))
    store.captures.write(new_capture("x", new_people=("Ana",), attendees=("Ana",)))
    assert store.people.unlinked_captures() == [
        earlier.capture_id,
        undated.capture_id,
        later.capture_id,
    ]


def by_name(store: Store) -> dict[str, list[tuple[object, ...]]]:
    """Every row a merge moves, by people's names (a split person comes back with a new id)."""
    queries = {
        "people": "SELECT name, email, created_at FROM people",
        "owners": "SELECT a.id, p.name FROM action_items a "
        "LEFT JOIN people p ON p.id = a.person_id",
        "deciders": "SELECT d.id, p.name FROM decisions d LEFT JOIN people p ON p.id = d.person_id",
        "meetings": "SELECT c.capture_id, p.name FROM capture_people c JOIN people p "
        "ON p.id = c.person_id",
        "aliases": "SELECT a.alias, p.name, a.confidence, a.auto_resolved FROM entity_aliases a "
        "LEFT JOIN people p ON p.id = a.entity_id",
        "addresses": "SELECT a.address, p.name, q.name FROM person_addresses a "
        "LEFT JOIN people p ON p.id = a.person_id "
        "LEFT JOIN people q ON q.id = a.proposed_person_id",
        "sections": "SELECT p.name, s.key, s.body, s.edited_by FROM sections s "
        "JOIN people p ON p.id = s.entity_id WHERE s.entity_type = 'person'",
    }
    with store.reader.connect() as conn:
        return {k: sorted(tuple(r) for r in conn.execute(text(q))) for k, q in queries.items()}


def test_a_merge_moves_sections_addresses_and_meetings_and_a_split_puts_them_back(
    store: Store,
) -> None:
    first, later, people = two_meetings(store)
    chen, cheng = people["Sam Chen"], people["Sam Cheng"]
    store.people.cache_alias("person", "S. Cheng", cheng, 0.8)
    store.sections.write("person", chen, "role", "Chen's role", [], "agent")
    store.sections.write("person", cheng, "role", "Cheng's role", [1], "user")
    store.sections.write("person", cheng, "history", "Cheng's history", [], "agent")
    with store.writing() as conn:
        conn.execute(
            text(
                "INSERT INTO person_addresses (address, person_id, proposed_person_id, "
                "created_at) VALUES ('cheng@x', :c, NULL, :t), ('maybe@x', NULL, :c, :t), "
                "('chen@x', :s, :c, :t)"
            ),
            {"c": cheng, "s": chen, "t": T},
        )
    later_only = store.captures.write(new_capture("c", attendees=(cheng,)))
    before = by_name(store)

    done = store.people.merge(cheng, chen, "ana")
    assert (done.kept_id, done.merged_name) == (chen, "Sam Cheng")
    assert (done.decisions, done.action_items, done.meetings) == (0, 1, 2)
    merged = by_name(store)
    assert "Sam Cheng" not in {p[0] for p in merged["people"]}
    assert ("Sam Cheng", "Sam Chen", 1.0, 0) in merged["aliases"]  # the user's word
    assert ("S. Cheng", "Sam Chen", 0.8, 1) in merged["aliases"]
    assert merged["sections"] == [
        ("Sam Chen", "history", "Cheng's history", "agent"),
        ("Sam Chen", "role", "Chen's role", "agent"),  # the kept person's own stays
    ]
    assert merged["addresses"] == [
        ("chen@x", "Sam Chen", "Sam Chen"),
        ("cheng@x", "Sam Chen", None),
        ("maybe@x", None, "Sam Chen"),
    ]
    assert sorted(m for m, p in merged["meetings"] if p == "Sam Chen") == sorted(
        [first, later, later_only.capture_id]
    )
    assert [m.id for m in store.people.merges_into(chen)] == [done.id]

    store.people.split(done.id)
    assert by_name(store) == before
    assert store.people.merges_into(chen) == []


def test_a_split_after_a_shared_meeting_was_deleted_puts_back_the_rest(store: Store) -> None:
    first, later, people = two_meetings(store)
    chen, cheng = people["Sam Chen"], people["Sam Cheng"]
    only_cheng = store.captures.write(new_capture("c", attendees=(cheng,))).capture_id
    done = store.people.merge(cheng, chen, "ana")
    assert store.captures.delete(first)  # a meeting both attended, gone since

    back = store.people.split(done.id)
    meetings = by_name(store)["meetings"]
    assert sorted(m for m, p in meetings if p == "Sam Cheng") == [only_cheng]
    assert sorted(m for m, p in meetings if p == "Sam Chen") == [later]
    assert back != cheng and store.people.get(back) is not None
