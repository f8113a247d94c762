"""The query objects and the one writer: what a read picks, what it refuses, and that every write
a delta carries (touches, feedback, pattern and meta deletes) lands in its one transaction."""

from __future__ import annotations

from datetime import timedelta

import pytest

from simplemem_graph.errors import InputError
from simplemem_graph.models import EventStatus, Feedback, GraphDelta, LinkKind, Pattern
from simplemem_graph.stores.queries import (
    EventQuery,
    FailedTurns,
    PendingCount,
    RecallFilter,
    SessionChains,
    TextQuery,
    TurnChange,
    TurnQuery,
)
from tests.contract.contract_data import T0, day, link, make_event, make_turn
from tests.store_writes import write


def _pattern(ns: str, pattern_id: str) -> Pattern:
    return Pattern(
        id=pattern_id,
        namespace=ns,
        text="Ana meets Bo on Mondays",
        kind="weekday",
        subject="Ana",
        action="meets",
        value="Monday",
        support=3,
        total=4,
        rate=0.75,
    )


def test_an_event_read_by_key_applies_the_filter_it_is_given(store, ns):
    write(
        store,
        events=[
            make_event(ns, "on", "kept"),
            make_event(ns, "off", "archived", status=EventStatus.ARCHIVED),
            make_event(ns, "late", "later", time=T0 + timedelta(days=9)),
        ],
    )
    every = store.events(ns, EventQuery(ids=["late", "off", "on", "missing"]))
    assert [e.id for e in every] == ["late", "off", "on"]  # order asked, unknown left out
    searched = store.events(ns, EventQuery(ids=["late", "off", "on"], filter=RecallFilter()))
    assert [e.id for e in searched] == ["late", "on"]
    dated = RecallFilter(None, time_to=day(1))
    assert [e.id for e in store.events(ns, EventQuery(ids=["late", "off", "on"], filter=dated))] == [
        "off",
        "on",
    ]
    sessions = store.events(ns, EventQuery(sessions=["s1"], filter=RecallFilter(["archived"])))
    assert [e.id for e in sessions] == ["off"]


def test_a_query_that_asks_two_things_is_refused(store, ns):
    with pytest.raises(InputError):
        store.events(ns, EventQuery(ids=["a"], sessions=["s1"]))
    with pytest.raises(InputError):
        store.change_turns(ns, TurnChange(retry=True, forget=["a"]))
    with pytest.raises(InputError):
        store.turns(None, TurnQuery())  # one namespace's read
    with pytest.raises(InputError):
        store.text_search(ns, TextQuery("x", 3, target="entities"))  # type: ignore[arg-type]
    with pytest.raises(InputError):
        store.walk(ns, EventQuery())  # type: ignore[arg-type]
    # Reads across namespaces take None.
    assert store.turns(None, PendingCount()) >= 0
    assert isinstance(store.turns(None, FailedTurns()), list)


def test_turn_changes_set_aside_retry_and_forget(store, ns):
    store.add_turns([make_turn(ns, "s1:1", "one"), make_turn(ns, "s1:2", "two", minutes=1)])
    assert store.change_turns(ns, TurnChange(failed={"s1:1": "boom"})) == 0
    assert [t[1:] for t in store.turns(ns, FailedTurns())] == [("s1:1", "boom")]
    assert [t.id for t in store.turns(ns, TurnQuery(pending=True))] == ["s1:2"]
    assert store.change_turns(ns, TurnChange(retry=True)) == 1
    assert store.turns(ns, PendingCount()) == 2
    assert store.change_turns(ns, TurnChange(forget=["s1:2", "missing"])) == 1
    assert [t.id for t in store.turns(ns, TurnQuery())] == ["s1:1"]
    assert store.change_turns(ns, TurnChange()) == 0


def test_one_delta_touches_records_feedback_and_deletes_patterns_and_meta(store, ns):
    write(store, events=[make_event(ns, "e1", "one"), make_event(ns, "e2", "two", minutes=1)])
    write(store, patterns=[_pattern(ns, "p1"), _pattern(ns, "p2")])
    write(store, links=[link(ns, LinkKind.EVIDENCED_BY, "p1", "e1")])
    key = f"contract-test/{ns}"
    store.apply_delta(GraphDelta(namespace=ns, meta={key: "on"}))
    feedback = Feedback(id="f1", namespace=ns, query="one?", at=T0, helpful=["e1"], shown=["e1", "e2"])
    store.apply_delta(
        GraphDelta(
            namespace=ns,
            touched=["e1", "e1", "missing"],
            touched_at=T0 + timedelta(days=1),
            feedback=[feedback],
            deleted_patterns=["p1"],
            deleted_meta=[key],
        )
    )
    e1, e2 = store.events(ns, EventQuery(ids=["e1", "e2"]))
    assert (e1.access_count, e1.last_accessed) == (1, T0 + timedelta(days=1))  # once per delta
    assert (e2.access_count, e2.last_accessed) == (0, None)
    assert [f.id for f in store.feedback(ns)] == ["f1"]
    assert [p.id for p in store.patterns(ns)] == ["p2"]
    assert store.links(ns, kinds=[LinkKind.EVIDENCED_BY]) == []
    assert store.get_meta(key) is None


def test_feedback_naming_an_unknown_event_writes_nothing_of_its_delta(store, ns):
    write(store, events=[make_event(ns, "e1", "one")])
    bad = Feedback(id="f1", namespace=ns, query="one?", at=T0, helpful=["e1", "ghost"])
    with pytest.raises(InputError, match="ghost"):
        store.apply_delta(
            GraphDelta(
                namespace=ns,
                events=[make_event(ns, "e2", "two")],
                touched=["e1"],
                touched_at=T0,
                feedback=[bad],
            )
        )
    assert [e.id for e in store.events(ns, EventQuery())] == ["e1"]
    assert store.events(ns, EventQuery(ids=["e1"]))[0].access_count == 0
    assert store.feedback(ns) == []


def test_session_chains_are_a_walk(store, ns):
    write(store, events=[make_event(ns, f"e{i}", f"step {i}", minutes=i) for i in range(3)])
    write(
        store,
        links=[
            link(ns, LinkKind.NEXT, "e0", "e1", scope="session:s1"),
            link(ns, LinkKind.NEXT, "e1", "e2", scope="session:s1"),
        ],
    )
    chains = store.walk(ns, SessionChains(["e0", "e2"], forward=True))
    assert {k: [e.id for e in v] for k, v in chains.items()} == {"e0": ["e1", "e2"], "e2": []}
    back = store.walk(ns, SessionChains(["e2"], forward=False, steps=1))
    assert [e.id for e in back["e2"]] == ["e1"]
