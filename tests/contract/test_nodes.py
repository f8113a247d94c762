"""Turns, events, entities and topics: idempotent writes, round trips, ordering, updates."""

from __future__ import annotations

from datetime import timedelta

import pytest

from simplemem_graph.models import Atom, EventPatch, EventStatus, GraphDelta, Participant, Quantity, Topic
from simplemem_graph.stores.queries import EntityQuery, EventQuery, RecallFilter, TurnQuery
from tests.contract.contract_data import T0, as_list, day, make_entity, make_event, make_turn, unit_vector
from tests.store_writes import write


def test_add_turns_returns_only_new_turns_and_never_edits_the_log(store, ns):
    first = [make_turn(ns, "s1:1", "hello", minutes=0), make_turn(ns, "s1:2", "we ship friday", minutes=1)]
    assert store.add_turns(first) == first

    edited = make_turn(ns, "s1:2", "EDITED", minutes=1)
    third = make_turn(ns, "s1:3", "ok", minutes=2)
    assert store.add_turns([edited, third]) == [third]
    assert [t.text for t in store.turns(ns, TurnQuery())] == ["hello", "we ship friday", "ok"]


def test_get_turns_orders_by_time_then_id_and_filters_by_id(store, ns):
    turns = [
        make_turn(ns, "b", "second at 5", minutes=5),
        make_turn(ns, "a", "first at 5", minutes=5),
        make_turn(ns, "c", "earliest", minutes=1),
    ]
    store.add_turns(turns)
    assert [t.id for t in store.turns(ns, TurnQuery())] == ["c", "a", "b"]
    assert [t.id for t in store.turns(ns, TurnQuery(ids=["b", "c", "missing"]))] == ["c", "b"]
    got = store.turns(ns, TurnQuery(ids=["c"]))[0]
    assert got == turns[2]
    assert got.time == T0 + timedelta(minutes=1)


def test_turns_are_scoped_to_their_namespace(store, ns, other_ns):
    store.add_turns([make_turn(ns, "s1:1", "mine")])
    assert store.add_turns([make_turn(other_ns, "s1:1", "theirs")]) != []
    assert [t.text for t in store.turns(ns, TurnQuery())] == ["mine"]
    assert [t.text for t in store.turns(other_ns, TurnQuery())] == ["theirs"]


def _rich_event(ns: str):
    return make_event(
        ns,
        "ev-1",
        "Li Na sends the report to 市场部 before 2026-03-10, unless Acme cancels, for $300",
        minutes=3,
        deadline=day(8),
        dates=[day(8), day(20)],
        action="send",
        object="report",
        participants=[
            Participant(name="Li Na", role="agent"),
            Participant(name="市场部", type="org", role="target"),
        ],
        location="Shanghai",
        quantities=[Quantity(value=300, unit="USD", surface="$300", kind="money")],
        negated=False,
        condition="unless Acme cancels",
        topic="report",
        keywords=["report", "市场部"],
        atoms=[Atom(kind="money", surface="$300", value="300 USD")],
        lang="en",
        is_task=True,
        importance=0.8,
        valid_from=T0,
        created_at=T0 + timedelta(seconds=5),
        embedding=as_list(unit_vector(1)),
    )


def test_event_round_trips_every_field(store, ns):
    event = _rich_event(ns)
    write(store, events=[event])
    [got] = store.events(ns, EventQuery(ids=["ev-1"]))
    assert got.model_dump(mode="json") == event.model_dump(mode="json")


def test_upsert_events_replaces_by_id(store, ns):
    write(store, events=[make_event(ns, "e1", "old text", embedding=as_list(unit_vector(1)))])
    write(store, events=[make_event(ns, "e1", "new text", status=EventStatus.DONE)])
    events = store.events(ns, EventQuery())
    assert [(e.id, e.text, e.status, e.embedding) for e in events] == [("e1", "new text", "done", None)]


def test_get_events_keeps_the_asked_order_and_drops_unknown_ids(store, ns, other_ns):
    write(store, events=[make_event(ns, f"e{i}", f"event {i}", minutes=i) for i in range(3)])
    write(store, events=[make_event(other_ns, "e9", "elsewhere")])
    assert [e.id for e in store.events(ns, EventQuery(ids=["e2", "nope", "e0", "e9"]))] == ["e2", "e0"]
    assert store.events(ns, EventQuery(ids=[])) == []


def test_list_events_is_oldest_first_and_filters_status_and_dates(store, ns):
    write(
        store,
        events=[
            make_event(ns, "late", "late", minutes=60 * 24 * 5),  # happens on day 5
            make_event(ns, "b", "b", minutes=0),
            make_event(ns, "a", "a", minutes=0),  # same time as b: id breaks the tie
            make_event(ns, "due", "due", minutes=1, deadline=day(10)),
            make_event(ns, "named", "named", minutes=2, dates=[day(-3)]),
            make_event(ns, "gone", "gone", minutes=3, status=EventStatus.ARCHIVED),
        ],
    )
    assert [e.id for e in store.events(ns, EventQuery())] == ["a", "b", "due", "named", "gone", "late"]
    assert [e.id for e in store.events(ns, EventQuery(filter=RecallFilter(statuses=["archived"])))] == [
        "gone"
    ]
    window = store.events(
        ns, EventQuery(filter=RecallFilter(statuses=None, time_from=day(4), time_to=day(10)))
    )
    assert [e.id for e in window] == ["due", "late"]
    assert [
        e.id for e in store.events(ns, EventQuery(filter=RecallFilter(statuses=None, time_to=day(-1))))
    ] == ["named"]
    assert [
        e.id for e in store.events(ns, EventQuery(filter=RecallFilter(statuses=["active"], time_from=day(6))))
    ] == ["due"]


def test_update_events_sets_fields_on_several_events(store, ns):
    write(store, events=[make_event(ns, f"e{i}", f"task {i}", minutes=i) for i in range(3)])
    store.apply_delta(
        GraphDelta(
            namespace=ns,
            event_patches=[
                EventPatch(
                    ids=["e0", "e2", "unknown"], fields={"status": "done", "tier": "cold", "valid_to": T0}
                )
            ],
        )
    )
    by_id = {e.id: e for e in store.events(ns, EventQuery())}
    assert (by_id["e0"].status, by_id["e0"].tier, by_id["e0"].valid_to) == ("done", "cold", T0)
    assert (by_id["e1"].status, by_id["e1"].tier, by_id["e1"].valid_to) == ("active", "hot", None)
    assert by_id["e2"].status == "done"
    assert store.events(ns, EventQuery(filter=RecallFilter(statuses=["done"]))) == [by_id["e0"], by_id["e2"]]


def test_update_events_refuses_an_unknown_field(store, ns):
    write(store, events=[make_event(ns, "e1", "task")])
    with pytest.raises(ValueError, match="no_such_field"):
        store.apply_delta(
            GraphDelta(namespace=ns, event_patches=[EventPatch(ids=["e1"], fields={"no_such_field": 1})])
        )


def test_touch_events_counts_accesses(store, ns):
    write(store, events=[make_event(ns, "e1", "one"), make_event(ns, "e2", "two", minutes=1)])
    store.apply_delta(GraphDelta(namespace=ns, touched=["e1"], touched_at=T0 + timedelta(days=1)))
    store.apply_delta(GraphDelta(namespace=ns, touched=["e1", "e2"], touched_at=T0 + timedelta(days=2)))
    e1, e2 = store.events(ns, EventQuery(ids=["e1", "e2"]))
    assert (e1.access_count, e1.last_accessed) == (2, T0 + timedelta(days=2))
    assert (e2.access_count, e2.last_accessed) == (1, T0 + timedelta(days=2))


def test_find_entities_matches_name_or_alias_case_insensitively(store, ns, other_ns):
    acme = make_entity(ns, "acme", "Acme Corp", "ACME", "艾克米")
    street = make_entity(ns, "street", "Hauptstraße", type="place")
    write(store, entities=[acme, street, make_entity(ns, "li", "Li Na", "Ms Li", type="person")])
    write(store, entities=[make_entity(other_ns, "acme", "Acme Corp")])
    assert store.entities(ns, EntityQuery(name="acme")) == [acme]
    assert store.entities(ns, EntityQuery(name="acme corp")) == [acme]
    assert store.entities(ns, EntityQuery(name="艾克米")) == [acme]
    assert store.entities(ns, EntityQuery(name="HAUPTSTRASSE")) == [street]  # casefold: ß == ss
    assert store.entities(ns, EntityQuery(name="Acme Co")) == []
    assert [e.id for e in store.entities(ns, EntityQuery())] == ["acme", "li", "street"]


def test_upsert_entities_replaces_aliases(store, ns):
    write(store, entities=[make_entity(ns, "li", "Li Na", "Ms Li")])
    write(store, entities=[make_entity(ns, "li", "Li Na", "Manager Li")])
    assert store.entities(ns, EntityQuery(name="ms li")) == []
    assert [e.aliases for e in store.entities(ns, EntityQuery(name="manager li"))] == [["Manager Li"]]


def test_topics_round_trip_and_replace(store, ns):
    topic = Topic(
        id="t1", namespace=ns, label="report", keywords=["report"], centroid=as_list(unit_vector(4))
    )
    write(store, topics=[topic, Topic(id="t0", namespace=ns, label="travel", size=3)])
    write(store, topics=[topic.model_copy(update={"size": 7})])
    topics = store.topics(ns)
    assert [(t.id, t.label, t.size) for t in topics] == [("t0", "travel", 3), ("t1", "report", 7)]
    assert topics[1].centroid == topic.centroid
